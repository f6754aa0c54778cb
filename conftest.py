"""pytest's set-up for the whole project (the shared fixtures are in tests/conftest.py)."""

from __future__ import annotations

import os


def pytest_xdist_auto_num_workers(config: object) -> int:
    """``-n auto``: one worker more than the cores. A third of the suite's time is its bot processes and
    stand-ins waiting on each other (timers, leases, Discord's windows), and a core left idle meanwhile made
    CI's two-core run 10.5 minutes instead of 8.5."""
    return (os.cpu_count() or 1) + 1
