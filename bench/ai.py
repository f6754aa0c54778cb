"""How much better the strong AI plays than a baseline, on the same deals.

    python -m bench.ai [--hands 2000] [--seed 1] [--baseline easy] [--level strong]

For each deal the level under test sits in each of the four seats in turn against three baseline
players, so every deal is played four times and the luck of the deal cancels. Run on a default
table and on a 三台起胡 table; then four ``normal`` players alone on the 三台起胡 table (draw rate).
Last stdout line: one JSON object — ``hands_per_sec`` and, per table (``default``, ``min3``),
``points_per_hand`` of the tested seat (a zero-sum game: the baseline seats lose it between them),
its ``ci95`` half-width over deals, ``win_rate``, ``deal_in_rate`` (放槍) and ``draw_rate``, with
the same rates for an average baseline seat beside them.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time

from engine.game import Game
from engine.match import score_outcome
from engine.policy import make_policy
from engine.rules import TableOptions
from engine.selfplay import play_hand
from engine.settlement import settle_win

TABLES = {"default": TableOptions(), "min3": TableOptions(min_tai=3)}


def deltas(game: Game) -> tuple[int, int, int, int]:
    out = game.outcome
    if out is None or out.winner is None:
        return (0, 0, 0, 0)
    scored = score_outcome(game)
    assert scored is not None  # a win is scored
    return settle_win(
        scored,
        winner=out.winner,
        dealer=game.dealer,
        dealer_streak=game.dealer_streak,
        discarder=out.loser if not out.flower_win else None,
        single_flower_holder=out.loser if out.flower_win == "七搶一" else None,
    ).deltas


def play(seed: int, options: TableOptions, levels: list[str]) -> Game:
    rng = random.Random(seed)
    policies = [make_policy(level, random.Random(rng.random())) for level in levels]
    game = Game("taiwan16", seed=seed, dealer=seed % 4, options=options)
    return play_hand(game, policies, check=False)


def compare(level: str, baseline: str, options: TableOptions, deals: int, seed: int) -> dict:
    master = random.Random(seed)
    per_deal: list[float] = []
    wins = deal_ins = draws = hands = 0
    base_wins = base_deal_ins = 0
    for _ in range(deals):
        deal = master.getrandbits(48)
        total = 0
        for seat in range(4):
            levels = [baseline] * 4
            levels[seat] = level
            game = play(deal, options, levels)
            out = game.outcome
            assert out is not None  # played to its end
            total += deltas(game)[seat]
            hands += 1
            draws += out.winner is None
            wins += out.winner == seat
            deal_ins += out.loser == seat and not out.self_drawn and out.flower_win is None
            others = [s for s in range(4) if s != seat]
            base_wins += out.winner in others
            base_deal_ins += out.loser in others and not out.self_drawn and out.flower_win is None
        per_deal.append(total / 4)
    sd = statistics.stdev(per_deal) if len(per_deal) > 1 else 0.0
    return {
        "points_per_hand": round(statistics.fmean(per_deal), 1),
        "ci95": round(1.96 * sd / math.sqrt(len(per_deal)), 1),
        "win_rate": round(wins / hands, 3),
        "deal_in_rate": round(deal_ins / hands, 3),
        "draw_rate": round(draws / hands, 3),
        "baseline_win_rate": round(base_wins / hands / 3, 3),  # per baseline seat
        "baseline_deal_in_rate": round(base_deal_ins / hands / 3, 3),
        "hands": hands,
    }


def draw_rate(level: str, options: TableOptions, hands: int, seed: int) -> float:
    master = random.Random(seed)
    draws = 0
    for _ in range(hands):
        out = play(master.getrandbits(48), options, [level] * 4).outcome
        assert out is not None  # played to its end
        draws += out.winner is None
    return round(draws / hands, 3)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.ai")
    parser.add_argument("--hands", type=int, default=2000, help="hands per table (a multiple of 4)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="strong")
    parser.add_argument("--baseline", default="easy")
    args = parser.parse_args(argv)
    deals = max(1, args.hands // 4)
    result: dict = {"level": args.level, "baseline": args.baseline}
    start = time.perf_counter()
    played = 0
    for name, options in TABLES.items():
        result[name] = compare(args.level, args.baseline, options, deals, args.seed)
        played += result[name]["hands"]
        r = result[name]
        print(
            f"{name:8s}: {args.level} vs {args.baseline}  {r['points_per_hand']:+8.1f} ± {r['ci95']:.1f} points/hand"
            f"   win {r['win_rate']:.1%} (baseline {r['baseline_win_rate']:.1%})"
            f"  deal-in {r['deal_in_rate']:.1%} (baseline {r['baseline_deal_in_rate']:.1%})  draw {r['draw_rate']:.1%}"
        )
    alone = max(4, args.hands // 4)
    result["normal4_min3_draw_rate"] = draw_rate("normal", TABLES["min3"], alone, args.seed)
    played += alone
    print(f"four normal players, 三台起胡: {result['normal4_min3_draw_rate']:.1%} draw games")
    elapsed = time.perf_counter() - start
    result = {"hands_per_sec": round(played / elapsed, 1), **result}
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
