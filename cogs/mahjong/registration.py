"""A tournament's registration message: what the organiser chose, who entered and checked in, when it
starts, and the Join / Leave / Check in buttons (``DynamicItem``s whose custom ids, table/ids.py, name the
tournament: they work after a restart). The message is edited as people enter, so it stays current.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from data import EntrantRecord, TournamentRecord
from data.tournaments import CHECKED_IN, DROPPED
from engine import fairness
from engine.house_rules import HouseRules
from table import ids

from ..i18n import t
from .clicks import clicked, hand_to_named, new_button
from .texts import house_rules_text

ENTRY_STYLES = {
    ids.EntryOp.JOIN: discord.ButtonStyle.primary,
    ids.EntryOp.LEAVE: discord.ButtonStyle.secondary,
    ids.EntryOp.CHECK_IN: discord.ButtonStyle.success,
}
SHOWN_ENTRANTS = 60  # names listed on the message (an embed field holds 1,024 characters)


class EntryButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.TournamentEntry.TEMPLATE):
    """Join, leave or check in to a tournament."""

    def __init__(self, key: ids.TournamentEntry, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)
        self.key = key

    @classmethod
    def make(cls, tournament: int, op: ids.EntryOp, label: str) -> EntryButton:
        key = ids.TournamentEntry(tournament, op)
        return cls(key, new_button(key.to_custom_id(), label, ENTRY_STYLES[op]))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> EntryButton:
        return cls(ids.TournamentEntry.from_match(match), clicked(item, discord.ui.Button))

    async def callback(self, interaction: discord.Interaction) -> None:
        key = self.key
        await hand_to_named(
            interaction, "Tournaments", lambda cog: cog.entry_click(interaction, key.tournament, key.op)
        )


REGISTRATION_ITEMS = (EntryButton,)


def length_text(record: TournamentRecord) -> str:
    locale = record.locale
    return t(locale, "tn.hands", hands=record.hands) if record.hands else t(locale, "tn.east_round")


def registration_payload(
    record: TournamentRecord, entrants: Sequence[EntrantRecord]
) -> tuple[discord.Embed, discord.ui.View | None]:
    """The message's embed, and its buttons while registration is open (None after: the field is fixed)."""
    locale = record.locale
    playing = [e for e in entrants if e.status != DROPPED]
    checked = sum(e.status == CHECKED_IN for e in entrants)
    lines = [
        t(locale, "tn.settings", rules=t(locale, f"rules.{record.rules}"), rounds=record.rounds,
          length=length_text(record)),
        t(locale, "tn.duplicate_on" if record.duplicate else "tn.duplicate_off"),
        t(locale, "tn.ai_on" if record.ai_fill else "tn.ai_off"),
    ]  # fmt: skip
    if record.turn_seconds is not None and record.claim_seconds is not None:  # stored since migration 0012
        lines.append(t(locale, "tn.times", turn=record.turn_seconds, claim=record.claim_seconds))
    house = house_rules_text(HouseRules(record.house_rules), locale)
    if house:
        lines.append(house)
    if record.threads:
        lines.append(t(locale, "tn.threads_on"))
    lines.append(t(locale, "tn.commitment", commitment=fairness.commitment(record.key)))
    if record.starts_at is not None:
        lines.append(t(locale, "tn.starts", at=f"<t:{int(record.starts_at)}:F>", rel=f"<t:{int(record.starts_at)}:R>"))
    lines.append(t(locale, f"tn.phase.{record.phase}"))
    embed = discord.Embed(title=t(locale, "tn.title", name=record.name, id=record.id), description="\n".join(lines))
    limit = "∞" if record.max_entrants is None else str(record.max_entrants)
    names = [("✅ " if e.status == CHECKED_IN else "· ") + e.name for e in playing[:SHOWN_ENTRANTS]]
    if len(playing) > SHOWN_ENTRANTS:
        names.append(t(locale, "tn.more", count=len(playing) - SHOWN_ENTRANTS))
    embed.add_field(
        name=t(locale, "tn.entrants", count=len(playing), limit=limit, checked=checked),
        value="\n".join(names)[:1024] or t(locale, "tn.nobody"),
        inline=False,
    )
    if record.phase != "registration":
        return embed, None
    view = discord.ui.View(timeout=None)
    for op in ids.EntryOp:
        view.add_item(EntryButton.make(record.id, op, t(locale, f"tn.btn.{op.value}")))
    return embed, view
