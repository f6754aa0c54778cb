"""/mahjong: open a table in a channel, take seats, play. A thin GroupCog: every subcommand and button
checks who may do what, then hands the work to the table's ``TableRunner`` (runner.py); the seat rules
live in ``TableState`` (state.py) and the game rules in the engine.
"""

from __future__ import annotations

import asyncio
import logging
import random
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

import render
from data import Store, StoreError
from engine.actions import Kind
from engine.fairness import KEY_BYTES
from engine.house_rules import KNOWN_PRESETS, SWITCHES, HouseRules, parse_switches
from engine.rules import HAND_SIZES, PROFILES, TableOptions, get_profile
from engine.rulesets import DEFAULT_MINIMUM, DEFAULT_RULES
from engine.view import HandResult
from ranking import RANKINGS
from table.lobby import (
    AI_LEVELS,
    CLAIM_SECONDS,
    DEFAULT_AI,
    PACES,
    TURN_SECONDS,
    Seat,
    TableError,
    TablePhase,
    TableSettings,
    TableState,
    hash_password,
    hints_by_default,
    valid_password,
)
from table.records import settings_options

from ..choices import complete_entries, switch_spellings
from ..i18n import LEVEL_NAMES, SUPPORTED, locale_of, t
from . import stats
from .answers import mark_received, respond
from .arguments import accepted
from .buttons import DYNAMIC_ITEMS, LobbyOp, TableOp
from .clicks import hand_to_cog
from .cluster import SoleProcess, open_cluster
from .hall import Hall
from .hallbuttons import HALL_ITEMS
from .help import HELP_ITEMS, HelpCommands
from .live import EditBudget, LiveMessage, Payload, WindowLimit
from .pictures import THREADS, Painter
from .prompts import eye_confirm_view
from .ranked import RankedCommands
from .rematch import RematchButton, RematchSeed
from .replay import ReplayCommands, history_view, replay_view
from .review import ReviewCommands
from .runner import NETWORK_ERRORS, TableRunner, Timing
from .system import SYSTEM
from .texts import house_rules_text
from .watch import SPECTATOR_CHOICES, WatchCommands, Watchers, restore_watchers

if TYPE_CHECKING:
    from bot import MahjongBot

log = logging.getLogger(__name__)

DEFAULTS = TableOptions()
SWITCH_CHOICES = [app_commands.Choice(name=f"{sw.label} ({sw.name})"[:100], value=sw.name) for sw in SWITCHES]
MINIMUM_CHOICES = [app_commands.Choice(name=_(name), value=n) for name, n in (("0", 0), ("1", 1), ("3", 3))]
RULE_CHOICES = [app_commands.Choice(name=_(t("en", f"rules.{r}")), value=r) for r in PROFILES]
TURN_CHOICES = [app_commands.Choice(name=f"{s}s", value=s) for s in TURN_SECONDS]
CLAIM_CHOICES = [app_commands.Choice(name=f"{s}s", value=s) for s in CLAIM_SECONDS]
LANGUAGE_CHOICES = [
    app_commands.Choice(name=name, value=value)
    for name, value in (("English", "en"), ("繁體中文", "zh-TW"), ("简体中文", "zh-CN"))
]
PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in KNOWN_PRESETS]  # house rules, families too
HAND_SIZE_CHOICES = [app_commands.Choice(name=str(n), value=n) for n in HAND_SIZES]  # hongkong
RANKING_CHOICES = [app_commands.Choice(name=_(t("en", f"ranking.{r}")), value=r) for r in RANKINGS]
PACE_CHOICES = [app_commands.Choice(name=_(t("en", f"pace.{p}")), value=p) for p in PACES]
LEVEL_CHOICES = [app_commands.Choice(name=_(LEVEL_NAMES[level]["en"]), value=level) for level in AI_LEVELS]


class PasswordModal(discord.ui.Modal):
    """Asks for the table's four digits; the callback decides what they open (create or join)."""

    def __init__(self, locale: str, on_password: Callable[[discord.Interaction, str], Awaitable[None]]) -> None:
        super().__init__(title=t(locale, "modal.password.title"), timeout=300)
        self.locale = locale
        self.on_password = on_password
        self.password: discord.ui.TextInput = discord.ui.TextInput(
            label=t(locale, "modal.password.label"), min_length=4, max_length=4, custom_id="password"
        )
        self.add_item(self.password)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        password = self.password.value.strip()
        await hand_to_cog(interaction, lambda _cog: self.on_password(interaction, password))

    # discord.py 2.7's own Modal.on_error drops BaseView's item argument: this is Modal's signature
    async def on_error(self, interaction: discord.Interaction, error: Exception, /) -> None:  # type: ignore[override]
        log.exception("password modal failed", exc_info=error)
        await _answer(interaction, t(interaction.locale, "err.internal"))


# What a table needs from the bot in its channel: the lobby and table messages, pictures, standings
TABLE_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")


def _check_bot_permissions(interaction: discord.Interaction) -> None:
    """Refuse a table in a channel where the bot could not show it (an interaction answer needs no
    permission, so without this check a table would open and then play invisibly). In a thread, posting
    takes Send Messages in Threads, not Send Messages (a thread-only or forum setup grants only that)."""
    needed = list(TABLE_PERMISSIONS)
    if isinstance(interaction.channel, discord.Thread):
        needed[needed.index("send_messages")] = "send_messages_in_threads"
    missing = [name for name in needed if not getattr(interaction.app_permissions, name)]
    if missing:
        words = ", ".join(name.replace("_", " ").title() for name in missing)
        raise TableError("err.bot_permissions", missing=words)


