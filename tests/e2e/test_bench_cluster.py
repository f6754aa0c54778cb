"""``python -m bench.cluster`` (issues 29, 41) prints the fields the issues name, with their exact keys, and loses
no move when it kills a process mid-hand — with ``--kill all``, the tables' owner and then shard 0's: its code
path, at two tables and without the SQLite baseline."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NAMED = ("p50_ms", "p99_ms", "forwarded_p99_ms", "errors", "takeover_s", "lost_moves", "dm_gap_s")


def test_the_cluster_benchmark_kills_a_process_and_reports_its_takeover(pg_cluster) -> None:
    # pg_cluster: skipped (or failed, in CI) exactly where the PostgreSQL tests are
    run = subprocess.run(
        [sys.executable, "-m", "bench.cluster", "--processes", "2", "--tables", "2", "--hands", "1", "--no-baseline",
         "--lease-seconds", "3", "--peek-every", "4", "--kill", "all",
         "--render-processes", "0"],  # pictures in threads: this checks the code path, not the speed
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    lines = run.stdout.strip().splitlines()
    if not lines:
        pytest.fail(f"no figures printed: {run.stderr[-2000:]}")
    figures = json.loads(lines[-1])
    assert all(key in figures for key in NAMED), sorted(figures)
    assert figures["dm_p99_ms"] is not None, "DM clicks were answered"
    assert [k["victim"] for k in figures["kills"]] == ["bench-1", "bench-0"], "the owner, then shard 0's process"
    assert all(k["takeover_s"] is not None and k["dm_gap_s"] is not None for k in figures["kills"])
    assert figures["lost_moves"] == 0
    assert figures["takeover_s"] is not None and figures["takeover_s"] > 0, "the tables played again after the kill"
    steps = figures["takeover_timeline"]
    assert steps["claimed"]["tables"] == 2 and steps["first_move"]["tables"] == 2
