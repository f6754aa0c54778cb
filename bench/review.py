"""Is the review's evaluation honest? Calibration, agreement of weaker players, and speed.

    python -m bench.review [--hands 2000] [--seed 1]

Plays ``--hands`` hands in matches of one easy, one normal and two strong AI (the seats' levels
rotate from match to match), spread evenly over every rule set and a 三台起胡 taiwan16 table, and
reviews the easy, the normal and the first strong seat of every hand with :mod:`engine.review`.

* Calibration: every reviewed decision, grouped by the expected value the AI gave what was done
  (台-points: a payment is 3 + 台), beside what the hand then brought that seat (its own win, less a
  deal-in): mean predicted, mean actual and the actual mean's 95 % interval (decisions of one hand
  share its outcome, so the interval is clustered by hand and seat).
* Agreement: the share of each level's decisions the strong AI agrees with and the expected points
  lost per hand (a weaker player must agree less and lose more).
* Speed: reviewing one seat of a 16-hand taiwan16 match, median of three.

Progress goes to stderr; the last stdout line is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections import defaultdict

from engine.match import Match
from engine.policy import make_policy
from engine.review import review_match
from engine.rules import PROFILES, TableOptions
from engine.selfplay import play_hand

LEVELS = ("easy", "normal", "strong", "strong")
REVIEWED = ("easy", "normal", "strong")
EDGES = (0.0, 0.5, 1.0, 2.0, 4.0, 8.0)  # bins of predicted value: < 0, 0-0.5, ..., ≥ 8
MATCH_HANDS = 16


def tables() -> dict[str, tuple[str, TableOptions]]:
    out = {rules: (rules, TableOptions()) for rules in PROFILES}
    out["taiwan16 三台起胡"] = ("taiwan16", TableOptions(min_tai=3))
    return out


def play_match(
    rules: str, options: TableOptions, seed: int, levels: list[str], hands: int
) -> tuple[Match, list[list[str]]]:
    """Up to ``hands`` hands of one match; the header and each hand's moves."""
    rng = random.Random(seed)
    match = Match(rules, seed=rng.getrandbits(32), rounds=4, options=options)
    policies = [make_policy(level, random.Random(rng.random())) for level in levels]
    logs: list[list[str]] = []
    while not match.is_over and len(logs) < hands:
        game = match.new_hand()
        play_hand(game, policies, check=False)
        match.finish_hand(game)
        logs.append([str(a) for a in game.log])
    return match, logs


def bin_of(value: float) -> int:
    return sum(value >= e for e in EDGES)


def bin_name(i: int) -> str:
    if i == 0:
        return "< 0"
    if i == len(EDGES):
        return f"≥ {EDGES[-1]:g}"
    return f"{EDGES[i - 1]:g}–{EDGES[i]:g}"


def calibration(rows: list[tuple[float, float, tuple]]) -> list[dict]:
    """``rows`` (predicted, actual, cluster) grouped by predicted value."""
    groups: dict[int, list[tuple[float, float, tuple]]] = defaultdict(list)
    for row in rows:
        groups[bin_of(row[0])].append(row)
    out = []
    for i in sorted(groups):
        group = groups[i]
        n = len(group)
        actual = sum(a for _, a, _ in group) / n
        clusters: dict[tuple, float] = defaultdict(float)
        for _, a, c in group:
            clusters[c] += a - actual
        se = math.sqrt(sum(v * v for v in clusters.values())) / n
        out.append(
            {
                "predicted_bin": bin_name(i),
                "decisions": n,
                "hands": len(clusters),
                "predicted": round(statistics.fmean(p for p, _, _ in group), 2),
                "actual": round(actual, 2),
                "ci95": round(1.96 * se, 2),
            }
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.review", description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    master = random.Random(args.seed)
    report: dict = {"hands": 0, "tables": {}, "agreement": {}}
    per_level: dict[str, list[float]] = {
        lv: [0, 0, 0.0, 0] for lv in REVIEWED
    }  # agreed, decisions, loss, hands
    start = time.perf_counter()
    review_seconds = 0.0
    all_tables = tables()
    for name, (rules, options) in all_tables.items():
        want = args.hands // len(all_tables)
        rows: list[tuple[float, float, tuple]] = []
        played = 0
        m = 0
        while played < want:
            shift = m % 4
            levels = [LEVELS[(s + shift) % 4] for s in range(4)]
            match, logs = play_match(
                rules, options, master.getrandbits(32), levels, min(MATCH_HANDS, want - played)
            )
            played += len(logs)
            t0 = time.perf_counter()
            for level in REVIEWED:
                seat = levels.index(level)
                review = review_match(match.header(), logs, seat)
                stats = per_level[level]
                stats[0] += sum(d.agreed for d in review.decisions)
                stats[1] += len(review.decisions)
                stats[2] += sum(d.loss for d in review.decisions)
                stats[3] += len(review.hands)
                for hand in review.hands:
                    for d in hand.decisions:
                        rows.append((d.done.value, hand.outcome, (m, hand.number, seat)))
            review_seconds += time.perf_counter() - t0
            m += 1
            print(f"{name}: {played}/{want} hands", file=sys.stderr, flush=True)
        report["hands"] += played
        report["tables"][name] = calibration(rows)
    for level, (agreed, n, loss, hands) in per_level.items():
        report["agreement"][level] = {
            "decisions": int(n),
            "agree": round(agreed / n, 3) if n else None,
            "loss_per_hand": round(loss / hands, 2) if hands else None,
        }
    agree = [report["agreement"][lv]["agree"] for lv in REVIEWED]
    losses = [report["agreement"][lv]["loss_per_hand"] for lv in REVIEWED]
    report["weaker_scores_lower"] = agree == sorted(agree) and losses == sorted(losses, reverse=True)
    match, logs = play_match("taiwan16", TableOptions(), args.seed, list(LEVELS), MATCH_HANDS)
    timings = []
    for _ in range(3):
        t0 = time.perf_counter()
        review_match(match.header(), logs, 0)
        timings.append(time.perf_counter() - t0)
    report["review_16_hands_seconds"] = round(statistics.median(timings), 3)
    report["match_hands"] = len(logs)
    report["review_hands_per_sec"] = round(report["hands"] * len(REVIEWED) / review_seconds, 1)
    report["seconds"] = round(time.perf_counter() - start, 1)
    for name, table in report["tables"].items():
        print(f"\n{name}\n| predicted | decisions | hands | mean predicted | mean actual (95 %) |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for r in table:
            print(
                f"| {r['predicted_bin']} | {r['decisions']} | {r['hands']} | {r['predicted']:+.2f} "
                f"| {r['actual']:+.2f} ± {r['ci95']:.2f} |"
            )
    print(json.dumps(report, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
