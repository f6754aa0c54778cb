"""Entry point: read the configuration, build the bot, load the cogs, run.

    DISCORD_TOKEN=... python bot.py            (or put DISCORD_TOKEN in a .env file)
    python bot.py --sync                       (re-sync the slash commands even if unchanged)
    python bot.py --shards 0-3 --shard-count 8 (this process runs Discord's shards 0-3 of 8; several such
                                               processes share one PostgreSQL database: README, "Several processes";
                                               without them: every shard of the count Discord asks for)
    python bot.py --sandbox OUTDIR [--hands N] [--seed S] [--db FILE] [--rules R] [--lang L]
                                               (no token: play against a local stand-in)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import logging
import os
import signal
import socket
import sys
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import aiohttp
import discord
from discord.ext import commands

import render
from cogs.i18n import COMMANDS, SUPPORTED, CatalogueTranslator
from cogs.identify import Identifies
from cogs.mahjong.observer import TableObserver
from cogs.mahjong.pictures import Painter, default_workers
from cogs.mahjong.skew import DiscordClock
from cogs.shutdown import Gate
from data import Store, StoreError, StoreUnreachable
from data.identify import HOLD as IDENTIFY_HOLD
from engine.cli import ToolParser
from engine.rules import PROFILES
from engine.rulesets import DEFAULT_RULES
from table.timing import Timing

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.calculator", "cogs.mahjong")
# what a table needs in its channel: View Channel, Send Messages (and in Threads), Embed Links, Attach
# Files, Read Message History; and Create Private Threads for a delayed table's spectator thread
# (cogs/mahjong/watch.py); 343597501440 as the invite link's integer
INVITE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_private_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
)
START_RETRY_PAUSES = (5.0, 15.0, 30.0, 60.0, 120.0)  # seconds between tries to reach Discord at start
SYNC_RETRY_PAUSES = (10.0, 60.0, 300.0)
# Discord out of reach: no network, DNS, a 5xx after discord.py's own retries, a gateway that fails
NETWORK_FAILURES = (discord.HTTPException, discord.GatewayNotFound, aiohttp.ClientError, OSError, asyncio.TimeoutError)
SYNCED_KEY = "commands_synced"  # bot_settings: the fingerprint of the commands last synced globally
SHARDING_REQUIRED = 4011  # the gateway's close code for a session that would hold too many servers
SHARDS_TOO_FEW = (
    "Discord refused a shard of {}: it would hold more than 2,500 servers (close code 4011). Give every process "
    "a larger --shard-count (MAHJONG_SHARD_COUNT; the log says the count Discord recommends), or none at all "
    "to run as many shards as Discord asks for in one process."
)
NO_TOKEN = (
    "DISCORD_TOKEN is not set: export DISCORD_TOKEN=... or put DISCORD_TOKEN=... in a .env file. "
    "To try the bot without Discord: python bot.py --sandbox OUTDIR"
)


def env_flag(name: str, default: bool) -> bool:
    """A yes/no setting from the environment: 1/yes/true/on or 0/no/false/off; anything else, the default."""
    value = os.environ.get(name, "").strip().lower()
    if value in ("1", "yes", "true", "on"):
        return True
    if value in ("0", "no", "false", "off"):
        return False
    return default


def warm_up_wanted() -> bool:
    """``MAHJONG_WARM_UP`` (on unless off): whether a start fills the picture caches."""
    return env_flag("MAHJONG_WARM_UP", True)


@dataclass(frozen=True, slots=True)
class Config:
    token: str
    database: str | Path  # an SQLite file, ":memory:", or a postgresql:// URL (a Path would fold its "//")
    sync_guild: int | None = None  # sync commands to one guild at start (instant) instead of globally
    timing: Timing = field(default_factory=Timing)
    seed: int | None = None  # seeds every match's shuffle (tests, the sandbox); None: unpredictable
    force_sync: bool = False  # sync the global commands even when they are as last synced
    shards: tuple[int, ...] | None = None  # Discord shards this process runs (None: all of shard_count)
    shard_count: int | None = None  # None: Discord's recommended count (GET /gateway/bot), every shard here
    process_name: str | None = None  # this process among several (leases, mailbox); default host + shards
    lease_seconds: float = 8.0  # a table's lease (data/leases.py): how soon another process takes it over
    picture_workers: int = 0  # processes that draw the table and hand pictures (cogs/mahjong/pictures.py)
    # fill the picture caches at start (about 10 s of a core, each picture worker too): the first hands are
    # drawn as fast as the rest; MAHJONG_WARM_UP=0 draws each sprite when first used (test runs, which start
    # many short-lived bots, and small machines)
    warm_up: bool = field(default_factory=warm_up_wanted)
    identify_hold: float = IDENTIFY_HOLD  # seconds a turn to IDENTIFY is held across processes (cogs/identify.py)
    # the web table (web/, issue 43): off unless MAHJONG_WEB=host:port; its links' public address
    # (MAHJONG_WEB_URL, behind a reverse proxy) and the links' HMAC secret (MAHJONG_WEB_SECRET)
    web: str | None = None
    web_url: str | None = None
    web_secret: str | None = None
    # the web table as a Discord Activity (web/activity.py): the app's OAuth2 client (MAHJONG_CLIENT_ID,
    # MAHJONG_CLIENT_SECRET), and frames besides Discord's the page may be run in (MAHJONG_ACTIVITY_ORIGINS)
    client_id: str | None = None
    client_secret: str | None = None
    activity_origins: tuple[str, ...] = ()
    # also run a standby session of shard 0 (it hears every DM click): DM play outlives shard 0's process
    shard0_standby: bool = False

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
        if guild and not guild.isdigit():
            raise SystemExit(f"DISCORD_GUILD_ID must be a server id (digits only), not {guild!r}.")
        workers = os.environ.get("MAHJONG_PICTURE_WORKERS", "").strip()
        if workers and not workers.isdigit():
            raise SystemExit(f"MAHJONG_PICTURE_WORKERS must be a whole number (0: draw in threads), not {workers!r}.")
        web = os.environ.get("MAHJONG_WEB", "").strip()
        host, colon, port = web.rpartition(":")
        if web and (not colon or not port.isdigit() or int(port) > 65535):
            raise SystemExit(f"MAHJONG_WEB must be host:port (e.g. 127.0.0.1:8080), not {web!r}.")
        config = cls(
            token=token,
            database=os.environ.get("MAHJONG_DB", "mahjong.sqlite3"),
            sync_guild=int(guild) if guild.isdigit() else None,
            picture_workers=int(workers) if workers else default_workers(),
            web=web or None,
            web_url=os.environ.get("MAHJONG_WEB_URL", "").strip() or None,
            web_secret=os.environ.get("MAHJONG_WEB_SECRET", "").strip() or None,
            client_id=os.environ.get("MAHJONG_CLIENT_ID", "").strip() or None,
            client_secret=os.environ.get("MAHJONG_CLIENT_SECRET", "").strip() or None,
            activity_origins=tuple(o.strip() for o in os.environ.get("MAHJONG_ACTIVITY_ORIGINS", "").split(",") if o.strip()),
        )
        standby = env_flag("MAHJONG_SHARD0_STANDBY", False)
        return replace(config, shard0_standby=standby).sharded(
            os.environ.get("MAHJONG_SHARDS", "").strip() or None,
            os.environ.get("MAHJONG_SHARD_COUNT", "").strip() or None,
            os.environ.get("MAHJONG_PROCESS_NAME", "").strip() or None,
        )

    def sharded(self, shards: str | None, count: str | None, name: str | None = None) -> Config:
        """The shards this process runs (``--shards``/``MAHJONG_SHARDS``, ``--shard-count``/
        ``MAHJONG_SHARD_COUNT``); SystemExit with one line for a spec that cannot be run.

        >>> Config("t", "x.sqlite3").sharded(None, "2").shards
        (0, 1)
        >>> Config("t", "postgresql://db/m").sharded("0-1,3", "4").process_name.endswith("shards 0-1,3 of 4")
        True
        """
        if shards is None and count is None:
            return replace(self, process_name=name or self.process_name or socket.gethostname())
        if count is None:
            raise SystemExit("--shards needs --shard-count (MAHJONG_SHARD_COUNT): how many shards the bot has in all.")
        if not count.isdigit() or not 1 <= int(count) <= 4096:
            raise SystemExit(f"--shard-count must be a whole number from 1 to 4096, not {count!r}.")
        total = int(count)
        chosen = parse_shards(shards, total) if shards is not None else tuple(range(total))
        if len(chosen) < total and not str(self.database).startswith(("postgresql://", "postgres://")):
            raise SystemExit(
                "A process that runs only some shards shares its tables with the others: set MAHJONG_DB to a "
                "PostgreSQL database that every process uses (SQLite is one process's file)."
            )
        spec = shards if shards is not None else f"0-{total - 1}"
        default = f"{socket.gethostname()} shards {spec} of {total}"
        if self.shard0_standby and 0 in chosen:
            raise SystemExit("--shard0-standby is for a process that does not run shard 0 itself (--shards).")
        return replace(self, shards=chosen, shard_count=total, process_name=name or default)


def parse_shards(spec: str, count: int) -> tuple[int, ...]:
    """``0-3`` or ``0,2,5-7``: the shard ids, each below ``count`` (SystemExit with one line otherwise).

    >>> parse_shards("0-3", 8)
    (0, 1, 2, 3)
    >>> parse_shards("5,1-2", 8)
    (1, 2, 5)
    """
    found: set[int] = set()
    for part in spec.split(","):
        low, _, high = part.strip().partition("-")
        if not low.isdigit() or (high and not high.isdigit()):
            raise SystemExit(f"--shards takes shard ids such as 0-3 or 0,2,5-7, not {spec!r}.")
        first, last = int(low), int(high or low)
        if first > last or last >= count:
            raise SystemExit(f"--shards {spec}: shard ids run from 0 to {count - 1} (--shard-count {count}).")
        found.update(range(first, last + 1))
    return tuple(sorted(found))


def learn_commands(synced: list[discord.app_commands.AppCommand]) -> None:
    """Keep the ids Discord gave the commands, so messages name them as mentions (``</mahjong create:ID>``,
    clickable and shown in the reader's command names); cogs.i18n.CommandMentions."""
    COMMANDS.learn(
        {c.name: c.id for c in synced},
        {c.name: [o.name for o in c.options if isinstance(o, discord.app_commands.AppCommandGroup)] for c in synced},
    )


class MahjongBot(commands.Bot):
    """The table host. Shared resources open in setup_hook and close in close()."""

    def __init__(self, config: Config, *, observer: TableObserver | None = None, **options: Any) -> None:
        # guilds alone: channels, threads and the servers the bot is in (a deleted channel, a kick end their
        # tables). Everything people do arrives as interactions, which need no intent; messages, reactions,
        # voice states, typing, members and the rest are events the bot never reads, only parses
        intents = discord.Intents(guilds=True)
        options.setdefault("chunk_guilds_at_startup", False)
        # nothing a message says pings anyone unless that message names whom it is for (a nickname
        # like "<@&role>" or "@everyone" in a table message must not ping through the bot)
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        # every REST reply's Date header says how far this host's clock is from Discord's (cogs/mahjong/skew.py):
        # interactions' ages, and so their 3 seconds, are read by Discord's clock
        self.discord_clock = DiscordClock()
        options.setdefault("http_trace", self.discord_clock.trace())
        # no voice here: discord.py's start-up warnings about voice libraries would only alarm an admin
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, **options)
        self.config = config
        self.timing = config.timing
        self.table_observer = observer  # sees every table's effects (the benchmarks): cogs/mahjong/observer.py
        self.store: Store  # opened in setup_hook
        self.syncing: asyncio.Task[None] | None = None  # a command sync tried again after failing at start
        self.painter = Painter(config.picture_workers, warm=config.warm_up)  # where the pictures are drawn
        self._cold = threading.Event()  # set at shutdown: a warm-up still drawing stops (nobody will see it)
        self.gate = Gate(self)  # interactions in flight, and none taken once shutting down (cogs/shutdown.py)
        self.identifies = Identifies(self, config.identify_hold)  # turns to IDENTIFY across processes
        self._shutting_down: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.config.database)  # StoreError: one clear line, no start
        # fill the render caches in a worker thread while we connect: the first hand image is as fast as
        # the rest, and start-up does not wait for it (after the store: a database that cannot be used
        # ends the start at once, not after seconds of drawing nobody will see)
        self.warming = asyncio.create_task(self._warm_up(), name="render-warm-up")
        self.gate.install()  # before the cogs load: the cluster's router (cog_load) wraps it
        await self.tree.set_translator(CatalogueTranslator())
        failed = [extension for extension in EXTENSIONS if not await self._load(extension)]
        log.info("loaded %s", ", ".join(e for e in EXTENSIONS if e not in failed))
        if failed:  # a sync now would take that extension's commands away from every server
            log.warning("not syncing commands: %s did not load (the commands Discord has stay)", ", ".join(failed))
            return
        await self.sync_at_start()

    async def _load(self, extension: str) -> bool:
        """Load one extension on its own (RoboDanny's shape): one that fails is logged and the others work;
        storage that cannot be used ends the start, as at Store.open."""
        try:
            await self.load_extension(extension)
        except commands.ExtensionFailed as error:
            if isinstance(error.original, StoreError):
                raise error.original from None
            log.exception("could not load %s", extension)
            return False
        except commands.ExtensionError:
            log.exception("could not load %s", extension)
            return False
        return True

    async def _warm_up(self) -> None:
        if self.config.warm_up:
            await asyncio.gather(asyncio.to_thread(render.warm_up, stop=self._cold), self.painter.warm_up())

    async def sync_commands(self) -> None:
        """To the test server at once when DISCORD_GUILD_ID is set. Globally only when the command
        tree (names, options, every translation) differs from the one last synced, or on ``--sync``:
        Discord allows 200 command creations a day, and a bot restarted often must not spend them."""
        if self.config.sync_guild:
            guild = discord.Object(self.config.sync_guild)
            self.tree.copy_global_to(guild=guild)
            learn_commands(await self.tree.sync(guild=guild))
            log.info("synced commands to server %s", self.config.sync_guild)
            return
        fingerprint = await self.command_fingerprint()
        if not self.config.force_sync and await self.store.setting(SYNCED_KEY) == fingerprint:
            log.info("commands unchanged since the last sync; not syncing (python bot.py --sync forces it)")
            learn_commands(await self.tree.fetch_commands())  # their ids, for the mentions in messages
            return
        learn_commands(await self.tree.sync())
        await self.store.set_setting(SYNCED_KEY, fingerprint)
        log.info("synced commands globally")

    async def sync_at_start(self) -> None:
        """Sync before the first interaction can arrive; a failure (Discord down, a 5xx) is one line, and
        the sync is tried again after growing pauses while the bot plays with the commands Discord has."""
        try:
            await self.sync_commands()
        except NETWORK_FAILURES as error:
            log.warning("command sync failed (%s); trying again in %g s", _one_line(error), SYNC_RETRY_PAUSES[0])
            self.syncing = asyncio.create_task(self._sync_again(), name="command-sync")

    async def _sync_again(self) -> None:
        for number, pause in enumerate(SYNC_RETRY_PAUSES, 1):
            await asyncio.sleep(pause)
            try:
                await self.sync_commands()
                return
            except NETWORK_FAILURES as error:
                if number == len(SYNC_RETRY_PAUSES):
                    log.warning("command sync failed (%s); giving up until the next start", _one_line(error))
                else:
                    log.warning(
                        "command sync failed (%s); trying again in %g s", _one_line(error), SYNC_RETRY_PAUSES[number]
                    )

    async def command_fingerprint(self) -> str:
        """A digest of exactly what a global sync would send."""
        translator = self.tree.translator
        payload = [
            await command.get_translated_payload(self.tree, translator) if translator else command.to_dict(self.tree)
            for command in self.tree.get_commands()
        ]
        # the application is part of it: a new bot token with an old database must still sync
        keyed = {"application": self.application_id, "commands": payload}
        return hashlib.sha256(json.dumps(keyed, sort_keys=True, ensure_ascii=False).encode()).hexdigest()

    async def close(self) -> None:
        """A clean shutdown, once however often it is asked for (a signal, the harness, discord.py)."""
        if self._shutting_down is None:
            self._shutting_down = asyncio.create_task(self._shut_down(), name="bot-shutdown")
        await asyncio.shield(self._shutting_down)

    async def _shut_down(self) -> None:
        """Stop taking input and let what is in flight be answered (cogs/shutdown.py), then unload the cogs
        (every table stores what it still holds) while the gateway and the HTTP session still work, and
        only then close them, the database and the picture workers."""
        log.info("shutting down")
        await self.gate.settle()
        for extension in tuple(self.extensions):
            try:
                await self.unload_extension(extension)
            except Exception:
                log.warning("unloading %s failed", extension, exc_info=True)
        await self.gate.refused()  # what arrived while the tables stored their state was answered
        self._cold.set()  # the warm-up's thread ends at its next sprite rather than after seconds of drawing
        for task in (getattr(self, "warming", None), self.syncing):  # start-up work still going
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        await super().close()  # nothing left to unload: the gateway, then the HTTP session
        await self.identifies.close()  # a turn to IDENTIFY still held gives its connection back to the pool
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()
        await self.painter.close()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait for this shard's turn to IDENTIFY among every process of the bot (cogs/identify.py), in place of
        discord.py's 5 s pause, which paces one process only."""
        await self.identifies.before(shard_id, initial=initial)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.gate.seen(interaction)

    async def on_ready(self) -> None:
        log.info("logged in as %s in %d servers", self.user, len(self.guilds))
        if self.application_id is not None:
            log.info("invite: %s", invite_url(self.application_id))


