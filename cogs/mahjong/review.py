"""/mahjong review <match> [member] (issue 26): the strong AI reads a finished match and shows a
member where they lost the most, privately.

Who sees what: a review is answered ephemerally to the member it is about; asking for someone
else's is refused, politely, until that member shares theirs (the Share button posts it in the
channel for everyone). Never while the match is running: only a match that is over is reviewed.
Each costly decision gets a button that opens a private replay at the step just before it (the
replay machinery of replay.py); the standings message at the end of a match gets a "Review my
play" button. Buttons are DynamicItems naming the table (and hand, seat, step), so they need only
the database and survive restarts; their custom ids (a costly decision, Share, Review my play) are
written once, in table/ids.py. The engine decides everything shown (engine.review).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import re
import time
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from data.replays import StoredMatch, stored_hand, stored_match
from engine.actions import Action, Kind
from engine.log import LogError
from engine.review import Decision, Review, reasons, review_match
from table import ids
from table.ids import ReviewShare, ReviewStep
from table.lobby import TableError
from table.visibility import sight, viewer_of

from ..i18n import t, tile_label
from .answers import respond
from .clicks import TableIdButton, clicked, hand_to_cog, new_button
from .live import Payload
from .refusals import MahjongCog
from .replay import check_replayable, step_payload

if TYPE_CHECKING:
    from data import Store

log = logging.getLogger(__name__)

WORST = 5  # decisions shown (one replay button each, one action row)
PROGRESS_EVERY = 1.0  # seconds between progress edits of a long review


# ---------------------------------------------------------------------- who may see what


def seat_of(found: StoredMatch, user_id: int) -> int | None:
    """The member's seat in the match (None: they did not play in it)."""
    for seat, info in enumerate(found.seats):
        if info.get("user_id") == str(user_id):
            return seat
    return None


def check_reviewable(found: StoredMatch | None, asker: int, member: int) -> int:
    """The seat to review, if ``asker`` may see ``member``'s review of ``found``; else a refusal."""
    if found is None:
        raise TableError("export.no_match")
    if not sight(viewer_of(asker, found.users), over=found.over).secrets:  # a review reads the whole match
        raise TableError("review.running")
    if asker != member:
        raise TableError("review.private")
    seat = seat_of(found, member)
    if seat is None:
        raise TableError("review.not_played")
    return seat


# ---------------------------------------------------------------------- the words


def action_text(locale: Any, action: Action) -> str:
    kind = action.kind
    tile = action.tile
    if kind is Kind.CHI and tile is not None:
        return t(
            locale, "review.act.chi", tile="".join(tile_label(locale, x) for x in (tile, tile + 1, tile + 2))
        )
    name = tile_label(locale, tile) if tile is not None else ""
    return t(locale, f"review.act.{kind.value}", tile=name)


def decision_line(locale: Any, d: Decision, names: list[str]) -> str:
    why = t(locale, "review.sep").join(t(locale, f"review.why.{key}", **values) for key, values in reasons(d))
    return t(
        locale,
        "review.line",
        hand=d.hand,
        move=d.shown,  # the step its button opens, as the replay numbers it
        done=action_text(locale, d.done.action),
        best=action_text(locale, d.best.action),
        loss=f"{d.loss:.1f}",
        why=why,
    )


def review_text(
    locale: Any, found: StoredMatch, review: Review, seat: int, *, only: int | None = None
) -> str:
    names = [s.get("name", "?") for s in found.seats]
    head = t(locale, "review.title", table=found.table_id, name=names[seat])
    if only is not None:
        head += " · " + t(locale, "review.hand_only", hand=only)
    figure = t(
        locale,
        "review.figure",
        agree=f"{100 * review.agreement:.0f}",
        decisions=len(review.decisions),
        loss=f"{review.loss_per_hand:.2f}",
        hands=len(review.hands),
    )
    worst = review.worst(WORST)
    lines = [head, figure, ""]
    if worst:
        lines.append(t(locale, "review.worst"))
        lines += [f"{i}. " + decision_line(locale, d, names) for i, d in enumerate(worst, 1)]
    else:
        lines.append(t(locale, "review.clean"))
    lines.append("-# " + t(locale, "review.units"))
    text = "\n".join(lines)
    return text if len(text) <= 2000 else text[:1997] + "…"


