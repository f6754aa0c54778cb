"""``python bot.py --shards 0-3 --shard-count 8`` and MAHJONG_SHARDS / MAHJONG_SHARD_COUNT: which shards a
process runs, and the specs that cannot run refused with one line (exit code 2)."""

from __future__ import annotations

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


def test_no_shards_is_one_plain_connection() -> None:
    config = entry.Config("t", "x.sqlite3").sharded(None, None)
    bot = entry.build_bot(config)
    assert not isinstance(bot, discord.AutoShardedClient) and config.shards is None


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