class ShardedMahjongBot(MahjongBot, commands.AutoShardedBot):
    """The table host running some of the bot's shards (``--shards``), or all of as many as Discord asks for,
    one gateway connection each."""

    def __init__(self, config: Config, **options: Any) -> None:
        # a shard's connection includes its wait for a turn to IDENTIFY (cogs/identify.py, at most 240 s)
        options.setdefault("shard_connect_timeout", 300.0)
        super().__init__(config, **options)


def build_bot(config: Config, **options: Any) -> MahjongBot:
    """The bot a configuration asks for: the shards it names (with a standby session of shard 0 beside them
    if asked), or else every shard of the count Discord recommends (GET /gateway/bot before the first
    IDENTIFY: one shard below 1,000 servers or so, and never close code 4011 at 2,500, whichever the bot is
    in when it starts)."""
    if config.shard_count is not None:
        options.setdefault("shard_count", config.shard_count)
        shards = list(config.shards or range(config.shard_count))
        if config.shard0_standby:  # a second session of shard 0 beside its own process's (cogs/mahjong/cluster.py)
            shards = [0, *shards]
        options.setdefault("shard_ids", shards)
    return ShardedMahjongBot(config, **options)


def invite_url(application_id: int) -> str:
    """The link that adds this bot to a server with what a table needs (README: Installing it)."""
    return discord.utils.oauth_url(
        application_id, permissions=INVITE_PERMISSIONS, scopes=("bot", "applications.commands")
    )


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


