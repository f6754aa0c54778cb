"""Write the four pictures of a seeded mid-game state (hand.png, claim.png: the hand in a claim window,
table.png and score.png) to look at them and time them.

    python -m render.demo OUTDIR [--seed N] [--source game|synthetic] [--rules R] [--lang L]

With ``--source game`` (the default) a seeded hand of ``--rules`` (taiwan16 by default) is played
partway by the engine's own policies; ``synthetic`` builds the views straight from a seeded deal,
which is what the tests and the benchmark use because it does not move when the engine does.
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

from engine import analysis
from engine.cli import tool_parser
from engine.events import Phase
from engine.meld import Meld, MeldKind
from engine.rules import get_profile
from engine.rulesets import DEFAULT_RULES, RULE_IDS
from engine.rulesets import get as rule_set
from engine.tiles import FLOWERS, full_set, sorted_tiles, to_counts
from engine.view import GameView, HandResult, ScoreItem, SeatPublic

from . import hand, labels, scoresheet, table

NAMES = ("阿明 麻將王", "张伟 麻将", "まーじゃん 마작", "Zoë 🀄🔥")


@dataclass(frozen=True, slots=True)
class DemoState:
    public: GameView  # the table view (viewer None)
    mine: GameView  # seat ``mine.viewer``'s own view, for the hand image
    result: HandResult
    names: tuple[str, ...]
    claim: GameView  # the same seat in a claim window: another seat's discard on offer


def _take(wall: list[int], tiles: list[int]) -> list[int]:
    for t in tiles:
        wall.remove(t)
    return tiles


def _random_set(rng: random.Random, wall: list[int]) -> list[int]:
    """A chow or pung that the remaining wall can still supply."""
    counts = to_counts(wall)
    while True:
        if rng.random() < 0.6:
            start = rng.randrange(27)
            if start % 9 <= 6 and all(counts[start + i] for i in range(3)):
                return _take(wall, [start, start + 1, start + 2])
        else:
            t = rng.randrange(34)
            if counts[t] >= 3:
                return _take(wall, [t] * 3)


def synthetic(seed: int = 7, viewer: int = 0, *, rules: str = DEFAULT_RULES) -> DemoState:
    """A mid-game table of ``rules`` (its hand size; flowers where it plays them; hongkong's
    face-up 翻寶牌) from a seeded deal: melds of every kind, each claimed tile's discarder, rivers,
    and a viewer whose hand is ready (so the waits show), plus a win for the score sheet."""
    profile = get_profile(rules)
    rng = random.Random(seed)
    wall = [t for t in full_set(flowers=False)]
    rng.shuffle(wall)
    flowers = list(FLOWERS)
    rng.shuffle(flowers)

    meld_plan = {
        0: [MeldKind.CHI, MeldKind.ANKONG],
        1: [MeldKind.PON],
        2: [MeldKind.KONG, MeldKind.CHI],
        3: [],
    }
    seats, hands = [], {}
    for s in range(4):
        melds = []
        for planned in meld_plan[(s - viewer) % 4]:
            kind = MeldKind.PON if planned is MeldKind.CHI and not profile.chi else planned
            if kind is MeldKind.CHI:
                counts = to_counts(wall)
                start = rng.choice(
                    [t for t in range(27) if t % 9 <= 6 and all(counts[t + i] for i in range(3))]
                )
                tiles = _take(wall, [start, start + 1, start + 2])
                melds.append(Meld(kind, tuple(tiles), claimed=tiles[rng.randrange(3)], source=(s - 1) % 4))
            else:
                counts = to_counts(wall)
                t = rng.choice([k for k in range(34) if counts[k] == 4])
                tiles = _take(wall, [t] * 4 if kind.is_kong else [t] * 3)
                claimed = None if kind is MeldKind.ANKONG else t
                source = None if kind is MeldKind.ANKONG else rng.choice([x for x in range(4) if x != s])
                melds.append(Meld(kind, tuple(tiles), claimed=claimed, source=source))
        need = profile.hand_size - 3 * len(melds)
        if s == viewer:  # a ready hand: sets, a pair and a two-sided wait
            concealed: list[int] = []
            while len(concealed) < need - 4:
                concealed += _random_set(rng, wall)
            counts = to_counts(wall)
            pair = rng.choice([k for k in range(34) if counts[k] >= 2])
            concealed += _take(wall, [pair, pair])
            counts = to_counts(wall)
            start = rng.choice([t for t in range(27) if 0 < t % 9 < 7 and counts[t] and counts[t + 1]])
            concealed += _take(wall, [start, start + 1])
        else:
            concealed = [wall.pop() for _ in range(need)]
        hands[s] = concealed
        seat_flowers = tuple(
            sorted(flowers.pop() for _ in range(rng.randrange(0, 3) if profile.flowers else 0))
        )
        discards = tuple(wall.pop() for _ in range(rng.randrange(8, 13)))
        seats.append(
            SeatPublic(
                seat=s,
                wind=(s - 1) % 4,  # seat 1 deals
                melds=tuple(melds),
                flowers=seat_flowers,
                discards=discards,
                concealed_count=len(concealed),
                ready=s == viewer,
                auto=s == (viewer + 3) % 4,
                score=rng.randrange(-40, 41) * 50,
            )
        )
    drawn = wall.pop()
    turn = viewer
    seats[turn] = replace(seats[turn], concealed_count=seats[turn].concealed_count + 1)
    last_seat = (turn + 3) % 4
    last = (last_seat, seats[last_seat].discards[-1])
    public = GameView(
        viewer=None,
        rules=rules,
        round_wind=1,
        hand_number=6,
        dealer=1,
        dealer_streak=2,
        wall_remaining=len(wall) - 16,
        seats=tuple(seats),
        turn=turn,
        phase=Phase.TURN,
        last_discard=last,
        hand_size=profile.hand_size,
        bonus_indicator=wall[-1] if rule_set(rules).bonus_tile else None,
    )
    counts = to_counts(hands[viewer])
    seen = list(counts)
    for seat in seats:
        for m in seat.melds:
            if m.kind is not MeldKind.ANKONG or seat.seat == viewer:
                for t in m.tiles:
                    seen[t] += 1
        for t in seat.discards:
            seen[t] += 1
    waits = tuple((t, max(0, 4 - seen[t])) for t in analysis.waits(counts))
    mine = replace(
        public, viewer=viewer, concealed=tuple(sorted_tiles(hands[viewer])), drawn=drawn, waits=waits
    )

    win_tile = waits[0][0] if waits else drawn
    result = HandResult(
        winner=viewer,
        loser=last_seat,
        self_drawn=False,
        win_tile=win_tile,
        concealed=tuple(sorted_tiles(hands[viewer])),
        melds=seats[viewer].melds,
        flowers=seats[viewer].flowers,
        items=(
            ScoreItem("莊家", 1),
            ScoreItem("連莊", 4),
            ScoreItem("花牌", 1),
            ScoreItem("三元牌", 1),
            ScoreItem("門清", 1),
        ),
        total=8,
        unit="tai",
        deltas=_deltas(viewer, last_seat, 800),
    )
    claim = replace(mine, phase=Phase.CLAIM, turn=last_seat, drawn=None, offer=last)
    return DemoState(public, mine, result, NAMES, claim)


def hand_screen(view: GameView, names: tuple[str, ...] = NAMES, locale: str | None = "zh-TW", result: HandResult | None = None):
    """``view``'s seat's DM screen (table/screens.py) as a table would give it, for the DM picture."""
    from table.lobby import Seat
    from table.screens import HandScreen, Showing

    assert view.viewer is not None
    over = view.phase == "over"
    return HandScreen(
        table_id=1,
        channel_id=1,
        rules=view.rules,
        unit=rule_set(view.rules).unit,
        seat=view.viewer,
        seats=tuple(Seat(1000 + s, name, locale=locale or "zh-TW") for s, name in enumerate(names)),
        showing=Showing.HAND_OVER if over else Showing.PROMPT,
        view=view,
        hand_number=view.hand_number,
        hand_over=over,
        decision=1,
        deadline=None,
        result=result if over else None,
        rivers=tuple(tuple((t, False) for t in seat.discards) for seat in view.seats),
    )


def crowded(rules: str = DEFAULT_RULES, viewer: int = 0, river: int = 24, own_melds: int = 0) -> GameView:
    """The fullest table a picture must hold: every other seat with four kongs (each tile claimed, so one
    lies sideways) and all eight flowers, every river ``river`` long, and the viewer with ``own_melds``
    kongs, eight flowers and the rest of a hand concealed with a drawn tile."""
    state = synthetic(7, viewer, rules=rules)
    profile = get_profile(rules)
    flowers = tuple(FLOWERS) if profile.flowers else ()
    rng = random.Random(river)
    seats = []
    for seat in state.mine.seats:
        n = own_melds if seat.seat == viewer else 4
        melds = tuple(
            Meld(MeldKind.KONG, (t,) * 4, claimed=t, source=(seat.seat + 1 + k % 3) % 4)
            for k, t in enumerate(rng.sample(range(34), n))
        )
        discards = tuple(rng.randrange(34) for _ in range(river))
        count = profile.hand_size - 3 * n + (seat.seat == state.mine.turn)
        seats.append(replace(seat, melds=melds, flowers=flowers, discards=discards, concealed_count=count))
    mine = seats[viewer]
    hand = tuple(sorted_tiles(rng.randrange(34) for _ in range(profile.hand_size - 3 * len(mine.melds))))
    last = (state.mine.last_discard or (0, 0))[0]
    latest = (last, seats[last].discards[-1]) if seats[last].discards else None
    return replace(state.mine, seats=tuple(seats), concealed=hand, last_discard=latest)


def _deltas(winner: int, loser: int, amount: int) -> tuple[int, int, int, int]:
    out = [0, 0, 0, 0]
    out[winner], out[loser] = amount, -amount
    return (out[0], out[1], out[2], out[3])


def from_game(seed: int = 7, viewer: int = 0, wall_left: int = 40, *, rules: str = DEFAULT_RULES) -> DemoState:
    """Play a seeded match hand of ``rules`` with the engine's AI; the pictures show ``viewer``'s
    turn when about ``wall_left`` live tiles remain, and the score sheet is that hand's real result
    (the next seeds are tried until a hand both lasts that long and ends in a win). ``claim`` is
    ``viewer``'s view of the first claim window after that, when another seat's discard was on offer."""
    from engine.match import Match
    from engine.policy import SimpleAI
    from engine.prompt import Ask

    for attempt in range(50):
        match = Match(rules, seed=seed + attempt)
        game = match.new_hand()
        ai = SimpleAI()
        snapshot = claim = None
        while not game.is_over:
            table = game.view(None)
            if snapshot is None and table.wall_remaining <= wall_left and game.prompt(viewer).kind is Ask.DISCARD:
                snapshot = (table, game.view(viewer))
            if snapshot is not None and claim is None and table.phase.value == "claim" and table.turn != viewer:
                claim = game.view(viewer)
            seat = game.to_act()[0]
            game.apply(ai.choose(game.view(seat), game.legal_actions(seat)))
        result = match.finish_hand(game)
        if snapshot is not None and claim is not None and result.winner is not None:
            return DemoState(snapshot[0], snapshot[1], result, NAMES, claim)
    raise RuntimeError("no seeded hand lasted long enough and ended in a win")


def main(argv: list[str] | None = None) -> int:
    parser = tool_parser("python -m render.demo", __doc__)
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--source", choices=("game", "synthetic"), default="game")
    parser.add_argument(
        "--rules", choices=RULE_IDS, default=DEFAULT_RULES
    )
    parser.add_argument(
        "--lang", choices=labels.LOCALES, default=None, help="labels' language (default: zh-TW)"
    )
    args = parser.parse_args(argv)
    try:
        args.outdir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print(f"error: cannot make {args.outdir}: {error.strerror or error}", file=sys.stderr)
        return 2
    if args.source == "game":
        state = from_game(args.seed, rules=args.rules)
    else:
        state = synthetic(args.seed, rules=args.rules)
    loc = args.lang
    jobs = {
        "hand.png": lambda: hand.render_hand(state.mine, locale=loc),
        "claim.png": lambda: hand.render_hand(state.claim, locale=loc),
        "table.png": lambda: table.render_table(state.public, state.names, locale=loc),
        "score.png": lambda: scoresheet.render_score(state.result, state.names, state.public),
    }
    for name, job in jobs.items():
        start = time.perf_counter()
        data = job()
        ms = (time.perf_counter() - start) * 1000
        (args.outdir / name).write_bytes(data)
        print(f"{name}: {ms:.1f} ms (cold), {len(data) / 1024:.1f} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
