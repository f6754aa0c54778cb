"""A server's history of finished, rated matches for ``bench.store`` to query: planned once from a seed,
then written either hand by hand through the Store's own calls (``through_store``: create_table …
finish_hand … finish_match, as the bot writes them) or in bulk (``in_bulk``: the same rows in a few
one transaction of bulk inserts (COPY on PostgreSQL), the running totals derived by ``Store.rebuild_totals`` and the
ratings moved in order here). Both give the same database, row for row (tests/data/test_history.py);
the bulk way stores 100,000 hands in seconds instead of minutes.

The clock is called at the same moments in both (a table's creation, its match's start, each hand's
start and end, the match's end), so a ticking clock gives both the same timestamps.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from data import SeatRecord
from data.records import dumps
from data.store import Store
from ranking import is_rated
from ranking.places import placements
from ranking.rating import Rating, new_rating, rate, shown

ITEMS = ("門清", "自摸", "莊家", "平胡", "獨聽", "碰碰胡", "混一色", "三元牌", "清一色", "大三元", "字一色")
GUILD = 1
RULES = "taiwan16"
OPTIONS = {"table": {"base": 300, "tai": 100}}


@dataclass(frozen=True, slots=True)
class PlannedHand:
    header: dict
    result: dict
    deltas: tuple[int, ...]
    winner: int | None
    loser: int | None
    total: int
    called: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class PlannedMatch:
    channel: int
    users: tuple[int, ...]
    hands: tuple[PlannedHand, ...]

    @property
    def scores(self) -> list[int]:
        return [sum(hand.deltas[seat] for hand in self.hands) for seat in range(4)]


def plan(hands: int, players: int, seed: int) -> list[PlannedMatch]:
    """Matches of four hands among ``players`` people until ``hands`` hands are planned."""
    rng = random.Random(seed)
    matches: list[PlannedMatch] = []
    stored = 0
    while stored < hands:
        users = tuple(rng.sample(range(1, players + 1), 4))
        planned = []
        for number in range(1, 5):
            header = {"dealer": (number - 1) % 4, "dealer_streak": rng.choice((0, 0, 1, 2))}
            winner = rng.randrange(4) if rng.random() < 0.8 else None
            loser = None if winner is None or rng.random() < 0.35 else (winner + rng.randrange(1, 4)) % 4
            items = rng.sample(ITEMS[:6], 2) + ([rng.choice(ITEMS[6:])] if rng.random() < 0.2 else [])
            total = rng.randint(1, 16) if winner is not None else 0
            deltas = [0, 0, 0, 0]
            if winner is not None:
                pay = 300 + 100 * total
                payers = [loser] if loser is not None else [s for s in range(4) if s != winner]
                for payer in payers:
                    deltas[payer] -= pay
                    deltas[winner] += pay
            result = {"items": [[i, 1] for i in items]} if winner is not None else {}
            called = tuple(rng.random() < 0.4 for _ in range(4))
            planned.append(PlannedHand(header, result, tuple(deltas), winner, loser, total, called))
            stored += 1
        matches.append(PlannedMatch(len(matches) + 1, users, tuple(planned)))
    return matches


def _seats(match: PlannedMatch) -> list[SeatRecord]:
    return [SeatRecord(i, u, f"player {u}") for i, u in enumerate(match.users)]


async def through_store(store: Store, matches: Sequence[PlannedMatch]) -> None:
    """Each match as the bot stores one: a transaction a call, about 70 statements a match's hand."""
    for match in matches:
        table = await store.create_table(
            guild_id=GUILD, channel_id=match.channel, host_id=match.users[0], rules=RULES, rounds=1,
            options=OPTIONS, password_hash=None, ranking="rated",
        )  # fmt: skip
        await store.set_seats(table.id, _seats(match))
        await store.start_match(table.id, {"rules": RULES})
        for number, hand in enumerate(match.hands, start=1):
            hand_id = await store.start_hand(table.id, number, hand.header)
            await store.finish_hand(
                hand_id, result=hand.result, deltas=hand.deltas, winner=hand.winner, loser=hand.loser,
                self_drawn=hand.winner is not None and hand.loser is None, total=hand.total, called=hand.called,
            )  # fmt: skip
        await store.finish_match(table.id, match.scores)


