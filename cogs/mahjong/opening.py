"""Opening a table: /mahjong create (the rule set, its options and house rules, a password), /mahjong
houserule before the match, and the Rematch button under a finished match's summary (rematch.py).
The options' choice lists are options.py's; the settings' rules are ``TableSettings``' (table/lobby.py).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from data import StoreError
from engine.house_rules import HouseRules
from engine.rulesets import DEFAULT_RULES
from table import inputs as ins
from table.bank import BANK_SECONDS
from table.lobby import (
    DEFAULT_AI,
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
from table.screens import SEATS

from ..choices import complete_entries, switch_spellings
from ..i18n import locale_of, t
from .arguments import accepted
from .guards import (
    PasswordModal,
    check_bot_permissions,
    check_free_channel,
    check_host,
    check_private_thread,
    runner_here,
)
from .options import (
    BANK_CHOICES,
    CLAIM_CHOICES,
    DEFAULTS,
    HAND_SIZE_CHOICES,
    LANGUAGE_CHOICES,
    MINIMUM_CHOICES,
    PACE_CHOICES,
    PRESET_CHOICES,
    RANKING_CHOICES,
    RULE_CHOICES,
    SWITCH_CHOICES,
    THEME_CHOICES,
    TURN_CHOICES,
    checked_arguments,
    table_options,
)
from .refusals import MahjongCog, answer
from .runner import TableRunner
from .texts import house_rules_text
from .watch import SPECTATOR_CHOICES

if TYPE_CHECKING:
    from .tables import Mahjong

log = logging.getLogger(__name__)


class Opening(MahjongCog):
    """/mahjong create and houserule, and the Rematch button."""

    def __init__(self, tables: Mahjong) -> None:
        self.tables = tables
        self.registry = tables.registry

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
        theme=_("The look of the channel's table picture: felt, ocean, sakura or high contrast"),
        bank=_("Time bank per player per match, seconds"),
    )
    @app_commands.choices(
        ranking=RANKING_CHOICES,
        rules=RULE_CHOICES,
        preset=PRESET_CHOICES,
        language=LANGUAGE_CHOICES,
        spectators=SPECTATOR_CHOICES,
        pace=PACE_CHOICES,
        theme=THEME_CHOICES,
    )
    @app_commands.choices(  # apart: one choices() call takes one value type
        turn_seconds=TURN_CHOICES, claim_seconds=CLAIM_CHOICES, minimum=MINIMUM_CHOICES, hand_size=HAND_SIZE_CHOICES,
        bank=BANK_CHOICES,
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
        theme: str = "felt",
        bank: int = 0,
    ) -> None:
        # Discord's client keeps to the choices and ranges; a modified or outdated one sends anything
        table_rules, minimum = checked_arguments(
            rules, preset, house_rules, rounds, turn_seconds, claim_seconds, pace, minimum, hand_size, language, base, tai,
            theme,
        )
        accepted("bank", bank, BANK_SECONDS)
        check_bot_permissions(interaction)
        check_free_channel(self.registry, interaction)
        await check_private_thread(interaction)
        options = table_options(
            rules,
            base=base,
            tai=tai,
            hand_size=hand_size,
            self_draw_only=self_draw_only,
            may_pass_win=may_pass_win,
            min_tai=minimum,
            bonus_tile=bonus_tile,
            see_wind_see_flower=see_wind_see_flower,
            exchange=exchange,
            turn_seconds=turn_seconds,
            claim_seconds=claim_seconds,
            house_rules=table_rules,
        )
        if hints is None:  # community norms: casual tables show hints, rated ones do not (table/lobby.py)
            hints = hints_by_default(ranking)
        if type(hints) is not bool:  # a forged argument: the option is a boolean (1 == True would pass a list)
            raise TableError("err.bad_option", name="hints", accepted="True, False")
        settings = TableSettings(
            rules, rounds, options, ranking=ranking, spectators=spectators, hints=hints, pace=pace, theme=theme,
            bank=bank,
        )
        assert interaction.guild_id is not None
        if password or (await self.tables.queues.guild_settings(interaction.guild_id)).require_password:  # 玩家桌必須設密碼
            loc = locale_of(interaction.locale)

            async def opened(modal_interaction: discord.Interaction, value: str) -> None:
                if not valid_password(value):
                    raise TableError("err.password_format")
                await self._open_table(modal_interaction, settings, hash_password(value), language)

            await interaction.response.send_modal(PasswordModal(loc, opened))
            return
        await self._open_table(interaction, settings, None, language)

    async def _open_table(
        self,
        interaction: discord.Interaction,
        settings: TableSettings,
        pw: str | None,
        language: str | None,
        others: tuple[Seat, ...] = (),
    ) -> None:
        check_free_channel(self.registry, interaction)  # again: a modal may have taken a while
        assert interaction.guild_id is not None and interaction.channel_id is not None
        # the channel's words: as chosen, else the creator's Discord language (guild_locale is en-US on
        # every server that is not a Community server, so it says nothing about the people there)
        locale = language or locale_of(interaction.locale)
        try:
            record = await self.tables.store.create_table(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                host_id=interaction.user.id,
                rules=settings.rules,
                rounds=settings.rounds,
                options=settings_options(settings, locale),  # the row as table/records.py writes it
                password_hash=pw,
                ranking=settings.ranking,
            )
            await self.tables.cluster.claim(record.id)  # cluster hook: a table this process creates runs here
        except StoreError as error:
            log.warning("could not store a new table: %s", error)
            raise TableError("err.storage") from None
        check_free_channel(self.registry, interaction)
        state = TableState(record.id, interaction.guild_id, interaction.channel_id, interaction.user.id, settings, pw)
        runner = TableRunner(self.tables, state, locale=locale, host_name=interaction.user.display_name)
        state.join(interaction.user.id, interaction.user.display_name, locale=locale_of(interaction.locale))
        for seat in others:  # a rematch: the rest of the finished table, unless seated elsewhere by now
            if seat.is_ai:
                state.add_ai(seat.ai_level or DEFAULT_AI)
            elif seat.user_id is not None and self.registry.where_seated(interaction.guild_id, seat.user_id) is None:
                state.join(seat.user_id, seat.name, locale=seat.locale)
        self.registry.add(runner)
        self.tables.queues.took_seat(interaction.guild_id, interaction.user.id)  # out of any quick-play queue
        runner.change(ins.Opened())
        payload = await runner.lobby_payload()
        await interaction.response.send_message(**payload.send_kwargs())
        message = await interaction.original_response()
        runner.channel.lobby = self.tables.live_message(state.channel_id, message.id, runner.lobby_payload)
        runner.channel.lobby.mark_shown(runner.session.screen(SEATS).version)
        runner.journal.lobby_message(message.id)

    @app_commands.command(name=_("houserule"), description=_("Change one house rule before the match (host)"))
    @app_commands.describe(switch=_("The house rule"), value=_("Its value: a number, or on / off"))
    async def houserule(self, interaction: discord.Interaction, switch: str, value: str) -> None:
        accepted("switch", switch, [choice.value for choice in SWITCH_CHOICES])
        runner = runner_here(self.registry, interaction)
        check_host(interaction, runner)
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
            await answer(interaction, str(error))
            return
        runner.change(ins.SetSettings(replace(state.settings, options=replace(options, house_rules=rules))))
        await answer(interaction, t(interaction.locale, "ok.houserule", rules=house_rules_text(rules, locale_of(interaction.locale)) or "—"))

    @create.autocomplete("house_rules")
    async def create_house_rules(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The switch being typed, after those already written (there are more than 25)."""
        return complete_entries(current, switch_spellings())

    @houserule.autocomplete("switch")
    async def houserule_switch(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The switches whose label or name holds what was typed: more than a choice list's 25."""
        text = current.strip().lower()
        return [c for c in SWITCH_CHOICES if text in c.name.lower()][:25]

    async def rematch_click(self, interaction: discord.Interaction, table_id: int) -> None:
        """A new table in this channel with the finished table's seats and settings (rematch.py)."""
        seed = self.registry.rematches.get(table_id)
        if seed is None:
            raise TableError("err.rematch_gone")
        if not seed.may_open(interaction.user.id):
            raise TableError("err.rematch_not_seated")
        for _attempt in range(40):  # the finished table is still storing its last rows: it lets go in moments
            old = self.registry.get(table_id)
            if old is None or self.registry.in_channel(old.state.channel_id) is not old:
                break
            await asyncio.sleep(0.05)
        check_free_channel(self.registry, interaction)
        check_bot_permissions(interaction)
        await check_private_thread(interaction)
        del self.registry.rematches[table_id]  # one rematch per match
        others = tuple(s for s in seed.seats if s.user_id != interaction.user.id)
        try:
            await self._open_table(interaction, seed.settings, None, seed.locale, others)
        except TableError:
            self.registry.rematches[table_id] = seed  # nothing opened: the button still works
            raise
        for seat in others:
            if seat.user_id is not None and interaction.guild_id is not None:
                self.tables.queues.took_seat(interaction.guild_id, seat.user_id)
