"""Hand-analysis speed, side by side with the PyPI ``mahjong`` package in the same run.

    python -m bench.engine [--hands 2000] [--repeat 5]

Measures (µs per hand, median of the repeats, after one warm-up pass over the same hands for both
libraries): win check on complete 17-tile hands, shanten on 14-tile hands, and our 17-tile
shanten (no public library handles 5 sets + pair). The first pass of ours (memo tables empty) is
reported as ``*_cold_us``. Last stdout line: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

from engine import analysis

SETS = [("pon", t) for t in range(34)] + [("chi", s * 9 + i) for s in range(3) for i in range(7)]


def complete_hand(rng: random.Random, sets: int) -> list[int]:
    """A random complete hand of ``sets`` sets and a pair (at most four of a kind)."""
    while True:
        counts = [0] * 34
        for kind, t in rng.choices(SETS, k=sets):
            if kind == "pon":
                counts[t] += 3
            else:
                counts[t] += 1
                counts[t + 1] += 1
                counts[t + 2] += 1
        counts[rng.randrange(34)] += 2
        if max(counts) <= 4:
            return counts


def random_hand(rng: random.Random, size: int) -> list[int]:
    wall = [t for t in range(34) for _ in range(4)]
    counts = [0] * 34
    for t in rng.sample(wall, size):
        counts[t] += 1
    return counts


def per_call_us(fn: Callable[[list[int]], object], hands: list[list[int]], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for h in hands:
            fn(h)
        times.append((time.perf_counter() - start) / len(hands) * 1e6)
    return statistics.median(times)


def cold_us(fn: Callable[[list[int]], object], hands: list[list[int]]) -> float:
    start = time.perf_counter()
    for h in hands:
        fn(h)
    return (time.perf_counter() - start) / len(hands) * 1e6


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.engine")
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    from mahjong.agari import Agari
    from mahjong.shanten import Shanten

    rng = random.Random(args.seed)
    win17 = [complete_hand(rng, 5) for _ in range(args.hands)]
    hands14 = [random_hand(rng, 14) for _ in range(args.hands)]
    hands17 = [random_hand(rng, 17) for _ in range(args.hands)]

    agari, shanten_peer = Agari(), Shanten()
    peer_win = agari.is_agari
    peer_shanten = shanten_peer.calculate_shanten_for_regular_hand

    # correctness first: both libraries must agree on every benchmark hand
    assert all(analysis.is_complete(h) and peer_win(h) for h in win17)
    assert all(analysis.shanten(h) == peer_shanten(h) for h in hands14)

    result: dict[str, float] = {}
    result["win17_cold_us"] = cold_us(analysis.is_complete, win17)
    result["shanten17_cold_us"] = cold_us(analysis.shanten, hands17)
    cold_us(peer_win, win17)

    result["win17_us"] = per_call_us(analysis.is_complete, win17, args.repeat)
    result["win17_mahjong_us"] = per_call_us(peer_win, win17, args.repeat)
    result["shanten14_us"] = per_call_us(analysis.shanten, hands14, args.repeat)
    result["shanten14_mahjong_us"] = per_call_us(peer_shanten, hands14, args.repeat)
    result["shanten17_us"] = per_call_us(analysis.shanten, hands17, args.repeat)
    result["win17_speedup_vs_mahjong"] = result["win17_mahjong_us"] / result["win17_us"]
    result["shanten14_speedup_vs_mahjong"] = result["shanten14_mahjong_us"] / result["shanten14_us"]
    result = {k: round(v, 2) for k, v in result.items()}
    result["hands"] = args.hands
    result["memo_entries"] = sum(analysis.table_sizes().values())

    print(
        f"win check, complete 17-tile hand : ours {result['win17_us']:6.2f} µs   mahjong {result['win17_mahjong_us']:6.2f} µs"
        f"   → {result['win17_speedup_vs_mahjong']:.1f}× faster"
    )
    print(
        f"shanten, 14-tile hand            : ours {result['shanten14_us']:6.2f} µs   mahjong {result['shanten14_mahjong_us']:6.2f} µs"
        f"   → {result['shanten14_speedup_vs_mahjong']:.1f}× faster"
    )
    print(
        f"shanten, 17-tile hand            : ours {result['shanten17_us']:6.2f} µs   (no peer; cold {result['shanten17_cold_us']:.1f} µs)"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
