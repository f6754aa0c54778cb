"""Start-up syncs the slash commands globally only when they changed since the last sync (stored in
the database), or when asked to; a test server (DISCORD_GUILD_ID) is synced at every start."""

from __future__ import annotations

import discord

import bot as entry


def build_bot(database: str, **config) -> entry.MahjongBot:
    return entry.MahjongBot(
        entry.Config(token="test-token", database=entry.Path(database), **config), guild_ready_timeout=0.05
    )


async def test_a_restart_with_unchanged_commands_does_not_sync_again(harness, devserver, tmp_path):
    database = str(tmp_path / "mahjong.sqlite3")
    first = await harness.start(build_bot(database))
    assert devserver.commands.overwrites == [None]  # the first start syncs globally
    await harness.stop(first)

    second = await harness.start(build_bot(database))
    assert devserver.commands.overwrites == [None]  # same commands, same translations: nothing sent
    reply = await (
        await devserver.member("alice").slash("tai", hand="123456789m456p3455s", win="2s")
    ).message()
    assert reply.embeds[0]["title"] == "3 台"  # the commands synced before still answer
    await harness.stop(second)

    forced = await harness.start(build_bot(database, force_sync=True))  # python bot.py --sync
    assert devserver.commands.overwrites == [None, None]
    await harness.stop(forced)


async def test_a_changed_command_tree_is_synced_at_the_next_start(harness, devserver, tmp_path):
    database = str(tmp_path / "mahjong.sqlite3")
    await harness.stop(await harness.start(build_bot(database)))
    changed = build_bot(database)

    @changed.tree.command(name="ping", description="A command the last sync did not have")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong", ephemeral=True)

    await harness.start(changed)
    assert devserver.commands.overwrites == [None, None]
    assert "ping" in {c["name"] for c in devserver.commands.global_commands}


async def test_a_test_server_is_synced_at_every_start_and_never_globally(harness, devserver, tmp_path):
    database = str(tmp_path / "mahjong.sqlite3")
    guild = devserver.world.guild_id
    for _ in range(2):
        await harness.stop(await harness.start(build_bot(database, sync_guild=guild)))
    assert devserver.commands.overwrites == [guild, guild]


async def test_a_new_bot_token_with_an_old_database_still_syncs(harness, devserver, tmp_path):
    """The fingerprint names the application: another bot's commands are not this one's."""
    database = str(tmp_path / "mahjong.sqlite3")
    await harness.stop(await harness.start(build_bot(database)))
    devserver.world.application_id += 1  # the same database, another application
    await harness.stop(await harness.start(build_bot(database)))
    assert devserver.commands.overwrites == [None, None]


async def test_a_failing_sync_at_start_is_one_warning_and_is_tried_again(harness, devserver, tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(entry, "SYNC_RETRY_PAUSES", (0.05, 0.05))
    fault = devserver.inject_error("PUT", "/applications/{application_id}/commands", status=403, code=50001)
    started = await harness.start(build_bot(str(tmp_path / "mahjong.sqlite3")))
    assert fault.hits and devserver.commands.overwrites == []
    await devserver.recorder.wait_until(lambda: devserver.commands.overwrites == [None], 5, lambda: "the retry")
    warnings = [r for r in caplog.records if "command sync failed" in r.getMessage()]
    assert len(warnings) == 1 and warnings[0].levelname == "WARNING" and warnings[0].exc_info is None
    await harness.stop(started)


async def test_messages_name_commands_as_mentions_with_the_ids_discord_gave_them(harness, devserver, tmp_path):
    """Issue 37: a Chinese client shows /麻將 開桌 where the text said /mahjong create; a mention
    ``</mahjong create:ID>`` is clickable and shown in the reader's command names. The ids come from the
    sync at start, and from a fetch when the commands were already synced (a restart)."""
    database = str(tmp_path / "mahjong.sqlite3")
    for _ in range(2):  # the first start syncs; the second finds them unchanged and fetches their ids
        running = await harness.start(build_bot(database))
        group = next(c for c in devserver.commands.global_commands if c["name"] == "mahjong")
        reply = await (await devserver.member("alice").slash("mahjong join")).message()
        assert f"</mahjong create:{group['id']}>" in reply.content, reply.content
        assert "`/mahjong" not in reply.content
        await harness.stop(running)
    assert devserver.commands.overwrites == [None]


def test_before_a_sync_commands_keep_their_plain_names():
    from cogs.i18n import COMMANDS, t

    COMMANDS.forget()
    assert "/mahjong create" in t("zh-TW", "err.no_table") and "</" not in t("zh-TW", "err.no_table")
    COMMANDS.learn({"mahjong": 42}, {"mahjong": ["create", "join", "help"]})
    assert "</mahjong create:42>" in t("zh-TW", "err.no_table")
    assert t("en", "lobby.footer").count("/mahjong") == 2 and "</" not in t("en", "lobby.footer")  # a footer shows no mention


async def test_an_extension_that_fails_to_load_leaves_the_others_working_and_syncs_nothing(
    harness, devserver, tmp_path, monkeypatch
):
    """Each extension loads on its own (RoboDanny's shape): /tai still answers, and no sync takes the
    failed extension's commands away from the servers."""
    database = str(tmp_path / "mahjong.sqlite3")
    await harness.stop(await harness.start(build_bot(database)))
    monkeypatch.setattr(entry, "EXTENSIONS", (*entry.EXTENSIONS, "cogs.no_such_extension"))
    started = await harness.start(build_bot(database, force_sync=True))
    assert devserver.commands.overwrites == [None]  # the first start's sync only, --sync or not
    assert harness.errors.take("could not load cogs.no_such_extension")
    reply = await (await devserver.member("alice").slash("tai", hand="123456789m456p3455s", win="2s")).message()
    assert reply.embeds[0]["title"] == "3 台"
    await harness.stop(started)
