"""Digests of self-play outcomes, to prove that a change made only for speed changes no game.

    python -m bench.digest [--seeds 3] [--hands 12] [--policies random,auto,easy,normal,strong]

For every rule set and table (:data:`TABLES`) × policy × seed it plays a seeded match the way
``engine.selfplay`` does and hashes, hand by hand, the action log, every event, every view of
every seat and of the table at every step (the views each policy is handed among them), the 眼牌
declarations the strong AI is asked about, and the scored result with its settlement. One line per
table and policy, then the digest of them all; the last stdout line is one JSON object. Run it
before and after a change and compare: any difference names the table and policy that changed.
``engine.selfplay``'s own statistics for each policy (its driver, ``--no-check``) are hashed too.

Views are hashed by their fields' values (a meld by its notation, claimed tile and source), not by
their classes, so a view that holds the same things in a different shape hashes the same.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import random
from collections.abc import Iterable, Sequence
from enum import Enum
from typing import Any

from engine import selfplay
from engine.game import Game
from engine.house_rules import HouseRules
from engine.match import Match
from engine.meld import Meld
from engine.policy import Policy, make_policy
from engine.rules import TableOptions

TABLES: tuple[tuple[str, str, TableOptions], ...] = (
    ("taiwan16", "default", TableOptions()),
    ("taiwan16", "min3-pass-exchange", TableOptions(may_pass_win=True, min_tai=3, exchange=True)),
    ("taiwan16", "self-draw-see-flower", TableOptions(self_draw_only=True, see_wind_see_flower=True)),
    ("taiwan16", "common-lugu", TableOptions(may_pass_win=True, house_rules=HouseRules.resolve("common", {"lugu_tai": 8}))),
    ("taiwan13", "default", TableOptions()),
    ("hongkong", "default", TableOptions()),
    ("hongkong", "min3-bonus", TableOptions(min_tai=3, bonus_tile=True)),
    ("guangdong", "default", TableOptions()),
)
POLICIES = ("random", "auto", "easy", "normal", "strong")  # auto: Game.auto_action (代打)
MAX_STEPS = 5000


def plain(value: Any) -> Any:
    """``value`` as plain data (tuples, dicts, numbers, text): what it holds, not its class."""
    if isinstance(value, Meld):
        return ("meld", str(value), value.claimed, value.source)
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return tuple((f.name, plain(getattr(value, f.name))) for f in dataclasses.fields(value))
    if isinstance(value, dict):
        return tuple(sorted((plain(k), plain(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(plain(v) for v in value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if hasattr(value, "to_dict"):  # HouseRules
        return ("obj", type(value).__name__, plain(value.to_dict()))
    raise TypeError(f"cannot digest a {type(value).__name__}")


class Digest:
    def __init__(self) -> None:
        self._h = hashlib.sha256()

    def add(self, *parts: Any) -> None:
        self._h.update(repr(plain(parts)).encode())
        self._h.update(b"\n")

    def hexdigest(self) -> str:
        return self._h.hexdigest()[:16]


def play_digested(game: Game, policies: Sequence[Policy | None], digest: Digest) -> None:
    """``engine.selfplay.play_hand``'s loop, hashing every view and the events of every step."""
    steps = 0
    seen = 0
    while not game.is_over:
        seat = game.to_act()[0]
        views = [game.view(s) for s in range(4)]
        digest.add("views", views, game.view(None))
        policy = policies[seat]
        view = views[seat]
        declare = getattr(policy, "declare", None)  # (None: 代打, the engine's own auto_action)
        if declare is not None:  # asked as the table would ask it; the answer is hashed, not played
            digest.add("declare", declare(view, game.declarations(seat)))
        legal = game.legal_actions(seat)
        action = game.auto_action(seat) if policy is None else policy.choose(view, legal)
        digest.add("act", str(action), [str(a) for a in legal])
        game.apply(action)
        digest.add("events", [str(e) for e in game.events[seen:]], [e.private for e in game.events[seen:]])
        seen = len(game.events)
        steps += 1
        if steps > MAX_STEPS:
            raise AssertionError("hand did not end")
    digest.add("end", game.view(None), [game.view(s) for s in range(4)], game.outcome)


def table_digest(rules: str, options: TableOptions, policy: str, seeds: Iterable[int], hands: int) -> str:
    digest = Digest()
    for seed in seeds:
        master = random.Random(seed)
        policies: list[Policy | None] = [make_policy(policy, random.Random(master.random())) for _ in range(4)]
        if policy == "auto":
            policies = [None] * 4  # the engine's 代打 (AutoPlayPolicy knows no 換牌)
        match = Match(rules, seed=master.getrandbits(32), rounds=4, options=options)
        for _ in range(hands):
            if match.is_over:
                match = Match(rules, seed=master.getrandbits(32), rounds=4, options=options)
            game = match.new_hand()
            play_digested(game, policies, digest)
            result = match.finish_hand(game)
            digest.add("log", [str(a) for a in game.log], game.header())
            digest.add("result", result.to_dict(), list(match.scores))
    return digest.hexdigest()


def selfplay_digest(policy: str, seed: int, hands: int) -> str:
    """``engine.selfplay.run``'s statistics (timings left out): its own driver, checks off."""
    stats = selfplay.run("taiwan16", hands, seed, policy, check=False)
    for key in ("seconds", "hands_per_sec"):
        stats.pop(key)
    digest = Digest()
    digest.add(sorted(stats.items()))
    return digest.hexdigest()


def digests(seeds: int, hands: int, policies: Iterable[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for policy in policies:
        for rules, name, options in TABLES:
            out[f"{rules}/{name}/{policy}"] = table_digest(rules, options, policy, range(1, seeds + 1), hands)
        out[f"selfplay/{policy}"] = selfplay_digest(policy, 1, hands * 4)
    total = Digest()
    total.add(sorted(out.items()))
    out["all"] = total.hexdigest()
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.digest", description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--hands", type=int, default=12, help="hands per seed, table and policy")
    parser.add_argument("--policies", default=",".join(POLICIES))
    args = parser.parse_args(argv)
    out = digests(args.seeds, args.hands, args.policies.split(","))
    for key, value in out.items():
        print(f"{key:45s} {value}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