async def serve(bot: MahjongBot, token: str) -> None:
    """Run ``bot`` until it closes. SIGINT (Ctrl-C) and SIGTERM (what supervisors send) are a clean
    shutdown (:meth:`MahjongBot.close`), not a crash: nothing in flight is left unanswered, the tables
    store what they hold, a cluster hands its tables to the live processes, and no error is logged."""
    loop = asyncio.get_running_loop()
    for number in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # not Unix, or not the main thread
            loop.add_signal_handler(number, lambda: loop.create_task(bot.close()))
    try:
        async with bot:
            await bot.start(token)
    finally:
        await bot.close()  # the whole shutdown, whoever began it, before the loop ends


def run_with_retries(config: Config) -> int:
    """Run the bot; Discord or the database unreachable at start (no network, DNS, a 5xx, the gateway, a
    database server still starting after a reboot) is one line and a new try after a growing pause, and
    exit code 3 once the pauses are spent, for a supervisor to start it again. Exit code 2 is what no
    restart can mend: a bad token, or a database that refuses the bot (a bad URL, the login, a schema
    newer than the bot)."""
    for pause in (*START_RETRY_PAUSES, None):
        try:
            asyncio.run(serve(build_bot(config), config.token))
            return 0
        except discord.LoginFailure:
            print("Discord refused DISCORD_TOKEN (improper token): check it in the Developer Portal.", file=sys.stderr)
            return 2
        except StoreUnreachable as error:  # before StoreError: it is one, and waiting may mend it
            what = f"The database cannot be reached ({error.cause or error.path})"
        except StoreError as error:
            print(f"The database cannot be used: {error}", file=sys.stderr)
            return 2
        except NETWORK_FAILURES as error:
            what = f"Could not reach Discord ({_one_line(error)})"
        except discord.ConnectionClosed as error:
            if error.code != SHARDING_REQUIRED:
                raise
            if config.shard_count is not None:  # every process gives the count: one of them cannot change it
                print(SHARDS_TOO_FEW.format(config.shard_count), file=sys.stderr)
                return 2
            what = "Discord asks for more shards (close code 4011: the bot joined servers since it started)"
        if pause is None:
            print(f"{what}; giving up.", file=sys.stderr)
            return 3
        print(f"{what}; trying again in {pause:g} s.", file=sys.stderr)
        time.sleep(pause)
    return 3


