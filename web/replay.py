"""The replay page: a finished match stepped through hand by hand and move by move, from any seat, in the
reader's language, at an address that can be shared and opens where it was left.

``GET /replay/{token}?hand=H&step=S&seat=N`` (``token`` a signed replay token, web/tokens.make_link kind
"replay": the server and the match's table, so nobody reads another server's matches by counting ids). The
page fetches ``GET /replay/{token}/frame?hand=H&step=S&seat=N``: one frame (engine.replay, the moves the
store kept, replayed through the engine: exactly what the Discord replay shows), with every hand face up.

Only a match that is over replays here (table/visibility.py: once it is over every seat may be seen, its key
and deals revealed; before, a stranger may see no finished hand and nobody any wall), and only its hands that
were played to their end (as /mahjong replay). A running match answers 403 and the page says why; a hand
that is not there, 404; a bad token, 403 with an empty body.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from aiohttp import web

from data.replays import StoredHand
from engine.log import LogError
from engine.replay import frame_at, frame_marks

from .pages import Texts, board_json, locale_of, notice, words
from .tokens import Signer, check_link, make_link

STATIC = Path(__file__).with_name("static")
KIND = "replay"
WORDS = {
    "first": "replay.first", "prev": "replay.prev", "next": "replay.next", "last": "replay.last",
    "claim": "replay.claim", "kong": "replay.kong", "win": "replay.win", "prev_hand": "replay.prev_hand",
    "next_hand": "replay.next_hand", "seat": "replay.seat", "wall": "web.wall", "share": "web.replay_share",
}


# the Discord replay's ⏮ ⏭ are missing from many a browser's fonts: the page draws them from ◀ ▶, which are not
FIRST_LAST = {"first": "|◀", "last": "▶|"}


class Replays(Protocol):
    """A stored hand of a server's match (data/replays.stored_hand), as the cog side reads it."""

    def __call__(self, guild: int, table: int, hand_no: int) -> Awaitable[StoredHand | None]: ...


class StepLine(Protocol):
    """What one step did, in the reader's words (cogs/i18n/steps.step_line)."""

    def __call__(self, locale: str, number: int, events: Sequence[Mapping[str, Any]], names: list[str]) -> str: ...


def number(query: Mapping[str, str], name: str, default: int) -> int:
    try:
        return int(query.get(name, default))
    except ValueError:
        return default


def default_seat(hand: StoredHand) -> int:
    """From the winner's seat (else seat 0), as the Discord replay opens for a reader who did not play."""
    winner = (hand.result or {}).get("winner")
    return winner if isinstance(winner, int) and 0 <= winner <= 3 else 0


def frame_json(hand: StoredHand, step: int, seat: int, line: Callable[[int, Any], str]) -> dict[str, Any]:
    """Step ``step`` (clamped) of ``hand`` from ``seat``: the table with every hand face up, what the step did
    (``line``), where the jumps go (every frame's marks) and, at the last step, the hand's result."""
    marks = frame_marks(hand.header, hand.moves)
    frame = frame_at(hand.header, hand.moves, max(0, step), seat=seat)
    last = frame.index >= len(marks) - 1
    result = hand.result if last and hand.result else None
    return {
        "type": "frame",
        "table": hand.table_id,
        "hand": hand.hand_no,
        "hands": hand.hands,
        "step": frame.index,
        "steps": len(marks),
        "seat": seat,
        "names": list(hand.names),
        "line": line(frame.number, frame.events),
        "marks": [sorted(m) for m in marks],
        "board": board_json(frame.view, hand.names),
        "result": None if result is None else {
            "winner": result.get("winner"), "total": result.get("total"), "deltas": result.get("deltas"),
        },
    }


class ReplayPages:
    def __init__(self, replays: Replays, signer: Signer, texts: Texts, step_line: StepLine, *, base: Callable[[], str]) -> None:
        self.replays = replays
        self.signer = signer
        self.texts = texts
        self.step_line = step_line
        self.base = base

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/replay/{token}", self._page), web.get("/replay/{token}/frame", self._frame)]

    def link(self, guild: int, table: int, *, hand: int = 1, step: int = 0, seat: int | None = None) -> str:
        where = f"?hand={hand}&step={step}" + (f"&seat={seat}" if seat is not None else "")
        return f"{self.base()}/replay/{make_link(self.signer, KIND, guild, table)}{where}"

    async def _hand(self, request: web.Request) -> tuple[StoredHand, str]:
        """The hand the address names, if it may be replayed here; else the page (or 403) that says why not."""
        found = check_link(self.signer, KIND, request.match_info["token"])
        if found is None or len(found) != 2:
            raise web.HTTPForbidden(text="")
        guild, table = found
        locale = locale_of(request)
        title = self.texts(locale, "web.replay_title", table=table)
        hand = await self.replays(guild, table, max(1, number(request.query, "hand", 1)))
        if hand is None:
            raise notice(404, title, self.texts(locale, "web.replay_none"), locale)
        if not hand.match_over:  # the visibility rule: before the end, no stranger sees a finished hand
            raise notice(403, title, self.texts(locale, "web.replay_running"), locale)
        if not hand.finished:
            raise notice(404, title, self.texts(locale, "web.replay_none"), locale)
        return hand, locale

    async def _page(self, request: web.Request) -> web.StreamResponse:
        await self._hand(request)
        return web.FileResponse(STATIC / "replay.html", headers={"Cache-Control": "no-store"})

    async def _frame(self, request: web.Request) -> web.StreamResponse:
        hand, locale = await self._hand(request)
        seat = number(request.query, "seat", -1)
        seat = seat if 0 <= seat <= 3 else default_seat(hand)
        step = number(request.query, "step", 0)
        names = list(hand.names)

        def line(at: int, events: Any) -> str:
            return self.step_line(locale, at, events, names)

        try:
            shown = await asyncio.to_thread(frame_json, hand, step, seat, line)
        except (LogError, ValueError):
            raise notice(404, self.texts(locale, "web.replay_title", table=hand.table_id), self.texts(locale, "replay.broken"), locale) from None
        shown["title"] = self.texts(locale, "web.replay_title", table=hand.table_id)
        shown["words"] = words(self.texts, locale, WORDS) | FIRST_LAST
        shown["locale"] = locale
        body = json.dumps(shown, ensure_ascii=False, separators=(",", ":"))
        return web.Response(text=body, content_type="application/json", headers={"Cache-Control": "no-store"})
