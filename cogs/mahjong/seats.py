"""Sitting at a table and running it: /mahjong join, leave, ai add/remove, start, close and table, and the
buttons of the lobby and of a table's messages. Every one checks who may do what, then hands the work
to the table's ``TableRunner`` (runner.py); the seat rules live in ``TableState`` (table/lobby.py).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from engine.actions import Kind
from table import inputs as ins
from table.ids import TOGGLE_OPS
from table.lobby import AI_LEVELS, DEFAULT_AI, TableError, TablePhase
from table.screens import SEATS, TABLE

from ..i18n import LEVEL_NAMES, locale_of, t
from . import clickhandlers
from .answers import respond
from .arguments import accepted
from .buttons import LobbyOp, TableOp
from .guards import PasswordModal, check_bot_permissions, check_host, runner_here, table_in_guild
from .live import Payload
from .prompts import eye_confirm_view
from .refusals import MahjongCog, answer

if TYPE_CHECKING:
    from .runner import TableRunner
    from .tables import Mahjong

log = logging.getLogger(__name__)

LEVEL_CHOICES = [app_commands.Choice(name=_(LEVEL_NAMES[level]["en"]), value=level) for level in AI_LEVELS]


def _eye_offer(runner: TableRunner, user_id: int) -> bool:
    """Whether ``user_id`` may declare 眼牌 at ``runner``'s table now, and if so whether it is Miji
    (TableError when they may not: the confirmation is only offered for a declaration that is legal). Their
    DM's screen says, as it says whether the DM shows the button (table/screens.py)."""
    session = runner.session
    seat = session.screen(SEATS).viewer(user_id).seat
    dealt = session.screen(TABLE).view is not None
    offered = session.screen(seat).declarations if seat is not None and dealt else ()
    if not offered:
        raise TableError("err.illegal")
    return offered[0].kind is Kind.MIJI


