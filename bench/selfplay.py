"""Self-play speed of whole fresh processes, side by side with riichienv's random self-play in the
same run.

    python -m bench.selfplay [--hands 300] [--seed 1] [--runs 5] [--policies random,easy,strong]

Each figure is a fresh ``python -m engine.selfplay --hands H --seed S --policy P --no-check``
(full taiwan16 rules, scoring and settlement), timed from outside: start-up, imports and the memo
tables that start empty in every process are all in it. Beside every random run, in turn, a fresh
``python -m bench.riichienv_selfplay`` plays as many hands of riichienv's random self-play (the
peer: Rust, through its Python API), so the two share the machine's state of the moment; the
ratio is taken pair by pair, then its median.

Times are the children's CPU seconds (user + system, from ``getrusage``): on a shared machine a
process's wall time also counts the time it waited for a core, CPU time does not; the wall medians
are printed beside them. One warm-up round runs first, not counted: it also writes the bytecode
caches, which both packages then use, as an installed package does (``PYTHONDONTWRITEBYTECODE`` is
lifted for the children). Figures are medians over ``--runs`` with min–max; the last stdout line
is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field

PEER = "riichienv"


@dataclass
class Runs:
    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    loop: list[float] = field(default_factory=list)  # the child's own hands/s, set-up and start-up left out


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float, dict]:
    """(CPU seconds, wall seconds, the child's JSON line) of one fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, json.loads(done.stdout.strip().splitlines()[-1])


def ours(policy: str, hands: int, seed: int, rules: str) -> list[str]:
    return [
        sys.executable, "-m", "engine.selfplay", "--rules", rules, "--hands", str(hands),
        "--seed", str(seed), "--policy", policy, "--no-check",
    ]  # fmt: skip


def peer(hands: int, seed: int) -> list[str]:
    return [sys.executable, "-m", "bench.riichienv_selfplay", "--hands", str(hands), "--seed", str(seed)]


def spread(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.selfplay", description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rules", default="taiwan16")
    parser.add_argument("--policies", default="random,easy,strong")
    args = parser.parse_args(argv)
    policies = args.policies.split(",")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    runs: dict[str, Runs] = {name: Runs() for name in [*policies, PEER]}
    ratios: list[float] = []  # peer CPU / our random CPU, pair by pair: how many times faster we are
    for round_ in range(args.runs + 1):
        for policy in policies:
            cpu, wall, out = timed(ours(policy, args.hands, args.seed, args.rules), env)
            if policy == "random":
                peer_cpu, peer_wall, peer_out = timed(peer(args.hands, args.seed), env)
            if round_ == 0:
                continue  # the warm-up round
            runs[policy].cpu.append(cpu)
            runs[policy].wall.append(wall)
            runs[policy].loop.append(out["hands_per_sec"])
            if policy == "random":
                runs[PEER].cpu.append(peer_cpu)
                runs[PEER].wall.append(peer_wall)
                runs[PEER].loop.append(peer_out["hands_per_sec"])
                ratios.append(peer_cpu / cpu)
    result: dict[str, object] = {"hands": args.hands, "seed": args.seed, "runs": args.runs, "rules": args.rules}
    for name, r in runs.items():
        if not r.cpu:
            continue
        cpu_s, wall_s = spread(r.cpu), spread(r.wall)
        result[name] = {
            "hands_per_sec": round(args.hands / cpu_s["median"], 1),  # of process CPU time, all included
            "hands_per_sec_wall": round(args.hands / wall_s["median"], 1),
            "cpu_s": {k: round(v, 3) for k, v in cpu_s.items()},
            "wall_s": {k: round(v, 3) for k, v in wall_s.items()},
            "loop_hands_per_sec": round(statistics.median(r.loop), 1),
        }
        print(
            f"{name:10s} {args.hands / cpu_s['median']:7.1f} hands/s   CPU {cpu_s['median']:.3f} s"
            f" ({cpu_s['min']:.3f}–{cpu_s['max']:.3f})   wall {wall_s['median']:.3f} s"
            f" ({wall_s['min']:.3f}–{wall_s['max']:.3f})   in its loop {statistics.median(r.loop):.0f} hands/s"
        )
    if ratios:
        ratio = spread(ratios)
        result["random_vs_riichienv"] = {k: round(v, 3) for k, v in ratio.items()}
        print(
            f"random self-play vs riichienv's: {ratio['median']:.2f}× as fast"
            f" ({ratio['min']:.2f}–{ratio['max']:.2f}, pair by pair)"
        )
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
