"""Entry point: read the configuration, build the bot, load the cogs, run.

DISCORD_TOKEN=... python bot.py        (or put DISCORD_TOKEN in a .env file)
"""

from __future__ import annotations

import logging
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import discord
from discord.ext import commands

log = logging.getLogger("mahjong.bot")

EXTENSIONS = ("cogs.calculator",)


@dataclass(frozen=True, slots=True)
class Config:
    token: str
    database: Path
    sync_guild: int | None = None  # sync commands to one guild at start (instant) instead of globally

    @classmethod
    def from_env(cls) -> Config:
        try:
            from dotenv import load_dotenv

            load_dotenv()
        except ImportError:  # pragma: no cover - python-dotenv is in requirements.txt
            pass
        token = os.environ.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise SystemExit("DISCORD_TOKEN is not set: export it or put DISCORD_TOKEN=... in a .env file")
        guild = os.environ.get("DISCORD_GUILD_ID", "").strip()
        return cls(
            token=token,
            database=Path(os.environ.get("MAHJONG_DB", "mahjong.sqlite3")),
            sync_guild=int(guild) if guild.isdigit() else None,
        )


class MahjongBot(commands.Bot):
    """The table host. Shared resources open in setup_hook and close in close()."""

    def __init__(self, config: Config, **options: object) -> None:
        intents = discord.Intents.default()
        options.setdefault("chunk_guilds_at_startup", False)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, **options)
        self.config = config

    async def setup_hook(self) -> None:
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.config.sync_guild:
            guild = discord.Object(self.config.sync_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        log.info("loaded %s and synced commands", ", ".join(EXTENSIONS))

    async def on_ready(self) -> None:
        log.info("logged in as %s in %d servers", self.user, len(self.guilds))


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    config = Config.from_env()
    MahjongBot(config).run(config.token, log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
