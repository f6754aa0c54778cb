"""Fixtures shared by every test folder: one throw-away PostgreSQL server for the whole run."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.pgcluster import Cluster, find_bindir


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """Started the first time a test asks for PostgreSQL; skipped only where PostgreSQL is not installed
    (``MAHJONG_REQUIRE_POSTGRES=1``, as CI sets it, turns that skip into a failure)."""
    bindir = find_bindir()
    if bindir is None:
        if os.environ.get("MAHJONG_REQUIRE_POSTGRES"):
            pytest.fail("PostgreSQL is required (MAHJONG_REQUIRE_POSTGRES) but no initdb was found")
        pytest.skip("PostgreSQL is not installed here (no initdb): the PostgreSQL store is not tested")
    cluster = Cluster.create(bindir)
    yield cluster
    cluster.destroy()
