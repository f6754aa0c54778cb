"""Session starts of real bot processes within Discord's limits (issue 41, item 2), against a stand-in that
keeps Discord's own numbers: one IDENTIFY per rate-limit bucket per 5 s (op 9 past it), close code 4011 for
a session that would hold more than 2,500 servers.

- Three processes started at once on one PostgreSQL database take turns (cogs/identify.py,
  data/identify.py) instead of identifying together: none is refused more than once. discord.py alone
  would send all three at once, and the two refused would try again 5 s later, together, and one of
  them be refused a second time.
- A process given no shard settings, its bot in 2,600 servers, asks GET /gateway/bot before its first
  IDENTIFY and starts the three shards Discord recommends one turn apart: no IDENTIFY refused, none spent
  on a 4011.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

import pytest

from devserver import DevServer
from devserver.identify import Start
from devserver.process import BotProcess

DISCORDS = dict(identify_window=5.0, max_concurrency=1)  # what Discord gives a bot below 150,000 servers


def where(server: DevServer) -> tuple[str, str, str]:
    return server.api_url, server.gateway_url, server.config.token


@pytest.mark.devserver(members=("alice",), **DISCORDS)
async def test_three_processes_started_at_once_take_turns_to_identify(pg_target, harness, devserver):
    bots = [
        BotProcess(*where(devserver), database=pg_target, shards=(shard,), shard_count=3, name=f"p{shard}")
        for shard in range(3)
    ]
    try:
        await asyncio.gather(*(bot.start(timeout=120) for bot in bots))
        starts = devserver.gateway.starts
        refused = Counter(identify.shard_id for identify in starts.refused())
        assert all(times <= 1 for times in refused.values()), f"refused more than once: {refused}"
        assert sorted(devserver.gateway.sessions) == [0, 1, 2]
        print(f"identifies {len(starts.identifies)}, refused {sum(refused.values())}")  # the report's figure
        for bot in bots:
            assert bot.errors == []
    finally:
        await asyncio.gather(*(bot.stop() for bot in bots))


@pytest.mark.devserver(members=("alice",), guilds=2600, **DISCORDS)
async def test_a_process_without_shard_settings_past_2500_servers_starts_sharded(harness, devserver, tmp_path: Path):
    bot = BotProcess(*where(devserver), database=str(tmp_path / "m.sqlite3"), shards=None, shard_count=None, name="one")
    try:
        await bot.start(timeout=120)
        identifies = devserver.gateway.starts.identifies
        # as many IDENTIFYs as shards, each one accepted: none refused for coming too soon, none spent on 4011
        assert [(i.shard, i.start) for i in identifies] == [((s, 3), Start.READY) for s in range(3)]
        assert sorted(devserver.gateway.sessions) == [0, 1, 2]
        assert bot.errors == []
    finally:
        await bot.stop()