# ---------------------------------------------------------------------- the work


def run_review(found: StoredMatch, seat: int, only: int | None, progress: Any = None) -> Review:
    """The engine's review of the match's finished hands (CPU work: run it in a thread)."""
    hands = [moves for moves, result in found.hands if result is not None]
    return review_match(found.header, hands, seat, only=only, progress=progress)


async def reviewed(
    interaction: discord.Interaction, found: StoredMatch, seat: int, only: int | None
) -> tuple[str, discord.ui.View]:
    """Review in a thread, showing the hands done so far in the (deferred) answer."""
    loop = asyncio.get_running_loop()
    last = [time.monotonic()]
    locale = interaction.locale
    shown: list[concurrent.futures.Future[None]] = []

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY and done < total:
            last[0] = now
            text = t(locale, "review.progress", done=done, total=total)
            shown.append(asyncio.run_coroutine_threadsafe(_edit_quietly(interaction, text), loop))

    try:
        review = await asyncio.to_thread(run_review, found, seat, only, progress)
    except (LogError, ValueError) as error:
        log.warning("match %s does not replay for a review: %s", found.table_id, error)
        raise TableError("replay.broken") from None
    finally:  # a progress edit must land before the answer, never over it
        await asyncio.gather(*map(asyncio.wrap_future, shown), return_exceptions=True)
    text = review_text(locale, found, review, seat, only=only)
    return text, review_view(found.table_id, seat, review, interaction.user.id, only, locale)


async def _edit_quietly(interaction: discord.Interaction, text: str) -> None:
    try:
        await interaction.edit_original_response(content=text)
    except discord.HTTPException as error:
        log.info("review progress not shown: %s", error)


def review_view(
    table: int, seat: int, review: Review, user: int, only: int | None, locale: Any, share: bool = True
) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for d in review.worst(WORST):
        label = "▶ " + t(locale, "review.step", hand=d.hand, move=d.shown)  # the replay step's own number
        view.add_item(ReviewStepButton.make(table, d.hand, seat, d.frame, label))
    if share:
        view.add_item(ReviewShareButton.make(table, only, user, "📣 " + t(locale, "review.share")))
    return view


# ---------------------------------------------------------------------- buttons (survive restarts)


class ReviewStepButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.ReviewStep.TEMPLATE):
    """A costly decision: a fresh private replay at the step before it."""

    def __init__(self, at: ReviewStep, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)
        self.at = at

    @classmethod
    def make(cls, table: int, hand_no: int, seat: int, step: int, label: str) -> ReviewStepButton:
        at = ReviewStep(table, hand_no, seat, step)
        return cls(at, new_button(at.to_custom_id(), label, discord.ButtonStyle.secondary, row=0))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReviewStepButton:
        return cls(ReviewStep.from_match(match), clicked(item, discord.ui.Button))

    async def callback(self, interaction: discord.Interaction) -> None:
        await hand_to_cog(interaction, lambda cog: open_step(cog.store, interaction, self.at))


class ReviewShareButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.ReviewShare.TEMPLATE):
    """The member shares their review: it is posted in the channel for everyone."""

    def __init__(self, share: ReviewShare, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)
        self.share = share

    @classmethod
    def make(cls, table: int, only: int | None, user: int, label: str) -> ReviewShareButton:
        share = ReviewShare(table, only, user)
        return cls(share, new_button(share.to_custom_id(), label, discord.ButtonStyle.primary, row=1))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReviewShareButton:
        return cls(ReviewShare.from_match(match), clicked(item, discord.ui.Button))

    async def callback(self, interaction: discord.Interaction) -> None:
        await hand_to_cog(interaction, lambda cog: share_review(cog.store, interaction, self.share))


