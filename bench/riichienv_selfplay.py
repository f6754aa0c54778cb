"""The peer's random self-play, for ``bench.selfplay`` to time beside ours: riichienv (Rust, PyPI
``riichienv``), four of its ``RandomAgent`` players, one hand (kyoku, ``4p-red-single``) per reset,
through its Gym-style API as its README shows it, at its fastest: ``skip_mjai_logging=True`` (its
``RiichiEnv`` constructor's switch; with the MJAI event log on it runs about 30 % slower).

    python -m bench.riichienv_selfplay --hands 300 --seed 1 [--mjai-logging]

Prints one JSON object like ``engine.selfplay``'s (hands, steps, seconds, hands_per_sec). Imports
nothing of this project, so a fresh process of it pays only for the peer's own start-up.
"""

from __future__ import annotations

import argparse
import json
import time


def run(hands: int, seed: int, mjai_logging: bool = False) -> dict:
    # riichienv (the Rust peer) ships no type information
    from riichienv import RiichiEnv  # type: ignore[import-untyped]
    from riichienv.agents import RandomAgent  # type: ignore[import-untyped]

    agent = RandomAgent(seed)
    env = RiichiEnv(game_mode="4p-red-single", seed=seed, skip_mjai_logging=not mjai_logging)
    steps = 0
    start = time.perf_counter()
    for _ in range(hands):
        obs = env.reset()
        while not env.done():
            obs = env.step({seat: agent.act(o) for seat, o in obs.items()})
            steps += 1
    elapsed = time.perf_counter() - start
    return {
        "hands": hands,
        "steps": steps,
        "seconds": round(elapsed, 3),
        "hands_per_sec": round(hands / elapsed, 1) if elapsed else None,
        "peer": "riichienv",
        "mjai_logging": mjai_logging,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.riichienv_selfplay", description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mjai-logging", action="store_true", help="keep riichienv's MJAI event log (slower)")
    args = parser.parse_args(argv)
    print(json.dumps(run(args.hands, args.seed, args.mjai_logging)))


if __name__ == "__main__":
    main()
