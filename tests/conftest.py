"""Fixtures shared by every test folder: one throw-away PostgreSQL server for the whole run, and a
fresh database of each kind."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.pgcluster import Cluster, find_bindir

# The bots the tests start (in the test's process, and as processes: the sandbox, the cluster) draw each
# sprite when first used instead of spending 10 s of a core filling every cache at start: on CI's two cores
# that warm-up, in a few dozen processes, was minutes of the run. tests/render/test_warm_up.py tests it.
os.environ.setdefault("MAHJONG_WARM_UP", "0")


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


@pytest.fixture(autouse=True)
def _plain_command_names() -> Iterator[None]:
    """A bot that synced learns its commands' ids for the whole process (cogs.i18n.COMMANDS): forget them
    after each test, so the next one starts as a bot does before its sync, with plain command names."""
    yield
    from cogs.i18n import COMMANDS

    COMMANDS.forget()


BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def target(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[str]:
    """Where a fresh empty database is: an SQLite file path, or a ``postgresql://`` URL; tests that take
    it (or a fixture built on it) run once on each."""
    if backend == "sqlite":
        yield str(tmp_path / "mahjong.sqlite3")
        return
    yield await _pg_database(request)


@pytest.fixture
async def pg_target(request: pytest.FixtureRequest) -> AsyncIterator[str]:
    """A fresh empty database on the throw-away PostgreSQL server, for PostgreSQL's own faults."""
    yield await _pg_database(request)


async def _pg_database(request: pytest.FixtureRequest) -> str:
    cluster = request.getfixturevalue("pg_cluster")
    name = await cluster.create_database()
    request.addfinalizer(lambda: asyncio.run(cluster.drop_database(name)))
    return str(cluster.url(name))
