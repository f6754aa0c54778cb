"""Entry point: read the configuration, build the bot, load the cogs, run.

    DISCORD_TOKEN=... python bot.py            (or put DISCORD_TOKEN in a .env file)
    python bot.py --sync                       (re-sync the slash commands even if unchanged)
    python bot.py --sandbox OUTDIR [--hands N] [--seed S]   (no token: play against a local stand-in)
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import logging
import os
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

import discord
from discord.ext import commands

import render
from cogs.i18n import CatalogueTranslator
from cogs.mahjong.runner import Timing
from data import Store, StoreError

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.calculator", "cogs.mahjong")
SYNCED_KEY = "commands_synced"  # bot_settings: the fingerprint of the commands last synced globally
NO_TOKEN = (
    "DISCORD_TOKEN is not set: export DISCORD_TOKEN=... or put DISCORD_TOKEN=... in a .env file. "
    "To try the bot without Discord: python bot.py --sandbox OUTDIR"
)


@dataclass(frozen=True, slots=True)
class Config:
    token: str
    database: str | Path  # an SQLite file, ":memory:", or a postgresql:// URL (a Path would fold its "//")
    sync_guild: int | None = None  # sync commands to one guild at start (instant) instead of globally
    timing: Timing = field(default_factory=Timing)
    seed: int | None = None  # seeds every match's shuffle (tests, the sandbox); None: unpredictable
    force_sync: bool = False  # sync the global commands even when they are as last synced

    @classmethod
    def from_env(cls) -> Config:
        try:
            from dotenv import load_dotenv

            load_dotenv()
        except ImportError:  # pragma: no cover - python-dotenv is in requirements.txt
            pass
        token = os.environ.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise SystemExit(NO_TOKEN)
        guild = os.environ.get("DISCORD_GUILD_ID", "").strip()
        return cls(
            token=token,
            database=os.environ.get("MAHJONG_DB", "mahjong.sqlite3"),
            sync_guild=int(guild) if guild.isdigit() else None,
        )


class MahjongBot(commands.Bot):
    """The table host. Shared resources open in setup_hook and close in close()."""

    def __init__(self, config: Config, **options: object) -> None:
        intents = discord.Intents.default()
        # the bot never reads messages (everything arrives as interactions): no message events to parse
        intents.guild_messages = intents.dm_messages = intents.typing = intents.dm_typing = False
        options.setdefault("chunk_guilds_at_startup", False)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, **options)
        self.config = config
        self.timing = config.timing
        self.store: Store  # opened in setup_hook

    async def setup_hook(self) -> None:
        # fill the render caches in a worker thread while we log in: the first hand image is as fast
        # as the rest, and start-up does not wait for it
        self.warming = asyncio.create_task(asyncio.to_thread(render.warm_up), name="render-warm-up")
        self.store = await Store.open(self.config.database)  # StoreError: one clear line, no start
        await self.tree.set_translator(CatalogueTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        log.info("loaded %s", ", ".join(EXTENSIONS))
        await self.sync_commands()

    async def sync_commands(self) -> None:
        """To the test server at once when DISCORD_GUILD_ID is set. Globally only when the command
        tree (names, options, every translation) differs from the one last synced, or on ``--sync``:
        Discord allows 200 command creations a day, and a bot restarted often must not spend them."""
        if self.config.sync_guild:
            guild = discord.Object(self.config.sync_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            log.info("synced commands to server %s", self.config.sync_guild)
            return
        fingerprint = await self.command_fingerprint()
        if not self.config.force_sync and await self.store.setting(SYNCED_KEY) == fingerprint:
            log.info("commands unchanged since the last sync; not syncing (python bot.py --sync forces it)")
            return
        await self.tree.sync()
        await self.store.set_setting(SYNCED_KEY, fingerprint)
        log.info("synced commands globally")

    async def command_fingerprint(self) -> str:
        """A digest of exactly what a global sync would send."""
        translator = self.tree.translator
        payload = [
            await command.get_translated_payload(self.tree, translator) if translator else command.to_dict(self.tree)
            for command in self.tree.get_commands()
        ]
        return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()).hexdigest()

    async def close(self) -> None:
        await super().close()  # unloads the cogs: every table stores what it still holds
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()

    async def on_ready(self) -> None:
        log.info("logged in as %s in %d servers", self.user, len(self.guilds))


def sandbox_bot(token: str, database: str | Path, seed: int) -> MahjongBot:
    """The bot as the sandbox runs it: quick pauses, seeded, and synced at every start (a fresh
    stand-in knows no commands, whatever the database remembers of the last sync)."""
    timing = Timing(ai_delay=0.0, hand_pause=0.2, edit_interval=0.05, timer_scale=1.0)
    config = Config(token=token, database=database, timing=timing, seed=seed, force_sync=True)
    return MahjongBot(config, guild_ready_timeout=0.05)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bot.py", description="The mahjong table host for Discord.")
    parser.add_argument("--sandbox", metavar="OUTDIR", help="play against a local Discord stand-in, write a transcript")
    parser.add_argument("--hands", type=int, default=1, help="hands to play in the sandbox (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="the sandbox's seed (default 1)")
    parser.add_argument("--db", help="SQLite file or postgresql:// URL for the sandbox (default: in memory)")
    parser.add_argument("--sync", action="store_true", help="sync the slash commands even if unchanged")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.sandbox:
        from devserver.sandbox import run_sandbox

        return asyncio.run(
            run_sandbox(Path(args.sandbox), sandbox_bot, hands=args.hands, seed=args.seed, db=args.db)
        )
    try:
        config = Config.from_env()
    except SystemExit as stop:
        print(stop, file=sys.stderr)
        return 2
    if args.sync:
        config = replace(config, force_sync=True)
    try:
        MahjongBot(config).run(config.token, log_handler=None)
    except discord.LoginFailure:
        print("Discord refused DISCORD_TOKEN (improper token): check it in the Developer Portal.", file=sys.stderr)
        return 2
    except StoreError as error:
        print(f"The database cannot be used: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
