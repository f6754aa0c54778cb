"""devserver/process.py reads a bot process's log: each ERROR record is one error, its traceback with it,
so the benchmarks count an exception once and report where it came from."""

from __future__ import annotations

import asyncio

from devserver.process import BotProcess

LOG = """\
2026-12-03 09:00:00,001 WARNING [bench-0] cogs.mahjong.live: an edit was refused
2026-12-03 09:00:01,002 ERROR [bench-0] cogs.mahjong.tables: table 7 could not post its picture
Traceback (most recent call last):
  File "cogs/mahjong/tables.py", line 10, in post
    raise ValueError("boom")
ValueError: boom
2026-12-03 09:00:02,003 INFO [bench-0] cogs.mahjong.cluster: took 3 tables over
Traceback (most recent call last):
  File "bot.py", line 1, in <module>
KeyError: 'x'
"""


async def test_an_error_and_its_traceback_are_one_error_and_a_bare_traceback_is_another() -> None:
    bot = BotProcess("http://api", "ws://gateway", "token", database=":memory:", shards=None, shard_count=None, name="bench-0")
    stream = asyncio.StreamReader()
    stream.feed_data(LOG.encode())
    stream.feed_eof()
    await bot._read_stderr(stream)
    assert len(bot.errors) == 2
    assert bot.errors[0].splitlines()[0].endswith("table 7 could not post its picture")
    assert bot.errors[0].splitlines()[-1] == "ValueError: boom" and len(bot.errors[0].splitlines()) == 5
    assert bot.errors[1].splitlines() == ["Traceback (most recent call last):", '  File "bot.py", line 1, in <module>', "KeyError: 'x'"]
    assert len(bot.log) == len(LOG.splitlines())
