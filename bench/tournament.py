"""A whole tournament played by AI players through the tournament's rules, the engine's matches and the store.

    python -m bench.tournament --players 32 --rounds 3 --duplicate --rules taiwan16 --seed 1 [--hands H] [--db FILE]

Every round is seated by ``table.tournament`` (round 1 drawn from the tournament key, later rounds Swiss),
every table plays one 東風圈 (or ``--hands`` hands) as an engine ``Match`` dealt from its table key (with
``--duplicate`` all tables of a round share one key and deal by position), four easy AIs at each table,
and every hand and match is written to a store (SQLite in memory, or ``--db``) as a table writes them.

The one stdout line is a JSON object: ``players``, ``rounds``, ``tables``, ``hands``, ``walls_identical``
(every position two tables of a round both reached was dealt from the same seed, and with the same dealer
the same wall), ``repeat_pairs`` (opponent pairs met more than once: 0 for 32 entrants over 3 rounds; 8
entrants cannot avoid 4 in round 2, each new table holding two of each old one), ``zero_sum``
(every table's final points sum to zero), ``duplicate_sum_zero`` (with duplicate walls, each seat's
duplicate scores sum to zero over every round), ``stored_matches`` (finished matches the store holds) and
``seconds``.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from data.records import SeatRecord
from data.store import Store
from engine.cli import tool_parser
from engine.game import Game
from engine.match import Match
from engine.policy import make_policy
from engine.rules import get_profile
from engine.selfplay import play_hand
from ranking.duplicate import duplicate_scores
from ranking.swiss import repeat_pairs
from table.tournament import Tournament

GUILD = 1


@dataclass
class Played:
    """One table's match: final points by entrant order, and each hand's deal by position."""

    points: list[int]
    deals: dict[tuple[int, int], tuple[int, int, tuple]] = field(default_factory=dict)  # (seed, dealer, wall)
    hands: int = 0


async def play_table(
    store: Store, key: bytes, people: tuple[int | None, ...], *, rules: str, duplicate: bool, hands: int | None,
    channel: int,
) -> Played:  # fmt: skip
    """Play and store one table's match; ``people`` in the tournament's order (None: an AI seat)."""
    match = Match(rules, key=key, rounds=1, options=get_profile(rules).options, duplicate=duplicate)
    by_seat = sorted(range(4), key=lambda player: match.seat_of_player[player])  # the player at each seat
    table = await store.create_table(
        guild_id=GUILD, channel_id=channel, host_id=people[0] or 0, rules=rules, rounds=1, options={},
        password_hash=None, ranking="casual",
    )  # fmt: skip
    seats = [
        SeatRecord(seat, people[p], f"entrant {people[p]}" if people[p] else f"AI {seat}", None if people[p] else "easy")
        for seat, p in enumerate(by_seat)
    ]  # fmt: skip
    await store.set_seats(table.id, seats)
    await store.start_match(table.id, match.header())
    policies = [make_policy("easy", random.Random(match.ai_seed(seat))) for seat in range(4)]
    played = Played(points=[])
    while not match.is_over and (hands is None or played.hands < hands):
        where = match.position  # the engine's own count of dealer changes: what duplicate walls deal by
        game = match.new_hand()
        played.deals[where] = (game.seed, game.dealer, tuple(game.wall.tiles))
        hand_id = await store.start_hand(table.id, game.hand_number, game.header())
        play_hand(game, policies, check=False)
        await _store_hand(store, hand_id, game)
        result = match.finish_hand(game)
        await store.finish_hand(
            hand_id, result=result.to_dict(), deltas=list(result.deltas), winner=result.winner, loser=result.loser,
            self_drawn=result.self_drawn, total=result.total,
        )  # fmt: skip
        played.hands += 1
    await store.finish_match(table.id, list(match.scores))
    played.points = [match.scores[match.seat_of_player[p]] for p in range(4)]
    return played


async def _store_hand(store: Store, hand_id: int, game: Game) -> None:
    moves = [(n, str(action), None) for n, action in enumerate(game.log)]
    if moves:
        await store.append_actions(hand_id, moves)


def walls_identical(tables: list[Played]) -> bool:
    """Every position two tables both reached: the same seed, and the same wall where the dealer is the same."""
    for i, a in enumerate(tables):
        for b in tables[i + 1 :]:
            for where in a.deals.keys() & b.deals.keys():
                (seed_a, dealer_a, wall_a), (seed_b, dealer_b, wall_b) = a.deals[where], b.deals[where]
                if seed_a != seed_b or (dealer_a == dealer_b and wall_a != wall_b):
                    return False
    return True


async def run(
    players: int, rounds: int, *, duplicate: bool, rules: str, seed: int, hands: int | None, db: str
) -> dict[str, Any]:
    started = time.perf_counter()
    key = random.Random(seed).randbytes(32)
    tournament = Tournament(key=key, entrants=tuple(range(1, players + 1)), rounds=rounds, duplicate=duplicate)
    store = await Store.open(db)
    totals = {"tables": 0, "hands": 0}
    identical = zero_sum = duplicate_zero = True
    try:
        for number in range(1, rounds + 1):
            seating = tournament.seat_next_round()
            played = []
            for index, people in enumerate(seating.tables):
                table_key = tournament.table_key(number, index)
                one = await play_table(
                    store, table_key, people, rules=rules, duplicate=duplicate, hands=hands,
                    channel=1000 * number + index,
                )  # fmt: skip
                tournament.record(number, index, one.points)
                played.append(one)
                zero_sum &= sum(one.points) == 0
            totals["tables"] += len(played)
            totals["hands"] += sum(p.hands for p in played)
            if duplicate:
                identical &= walls_identical(played)
                scores = duplicate_scores([p.points for p in played])
                duplicate_zero &= all(abs(sum(t[seat] for t in scores)) < 1e-6 for seat in range(4))
        stored = await store.history(GUILD, limit=10_000)
    finally:
        await store.close()
    tables = [t for s in tournament.seatings for t in s.tables]
    return {
        "players": players,
        "rounds": rounds,
        "rules": rules,
        "duplicate": duplicate,
        "tables": totals["tables"],
        "hands": totals["hands"],
        "walls_identical": identical if duplicate else False,
        "repeat_pairs": repeat_pairs(tables),
        "zero_sum": zero_sum,
        "duplicate_sum_zero": duplicate_zero if duplicate else None,
        "stored_matches": len(stored),
        "winner": tournament.standings()[0].entrant,
        "seconds": round(time.perf_counter() - started, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = tool_parser("python -m bench.tournament", __doc__)
    parser.add_argument("--players", type=int, required=True, help="entrants (4 or more)")
    parser.add_argument("--rounds", type=int, required=True, help="tournament rounds (1 or more)")
    parser.add_argument("--duplicate", action="store_true", help="every table of a round plays the same walls")
    parser.add_argument("--rules", default="taiwan16", choices=("taiwan16", "taiwan13", "hongkong", "guangdong"))
    parser.add_argument("--seed", type=int, required=True, help="decides the tournament key")
    parser.add_argument("--hands", type=int, default=None, help="hands a table plays at most (default: a 東風圈)")
    parser.add_argument("--db", default=":memory:", help="the store (default: SQLite in memory)")
    args = parser.parse_args(argv)
    if args.players < 4 or args.rounds < 1 or (args.hands is not None and args.hands < 1):
        parser.error("--players is at least 4, --rounds and --hands at least 1")
    figures = asyncio.run(
        run(args.players, args.rounds, duplicate=args.duplicate, rules=args.rules, seed=args.seed, hands=args.hands,
            db=args.db)
    )  # fmt: skip
    print(json.dumps(figures, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