def sandbox_bot(token: str, database: str | Path, seed: int) -> MahjongBot:
    """The bot as the sandbox runs it: quick pauses, seeded, and synced at every start (a fresh
    stand-in knows no commands, whatever the database remembers of the last sync)."""
    timing = Timing(ai_delay=0.0, hand_pause=0.2, edit_interval=0.05, timer_scale=1.0)
    config = Config(token=token, database=database, timing=timing, seed=seed, force_sync=True)
    return MahjongBot(config, guild_ready_timeout=0.05)


SANDBOX_ONLY = ("hands", "seed", "db", "rules", "lang")  # options of the sandbox group, None unless given


def positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = ToolParser(prog="python bot.py", description="The mahjong table host for Discord.")
    sandbox = parser.add_argument_group(
        "sandbox (no token needed)",
        "Play against a local Discord stand-in: one simulated person who plays to win and three AI seats; "
        "OUTDIR gets transcript.md and images/ (what the person saw and pressed). OUTDIR must be new or empty, "
        "except to continue a run that was stopped: the same --db FILE then resumes its table and continues "
        "its transcript below a 'Resumed' heading (a new OUTDIR works too).",
    )
    sandbox.add_argument("--sandbox", metavar="OUTDIR", help="play against a local Discord stand-in, write a transcript")
    sandbox.add_argument(
        "--hands",
        type=positive,
        metavar="N",
        help="play until the table has N finished hands (default 1); a resumed table counts the hands it "
        "already finished, so running the same command again after a stop finishes the job",
    )
    sandbox.add_argument(
        "--seed",
        type=int,
        help="the seed of a new table (default: one per rule set whose first hand shows the person claiming "
        "and winning)",
    )
    sandbox.add_argument(
        "--db", metavar="FILE", help="SQLite file (or postgresql:// URL) the table is stored in, to resume it after a stop (default: memory)"
    )
    sandbox.add_argument(
        "--rules", choices=list(PROFILES), help=f"the rule set of a new table (default {DEFAULT_RULES})"
    )
    sandbox.add_argument(
        "--lang",
        choices=SUPPORTED,
        help="the simulated person's Discord language and the server's (default en)",
    )
    parser.add_argument("--sync", action="store_true", help="sync the slash commands even if unchanged")
    parser.add_argument(
        "--shards",
        metavar="IDS",
        help="the Discord shards this process runs, e.g. 0-3 or 0,2,5-7 (env MAHJONG_SHARDS); with a PostgreSQL "
        "MAHJONG_DB that several processes share, each running its own shards",
    )
    parser.add_argument(
        "--shard-count", metavar="N", help="how many shards the bot has in all (env MAHJONG_SHARD_COUNT)"
    )
    parser.add_argument(
        "--shard0-standby",
        action="store_true",
        help="also run a standby session of shard 0, which Discord sends every DM to, so that DM play goes on "
        "when shard 0's process dies (env MAHJONG_SHARD0_STANDBY=1; README: Several processes)",
    )
    args = parser.parse_args(argv)
    if not args.sandbox:  # they would be ignored: a bot with a token plays what its servers ask for
        given = [f"--{name}" for name in SANDBOX_ONLY if getattr(args, name) is not None]
        if given:
            parser.error(f"{', '.join(given)} only apply with --sandbox OUTDIR")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.sandbox:
        from devserver.outdir import OutdirRefused
        from devserver.sandbox import run_sandbox

        try:
            return asyncio.run(
                run_sandbox(
                    Path(args.sandbox),
                    sandbox_bot,
                    hands=args.hands or 1,
                    seed=args.seed,
                    db=args.db,
                    rules=args.rules or DEFAULT_RULES,
                    lang=args.lang or "en",
                )
            )
        except OutdirRefused as refused:
            print(f"python bot.py --sandbox: {refused}", file=sys.stderr)
            return 2
    try:
        config = Config.from_env()
        if args.shard0_standby:
            config = replace(config, shard0_standby=True)
        if args.shards is not None or args.shard_count is not None:  # the command line over the environment
            config = config.sharded(args.shards, args.shard_count, os.environ.get("MAHJONG_PROCESS_NAME") or None)
    except SystemExit as stop:
        print(stop, file=sys.stderr)
        return 2
    if args.sync:
        config = replace(config, force_sync=True)
    return run_with_retries(config)


if __name__ == "__main__":
    sys.exit(main())
