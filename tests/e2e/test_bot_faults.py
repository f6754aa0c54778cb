"""Start-up faults are one clear line; storage failing during play never stops a table or loses a move."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

import bot as entry
from data import Store, StoreLocked
from devserver.config import RateLimits
from devserver.people import Person

from .tablebot import build_bot, table_runner


def run_main(monkeypatch, tmp_path, token: str | None, database: str | None = None) -> int:
    monkeypatch.chdir(tmp_path)  # no .env here
    if token is None:
        monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    else:
        monkeypatch.setenv("DISCORD_TOKEN", token)
    monkeypatch.setenv("MAHJONG_DB", database or str(tmp_path / "bot.sqlite3"))
    return entry.main([])


def test_without_a_token_the_bot_says_how_to_set_one_and_how_to_try_the_sandbox(monkeypatch, tmp_path, capsys):
    assert run_main(monkeypatch, tmp_path, None) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "DISCORD_TOKEN" in err[0] and "--sandbox" in err[0]


async def test_a_bad_token_is_one_clear_line_not_a_traceback(harness, monkeypatch, tmp_path, capsys):
    code = await asyncio.to_thread(run_main, monkeypatch, tmp_path, "not-the-token")
    assert code == 2
    err = [line for line in capsys.readouterr().err.splitlines() if "Traceback" in line or "DISCORD_TOKEN" in line]
    assert err == ["Discord refused DISCORD_TOKEN (improper token): check it in the Developer Portal."]


async def test_a_database_newer_than_the_bot_is_refused_in_one_line_and_left_alone(
    harness, devserver, monkeypatch, tmp_path, capsys
):
    database = tmp_path / "newer.sqlite3"
    with sqlite3.connect(database) as db:
        db.execute("PRAGMA user_version = 99")
    before = database.read_bytes()
    code = await asyncio.to_thread(run_main, monkeypatch, tmp_path, devserver.config.token, str(database))
    assert code == 2
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("The database")]
    assert len(lines) == 1 and "99" in lines[0]
    assert database.read_bytes() == before


@pytest.mark.devserver(members=("alice",), rate_limits=RateLimits(time_scale=0.02))
async def test_storage_failing_mid_hand_keeps_the_table_playing_and_loses_no_move(
    harness, devserver, monkeypatch, tmp_path
):
    database = str(tmp_path / "faulty.sqlite3")
    bot = await harness.start(build_bot(database=database))
    alice = devserver.member("alice")
    await (await alice.slash("mahjong create")).message()
    await (await alice.slash("mahjong start")).message()
    await devserver.recorder.wait_until(lambda: table_runner(bot, devserver).session.game, 5, lambda: "a hand")
    runner = table_runner(bot, devserver)
    runner.journal.pending._delays = (0.05,)  # retry quickly in the test
    person = Person(alice)
    await person.act_once()

    real = Store.append_actions
    failing = {"on": True}

    async def locked(self, *args, **kwargs):
        if failing["on"]:
            raise StoreLocked(self.path)
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(Store, "append_actions", locked)
    await person.act_once()  # answered although the move could not be stored yet
    await devserver.wait_for_message(channel="general", predicate=lambda m: "may not be saved" in m.content)
    await person.act_once()
    failing["on"] = False
    await devserver.wait_for_message(channel="general", predicate=lambda m: "nothing was lost" in m.content)
    await runner.journal.flush()
    await runner.journal.pending.drain(5)
    game = runner.session.game
    store = bot.store
    saved = await store.unfinished_tables()
    actions = saved[0].hands[-1].actions
    assert actions == [str(a) for a in game.log][: len(actions)] and len(actions) == len(game.log)
    await runner.close()


def test_discord_out_of_reach_at_start_is_one_line_a_try_and_exit_code_3(monkeypatch, tmp_path, capsys):
    """No traceback: each try is one line, and a supervisor gets a clear exit code."""
    import discord

    monkeypatch.setattr(discord.http.Route, "BASE", "http://127.0.0.1:9/api/v10")  # nothing listens there
    monkeypatch.setattr(entry, "START_RETRY_PAUSES", (0.01, 0.01))
    assert run_main(monkeypatch, tmp_path, "some-token") == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("Could not reach Discord (") for line in err), err
    assert err[-1].endswith("giving up.") and "trying again in 0.01 s" in err[0]


def test_a_guild_id_that_is_not_a_number_is_refused_in_one_line(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("DISCORD_GUILD_ID", "my server")
    assert run_main(monkeypatch, tmp_path, "some-token") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["DISCORD_GUILD_ID must be a server id (digits only), not 'my server'."]


async def test_a_database_server_out_of_reach_at_start_is_tried_again_then_exit_code_3(
    harness, devserver, monkeypatch, tmp_path, capsys
):
    """A database slower than the bot after a reboot is no configuration error: the bot tries again, then
    leaves it to the supervisor (exit 3: restarted), never exit 2 (which README's unit does not restart)."""
    monkeypatch.setattr(entry, "START_RETRY_PAUSES", (0.01,))
    unreachable = "postgresql://bot@127.0.0.1:9/mahjong"  # nothing listens on port 9
    code = await asyncio.to_thread(run_main, monkeypatch, tmp_path, devserver.config.token, unreachable)
    assert code == 3
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("The database")]
    assert len(lines) == 2 and all("cannot be reached" in line for line in lines), lines
    assert lines[0].endswith("trying again in 0.01 s.") and lines[1].endswith("giving up.")
