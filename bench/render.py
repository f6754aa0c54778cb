"""Image rendering speed and size, PNG encode included, with the sprite cache warm.

    python -m bench.render [--runs 200] [--seed 7]

Targets (DESIGN.md): hand image (17 tiles + melds + flowers) ≤ 5 ms and ≤ 60 KB; table image
≤ 25 ms and ≤ 300 KB. Reports the median over ``--runs`` renders, after one warm-up render that
fills the sprite and palette caches (the cold time is reported too). Last stdout line: one JSON
object with hand_ms, hand_kb, table_ms, table_kb, score_ms, score_kb.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from dataclasses import replace

from render import hand, scoresheet, table
from render.demo import synthetic


def measure(job: Callable[[], bytes], runs: int) -> tuple[float, float, int]:
    """(cold ms, warm median ms, bytes)."""
    start = time.perf_counter()
    data = job()
    cold = (time.perf_counter() - start) * 1000
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        data = job()
        times.append((time.perf_counter() - start) * 1000)
    return cold, statistics.median(times), len(data)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)

    state = synthetic(args.seed)
    me = state.mine.viewer
    seats = list(state.mine.seats)
    seats[me] = replace(seats[me], flowers=(34, 35, 38, 41))  # a heavy hand: 4 flowers as well
    mine = replace(state.mine, seats=tuple(seats))
    n_tiles = len(mine.concealed) + 1 + sum(len(m.tiles) for m in seats[me].melds)

    out: dict[str, float] = {}
    jobs = {
        "hand": lambda: hand.render_hand(mine),
        "table": lambda: table.render_table(state.public, state.names),
        "score": lambda: scoresheet.render_score(state.result, state.names, state.public),
    }
    for name, job in jobs.items():
        cold, warm, size = measure(job, args.runs)
        out[f"{name}_ms"] = round(warm, 2)
        out[f"{name}_kb"] = round(size / 1024, 1)
        out[f"{name}_cold_ms"] = round(cold, 1)
        print(f"{name:6s} warm median {warm:6.2f} ms   cold {cold:7.1f} ms   {size / 1024:6.1f} KB")
    print(f"hand: {n_tiles} tiles incl. melds, {len(seats[me].flowers)} flowers, {len(mine.waits)} waits")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
