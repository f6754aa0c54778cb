"""/mahjong replay and /mahjong export, and the Replay buttons on score sheets and in the history.

A replay is private (an ephemeral message) and stateless: every click names the hand, the seat and
the step in its custom id (replay_buttons.py), reads the hand's stored moves and replays them
through the engine, so it keeps working after a restart and for hands played before replays
existed. Who may replay or export what is the table's visibility rule (table/visibility.py): only
finished hands replay; while a match is being played only its players may replay or export its
finished hands, and the export is sealed (no key, seed or wall: engine.log) until the match is over.
The engine decides everything shown (engine.replay, engine.log).
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from data import StoreError
from data.replays import StoredHand, StoredMatch, stored_hand, stored_match
from engine.log import HandMoves, LogError, export_match, leaver
from engine.replay import CLAIM, KONG, WIN, Frame, frame_at, frame_marks, frames, next_marked
from render.replay import render_animation, render_step
from table.ids import ReplayFrame, StepOp
from table.lobby import DEFAULT_THEME, TableError
from table.visibility import PUBLIC, Sight, sight, viewer_of

from ..i18n import locale_of, t
from ..i18n.steps import step_line
from .answers import respond
from .live import Payload
from .refusals import MahjongCog
from .replay_buttons import ReplayOpenButton, ReplaySeatSelect, ReplayStepButton
from .webpages import web_replay

if TYPE_CHECKING:
    from data import Store
    from data.records import MatchSummary

log = logging.getLogger(__name__)

JUMPS = {StepOp.CLAIM: CLAIM, StepOp.KONG: KONG, StepOp.WIN: WIN}


# ---------------------------------------------------------------------- who may see what


def check_replayable(hand: StoredHand | None, user_id: int) -> StoredHand:
    """The hand, if ``user_id`` may replay it; else a polite refusal."""
    if hand is None:
        raise TableError("err.no_hand")
    if not hand.finished:
        raise TableError("replay.in_play")
    if not sight(viewer_of(user_id, hand.users), over=hand.match_over).finished_hands:
        raise TableError("replay.players_only")
    return hand


def check_exportable(found: StoredMatch | None, user_id: int) -> Sight:
    """What ``user_id`` may have of the match's log (sealed while it is played), or a polite refusal."""
    if found is None:
        raise TableError("export.no_match")
    seen = sight(viewer_of(user_id, found.users), over=found.over)
    if not seen.finished_hands:
        raise TableError("replay.players_only")
    return seen


def default_seat(hand: StoredHand, user_id: int) -> int:
    """A player sees the table from their own seat; anyone else from the winner's (else seat 0)."""
    if user_id in hand.users:
        return hand.users.index(user_id)
    winner = (hand.result or {}).get("winner")
    return winner if isinstance(winner, int) and 0 <= winner <= 3 else 0


# ---------------------------------------------------------------------- the step-through message


async def reader_theme(store: Store, user_id: int) -> str:
    """The theme the reader picked for their pictures (/mahjong settings), felt when the store cannot say."""
    try:
        return (await store.get_player_prefs(user_id)).theme
    except StoreError:
        return DEFAULT_THEME


def draw_step(
    hand: StoredHand, index: int, seat: int, locale: Any = None, theme: str = DEFAULT_THEME
) -> tuple[Frame, str, bytes, list[frozenset[str]]]:
    """Replay ``hand`` to step ``index`` (clamped), from ``seat``: the frame, its line and its picture in
    the reader's language and theme, every frame's marks (CPU work: run it in a thread)."""
    names = list(hand.names)
    frame = frame_at(hand.header, hand.moves, max(0, index), seat=seat)
    all_marks = frame_marks(hand.header, hand.moves)
    line = step_line(locale, frame.number, frame.events, names)
    return frame, line, render_step(frame.view, names, line, locale=locale_of(locale), theme=theme), all_marks


WebLink = Callable[[StoredHand, int, int], "str | None"]  # the web replay's address at a step and seat (webpages.py)


async def step_payload(
    hand: StoredHand, index: int, seat: int, locale: Any, theme: str = DEFAULT_THEME, *, web: WebLink | None = None
) -> Payload:
    try:
        frame, line, png, all_marks = await asyncio.to_thread(draw_step, hand, index, seat, locale, theme)
    except (LogError, ValueError) as error:
        log.warning("hand %s does not replay: %s", hand.id, error)
        raise TableError("replay.broken") from None
    title = t(
        locale, "replay.title", id=hand.id, hand=hand.hand_no, table=hand.table_id, seat=hand.names[seat]
    )
    return Payload(
        content=f"{title}\n**{line}**",
        png=png,
        filename="replay.png",
        view=step_view(hand, frame.index, seat, all_marks, locale, web(hand, frame.index, seat) if web else None),
    )