class ReviewOpenButton(TableIdButton, key=ids.ReviewOpen):
    """Review my play, under the standings: the clicker's own review of that match."""

    @classmethod
    def make(cls, table: int, label: str) -> ReviewOpenButton:
        return cls(table, new_button(ids.ReviewOpen(table).to_custom_id(), label, discord.ButtonStyle.secondary))

    async def callback(self, interaction: discord.Interaction) -> None:
        await hand_to_cog(
            interaction, lambda cog: open_review(cog.store, interaction, self.table, interaction.user.id, None)
        )


REVIEW_ITEMS = (ReviewStepButton, ReviewShareButton, ReviewOpenButton)


def standings_view(table: int, locale: Any) -> discord.ui.View:
    """The Review my play button under a match's standings."""
    view = discord.ui.View(timeout=None)
    view.add_item(ReviewOpenButton.make(table, "🔍 " + t(locale, "review.open")))
    return view


async def open_review(
    store: Store, interaction: discord.Interaction, table: int, member: int, only: int | None
) -> None:
    assert interaction.guild_id is not None
    found = await stored_match(store, interaction.guild_id, table)
    seat = check_reviewable(found, interaction.user.id, member)
    assert found is not None
    if only is not None and not 1 <= only <= sum(1 for _, r in found.hands if r is not None):
        raise TableError("review.no_hand", hand=only)
    await interaction.response.defer(ephemeral=True, thinking=True)  # a long match takes seconds
    text, view = await reviewed(interaction, found, seat, only)
    await interaction.edit_original_response(content=text, view=view)


async def open_step(store: Store, interaction: discord.Interaction, at: ReviewStep) -> None:
    guild_id = interaction.guild_id
    assert guild_id is not None

    async def build() -> Payload:  # a query and a picture: within 3 s, or after a deferral (answers.py)
        hand = check_replayable(
            await stored_hand(store, guild_id, table_id=at.table, hand_no=at.hand_no), interaction.user.id
        )
        return await step_payload(hand, at.step, at.seat, interaction.locale)

    await respond(interaction, build, update=False)


async def share_review(store: Store, interaction: discord.Interaction, share: ReviewShare) -> None:
    guild_id = interaction.guild_id
    assert guild_id is not None
    if interaction.user.id != share.user:
        raise TableError("review.share_own")

    async def build() -> Payload:  # the whole review: seconds for a long match, after a deferral (answers.py)
        found = await stored_match(store, guild_id, share.table)
        seat = check_reviewable(found, interaction.user.id, share.user)
        assert found is not None
        review = await asyncio.to_thread(run_review, found, seat, share.only)
        locale = interaction.locale  # the sharer's language (guild_locale is en-US off Community servers)
        text = review_text(locale, found, review, seat, only=share.only)
        view = review_view(found.table_id, seat, review, share.user, share.only, locale, share=False)
        return Payload(content=text, view=view)  # the bot's allowed_mentions: nobody is pinged

    await respond(interaction, build, update=False, ephemeral=False)


# ---------------------------------------------------------------------- the command


class ReviewCommands(MahjongCog):
    """/mahjong review, read from the store."""


    def __init__(self, store: Store) -> None:
        self.store = store

    @app_commands.command(
        name=_("review"),
        description=_("The strong AI reviews your play in a finished match (only you see it)"),
    )
    @app_commands.describe(
        match=_("The match's number in the history (#)"),
        member=_("Whose play (yours; someone else's only once they share it)"),
        hand_number=_("Only this hand of the match (its number in the match)"),
    )
    async def review(
        self,
        interaction: discord.Interaction,
        match: app_commands.Range[int, 1],
        member: discord.Member | None = None,
        hand_number: app_commands.Range[int, 1] | None = None,
    ) -> None:
        # "hand_number", not "hand": the catalogue names both a match and a hand 牌局 in Chinese,
        # and Discord refuses two options of one command with the same localised name
        who = member or interaction.user
        await open_review(self.store, interaction, match, who.id, hand_number)
