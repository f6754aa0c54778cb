"""``python bot.py --shards 0-3 --shard-count 8`` and MAHJONG_SHARDS / MAHJONG_SHARD_COUNT: which shards a
process runs, and the specs that cannot run refused with one line (exit code 2)."""

from __future__ import annotations

import asyncio

import discord
import pytest

import bot as entry

PG = "postgresql://bot@db/mahjong"


def test_shards_and_count_make_an_auto_sharded_bot_of_those_shards() -> None:
    config = entry.Config("t", PG).sharded("0-3", "8")
    assert config.shards == (0, 1, 2, 3) and config.shard_count == 8
    assert config.process_name is not None and config.process_name.endswith("shards 0-3 of 8")
    bot = entry.build_bot(config)
    assert isinstance(bot, discord.AutoShardedClient)
    assert bot.shard_ids == [0, 1, 2, 3] and bot.shard_count == 8


def test_no_shards_runs_every_shard_of_the_count_discord_recommends() -> None:
    config = entry.Config("t", "x.sqlite3").sharded(None, None)
    bot = entry.build_bot(config)
    # shard_count None: discord.py asks GET /gateway/bot before the first IDENTIFY, so a bot past 2,500
    # servers starts sharded instead of being refused with close code 4011
    assert isinstance(bot, discord.AutoShardedClient) and bot.shard_count is None and bot.shard_ids is None
    assert config.shards is None and config.shard_count is None  # to the cluster: one process runs everything


def test_every_shard_in_one_process_may_use_sqlite() -> None:
    assert entry.Config("t", "x.sqlite3").sharded("0-1", "2").shards == (0, 1)


@pytest.mark.parametrize(
    ("shards", "count", "says"),
    [
        ("0-3", None, "--shards needs --shard-count"),
        ("0-3", "zero", "--shard-count must be a whole number"),
        ("0-8", "8", "shard ids run from 0 to 7"),
        ("3-1", "8", "shard ids run from 0 to 7"),
        ("a,b", "8", "such as 0-3 or 0,2,5-7"),
    ],
)
def test_a_spec_that_cannot_run_is_refused_in_one_line(shards: str, count: str | None, says: str) -> None:
    with pytest.raises(SystemExit) as refused:
        entry.Config("t", PG).sharded(shards, count)
    assert says in str(refused.value)


def test_some_shards_need_a_shared_postgresql_database() -> None:
    with pytest.raises(SystemExit, match="PostgreSQL"):
        entry.Config("t", "mahjong.sqlite3").sharded("0-3", "8")


def test_the_environment_names_the_shards(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("MAHJONG_DB", PG)
    monkeypatch.setenv("MAHJONG_SHARDS", "4-7")
    monkeypatch.setenv("MAHJONG_SHARD_COUNT", "8")
    monkeypatch.setenv("MAHJONG_PROCESS_NAME", "host-b")
    config = entry.Config.from_env()
    assert config.shards == (4, 5, 6, 7) and config.shard_count == 8 and config.process_name == "host-b"


def test_a_bad_spec_on_the_command_line_exits_2(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("MAHJONG_DB", "mahjong.sqlite3")
    monkeypatch.delenv("MAHJONG_SHARDS", raising=False)
    monkeypatch.delenv("MAHJONG_SHARD_COUNT", raising=False)
    assert entry.main(["--shards", "0-3", "--shard-count", "8"]) == 2
    assert "PostgreSQL" in capsys.readouterr().err


class Closed:
    close_code = entry.SHARDING_REQUIRED


def sharding_required(*_: object) -> None:
    raise discord.ConnectionClosed(Closed(), shard_id=0)  # type: ignore[arg-type]


def test_too_few_shards_given_exits_2_at_once_instead_of_crash_looping(monkeypatch, capsys) -> None:
    starts: list[object] = []
    monkeypatch.setattr(entry, "serve", lambda bot, token: starts.append(bot) or sharding_required())
    monkeypatch.setattr(entry.time, "sleep", lambda seconds: None)
    config = entry.Config("t", PG).sharded("0-1", "2")
    assert entry.run_with_retries(config) == 2
    assert len(starts) == 1  # one refused IDENTIFY spent, not one per restart
    assert "--shard-count" in capsys.readouterr().err


def test_a_bot_that_outgrew_its_shards_starts_again_with_discords_count(monkeypatch, capsys) -> None:
    starts: list[object] = []

    def serve(bot: object, token: str) -> object:
        starts.append(bot)
        if len(starts) == 1:
            sharding_required()
        return asyncio.sleep(0)

    monkeypatch.setattr(entry, "serve", serve)
    monkeypatch.setattr(entry.time, "sleep", lambda seconds: None)
    assert entry.run_with_retries(entry.Config("t", "x.sqlite3").sharded(None, None)) == 0
    assert len(starts) == 2 and "close code 4011" in capsys.readouterr().err


def test_a_shard_0_standby_runs_a_session_of_shard_0_beside_its_own_shards(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--shard0-standby`` (MAHJONG_SHARD0_STANDBY=1): DM clicks reach this process too, while its home
    shards — the guilds whose tables come back to it — stay its own."""
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("MAHJONG_DB", PG)
    monkeypatch.setenv("MAHJONG_SHARDS", "4-7")
    monkeypatch.setenv("MAHJONG_SHARD_COUNT", "8")
    monkeypatch.setenv("MAHJONG_SHARD0_STANDBY", "1")
    config = entry.Config.from_env()
    assert config.shard0_standby and config.shards == (4, 5, 6, 7)
    bot = entry.build_bot(config)
    assert isinstance(bot, discord.AutoShardedClient) and bot.shard_ids == [0, 4, 5, 6, 7]
    with pytest.raises(SystemExit, match="does not run shard 0 itself"):
        entry.Config("t", PG, shard0_standby=True).sharded("0-3", "8")
