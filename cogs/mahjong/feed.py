"""The action feed of a DM (issue 23): the moves the others made since this player's previous
prompt — "AI 2 碰 五萬", "AI 3 打 八索（摸切）" — read from the engine's events. 摸切 (the tile just
drawn went straight out) or 手切 (a tile from the hand) is what engine/log.py records: a discard of
the tile the seat drew last, with no claim between. Pure: events in, words out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.events import Event, EventKind

from ..i18n import run_label, t, tile_label

FEED_LENGTH = 6  # lines: a phone screen keeps the prompt and the picture in view

_SHOWN = frozenset(
    {
        EventKind.DISCARD,
        EventKind.CHI,
        EventKind.PON,
        EventKind.KONG,
        EventKind.ANKONG,
        EventKind.ADDKONG,
        EventKind.READY,
        EventKind.EYE,
    }
)
_MELDS = {
    EventKind.PON: "feed.pon",
    EventKind.KONG: "feed.kong",
    EventKind.ADDKONG: "feed.addkong",
}


def moves_since(events: Sequence[Event], start: int, viewer: int) -> list[tuple[Event, bool]]:
    """The others' public moves in ``events[start:]``, each discard with its 摸切 flag (True: the
    drawn tile). Draws are walked from the hand's first event so the flag is right at any ``start``."""
    drawn: list[int | None] = [None] * 4
    out: list[tuple[Event, bool]] = []
    for i, event in enumerate(events):
        seat = event.seat
        if seat is None:
            continue
        tsumogiri = False
        if event.kind is EventKind.DRAW:
            drawn[seat] = event.tile
        elif event.kind is EventKind.DISCARD:
            tsumogiri = drawn[seat] is not None and drawn[seat] == event.tile
            drawn[seat] = None
        elif event.kind in (EventKind.CHI, EventKind.PON, EventKind.KONG, EventKind.ANKONG, EventKind.ADDKONG):
            drawn[seat] = None
        if i >= start and seat != viewer and event.kind in _SHOWN:
            out.append((event, tsumogiri))
    return out


def move_line(event: Event, tsumogiri: bool, names: Sequence[str], loc: str) -> str:
    """One move in the reader's language; tiles in words, as the buttons write them."""
    name = names[event.seat] if event.seat is not None else "?"
    kind = event.kind
    if kind is EventKind.DISCARD:
        assert event.tile is not None
        how = t(loc, "feed.tsumogiri" if tsumogiri else "feed.tedashi")
        return t(loc, "feed.discard", name=name, tile=tile_label(loc, event.tile), how=how)
    if kind is EventKind.CHI:
        first = min(event.tiles) if event.tiles else event.tile
        assert first is not None
        return t(loc, "feed.chi", name=name, tiles=run_label(loc, first))
    if kind in _MELDS:
        tile = event.tile if event.tile is not None else (event.tiles[0] if event.tiles else None)
        return t(loc, _MELDS[kind], name=name, tile="" if tile is None else tile_label(loc, tile))
    if kind is EventKind.ANKONG:
        return t(loc, "feed.ankong", name=name)
    if kind is EventKind.READY:
        return t(loc, "feed.ready", name=name)
    return t(loc, "feed.eye", name=name)


def feed_text(events: Sequence[Event], start: int, viewer: int, names: Sequence[str], loc: str) -> str:
    """The feed block for a DM ("" when nothing happened): the latest :data:`FEED_LENGTH` moves."""
    moves = moves_since(events, start, viewer)
    if not moves:
        return ""
    lines = [move_line(e, flag, names, loc) for e, flag in moves[-FEED_LENGTH:]]
    if len(moves) > FEED_LENGTH:
        lines.insert(0, t(loc, "feed.more", n=len(moves) - FEED_LENGTH))
    title = t(loc, "feed.title_first" if start == 0 else "feed.title")  # no "last turn" before the first
    return title + "\n" + "\n".join(f"> {line}" for line in lines)


_OWN_MOVES = frozenset(
    {EventKind.DISCARD, EventKind.CHI, EventKind.PON, EventKind.KONG, EventKind.ANKONG, EventKind.ADDKONG}
)


def exchange_text(events: Sequence[Event], viewer: int, loc: str) -> str:
    """What 換牌 brought ``viewer``, said in each DM from the exchange until the viewer's own first move
    after it: the tiles that came back from the wall (the engine's private DRAW "換牌" event), or that
    the hand was kept. "" before the exchange, after that first move, and at a table without 換牌."""
    drawn: tuple[int, ...] | None = None
    done = False
    for event in events:
        if event.kind is EventKind.DRAW and event.detail == "換牌" and event.seat == viewer:
            drawn = event.tiles
        elif event.kind is EventKind.EXCHANGED:
            done = True
        elif done and event.seat == viewer and event.kind in _OWN_MOVES:
            return ""  # the viewer has played since: the hand in the picture says the rest
    if not done:
        return ""
    if not drawn:
        return t(loc, "feed.exchange_kept")
    return t(loc, "feed.exchange", tiles=t(loc, "hint.sep").join(tile_label(loc, tile) for tile in drawn))


@dataclass
class FeedMarks:
    """Where each seat's feed starts: the event count at its previous prompt. A prompt re-drawn for
    the same decision (a coalesced edit, a "show my hand" click) keeps the start it had."""

    _hand: int = 0
    _last: dict[int, int] = field(default_factory=dict)  # seat → events seen at its last prompt
    _open: dict[int, tuple[int, int]] = field(default_factory=dict)  # seat → (decision, start)

    def start(self, seat: int, hand: int, decision: int, now: int) -> int:
        if hand != self._hand:
            self._hand, self._last, self._open = hand, {}, {}
        opened = self._open.get(seat)
        if opened is not None and opened[0] == decision:
            return opened[1]
        start = self._last.get(seat, 0)
        self._open[seat] = (decision, start)
        self._last[seat] = now
        return start