class Seats(MahjongCog):
    """Joining, leaving and running the table of a channel, by command or button."""

    ai = app_commands.Group(name=_("ai"), description=_("AI players at this table"))

    def __init__(self, tables: Mahjong) -> None:
        self.tables = tables
        self.registry = tables.registry

    # ------------------------------------------------------------------ seats

    @app_commands.command(name=_("join"), description=_("Take a seat at this channel's table"))
    @app_commands.describe(password=_("The table's 4-digit password"))
    async def join(self, interaction: discord.Interaction, password: str | None = None) -> None:
        runner = runner_here(self.registry, interaction)
        if runner.state.locked and password is None and interaction.user.id != runner.state.host_id:
            await self._ask_password(interaction, runner)
            return
        self.join_table(interaction, runner, password)
        await answer(interaction, t(interaction.locale, "ok.joined"))

    async def _ask_password(self, interaction: discord.Interaction, runner: TableRunner) -> None:
        async def entered(modal_interaction: discord.Interaction, value: str) -> None:
            self.join_table(modal_interaction, runner, value)
            await answer(modal_interaction, t(modal_interaction.locale, "ok.joined"))

        await interaction.response.send_modal(PasswordModal(locale_of(interaction.locale), entered))

    def join_table(self, interaction: discord.Interaction, runner: TableRunner, password: str | None) -> None:
        """Seat the person at the table's lobby (TableError when they may not sit there)."""
        guild_id, user_id = runner.state.guild_id, interaction.user.id
        where = self.registry.where_seated(guild_id, user_id)
        if where is not None and where != runner.state.channel_id:
            raise TableError("err.already_seated", channel=where)
        if runner.session.phase.closed or runner.state.phase is not TablePhase.LOBBY:
            raise TableError("err.not_lobby")
        joining = ins.Join(user_id, interaction.user.display_name, password, locale_of(interaction.locale))
        effects = runner.session.handle(joining, time.time())
        self.registry.sit(guild_id, user_id, runner.state.channel_id)
        self.tables.queues.took_seat(guild_id, user_id)  # out of any quick-play queue
        runner.carry(effects)

    @app_commands.command(name=_("leave"), description=_("Leave this channel's table"))
    async def leave(self, interaction: discord.Interaction) -> None:
        runner = runner_here(self.registry, interaction)
        await self._leave(interaction, runner)
        await answer(interaction, t(interaction.locale, "ok.left"))

    async def _leave(self, interaction: discord.Interaction, runner: TableRunner) -> None:
        state = runner.state
        if state.phase is TablePhase.PLAYING:
            if runner.session.screen(SEATS).seat_of_user(interaction.user.id) is None:
                raise TableError("err.not_seated")
            await runner.player_left(interaction.user.id)
            self.registry.stand(state.guild_id, interaction.user.id)
            return
        effects = runner.session.handle(ins.Leave(interaction.user.id), time.time())
        self.registry.stand(state.guild_id, interaction.user.id)
        runner.carry(effects)

    @ai.command(name=_("add"), description=_("Seat an AI player (host)"))
    @app_commands.describe(level=_("AI strength"))
    @app_commands.choices(level=LEVEL_CHOICES)
    async def ai_add(self, interaction: discord.Interaction, level: str = DEFAULT_AI) -> None:
        accepted("level", level, AI_LEVELS)
        runner = runner_here(self.registry, interaction)
        check_host(interaction, runner)
        runner.change(ins.AddAi(level))
        await answer(interaction, t(interaction.locale, "ok.ai_added"))

    @ai.command(name=_("remove"), description=_("Remove an AI player (host)"))
    async def ai_remove(self, interaction: discord.Interaction) -> None:
        runner = runner_here(self.registry, interaction)
        check_host(interaction, runner)
        runner.change(ins.RemoveAi())
        await answer(interaction, t(interaction.locale, "ok.ai_removed"))

    # ------------------------------------------------------------------ the table's course

    @app_commands.command(name=_("start"), description=_("Start the match (host)"))
    async def start(self, interaction: discord.Interaction) -> None:
        runner = runner_here(self.registry, interaction)
        self._begin(interaction, runner)
        await answer(interaction, t(interaction.locale, "ok.start"))

    def _begin(self, interaction: discord.Interaction, runner: TableRunner) -> None:
        check_host(interaction, runner)
        check_bot_permissions(interaction)
        runner.change(ins.OpenSeats())
        self.tables.background(self.tables.start_match(runner))

    @app_commands.command(name=_("close"), description=_("Close this channel's table (host)"))
    @app_commands.describe(table=_("A table's number, to close it from any channel (Manage Server)"))
    async def close(self, interaction: discord.Interaction, table: int | None = None) -> None:
        failed = self.registry.failed.get(interaction.channel_id or 0)
        if table is None and failed is not None and self.registry.in_channel(interaction.channel_id or 0) is None:
            del self.registry.failed[interaction.channel_id or 0]  # already closed in the store: acknowledge it
            await answer(interaction, t(interaction.locale, "ok.closed_failed", table=failed))
            return
        if table is None:
            runner = runner_here(self.registry, interaction)
        else:
            runner = table_in_guild(self.registry, interaction, table)
        check_host(interaction, runner)
        mid_match = self.tables.shut(runner)
        await answer(interaction, t(interaction.locale, "ok.closed"))
        self.tables.background(self._closing(runner, mid_match, edit_lobby=True))

    async def _closing(self, runner: TableRunner, mid_match: bool, *, edit_lobby: bool) -> None:
        lobby = runner.channel.lobby
        await runner.close()
        if edit_lobby and lobby is not None:
            try:
                await lobby.message.edit(**(await runner.lobby_payload()).edit_kwargs())
            except discord.HTTPException as error:
                log.info("closing table %s: lobby edit failed: %s", runner.session.table_id, error)
        if mid_match:
            await runner.post(content=t(runner.state.locale, "play.closed_mid"))

    @app_commands.command(name=_("table"), description=_("Post the current table image again"))
    async def table(self, interaction: discord.Interaction) -> None:
        runner = runner_here(self.registry, interaction)
        # the picture is drawn before the answer: within Discord's 3 s, or after a deferral (answers.py)
        if not await respond(interaction, runner.repost_table, update=False, ephemeral=False):
            return
        message = await interaction.original_response()
        if runner.session.screen(TABLE).view is not None:  # the fresh message becomes the one kept up to date
            partial = self.tables.bot.get_partial_messageable(runner.state.channel_id).get_partial_message(message.id)
            runner.channel.follow_table(partial, runner.session.screen(SEATS).version)
        else:
            live = self.tables.live_message(runner.state.channel_id, message.id, payload_builder(runner))
            live.mark_shown(runner.session.screen(SEATS).version)
            if runner.channel.lobby is not None:
                runner.channel.lobby.close()
            runner.channel.lobby = live

    # ------------------------------------------------------------------ buttons

    async def table_click(self, interaction: discord.Interaction, table_id: int, op: TableOp) -> None:
        """A table button (buttons.TableButton): not tied to a decision point."""
        runner = self.tables.running(table_id)
        if op in TOGGLE_OPS:  # an auto toggle: stored for the person first, then the table plays by it
            await clickhandlers.toggle(runner, interaction, TOGGLE_OPS[op], self.tables.store)
        elif op is TableOp.SHOW:
            await clickhandlers.show_hand(runner, interaction)
        elif op is TableOp.EYE:
            await clickhandlers.declare_eye(runner, interaction)
        elif op is TableOp.EYE_ASK:  # what 眼牌 does and costs, and the button that declares it
            miji = _eye_offer(runner, interaction.user.id)
            key = "confirm.miji" if miji else "confirm.eye"
            await interaction.response.send_message(
                t(interaction.locale, key),
                view=eye_confirm_view(runner.session.table_id, miji, locale_of(interaction.locale)),
                ephemeral=True,
            )
        elif op is TableOp.RESUME:
            self._returning(interaction, runner)
            await clickhandlers.resume_paused(runner, interaction)
            self._seat_again(interaction, runner)
        else:
            self._returning(interaction, runner)
            await clickhandlers.take_back(runner, interaction)
            self._seat_again(interaction, runner)

    def _returning(self, interaction: discord.Interaction, runner: TableRunner) -> None:
        """Someone who left this match takes their seat back: not while they sit at another table."""
        where = self.registry.where_seated(runner.state.guild_id, interaction.user.id)
        if interaction.user.id in runner.session.screen(SEATS).left and where is not None:
            raise TableError("err.already_seated", channel=where)

    def _seat_again(self, interaction: discord.Interaction, runner: TableRunner) -> None:
        """They are back (the session forgot that they left): seated here again, out of any queue."""
        user, guild_id = interaction.user.id, runner.state.guild_id
        seated = self.registry.where_seated(guild_id, user) is not None
        seats = runner.session.screen(SEATS)
        if seats.seat_of_user(user) is not None and user not in seats.left and not seated:
            self.registry.sit(guild_id, user, runner.state.channel_id)
            self.tables.queues.took_seat(guild_id, user)

    async def lobby_click(self, interaction: discord.Interaction, table_id: int, op: LobbyOp) -> None:
        """A lobby button (buttons.LobbyButton)."""
        runner = self.tables.running(table_id)
        if op is LobbyOp.JOIN:
            if runner.state.locked and interaction.user.id != runner.state.host_id:
                if runner.state.seat_of(interaction.user.id) is None:
                    await self._ask_password(interaction, runner)
                    return
            self.join_table(interaction, runner, None)
        elif op is LobbyOp.LEAVE:
            await self._leave(interaction, runner)
        elif op is LobbyOp.AI:
            check_host(interaction, runner)
            runner.change(ins.AddAi())
        elif op is LobbyOp.START:
            self._begin(interaction, runner)
        elif op is LobbyOp.CLOSE:
            check_host(interaction, runner)
            mid_match = self.tables.shut(runner)
            await interaction.response.edit_message(**(await runner.lobby_payload()).edit_kwargs())
            self.tables.background(self._closing(runner, mid_match, edit_lobby=False))
            return
        payload = await runner.lobby_payload()
        await interaction.response.edit_message(**payload.edit_kwargs())
        if runner.channel.lobby is not None:
            runner.channel.lobby.mark_shown(runner.session.screen(SEATS).version)


def payload_builder(runner: TableRunner) -> Any:
    async def build() -> Payload:
        return await runner.repost_table()

    return build
