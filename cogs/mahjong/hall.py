"""The hall (選桌大廳): the table list (/mahjong tables, its page and Join buttons) and quick play into
系統桌 (/mahjong play, its Leave queue button). The queues themselves are quickplay.py's, the server's
settings settings.py's, the list's embed tablelist.py's.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from data import QueueEntry, StoreError
from engine.rules import PROFILES
from engine.rulesets import DEFAULT_RULES
from table.lobby import TableError

from ..choices import RULE_CHOICES
from ..i18n import locale_of, t
from .guards import PasswordModal, check_bot_permissions, check_private_thread
from .hallbuttons import QueueButton
from .refusals import MahjongCog
from .system import place_in
from .tablelist import table_list

if TYPE_CHECKING:
    from .runner import TableRunner
    from .seats import Seats
    from .tables import Mahjong

log = logging.getLogger(__name__)


async def _reply(interaction: discord.Interaction, text: str, view: discord.ui.View | None = None) -> None:
    kwargs: dict[str, Any] = {"ephemeral": True}
    if view is not None:
        kwargs["view"] = view
    await interaction.response.send_message(text, **kwargs)


class Hall(MahjongCog):
    """/mahjong tables and /mahjong play, and the buttons under their answers."""

    def __init__(self, tables: Mahjong, seats: Seats) -> None:
        self.store = tables.store
        self.registry = tables.registry
        self.queues = tables.queues
        self.seats = seats  # a table joined from the list is joined as /mahjong join there

    # ------------------------------------------------------------------ /mahjong tables

    @app_commands.command(name=_("tables"), description=_("This server's open and playing tables"))
    @app_commands.describe(rules=_("Rule set"))
    @app_commands.choices(rules=RULE_CHOICES)
    async def list_tables(self, interaction: discord.Interaction, rules: str | None = None) -> None:
        if rules is not None and rules not in PROFILES:
            raise TableError("err.bad_option", name="rules", accepted=", ".join(PROFILES))
        embed, view = await self._table_list(interaction, 1, rules)
        if view is None:
            await interaction.response.send_message(embed=embed, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    async def _table_list(
        self, interaction: discord.Interaction, page: int, rules: str | None
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        guild_id = interaction.guild_id
        assert guild_id is not None
        states = [r.state for r in self.registry if r.state.guild_id == guild_id and not r.session.phase.closed]
        queues: dict[str, int] = {}
        try:
            for entry in await self.store.queue(guild_id):
                queues[entry.rules] = queues.get(entry.rules, 0) + 1
        except StoreError as error:  # the list still shows the tables
            log.info("no queue counts for %s: %s", guild_id, error)
        locale = locale_of(interaction.locale)
        embed, view, _page = table_list(states, page=page, rules=rules, queues=queues, locale=locale)
        return embed, view

    # ------------------------------------------------------------------ /mahjong play

    @app_commands.command(
        name=_("play"), description=_("Queue for a system table (系統桌); again to leave the queue")
    )
    @app_commands.describe(rules=_("Rule set"))
    @app_commands.choices(rules=RULE_CHOICES)
    async def play(self, interaction: discord.Interaction, rules: str | None = None) -> None:
        if rules is not None and rules not in PROFILES:
            raise TableError("err.bad_option", name="rules", accepted=", ".join(PROFILES))
        assert interaction.guild_id is not None
        async with self.queues.lock(interaction.guild_id):
            try:
                text, view = await self._play(interaction, rules)
            except StoreError as error:
                log.warning("quick play in %s: %s", interaction.guild_id, error)
                raise TableError("err.storage") from None
        await _reply(interaction, text, view)  # answered outside the lock: the queue never waits on Discord

    async def _play(
        self, interaction: discord.Interaction, rules: str | None
    ) -> tuple[str, discord.ui.View | None]:
        """In, out or moved (guild lock held); the answer to give."""
        guild_id, user, locale = interaction.guild_id, interaction.user, interaction.locale
        assert guild_id is not None and interaction.channel_id is not None
        current = await self.store.queued(guild_id, user.id)
        if current is not None and rules in (None, current.rules):  # play again: out of the queue
            await self.store.dequeue(guild_id, user.id)
            await self.queues.arm_fill(guild_id, current.rules)
            return t(locale, "ok.unqueued", rules=_rules(interaction, current)), None
        where = self.registry.where_seated(guild_id, user.id)
        if where is not None:
            raise TableError("err.already_seated", channel=where)
        if (await self.queues.guild_settings(guild_id)).mahjong_channel_id is None:
            check_bot_permissions(interaction)  # this channel may be where the table opens: the bot must show it here
            await check_private_thread(interaction)
        entry = QueueEntry(
            guild_id,
            user.id,
            rules or DEFAULT_RULES,
            user.display_name,
            locale_of(locale),
            locale_of(interaction.guild_locale or locale),
            interaction.channel_id,
            time.time(),
        )
        await self.store.enqueue(entry)
        if current is not None:  # moved from another rule set's queue
            await self.queues.arm_fill(guild_id, current.rules)
        await self.queues.form_tables(guild_id, entry.rules, interaction.channel_id)
        formed = self.registry.seated_runner(guild_id, user.id, None)
        if formed is not None:  # they were the fourth (or further on, in a queue of eight)
            return t(locale, "ok.table_formed", channel=f"<#{formed.state.channel_id}>"), None
        queue = await self.store.queue(guild_id, entry.rules)
        due = await self.queues.arm_fill(guild_id, entry.rules)
        key = "ok.queue_moved" if current is not None else "ok.queued"
        text = t(locale, key, rules=_rules(interaction, entry), place=place_in(queue, user.id), count=len(queue))
        if due is not None:
            text += " " + t(locale, "ok.queue_fill", when=f"<t:{int(due + 0.999)}:R>")
        view = discord.ui.View(timeout=None)
        view.add_item(QueueButton.make(t(locale, "btn.leave_queue")))
        return text, view

    async def leave_queue_click(self, interaction: discord.Interaction) -> None:
        """The Leave queue button under a /mahjong play answer."""
        guild_id = interaction.guild_id
        if guild_id is None:
            raise TableError("err.not_queued")
        async with self.queues.lock(guild_id):
            try:
                entry = await self.store.dequeue(guild_id, interaction.user.id)
            except StoreError:
                raise TableError("err.storage") from None
            if entry is None:
                raise TableError("err.not_queued")
            await self.queues.arm_fill(guild_id, entry.rules)
        await interaction.response.edit_message(
            content=t(interaction.locale, "ok.unqueued", rules=_rules(interaction, entry)), view=None
        )

    # ------------------------------------------------------------------ the list's buttons

    async def table_page_click(self, interaction: discord.Interaction, page: int, rules: str | None) -> None:
        embed, view = await self._table_list(interaction, page, rules)
        await interaction.response.edit_message(embed=embed, view=view)

    async def join_listed_click(self, interaction: discord.Interaction, table: int) -> None:
        runner = self.registry.get(table)
        if runner is None or runner.session.phase.closed or runner.state.guild_id != interaction.guild_id:
            raise TableError("err.table_over")  # another server's table is never reached from here
        await self._join_listed(interaction, runner)

    async def _join_listed(self, interaction: discord.Interaction, runner: TableRunner) -> None:
        """As /mahjong join in the table's channel: a password table asks for the password first."""
        state = runner.state
        channel = f"<#{state.channel_id}>"
        if state.locked and interaction.user.id != state.host_id and state.seat_of(interaction.user.id) is None:

            async def entered(modal_interaction: discord.Interaction, value: str) -> None:
                self.seats.join_table(modal_interaction, runner, value)
                await modal_interaction.response.send_message(
                    t(modal_interaction.locale, "ok.joined_at", channel=channel), ephemeral=True
                )

            await interaction.response.send_modal(PasswordModal(locale_of(interaction.locale), entered))
            return
        self.seats.join_table(interaction, runner, None)
        await _reply(interaction, t(interaction.locale, "ok.joined_at", channel=channel))


def _rules(interaction: discord.Interaction, entry: QueueEntry) -> str:
    return t(interaction.locale, f"rules.{entry.rules}")