async def in_bulk(store: Store, matches: Sequence[PlannedMatch], clock: Callable[[], float]) -> None:
    """The same rows as :func:`through_store` on an empty database, in one transaction of bulk inserts
    (``Session.copy``: COPY on PostgreSQL); then the running totals derived from them
    (``Store.rebuild_totals``)."""
    rows: dict[str, list[tuple[Any, ...]]] = {name: [] for name in _COLUMNS}
    ratings: dict[int, Rating] = {}
    names: dict[int, tuple[str, float]] = {}
    hand_id = 0
    for table_id, match in enumerate(matches, start=1):
        seats = _seats(match)
        rows["tables"].append(
            (table_id, GUILD, match.channel, match.users[0], RULES, 1, dumps(OPTIONS), None, "over", clock(), "rated")
        )
        rows["seats"] += [(table_id, s.seat, s.user_id, s.name, s.ai_level) for s in seats]
        started = clock()
        for number, hand in enumerate(match.hands, start=1):
            hand_id += 1
            began = clock()
            now = clock()
            self_drawn = hand.winner is not None and hand.loser is None
            rows["hands"].append(
                (hand_id, table_id, number, dumps(hand.header), began, now, dumps(hand.result), hand.winner,
                 hand.loser, int(self_drawn), hand.total)
            )  # fmt: skip
            dealer, streak = hand.header["dealer"], hand.header["dealer_streak"]
            for s, delta, calls in zip(seats, hand.deltas, hand.called, strict=True):
                rows["hand_seats"].append(
                    (hand_id, s.seat, s.user_id, s.name, delta, int(s.seat == hand.winner),
                     int(s.seat == hand.winner and self_drawn), int(s.seat == hand.loser),
                     hand.total if s.seat == hand.winner else None, GUILD, RULES, table_id, now, int(calls),
                     streak if s.seat == dealer else None)
                )  # fmt: skip
                if s.user_id is not None:
                    names[s.user_id] = (s.name, now)
            if hand.winner is not None:
                items: dict[str, int] = {}
                for name, value in hand.result.get("items", ()):
                    items[name] = items.get(name, 0) + int(value)
                winner_id = seats[hand.winner].user_id
                rows["hand_items"] += [(hand_id, name, items[name], winner_id, GUILD, RULES) for name in sorted(items)]
        scores = match.scores
        places = placements(scores, None)
        rows["matches"].append((table_id, dumps({"rules": RULES}), started, clock(), None))
        rows["match_scores"] += [
            (table_id, s.seat, s.user_id, s.name, score, place, GUILD, RULES)
            for s, score, place in zip(seats, scores, places, strict=True)
        ]
        if is_rated("rated", sum(1 for s in seats if s.user_id is not None), len(seats)):
            before = [ratings.get(s.user_id, new_rating()) for s in seats if s.user_id is not None]
            after = rate(before, places, fixed=[False] * len(seats))
            for s, old, new in zip(seats, before, after, strict=True):
                assert s.user_id is not None  # every seat of the plan is a person's
                ratings[s.user_id] = new
                rows["match_ratings"].append((table_id, s.seat, s.user_id, shown(old), shown(new)))
    rows["ratings"] = [
        (GUILD, RULES, user, r.mu, r.sigma, shown(r), r.matches) for user, r in sorted(ratings.items())
    ]
    rows["player_names"] = [(GUILD, user, name, at) for user, (name, at) in sorted(names.items())]
    async with store.driver.transaction() as db:
        for table, columns in _COLUMNS.items():
            await db.copy(table, columns, rows[table])
        follow = store.driver.dialect.follow_ids
        if follow is not None:  # PostgreSQL's id sequences continue after the ids written here
            for table in ("tables", "hands"):
                await db.one(follow.format(table=table))
    await store.rebuild_totals(GUILD)
    if store.driver.dialect.name != "sqlite":
        # PostgreSQL's autovacuum would gather the new rows' statistics within a minute; the benchmark
        # queries at once, and without them the planner takes each table for one row (nested loops)
        async with store.driver.session() as db:
            await db.execute("ANALYZE")


_COLUMNS: dict[str, tuple[str, ...]] = {
    "tables": ("id", "guild_id", "channel_id", "host_id", "rules", "rounds", "options", "password_hash", "phase",
               "created_at", "ranking"),
    "seats": ("table_id", "seat", "user_id", "name", "ai_level"),
    "matches": ("table_id", "header", "started_at", "finished_at", "leaver"),
    "match_scores": ("table_id", "seat", "user_id", "name", "score", "place", "guild_id", "rules"),
    "hands": ("id", "table_id", "hand_no", "header", "started_at", "finished_at", "result", "winner", "loser",
              "self_drawn", "total"),
    "hand_seats": ("hand_id", "seat", "user_id", "name", "delta", "won", "self_drew", "dealt_in", "tai",
                   "guild_id", "rules", "table_id", "finished_at", "called", "streak"),
    "hand_items": ("hand_id", "item", "value", "user_id", "guild_id", "rules"),
    "ratings": ("guild_id", "rules", "user_id", "mu", "sigma", "shown", "matches"),
    "match_ratings": ("table_id", "seat", "user_id", "before", "after"),
    "player_names": ("guild_id", "user_id", "name", "updated_at"),
}  # fmt: skip
