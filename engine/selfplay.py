"""Self-play: four policy players play N hands of full matches (claims, scoring, settlement),
checking the invariants after every step.

    python -m engine.selfplay --rules taiwan16 --hands 1000 --seed 1 --policy random
    python -m engine.selfplay --rules hongkong --hand-size 16 --hands 300
    python -m engine.selfplay --preset online --house-rule lugu_tai=16 --options '{"exchange": true}'

Table options (``--options``: a JSON object of engine.rules.TableOptions fields; ``--hand-size``;
``--preset`` and ``--house-rule NAME=VALUE`` for the house rules) apply to every hand.
    python -m engine.selfplay --rules hongkong --hands 20 --seed 3 --export games.json

``--export FILE`` writes the matches played as a match log (docs/log-format.md; check it with
``python -m engine.log check FILE``); a match cut short by ``--hands`` is logged as incomplete.
The last stdout line is one JSON object (hands, wins, self_drawn, draw_games, hands_per_sec, ...).
Exit code 1 on any invariant violation.
"""

from __future__ import annotations

import gc
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from .cli import tool_parser
from .events import EventKind
from .game import Game, InvariantError
from .house_rules import HouseRules
from .match import Match
from .meld import MeldKind
from .policy import Policy, make_policy, reads_view
from .rules import TableOptions, get_profile

CLAIM_EVENTS = (EventKind.CHI, EventKind.PON, EventKind.KONG)
MAX_STEPS = 5000  # far above any real hand; guards against a stuck state machine


def play_hand(game: Game, policies: Sequence[Policy], check: bool = True) -> Game:
    """Drive ``game`` to its end, asking each seat's policy in turn (with the seat's view, unless
    the policy says it never reads one)."""
    steps = 0
    wants_view = [reads_view(p) for p in policies]
    if check:
        game.check_invariants()
    while not game.is_over:
        seats = game.to_act()
        if not seats:
            raise InvariantError(f"nobody to act in phase {game.phase.value}")
        seat = seats[0]
        view = game.view(seat) if wants_view[seat] else None
        game.apply(policies[seat].choose(view, game.legal_actions(seat)))  # type: ignore[arg-type]
        if check:
            game.check_invariants()
        steps += 1
        if steps > MAX_STEPS:
            raise InvariantError("hand did not end")
    return game


def run(
    rules: str,
    hands: int,
    seed: int,
    policy: str,
    check: bool = True,
    options: TableOptions | None = None,
    matches: list[Match] | None = None,
) -> dict[str, Any]:
    """Play ``hands`` hands; every match played is appended to ``matches`` when given (for a log)."""
    options = options or TableOptions()
    replace(get_profile(rules), options=options).for_table()  # a hand size the rule set offers, or ValueError
    master = random.Random(seed)
    policies = [make_policy(policy, random.Random(master.random())) for _ in range(4)]
    stats: dict[str, Any] = {
        "hands": 0,
        "wins": 0,
        "self_drawn": 0,
        "draw_games": 0,
        "flower_wins": 0,
        "claims": 0,
        "matches": 1,
        "max_tai": 0,
    }
    match = Match(rules, seed=master.getrandbits(32), rounds=4, options=options)
    played = matches if matches is not None else []
    played.append(match)
    start = time.perf_counter()
    for _ in range(hands):
        if match.is_over:
            match = Match(rules, seed=master.getrandbits(32), rounds=4, options=options)
            played.append(match)
            stats["matches"] += 1
        game = match.new_hand()
        play_hand(game, policies, check)
        result = match.finish_hand(game)  # scoring and settlement of every hand
        if check and (sum(result.deltas) != 0 or sum(match.scores) != 0):
            raise InvariantError(f"settlement is not zero-sum: {result.deltas}")
        stats["max_tai"] = max(stats["max_tai"], result.total)
        out = game.outcome
        assert out is not None  # play_hand plays the hand to its end
        stats["hands"] += 1
        # 吃, 碰 and 明槓 (CLAIM_EVENTS): each left one meld (an added kong grows a 碰's, a robbed one
        # shrinks back) and a 暗槓 is the only meld no claim made, so the melds are counted instead of
        # every event (comparing each event's kind cost more than the rest of the bookkeeping)
        stats["claims"] += sum(m.kind is not MeldKind.ANKONG for melds in game.melds for m in melds)
        if out.winner is None:
            stats["draw_games"] += 1
        else:
            stats["wins"] += 1
            stats["self_drawn"] += int(out.self_drawn)
            stats["flower_wins"] += int(out.flower_win is not None)
    elapsed = time.perf_counter() - start
    stats["seconds"] = round(elapsed, 3)
    stats["hands_per_sec"] = round(hands / elapsed, 1) if elapsed else None
    stats.update({"rules": rules, "seed": seed, "policy": policy, "checked": check})
    if options != TableOptions():
        stats["options"] = options.to_dict()
    return stats