def step_view(
    hand: StoredHand, index: int, seat: int, all_marks: list[frozenset[str]], locale: Any, link: str | None = None
) -> discord.ui.View:
    last = len(all_marks) - 1
    view = discord.ui.View(timeout=None)
    for op in (StepOp.FIRST, StepOp.PREV, StepOp.NEXT, StepOp.LAST):
        disabled = index <= 0 if op in (StepOp.FIRST, StepOp.PREV) else index >= last
        view.add_item(ReplayStepButton.make(hand.id, seat, index, op, t(locale, f"replay.{op}"), 0, disabled))
    for op, mark in JUMPS.items():
        disabled = next_marked(all_marks, index, mark) is None
        view.add_item(ReplayStepButton.make(hand.id, seat, index, op, t(locale, f"replay.{op}"), 1, disabled))
    view.add_item(
        ReplayStepButton.make(
            hand.id, seat, index, StepOp.PREV_HAND, t(locale, "replay.prev_hand"), 1, hand.hand_no <= 1
        )
    )
    view.add_item(
        ReplayStepButton.make(
            hand.id, seat, index, StepOp.NEXT_HAND, t(locale, "replay.next_hand"), 1, hand.hand_no >= hand.hands
        )
    )
    view.add_item(ReplaySeatSelect.make(hand.id, index, seat, list(hand.names), t(locale, "replay.seat")))
    if link is not None:  # the same step on the web table's replay page (a finished match, MAHJONG_WEB on)
        view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, label=t(locale, "web.replay_open"), url=link, row=3))
    return view


def target_step(op: StepOp, index: int, all_marks: list[frozenset[str]]) -> int:
    """The step a step-through button goes to from ``index`` (a jump with nothing ahead stays)."""
    last = len(all_marks) - 1
    if op is StepOp.FIRST:
        return 0
    if op is StepOp.PREV:
        return max(0, index - 1)
    if op is StepOp.NEXT:
        return min(last, index + 1)
    if op is StepOp.LAST:
        return last
    found = next_marked(all_marks, index, JUMPS[op])
    return index if found is None else found


async def open_replay(store: Store, interaction: discord.Interaction, table: int, hand_no: int) -> None:
    """A Replay button on a score sheet or in the history: a fresh private replay of that hand."""
    guild_id = interaction.guild_id
    assert guild_id is not None
    user = interaction.user.id

    async def build() -> Payload:  # a query and a picture: within 3 s, or after a deferral (answers.py)
        hand = check_replayable(await stored_hand(store, guild_id, table_id=table, hand_no=hand_no), user)
        return await step_payload(hand, 0, default_seat(hand, user), interaction.locale, await reader_theme(store, user), web=web_replay(interaction))

    await respond(interaction, build, update=False)


async def step_replay(
    store: Store, interaction: discord.Interaction, at: ReplayFrame, op: StepOp | None
) -> None:
    """A step button (``op``), or the seat select (None: the same step from ``at.seat``): the click is
    answered by editing the replay in place."""
    guild_id = interaction.guild_id
    assert guild_id is not None
    user = interaction.user.id

    async def build() -> Payload:  # queries and a picture: within 3 s, or after a deferral (answers.py)
        hand = check_replayable(await stored_hand(store, guild_id, hand_id=at.hand), user)
        index = at.step
        if op in (StepOp.PREV_HAND, StepOp.NEXT_HAND):
            number = hand.hand_no + (1 if op is StepOp.NEXT_HAND else -1)
            other = await stored_hand(store, guild_id, table_id=hand.table_id, hand_no=number)
            if other is None or not other.finished:
                raise TableError("replay.no_more")
            hand, index = check_replayable(other, user), 0
        elif op is not None:
            try:
                all_marks = await asyncio.to_thread(frame_marks, hand.header, hand.moves)
            except (LogError, ValueError) as error:  # as step_payload answers it: politely, not as a crash
                log.warning("hand %s does not replay: %s", hand.id, error)
                raise TableError("replay.broken") from None
            index = target_step(op, index, all_marks)
        return await step_payload(hand, index, at.seat, interaction.locale, await reader_theme(store, user), web=web_replay(interaction))

    await respond(interaction, build, update=True)


def replay_view(table_id: int, hand_no: int, locale: Any) -> discord.ui.View:
    """The Replay button under a score sheet."""
    view = discord.ui.View(timeout=None)
    view.add_item(ReplayOpenButton.make(table_id, hand_no, "▶ " + t(locale, "replay.open")))
    return view


def history_view(matches: list[MatchSummary], locale: Any) -> discord.ui.View | None:
    """A Replay button per match of the history (its first hand; the replay steps to the others)."""
    if not matches:
        return None
    view = discord.ui.View(timeout=None)
    for match in matches[:25]:
        view.add_item(
            ReplayOpenButton.make(
                match.table_id, 1, "▶ " + t(locale, "replay.open_match", table=match.table_id)
            )
        )
    return view


