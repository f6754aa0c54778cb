"""``python -m bench.tables`` prints the capacity figures issue 30 names, with their exact keys."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_table_benchmark_reports_requests_prompts_loop_lag_and_gateway_warnings():
    run = subprocess.run(
        [sys.executable, "-m", "bench.tables", "--tables", "2", "--hands", "1", "--no-compare", "--no-latency",
         "--ai-delay", "0"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert run.returncode == 0, run.stderr[-2000:]
    assert figures["hands"] == 2 and figures["errors"] == 0 and figures["gateway_behind"] == 0
    # a hand costs at least its table post, its DM and its score sheet, and far fewer than before (39-54)
    assert 3 <= figures["requests_per_hand"] <= 30
    assert 0 < figures["p99_prompt_ms"] and 0 <= figures["loop_lag_p99_ms"]