def table_options(
    options_json: str | None, hand_size: int | None, preset: str | None, house: Sequence[str]
) -> TableOptions:
    """The command line's table options; ValueError for anything a table cannot play."""
    data = json.loads(options_json) if options_json else {}
    if not isinstance(data, dict):
        raise ValueError("--options must be a JSON object of table options")
    options = TableOptions.from_dict({**TableOptions().to_dict(), **data})
    switches: dict[str, object] = dict(options.house_rules.to_dict())
    for item in house:
        name, sep, text = item.partition("=")
        if not sep:
            raise ValueError(f"--house-rule takes NAME=VALUE, got {item!r}")
        word = text.strip().lower()
        flags = {"true": True, "on": True, "false": False, "off": False}
        switches[name.strip()] = flags[word] if word in flags else int(word)
    rules = HouseRules.resolve(preset, switches) if preset or house else options.house_rules
    changes: dict[str, object] = {"house_rules": rules}
    if hand_size is not None:
        changes["hand_size"] = hand_size
    return TableOptions.from_dict({**options.to_dict(), **changes})


def main(argv: list[str] | None = None) -> int:
    parser = tool_parser("python -m engine.selfplay", __doc__)
    parser.add_argument("--rules", default="taiwan16")
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--policy", choices=["random", "ai", "auto", "easy", "normal", "strong"], default="random"
    )
    parser.add_argument("--no-check", action="store_true", help="skip invariant checks (for speed)")
    parser.add_argument("--hand-size", type=int, help="tiles in hand (hongkong: 13, the default, or 16)")
    parser.add_argument("--preset", help="house-rules preset (engine.house_rules: document, common, ...)")
    parser.add_argument(
        "--house-rule", action="append", default=[], metavar="NAME=VALUE", help="one house-rule switch"
    )
    parser.add_argument("--options", help='table options as JSON, e.g. \'{"exchange": true, "min_tai": 3}\'')
    parser.add_argument("--export", metavar="FILE", help="write the matches played as a match log (JSON)")
    args = parser.parse_args(argv)
    matches: list[Match] = []
    try:
        options = table_options(args.options, args.hand_size, args.preset, args.house_rule)
        stats = run(
            args.rules, args.hands, args.seed, args.policy, check=not args.no_check, options=options, matches=matches
        )
        if args.export:
            document = selfplay_log(matches, args.policy)
    except (AssertionError, InvariantError) as exc:
        print(json.dumps({"error": f"invariant violated: {exc}"}, ensure_ascii=False))
        return 1
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.export:
        try:
            with open(args.export, "w", encoding="utf-8") as out:
                json.dump(document, out, ensure_ascii=False, separators=(",", ":"))
        except OSError as exc:
            print(f"error: cannot write {args.export}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        stats["exported"] = args.export
    print(json.dumps(stats, ensure_ascii=False))
    return 0


def selfplay_log(matches: Sequence[Match], policy: str) -> dict:
    """The matches self-play played, as one match log document (four ``policy`` seats each);
    engine.log is loaded here, for ``--export`` only: a plain run never needs it."""
    from .log import HandMoves, export_matches, match_record

    seats = [{"name": f"{policy} {s}", "ai": policy} for s in range(4)]
    return export_matches(
        [
            match_record(
                m.header(),
                [HandMoves(h.log) for h in m.history],
                seats=seats,
                meta={"source": "engine.selfplay"},
            )
            for m in matches
        ]
    )


if __name__ == "__main__":
    # a process of its own: what start-up made (modules, classes, shared tables) lives to the end,
    # so no garbage collection need walk it again
    gc.freeze()
    sys.exit(main())
