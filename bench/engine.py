"""Hand-analysis speed, side by side with the PyPI ``mahjong`` package in the same run.

    python -m bench.engine [--hands 2000] [--repeat 5]

Three honest kinds of figure, µs per hand:

- ``*_us`` — repeated hands: median of the repeats after one warm-up pass over the same hands (both
  libraries), the best case for our memo tables;
- ``*_unseen_us`` — warm tables, new hands: after the warm-up set, a fresh set of hands with the
  same seed family that the tables have not seen;
- ``*_cold_us`` — a fresh Python process, memo tables empty, first pass (measured in a child
  process so nothing this process did warms it).

The ``mahjong`` package's win check and 14-tile shanten are timed the same three ways (its cold
pass in the same fresh child, after ours), and ``*_speedup_vs_mahjong`` compares like with like:
repeated with repeated, unseen with unseen, cold with cold.

Functions: win check on complete 17-tile hands, shanten on 14-tile hands (beside the ``mahjong``
package), our 17-tile shanten (no public library handles 5 sets + pair), the 聽 listing of a
17-tile hand (``ready_discards`` beside the old loop of ``waits`` per discard) and the improving
tiles of a 16-tile hand. Last stdout line: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
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


def ready_discards_by_waits(counts: list[int]) -> list[int]:
    """The 聽 listing as the game did it before: a full waits check after every discard."""
    out = []
    for t in range(34):
        if counts[t]:
            counts[t] -= 1
            if analysis.waits(counts):
                out.append(t)
            counts[t] += 1
    return out


def hand_sets(seed: int, n: int) -> dict[str, list[list[int]]]:
    rng = random.Random(seed)
    return {
        "win17": [complete_hand(rng, 5) for _ in range(n)],
        "hands14": [random_hand(rng, 14) for _ in range(n)],
        "hands17": [random_hand(rng, 17) for _ in range(n)],
        "near17": [near_ready(rng) for _ in range(n)],
        "hands16": [random_hand(rng, 16) for _ in range(n)],
    }


def near_ready(rng: random.Random) -> list[int]:
    """A 17-tile hand one swap from complete: the hands whose 聽 listing matters."""
    counts = complete_hand(rng, 5)
    held = [t for t in range(34) if counts[t]]
    counts[rng.choice(held)] -= 1
    while True:
        t = rng.randrange(34)
        if counts[t] < 4:
            counts[t] += 1
            return counts


OURS: dict[str, tuple[str, Callable[[list[int]], object]]] = {
    "win17": ("win17", analysis.is_complete),
    "shanten14": ("hands14", analysis.shanten),
    "shanten17": ("hands17", analysis.shanten),
    "ready17": ("near17", analysis.ready_discards),
    "improving16": ("hands16", analysis.improving_tiles),
}


def peer_functions() -> dict[str, tuple[str, Callable[[list[int]], object]]]:
    """The ``mahjong`` package's win check and 14-tile shanten, under our names."""
    from mahjong.agari import Agari
    from mahjong.shanten import Shanten

    return {
        "win17": ("win17", Agari().is_agari),
        "shanten14": ("hands14", Shanten().calculate_shanten_for_regular_hand),
    }


def cold_child(seed: int, n: int) -> dict[str, float]:
    """Run in a fresh process: first-pass timings with empty memo tables (ours, then the peer's
    first pass in the same fresh process)."""
    sets = hand_sets(seed, n)
    result = {f"{name}_cold_us": cold_us(fn, sets[which]) for name, (which, fn) in OURS.items()}
    for name, (which, fn) in peer_functions().items():
        result[f"{name}_mahjong_cold_us"] = cold_us(fn, sets[which])
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.engine")
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cold-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.cold_child:
        print(json.dumps(cold_child(args.seed, args.hands)))
        return
    child = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.engine",
            "--cold-child",
            "--seed",
            str(args.seed),
            "--hands",
            str(args.hands),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    cold = json.loads(child.stdout.strip().splitlines()[-1])

    sets = hand_sets(args.seed, args.hands)
    unseen = hand_sets(args.seed + 1000, args.hands)
    win17, hands14 = sets["win17"], sets["hands14"]

    peer = peer_functions()
    peer_win = peer["win17"][1]
    peer_shanten = peer["shanten14"][1]

    # correctness first: both libraries must agree on every benchmark hand
    assert all(analysis.is_complete(h) and peer_win(h) for h in win17)
    assert all(analysis.shanten(h) == peer_shanten(h) for h in hands14)
    assert all(analysis.ready_discards(h) == ready_discards_by_waits(h) for h in sets["near17"])

    result: dict[str, float] = dict(cold)
    for name, (which, fn) in OURS.items():
        result[f"{name}_us"] = per_call_us(fn, sets[which], args.repeat)
        result[f"{name}_unseen_us"] = cold_us(fn, unseen[which])
    result["ready17_by_waits_us"] = per_call_us(ready_discards_by_waits, sets["near17"], args.repeat)
    cold_us(peer_win, win17)
    result["win17_mahjong_us"] = per_call_us(peer_win, win17, args.repeat)
    result["shanten14_mahjong_us"] = per_call_us(peer_shanten, hands14, args.repeat)
    result["win17_mahjong_unseen_us"] = cold_us(peer_win, unseen["win17"])
    result["shanten14_mahjong_unseen_us"] = cold_us(peer_shanten, unseen["hands14"])
    for name in peer:  # repeated, unseen and cold, each against the peer's figure of the same kind
        for kind in ("", "_unseen", "_cold"):
            result[f"{name}{kind}_speedup_vs_mahjong"] = result[f"{name}_mahjong{kind}_us"] / result[f"{name}{kind}_us"]
    result = {k: round(v, 2) for k, v in result.items()}
    result["hands"] = args.hands
    result["memo_entries"] = sum(analysis.table_sizes().values())

    for name in OURS:
        print(
            f"{name:12s}: repeated {result[name + '_us']:7.2f} µs   unseen {result[name + '_unseen_us']:7.2f} µs"
            f"   cold (fresh process) {result[name + '_cold_us']:8.2f} µs"
        )
    print(f"聽 listing by waits per discard (before): {result['ready17_by_waits_us']:.2f} µs")
    for name, label in (("win17", "win check, 17 tiles"), ("shanten14", "shanten, 14 tiles")):
        print(
            f"vs mahjong, {label}: {result[name + '_speedup_vs_mahjong']:.1f}× faster on repeated hands, "
            f"{result[name + '_unseen_speedup_vs_mahjong']:.1f}× on unseen hands, "
            f"{result[name + '_cold_speedup_vs_mahjong']:.1f}× cold (fresh process)"
        )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
