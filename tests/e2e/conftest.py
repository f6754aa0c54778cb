"""Fixtures for end-to-end tests: a DevServer per test and a harness that runs the real bot against it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from devserver import Config, DevServer
from devserver.fixtures import Harness


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "devserver(members=..., channels=..., **config): members, channels and Config fields for the stand-in",
    )


@pytest.fixture
async def harness(request: pytest.FixtureRequest) -> AsyncIterator[Harness]:
    """Starts the stand-in; at teardown stops the bots, and fails the test on any unexpected violation or error log."""
    marker = request.node.get_closest_marker("devserver")
    options = dict(marker.kwargs) if marker else {}
    members = tuple(options.pop("members", ("alice", "bob", "carol", "dave")))
    channels = tuple(options.pop("channels", ("general",)))
    # Discord's 5 s between IDENTIFYs (devserver/identify.py) only where a test asks for it: the other tests
    # start bot after bot within seconds, and each would wait out a refusal as the real bot does
    options.setdefault("identify_window", 0.0)
    server = DevServer(Config(**options), channels=channels, members=members)
    async with Harness(server) as running:
        yield running
    problems = running.problems()
    if problems:
        pytest.fail("the stand-in saw problems:\n  " + "\n  ".join(problems), pytrace=False)


@pytest.fixture
def devserver(harness: Harness) -> DevServer:
    return harness.server