def animation(hand: StoredHand, locale: Any = None, theme: str = DEFAULT_THEME) -> bytes:
    """The whole hand as one GIF, its lines and labels in the reader's language, in their theme."""
    names = list(hand.names)
    steps = frames(hand.header, hand.moves, seat=default_seat(hand, -1))
    lines = ((f.view, step_line(locale, f.number, f.events, names)) for f in steps)
    return render_animation(lines, names, locale=locale_of(locale), theme=theme)


def match_log(store_match: StoredMatch, *, sealed: bool) -> bytes:
    """The match as a log document (engine.log), every finished hand replayed through the engine;
    ``sealed`` (the match is still being played) leaves out its key, seeds and walls."""
    rules = store_match.rules
    hands = []
    for moves, result in store_match.hands:
        if result is None:
            break  # the hand in play: never in a log
        hands.append(
            HandMoves(
                moves, leaver(rules, result.get("deltas", ())) if result.get("winner") is None else None
            )
        )
    meta = {
        "source": "discord",
        "table_id": store_match.table_id,
        "guild_id": str(store_match.guild_id),
        "started_at": store_match.started_at,
        "finished_at": store_match.finished_at,
    }
    document = export_match(store_match.header, hands, seats=list(store_match.seats), meta=meta, sealed=sealed)
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()


# ---------------------------------------------------------------------- the commands


class ReplayCommands(MahjongCog):
    """/mahjong replay and /mahjong export, read from the store."""


    def __init__(self, store: Store) -> None:
        self.store = store

    async def replay_step_click(self, interaction: discord.Interaction, at: ReplayFrame, op: StepOp | None) -> None:
        """A replay's step button or seat select (replay_buttons.py, which reaches it through the cog)."""
        await step_replay(self.store, interaction, at, op)

    async def replay_open_click(self, interaction: discord.Interaction, table: int, hand_no: int) -> None:
        """A Replay button (replay_buttons.py, which reaches it through the cog)."""
        await open_replay(self.store, interaction, table, hand_no)

    @app_commands.command(name=_("replay"), description=_("Step through a finished hand (only you see it)"))
    @app_commands.describe(
        hand=_("The hand's number in the history"),
        animated=_("Post the whole hand as one animated picture"),
    )
    async def replay(
        self, interaction: discord.Interaction, hand: app_commands.Range[int, 1], animated: bool = False
    ) -> None:
        assert interaction.guild_id is not None
        user = interaction.user.id
        if not animated:  # the first step, as a replay button opens it
            guild_id = interaction.guild_id

            async def build() -> Payload:  # a query and a picture: within 3 s, or after a deferral (answers.py)
                found = check_replayable(await stored_hand(self.store, guild_id, hand_id=hand), user)
                return await step_payload(found, 0, default_seat(found, user), interaction.locale, await reader_theme(self.store, user), web=web_replay(interaction))

            await respond(interaction, build, update=False)
            return
        # the option is "hand", as people write it: /mahjong replay <hand>
        found = check_replayable(await stored_hand(self.store, interaction.guild_id, hand_id=hand), user)
        # posted for the channel once the channel may see finished hands (the match is over); privately before
        private = not sight(PUBLIC, over=found.match_over).finished_hands
        await interaction.response.defer(thinking=True, ephemeral=private)  # a whole hand takes longer than a click
        try:
            gif = await asyncio.to_thread(animation, found, interaction.locale, await reader_theme(self.store, user))
        except (LogError, ValueError) as error:
            log.warning("hand %s does not replay: %s", found.id, error)
            raise TableError("replay.broken") from None
        text = t(
            interaction.locale,  # the asker's language, as the picture is (guild_locale is en-US off Community)
            "replay.animated",
            id=found.id,
            hand=found.hand_no,
            table=found.table_id,
        )
        await interaction.edit_original_response(
            content=text, attachments=[discord.File(io.BytesIO(gif), f"hand-{found.id}.gif")]
        )

    @app_commands.command(name=_("export"), description=_("A match as one JSON file (match log)"))
    @app_commands.describe(match=_("The match's number in the history (#)"))
    async def export(self, interaction: discord.Interaction, match: app_commands.Range[int, 1]) -> None:
        assert interaction.guild_id is not None
        found = await stored_match(self.store, interaction.guild_id, match)
        seen = check_exportable(found, interaction.user.id)
        assert found is not None
        if seen.secrets and found.header.get("deal") == "position" and not await self.store.round_over_for(match):
            seen = replace(seen, secrets=False)  # a duplicate round's key: sealed until its last table ends (issue 42)
        try:
            data = await asyncio.to_thread(match_log, found, sealed=not seen.secrets)
        except (LogError, ValueError) as error:
            log.warning("match %s does not replay: %s", match, error)
            raise TableError("replay.broken") from None
        hands = sum(1 for _, result in found.hands if result is not None)
        await interaction.response.send_message(
            content=t(interaction.locale, "export.sealed" if not seen.secrets else "export.done", table=match, hands=hands),
            file=discord.File(io.BytesIO(data), f"mahjong-match-{match}.json"),
            ephemeral=not seen.secrets,
        )