async def _check_private_thread(interaction: discord.Interaction) -> None:
    """A private thread shows its messages to its members only: the bot must be one, or every post there
    fails (403 50001) though ``app_permissions`` (its channel's) say it may post. Discord is asked
    (GET /channels/{thread}/thread-members/{bot}) unless the interaction said so already."""
    thread = interaction.channel
    if not isinstance(thread, discord.Thread) or thread.type is not discord.ChannelType.private_thread:
        return
    if thread.me is not None or interaction.app_permissions.manage_threads:  # a member, or sees every thread
        return
    client = interaction.client
    assert client.user is not None
    try:
        await thread.fetch_member(client.user.id)
    except (discord.NotFound, discord.Forbidden):
        raise TableError("err.private_thread") from None
    except NETWORK_ERRORS as error:  # cannot tell: the table opens, and a refused post pauses it
        log.info("could not tell whether the bot is in thread %s: %s", thread.id, error)


async def _answer(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer, whether or not the interaction was answered already."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as error:
        log.info("could not answer interaction %s: %s", interaction.id, error)


def _eye_offer(runner: TableRunner, user_id: int) -> bool:
    """Whether ``user_id`` may declare 眼牌 at ``runner``'s table now, and if so whether it is Miji
    (TableError when they may not: the confirmation is only offered for a declaration that is legal)."""
    game = runner.session.game
    seat = next((s for s, who in enumerate(runner.session.seating.by_seat) if who.user_id == user_id), None)
    offered = game.declarations(seat) if game is not None and seat is not None and not game.is_over else []
    if not offered:
        raise TableError("err.illegal")
    return offered[0].kind is Kind.MIJI


@app_commands.guild_only()
class Mahjong(
    Hall,
    RankedCommands,
    ReplayCommands,  # /mahjong replay, export (replay.py)
    ReviewCommands,  # /mahjong review (review.py)
    WatchCommands,  # /mahjong watch (watch.py)
    HelpCommands,  # /mahjong help (help.py)
    commands.GroupCog,
    group_name=_("mahjong"),
    group_description=_("Mahjong tables in this server"),
):
    ai = app_commands.Group(name=_("ai"), description=_("AI players at this table"))

    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot
        self.painter: Painter = getattr(bot, "painter", THREADS)  # where table, hand and score pictures are drawn
        self.store: Store = bot.store
        self.timing: Timing = getattr(bot, "timing", Timing())
        seed = getattr(getattr(bot, "config", None), "seed", None)
        # match keys (engine.fairness) from the operating system's generator; a seeded bot (tests, the
        # sandbox) deals the same matches every run
        self.rng = random.Random(seed) if seed is not None else random.SystemRandom()
        self.tables: dict[int, TableRunner] = {}  # channel id → the channel's table
        self.rematches: dict[int, RematchSeed] = {}  # a finished table's id → its rematch (rematch.py)
        self.by_id: dict[int, TableRunner] = {}  # table id → table
        self.seated: dict[tuple[int, int], int] = {}  # (guild id, user id) → channel of their table
        self.failed: dict[int, int] = {}  # channel id → a table there that could not be restored
        self.dm_channels: dict[int, int] = {}  # user id → their DM channel's id (also in the store)
        self.skip_stored_dm: set[int] = set()  # people whose stored DM channel failed: open a new one
        self._tasks: set[asyncio.Task[None]] = set()
        self.runners: weakref.WeakSet[TableRunner] = weakref.WeakSet()  # every table not yet garbage
        self.cluster: SoleProcess = SoleProcess(self)  # cluster hook: replaced in cog_load (cluster.py)
        self.watchers: dict[int, Watchers] = {}  # table id → its spectators (watch.py)
        self.budget = EditBudget(per_second=35, capacity=10, reserve=4)  # every request, under Discord's 50/s
        # opening DM channels fast is refused (40003): a gentle pace, and each channel is opened once.
        # A slot taken is not yet a request arrived (the request pace above may hold it back, and
        # Discord counts arrivals), so the window is a second longer than the one Discord keeps
        self.dm_opens = WindowLimit(limit=10, seconds=11.0)
        super().__init__()

    def new_match_key(self) -> bytes:
        """A new match's secret key: every deal of the match follows from it (table/session.py)."""
        return self.rng.randbytes(KEY_BYTES)

    async def cog_load(self) -> None:
        """Register the buttons, then bring back every table that was open when the bot stopped: the
        runners exist before the first click can arrive, their messages go out once we are connected."""
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS, *HALL_ITEMS, *HELP_ITEMS, RematchButton)
        self.cluster = await open_cluster(self)  # cluster hook (issue 29): which tables run in this process
        for saved in await self.store.unfinished_tables():
            await self.cluster.adopt(saved)  # cluster hook: claims it, restores it (run_here), resumes it
        await self.hall_load()  # the quick-play queues (hall.py)
        self.cluster.start(self.bot)  # cluster hook: route clicks, renew leases, take over dead processes' tables

    async def _resume(self, runner: TableRunner) -> None:
        await self.bot.wait_until_ready()
        if self.left_guild(runner.state.guild_id):  # removed while the bot was offline: nothing to resume
            self.guild_gone(runner.state.guild_id)
            return
        try:
            await runner.resume()
        except NETWORK_ERRORS as error:
            log.warning("table %s could not resume: %r", runner.table_id, error)
        except Exception as error:
            log.warning("table %s could not resume", runner.table_id, exc_info=True)
            self._shut(runner)
            await runner.close()
            await self._restore_failed(runner.table_id, runner.state.channel_id, error, runner.state.locale)
            return
        await restore_watchers(self, runner)  # a delayed table's spectators go on in its thread (watch.py)

    async def _restore_failed(self, table_id: int, channel_id: int, error: Exception, locale: str) -> None:
        """Close the table in the store with the reason (its seats free, its moves kept) and say so in
        its channel; ``/mahjong close`` there acknowledges it."""
        reason = f"{type(error).__name__}: {error}"[:500]
        self.failed[channel_id] = table_id
        try:
            await self.store.fail_table(table_id, reason)
        except StoreError as store_error:
            log.warning("could not mark table %s as failed: %s", table_id, store_error)
        await self.bot.wait_until_ready()
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            await self.budget.take(urgent=True)
            await channel.send(t(locale, "play.restore_failed", table=table_id, reason=reason))
        except NETWORK_ERRORS as send_error:
            log.info("could not tell channel %s about table %s: %s", channel_id, table_id, send_error)

    async def cog_unload(self) -> None:
        """Shutting down: every table stores what it still holds, then the background work stops."""
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS, *HALL_ITEMS, RematchButton)
        self.hall_unload()
        # spectators first: a hand being posted in a thread is posted and stored as shown, then they stop
        # (a table closing for a shutdown is no match's end: the threads go on after the restart)
        watching = [task for watchers in list(self.watchers.values()) if (task := watchers.stop()) is not None]
        if watching:
            _, late = await asyncio.wait(watching, timeout=5)
            for task in late:
                task.cancel()
        for runner in list(self.runners):  # the closing and finishing ones too: their writes land first
            await runner.close()
        await self.budget.settle()  # a finished table's last edits land before the HTTP session closes
        await self.cluster.stop()  # cluster hook: the leases run out now, for another process to take over
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=5)

    # ------------------------------------------------------------------ errors

    async def guarded(self, interaction: discord.Interaction, handler: Any, *args: Any) -> None:
        """Run a click or modal handler: refusals are answered politely, bugs are logged and apologised for."""
        mark_received(interaction)  # the 3-second budget counts from here when Discord's clock is not trusted
        try:
            await handler(*args)
        except TableError as error:
            await _answer(interaction, t(interaction.locale, error.key, **error.values))
        except Exception:
            log.exception("handling %s failed", interaction.data)
            await _answer(interaction, t(interaction.locale, "err.internal"))

    async def cog_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, TableError):
            await _answer(interaction, t(interaction.locale, original.key, **original.values))
            return
        if isinstance(error, app_commands.NoPrivateMessage):
            await _answer(interaction, t(interaction.locale, "err.guild_only"))
            return
        log.error("command %s failed", interaction.command and interaction.command.qualified_name, exc_info=original)
        await _answer(interaction, t(interaction.locale, "err.internal"))

    # ------------------------------------------------------------------ channels and servers that go away

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        self.abandon_where(lambda runner: runner.state.channel_id == channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        self.abandon_where(lambda runner: runner.state.channel_id == payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        self.guild_gone(guild.id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """A fresh READY (the first, or after a session Discord would not resume) lists the servers the bot
        is in: one removed meanwhile sent no GUILD_DELETE to this bot, and its tables and queues end now."""
        for guild_id in {runner.state.guild_id for runner in self.by_id.values()}:
            if self.left_guild(guild_id):
                self.guild_gone(guild_id)

    def hears(self, guild_id: int) -> bool:
        """This process holds the guild's shard, so its READY and cache say whether the bot is there."""
        ids, count = getattr(self.bot, "shard_ids", None), getattr(self.bot, "shard_count", None)
        return not ids or not count or (guild_id >> 22) % count in ids

    def left_guild(self, guild_id: int) -> bool:
        """The bot is not in this server any more, by READY's list (an unavailable server, in an outage, is
        still listed); False when this process cannot tell (another process holds its shard)."""
        return self.bot.is_ready() and self.hears(guild_id) and self.bot.get_guild(guild_id) is None

    async def still_in_guild(self, guild_id: int) -> bool:
        """Asked by a channel post that got 403 50001: is the bot still in the server (a lost permission),
        or removed (its GUILD_DELETE missed, or sent to another process)? READY's list if it says it is gone,
        else Discord itself (GET /guilds/{id}: 403 50001 or 404 10004 for a server the bot is not in)."""
        if self.left_guild(guild_id):
            return False
        try:
            await self.budget.take(urgent=True)
            await self.bot.fetch_guild(guild_id, with_counts=False)
        except (discord.Forbidden, discord.NotFound):
            return False
        except NETWORK_ERRORS as error:  # cannot tell: taken as a lost permission (the table waits)
            log.info("could not look server %s up: %s", guild_id, error)
        return True

    def guild_gone(self, guild_id: int) -> None:
        """The bot was removed from a server: its tables end (stored closed, never restored) and its quick-play
        queues are emptied, without a word to a channel the bot can no longer reach."""
        self.abandon_where(lambda runner: runner.state.guild_id == guild_id)
        self.background(self.forget_queues(guild_id))

    def abandon_where(self, gone: Any) -> None:
        """Tables whose channel or server went away end as closed: stored so (never restored again),
        their seats free, their timers stopped."""
        for runner in [r for r in self.by_id.values() if gone(r)]:
            log.info("table %s: its channel or server went away; closing it", runner.table_id)
            self._shut(runner)
            self.background(runner.close())

    # ------------------------------------------------------------------ look-ups

    def runner_here(self, interaction: discord.Interaction) -> TableRunner:
        # a channel holds one player table and any 系統桌 (hall.py): a person's own table there comes first
        channel = interaction.channel_id or 0
        runner = (
            self.seated_runner(interaction.guild_id or 0, interaction.user.id, channel)
            or self.tables.get(channel)
            or self.system_table_in(channel)
        )
        if runner is None:
            raise TableError("err.no_table")
        return runner

    def _table_in_guild(self, interaction: discord.Interaction, table_id: int) -> TableRunner:
        """A table of this server by its number (so a deleted or unreadable channel's table can be closed
        from anywhere); another server's table is as unknown as a missing one."""
        runner = self.by_id.get(table_id)
        if runner is None or runner.state.guild_id != interaction.guild_id:
            raise TableError("err.no_such_table", table=table_id)
        return runner

    def _check_host(self, interaction: discord.Interaction, runner: TableRunner) -> None:
        # the member's permissions in this channel, as Discord resolved them for this interaction
        manager = interaction.guild_id is not None and interaction.permissions.manage_guild
        if not runner.state.may_manage(interaction.user.id, manage_guild=manager):
            raise TableError("err.not_host")

    def offer_rematch(self, runner: TableRunner) -> None:
        """A table played to its end leaves its seats and settings for the summary's Rematch button."""
        if runner.state.kind != SYSTEM:
            self.rematches[runner.table_id] = RematchSeed(runner.state.settings, tuple(runner.state.seats), runner.state.locale)

    def table_finished(self, runner: TableRunner) -> None:
        """Forget a table whose match ended (its messages stay in the channel)."""
        self.cluster.release(runner.table_id)  # cluster hook: no process runs it any more
        channel = runner.state.channel_id
        if self.tables.get(channel) is runner:
            del self.tables[channel]
        self.by_id.pop(runner.table_id, None)
        # its people are free, unless they sit at another table of the same channel (a 系統桌 beside it)
        users = {s.user_id for s in (*runner.state.seats, *runner.session.seating.by_seat) if s.user_id is not None}
        elsewhere = {
            s.user_id for other in self.by_id.values() if other.state.channel_id == channel for s in other.state.seats
        }
        for key in [k for k, at in self.seated.items() if at == channel and k[1] in users - elsewhere]:
            del self.seated[key]

    # ------------------------------------------------------------------ commands

    @app_commands.command(name=_("create"), description=_("Open a mahjong table in this channel"))
    @app_commands.describe(
        rules=_("Rule set"),
        rounds=_("Rounds (圈), 1 to 4"),
        turn_seconds=_("Seconds to discard"),
        claim_seconds=_("Seconds to claim 吃碰槓胡"),
        self_draw_only=_("Self-drawn wins only (限自摸)"),
        may_pass_win=_("A win may be declined (可過水)"),
        minimum=_("台 or 番 needed to win (三台起胡 / 番起和)"),
        bonus_tile=_("A face-up 寶牌 (hongkong)"),
        hand_size=_("hongkong: 13 tiles (寶牌 possible) or 16 with flowers (補花)"),
        see_wind_see_flower=_("Every wind and flower scores (見字見花)"),
        exchange=_("Exchange 0-3 tiles after the deal (換牌)"),
        base=_("Points for 底"),
        tai=_("Points per 台"),
        preset=_("House rules preset (家規)"),
        house_rules=_("single house rules on top of the preset, e.g. 字一色計風台, 天胡 24"),
        password=_("Ask players for a 4-digit password"),
        language=_("The table's language in the channel (default: yours)"),
        ranking=_("Rated or casual (ratings move only at rated tables)"),
        spectators=_("Spectators: public, delayed (every hand face up once over) or off"),
        hints=_("Show players their waits and ready discards (default: on if casual, off if rated)"),
        pace=_("How fast AI players discard: normal is about a second each, so people can follow"),
    )
    @app_commands.choices(
        ranking=RANKING_CHOICES,
        rules=RULE_CHOICES,
        preset=PRESET_CHOICES,
        language=LANGUAGE_CHOICES,
        spectators=SPECTATOR_CHOICES,
        pace=PACE_CHOICES,
    )
    @app_commands.choices(  # apart: one choices() call takes one value type
        turn_seconds=TURN_CHOICES, claim_seconds=CLAIM_CHOICES, minimum=MINIMUM_CHOICES, hand_size=HAND_SIZE_CHOICES
    )
    async def create(
        self,
        interaction: discord.Interaction,
        rules: str = DEFAULT_RULES,
        rounds: app_commands.Range[int, 1, 4] = 1,
        turn_seconds: int = DEFAULTS.turn_seconds,
        claim_seconds: int = DEFAULTS.claim_seconds,
        self_draw_only: bool = False,
        may_pass_win: bool = False,
        minimum: int | None = None,
        bonus_tile: bool = False,
        see_wind_see_flower: bool = False,
        exchange: bool = False,
        base: app_commands.Range[int, 0, 100_000] | None = None,
        tai: app_commands.Range[int, 0, 100_000] | None = None,
        preset: str = "document",
        house_rules: str = "",
        password: bool = False,
        hand_size: int | None = None,
        language: str | None = None,
        ranking: str = "casual",
        spectators: str = "public",
        hints: bool | None = None,
        pace: str = "normal",
    ) -> None:
        # Discord's client keeps to the choices and ranges; a modified or outdated one sends anything
        accepted("rules", rules, list(PROFILES))
        accepted("preset", preset, list(KNOWN_PRESETS))
        try:  # the preset with the switches written on top (engine.house_rules.parse_switches)
            table_rules = HouseRules.resolve(preset, parse_switches(house_rules))
        except ValueError as error:
            raise TableError("err.house_rules", reason=str(error)) from None
        accepted("rounds", rounds, range(1, 5))
        accepted("turn_seconds", turn_seconds, TURN_SECONDS)
        accepted("claim_seconds", claim_seconds, CLAIM_SECONDS)
        accepted("pace", pace, list(PACES))
        if minimum is None:  # what players of the rule set expect when the host says nothing
            minimum = DEFAULT_MINIMUM.get(rules, 0)
        accepted("minimum", minimum, [choice.value for choice in MINIMUM_CHOICES])
        if hand_size is not None:
            accepted("hand_size", hand_size, [choice.value for choice in HAND_SIZE_CHOICES])
        if language is not None:
            accepted("language", language, SUPPORTED)
        for name, value in (("base", base), ("tai", tai)):
            if value is not None:
                accepted(name, value, range(0, 100_001))
        _check_bot_permissions(interaction)
        self._check_free_channel(interaction)
        await _check_private_thread(interaction)
        chosen: dict[str, Any] = {
            "self_draw_only": self_draw_only,
            "may_pass_win": may_pass_win,
            "min_tai": minimum,
            "bonus_tile": bonus_tile,
            "see_wind_see_flower": see_wind_see_flower,
            "exchange": exchange,
            "turn_seconds": turn_seconds,
            "claim_seconds": claim_seconds,
            "house_rules": table_rules,
        }
        if base is not None:
            chosen["base"] = base
        if tai is not None:
            chosen["tai"] = tai
        if hand_size is not None:
            chosen["hand_size"] = hand_size
        # the rule set's own stakes and caps (taiwan13: 20 a 台) unless the host set them
        options = replace(get_profile(rules).options, **chosen)
        if hints is None:  # community norms: casual tables show hints, rated ones do not (table/lobby.py)
            hints = hints_by_default(ranking)
        if type(hints) is not bool:  # a forged argument: the option is a boolean (1 == True would pass a list)
            raise TableError("err.bad_option", name="hints", accepted="True, False")
        settings = TableSettings(
            rules, rounds, options, ranking=ranking, spectators=spectators, hints=hints, pace=pace
        )
        assert interaction.guild_id is not None
        if password or (await self.guild_settings(interaction.guild_id)).require_password:  # 玩家桌必須設密碼
            loc = locale_of(interaction.locale)

            async def opened(modal_interaction: discord.Interaction, value: str) -> None:
                if not valid_password(value):
                    raise TableError("err.password_format")
                await self._open_table(modal_interaction, settings, hash_password(value), language)

            await interaction.response.send_modal(PasswordModal(loc, opened))
            return
        await self._open_table(interaction, settings, None, language)

    def _check_free_channel(self, interaction: discord.Interaction) -> None:
        if interaction.channel_id in self.tables:
            raise TableError("err.table_exists")
        where = self.seated.get((interaction.guild_id or 0, interaction.user.id))
        if where is not None:
            raise TableError("err.already_seated", channel=where)

    async def _open_table(
        self,
        interaction: discord.Interaction,
        settings: TableSettings,
        pw: str | None,
        language: str | None,
        others: tuple[Seat, ...] = (),
    ) -> None:
        self._check_free_channel(interaction)  # again: a modal may have taken a while
        assert interaction.guild_id is not None and interaction.channel_id is not None
        # the channel's words: as chosen, else the creator's Discord language (guild_locale is en-US on
        # every server that is not a Community server, so it says nothing about the people there)
        locale = language or locale_of(interaction.locale)
        try:
            record = await self.store.create_table(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                host_id=interaction.user.id,
                rules=settings.rules,
                rounds=settings.rounds,
                options=settings_options(settings, locale),  # the row as table/records.py writes it
                password_hash=pw,
                ranking=settings.ranking,
            )
            await self.cluster.claim(record.id)  # cluster hook: a table this process creates runs here
        except StoreError as error:
            log.warning("could not store a new table: %s", error)
            raise TableError("err.storage") from None
        self._check_free_channel(interaction)
        state = TableState(record.id, interaction.guild_id, interaction.channel_id, interaction.user.id, settings, pw)
        runner = TableRunner(self, state, locale=locale, host_name=interaction.user.display_name)
        state.join(interaction.user.id, interaction.user.display_name, locale=locale_of(interaction.locale))
        for seat in others:  # a rematch: the rest of the finished table, unless seated elsewhere by now
            if seat.is_ai:
                state.add_ai(seat.ai_level or DEFAULT_AI)
            elif (interaction.guild_id, seat.user_id) not in self.seated and seat.user_id is not None:
                state.join(seat.user_id, seat.name, locale=seat.locale)
        self._register(runner)
        self.took_seat(interaction.guild_id, interaction.user.id)  # out of any quick-play queue
        runner.carry(runner.session.opened())
        payload = await runner.lobby_payload()
        await interaction.response.send_message(**payload.send_kwargs())
        message = await interaction.original_response()
        runner.channel.lobby = self.live_message(state.channel_id, message.id, runner.lobby_payload)
        runner.channel.lobby.mark_shown(runner.session.version)
        runner.journal.lobby_message(message.id)

    def _register(self, runner: TableRunner) -> None:
        self.runners.add(runner)
        state = runner.state
        if state.kind != SYSTEM:  # 系統桌 share the mahjong channel; the hall finds them (hall.py)
            self.tables[state.channel_id] = runner
        self.by_id[state.table_id] = runner
        for seat in state.seats:
            if seat.user_id is not None and seat.user_id not in runner.session.left:  # a leaver is free
                self.seated[(state.guild_id, seat.user_id)] = state.channel_id

    def live_message(self, channel_id: int, message_id: int, build: Any) -> LiveMessage:
        partial = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        return LiveMessage(partial, build, min_interval=self.timing.edit_interval, budget=self.budget)

    @app_commands.command(name=_("houserule"), description=_("Change one house rule before the match (host)"))
    @app_commands.describe(switch=_("The house rule"), value=_("Its value: a number, or on / off"))
    async def houserule(self, interaction: discord.Interaction, switch: str, value: str) -> None:
        accepted("switch", switch, [choice.value for choice in SWITCH_CHOICES])
        runner = self.runner_here(interaction)
        self._check_host(interaction, runner)
        state = runner.state
        if state.phase is not TablePhase.LOBBY:
            raise TableError("err.not_lobby")
        text = value.strip().lower()
        parsed: int | bool = {"on": True, "true": True, "yes": True, "off": False, "false": False, "no": False}.get(
            text, int(text) if text.lstrip("-").isdigit() else -1
        )
        options = state.settings.options
        try:
            rules = HouseRules({**options.house_rules.to_dict(), switch: parsed})
        except ValueError as error:
            await _answer(interaction, str(error))
            return
        runner.carry(runner.session.set_settings(replace(state.settings, options=replace(options, house_rules=rules))))
        await _answer(interaction, t(interaction.locale, "ok.houserule", rules=house_rules_text(rules, locale_of(interaction.locale)) or "—"))

    @create.autocomplete("house_rules")
    async def create_house_rules(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The switch being typed, after those already written (there are more than 25)."""
        return complete_entries(current, switch_spellings())

    @houserule.autocomplete("switch")
    async def houserule_switch(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The switches whose label or name holds what was typed: more than a choice list's 25."""
        text = current.strip().lower()
        return [c for c in SWITCH_CHOICES if text in c.name.lower()][:25]

    @app_commands.command(name=_("join"), description=_("Take a seat at this channel's table"))
    @app_commands.describe(password=_("The table's 4-digit password"))
    async def join(self, interaction: discord.Interaction, password: str | None = None) -> None:
        runner = self.runner_here(interaction)
        if runner.state.locked and password is None and interaction.user.id != runner.state.host_id:
            await self._ask_password(interaction, runner)
            return
        self._join(interaction, runner, password)
        await _answer(interaction, t(interaction.locale, "ok.joined"))

    async def _ask_password(self, interaction: discord.Interaction, runner: TableRunner) -> None:
        async def entered(modal_interaction: discord.Interaction, value: str) -> None:
            self._join(modal_interaction, runner, value)
            await _answer(modal_interaction, t(modal_interaction.locale, "ok.joined"))

        await interaction.response.send_modal(PasswordModal(locale_of(interaction.locale), entered))

    def _join(self, interaction: discord.Interaction, runner: TableRunner, password: str | None) -> None:
        key = (runner.state.guild_id, interaction.user.id)
        where = self.seated.get(key)
        if where is not None and where != runner.state.channel_id:
            raise TableError("err.already_seated", channel=where)
        if runner.session.closed or runner.state.phase is not TablePhase.LOBBY:
            raise TableError("err.not_lobby")
        effects = runner.session.join(
            interaction.user.id,
            interaction.user.display_name,
            password=password,
            locale=locale_of(interaction.locale),
        )
        self.seated[key] = runner.state.channel_id
        self.took_seat(runner.state.guild_id, interaction.user.id)  # out of any quick-play queue
        runner.carry(effects)

    @app_commands.command(name=_("leave"), description=_("Leave this channel's table"))
    async def leave(self, interaction: discord.Interaction) -> None:
        runner = self.runner_here(interaction)
        await self._leave(interaction, runner)
        await _answer(interaction, t(interaction.locale, "ok.left"))

    async def _leave(self, interaction: discord.Interaction, runner: TableRunner) -> None:
        state = runner.state
        if state.phase is TablePhase.PLAYING:
            if runner.session.seating.seat_of_user(interaction.user.id) is None:
                raise TableError("err.not_seated")
            await runner.player_left(interaction.user.id)
            self.seated.pop((state.guild_id, interaction.user.id), None)
            return
        effects = runner.session.leave(interaction.user.id)
        self.seated.pop((state.guild_id, interaction.user.id), None)
        runner.carry(effects)

    @ai.command(name=_("add"), description=_("Seat an AI player (host)"))
    @app_commands.describe(level=_("AI strength"))
    @app_commands.choices(level=LEVEL_CHOICES)
    async def ai_add(self, interaction: discord.Interaction, level: str = DEFAULT_AI) -> None:
        accepted("level", level, AI_LEVELS)
        runner = self.runner_here(interaction)
        self._check_host(interaction, runner)
        runner.carry(runner.session.add_ai(level))
        await _answer(interaction, t(interaction.locale, "ok.ai_added"))

    @ai.command(name=_("remove"), description=_("Remove an AI player (host)"))
    async def ai_remove(self, interaction: discord.Interaction) -> None:
        runner = self.runner_here(interaction)
        self._check_host(interaction, runner)
        runner.carry(runner.session.remove_ai())
        await _answer(interaction, t(interaction.locale, "ok.ai_removed"))

    @app_commands.command(name=_("start"), description=_("Start the match (host)"))
    async def start(self, interaction: discord.Interaction) -> None:
        runner = self.runner_here(interaction)
        self._begin(interaction, runner)
        await _answer(interaction, t(interaction.locale, "ok.start"))

    def _begin(self, interaction: discord.Interaction, runner: TableRunner) -> None:
        self._check_host(interaction, runner)
        _check_bot_permissions(interaction)
        runner.carry(runner.session.open_seats())
        self.background(self._start_match(runner))

    async def _start_match(self, runner: TableRunner) -> None:
        try:
            await runner.start_match()
        except NETWORK_ERRORS as error:
            log.warning("table %s could not start: %r", runner.table_id, error)
        except Exception:
            if runner.session.closed:  # shutting down while dealing
                return
            log.exception("table %s could not start", runner.table_id)

    @app_commands.command(name=_("close"), description=_("Close this channel's table (host)"))
    @app_commands.describe(table=_("A table's number, to close it from any channel (Manage Server)"))
    async def close(self, interaction: discord.Interaction, table: int | None = None) -> None:
        failed = self.failed.get(interaction.channel_id or 0)
        if table is None and failed is not None and interaction.channel_id not in self.tables:
            del self.failed[interaction.channel_id or 0]  # already closed in the store: acknowledge it
            await _answer(interaction, t(interaction.locale, "ok.closed_failed", table=failed))
            return
        runner = self.runner_here(interaction) if table is None else self._table_in_guild(interaction, table)
        self._check_host(interaction, runner)
        mid_match = self._shut(runner)
        await _answer(interaction, t(interaction.locale, "ok.closed"))
        self.background(self._closing(runner, mid_match, edit_lobby=True))

    def _shut(self, runner: TableRunner) -> bool:
        """Close the table at once (no I/O, so the click is answered in time); True if mid-match."""
        mid_match = runner.state.phase is TablePhase.PLAYING
        runner.carry(runner.session.shut())
        self.table_finished(runner)
        return mid_match

    async def _closing(self, runner: TableRunner, mid_match: bool, *, edit_lobby: bool) -> None:
        lobby = runner.channel.lobby
        await runner.close()
        if edit_lobby and lobby is not None:
            try:
                await lobby.message.edit(**(await runner.lobby_payload()).edit_kwargs())
            except discord.HTTPException as error:
                log.info("closing table %s: lobby edit failed: %s", runner.table_id, error)
        if mid_match:
            await runner.post(content=t(runner.state.locale, "play.closed_mid"))

    async def dm_channel(self, user_id: int) -> discord.abc.Messageable:
        """The DM channel with a person: opened once ever (its id is kept, in memory and in the store,
        for more people than discord.py's 128 and across restarts), opened at Discord's pace."""
        known = self.dm_channels.get(user_id)
        if known is None and user_id not in self.skip_stored_dm:
            try:
                known = await self.store.dm_channel_of(user_id)
            except StoreError as error:
                log.info("could not read the DM channel of %s: %s", user_id, error)
        if known is not None:
            self.dm_channels[user_id] = known
            return self.bot.get_partial_messageable(known, type=discord.ChannelType.private)
        await self.dm_opens.take()
        await self.budget.take(urgent=True)
        channel = await self.bot.create_dm(discord.Object(user_id))
        self.dm_channels[user_id] = channel.id
        self.skip_stored_dm.discard(user_id)
        await self._remember_dm(user_id, channel.id)  # once per person ever: kept before it is used
        return channel

    def forget_dm(self, user_id: int) -> None:
        """A stored DM channel that failed (another bot token's, say): the next send opens one afresh."""
        self.dm_channels.pop(user_id, None)
        self.skip_stored_dm.add(user_id)

    async def _remember_dm(self, user_id: int, channel_id: int) -> None:
        try:
            await self.store.remember_dm_channel(user_id, channel_id)
        except StoreError as error:
            log.info("could not store the DM channel of %s: %s", user_id, error)

    def background(self, coro: Any) -> None:
        """Run I/O that must not hold up an answer; the task is kept until it ends."""
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @app_commands.command(name=_("table"), description=_("Post the current table image again"))
    async def table(self, interaction: discord.Interaction) -> None:
        runner = self.runner_here(interaction)
        # the picture is drawn before the answer: within Discord's 3 s, or after a deferral (answers.py)
        if not await respond(interaction, runner.repost_table, update=False, ephemeral=False):
            return
        message = await interaction.original_response()
        if runner.session.game is not None:  # the fresh message becomes the one kept up to date (edited by the channel route)
            partial = self.bot.get_partial_messageable(runner.state.channel_id).get_partial_message(message.id)
            runner.follow_table(partial, runner.session.version)
        else:
            live = self.live_message(runner.state.channel_id, message.id, payload_builder(runner))
            live.mark_shown(runner.session.version)
            if runner.channel.lobby is not None:
                runner.channel.lobby.close()
            runner.channel.lobby = live

    # ------------------------------------------------------------------ leaderboards and history

    @app_commands.command(name=_("history"), description=_("Recent matches in this server"))
    async def history(self, interaction: discord.Interaction) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None

        async def build() -> Payload:  # queries: within Discord's 3 s, or after a deferral (answers.py)
            matches = await self.store.history(guild_id, limit=10)
            embed = stats.history_embed(matches, partial(t, interaction.locale))
            return Payload(embeds=[embed], view=history_view(matches, interaction.locale))  # a Replay button a match

        await respond(interaction, build, update=False, ephemeral=False)

    @app_commands.command(name=_("hand"), description=_("A finished hand's score sheet again"))
    @app_commands.describe(hand_id=_("The hand's number in the history"))
    async def hand(self, interaction: discord.Interaction, hand_id: app_commands.Range[int, 1]) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None
        if hand_id < 1:
            raise TableError("err.bad_option", name="hand_id", accepted="1, 2, 3 …")

        async def build() -> Payload:  # a query and a picture: within 3 s, or after a deferral (answers.py)
            found = await self.store.finished_hand(guild_id, hand_id)
            if found is None:
                raise TableError("err.no_hand")
            result = HandResult.from_dict(found.result)
            png = await asyncio.to_thread(render.render_score, result, list(found.names))
            return Payload(
                content=t(interaction.locale, "hist.hand", id=found.id, hand=found.hand_no, table=found.table_id),
                png=png,
                filename="score.png",
                view=replay_view(found.table_id, found.hand_no, interaction.locale),
            )

        await respond(interaction, build, update=False, ephemeral=False)

    # ------------------------------------------------------------------ buttons

    def running(self, table_id: int) -> TableRunner:
        """The table a click names, if this process runs it; TableError otherwise (the match is over, or
        another process runs the table now: the cluster says which)."""
        runner = self.by_id.get(table_id)
        if runner is None or runner.session.closed:
            raise TableError(self.cluster.gone(table_id))  # cluster hook: over, or moving process
        return runner

    async def table_click(self, interaction: discord.Interaction, table_id: int, op: TableOp) -> None:
        """A table button (buttons.TableButton): not tied to a decision point."""
        runner = self.running(table_id)
        if op is TableOp.SHOW:
            await runner.show_hand(interaction)
        elif op is TableOp.EYE:
            await runner.declare_eye(interaction)
        elif op is TableOp.EYE_ASK:  # what 眼牌 does and costs, and the button that declares it
            miji = _eye_offer(runner, interaction.user.id)
            key = "confirm.miji" if miji else "confirm.eye"
            await interaction.response.send_message(
                t(interaction.locale, key),
                view=eye_confirm_view(runner.table_id, miji, locale_of(interaction.locale)),
                ephemeral=True,
            )
        elif op is TableOp.RESUME:
            self._returning(interaction, runner)
            await runner.resume_paused(interaction)
            self._seat_again(interaction, runner)
        else:
            self._returning(interaction, runner)
            await runner.take_back(interaction)
            self._seat_again(interaction, runner)

    def _returning(self, interaction: discord.Interaction, runner: TableRunner) -> None:
        """Someone who left this match takes their seat back: not while they sit at another table."""
        key = (runner.state.guild_id, interaction.user.id)
        if interaction.user.id in runner.session.left and (where := self.seated.get(key)) is not None:
            raise TableError("err.already_seated", channel=where)

    def _seat_again(self, interaction: discord.Interaction, runner: TableRunner) -> None:
        """They are back (the session forgot that they left): seated here again, out of any queue."""
        user = interaction.user.id
        key = (runner.state.guild_id, user)
        if runner.session.seating.seat_of_user(user) is not None and user not in runner.session.left and key not in self.seated:
            self.seated[key] = runner.state.channel_id
            self.took_seat(runner.state.guild_id, user)

    async def _rematch(self, interaction: discord.Interaction, table_id: int) -> None:
        """A new table in this channel with the finished table's seats and settings (rematch.py)."""
        seed = self.rematches.get(table_id)
        if seed is None:
            raise TableError("err.rematch_gone")
        if not seed.may_open(interaction.user.id):
            raise TableError("err.rematch_not_seated")
        for _attempt in range(40):  # the finished table is still storing its last rows: it lets go in moments
            old = self.by_id.get(table_id)
            if old is None or self.tables.get(old.state.channel_id) is not old:
                break
            await asyncio.sleep(0.05)
        self._check_free_channel(interaction)
        _check_bot_permissions(interaction)
        await _check_private_thread(interaction)
        del self.rematches[table_id]  # one rematch per match
        others = tuple(s for s in seed.seats if s.user_id != interaction.user.id)
        try:
            await self._open_table(interaction, seed.settings, None, seed.locale, others)
        except TableError:
            self.rematches[table_id] = seed  # nothing opened: the button still works
            raise
        for seat in others:
            if seat.user_id is not None and interaction.guild_id is not None:
                self.took_seat(interaction.guild_id, seat.user_id)

    async def lobby_click(self, interaction: discord.Interaction, table_id: int, op: LobbyOp) -> None:
        """A lobby button (buttons.LobbyButton)."""
        runner = self.running(table_id)
        if op is LobbyOp.JOIN:
            if runner.state.locked and interaction.user.id != runner.state.host_id:
                if runner.state.seat_of(interaction.user.id) is None:
                    await self._ask_password(interaction, runner)
                    return
            self._join(interaction, runner, None)
        elif op is LobbyOp.LEAVE:
            await self._leave(interaction, runner)
        elif op is LobbyOp.AI:
            self._check_host(interaction, runner)
            runner.carry(runner.session.add_ai())
        elif op is LobbyOp.START:
            self._begin(interaction, runner)
        elif op is LobbyOp.CLOSE:
            self._check_host(interaction, runner)
            mid_match = self._shut(runner)
            await interaction.response.edit_message(**(await runner.lobby_payload()).edit_kwargs())
            self.background(self._closing(runner, mid_match, edit_lobby=False))
            return
        payload = await runner.lobby_payload()
        await interaction.response.edit_message(**payload.edit_kwargs())
        if runner.channel.lobby is not None:
            runner.channel.lobby.mark_shown(runner.session.version)


def payload_builder(runner: TableRunner) -> Any:
    async def build() -> Payload:
        return await runner.repost_table()

    return build


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Mahjong(bot))  # type: ignore[arg-type]
