"""The action feed of a DM (issue 23): the moves the others made since this player's previous
prompt — "AI 2 碰 五萬", "AI 3 打 八索（摸切）" — as the seat's screen lists them (table/screens.py
``feed_moves``). 摸切 (the tile just drawn went straight out) or 手切 (a tile from the hand) is what
engine/log.py records: a discard of the tile the seat drew last, with no claim between. Pure: moves in,
words out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.events import Event, EventKind
from table.screens import Move

from ..i18n import run_label, t, tile_label

FEED_LENGTH = 6  # lines: a phone screen keeps the prompt and the picture in view

_MELDS = {
    EventKind.PON: "feed.pon",
    EventKind.KONG: "feed.kong",
    EventKind.ADDKONG: "feed.addkong",
}


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


def feed_text(moves: Sequence[Move], start: int, names: Sequence[str], loc: str) -> str:
    """The feed block for a DM ("" when nothing happened): the latest :data:`FEED_LENGTH` of the others'
    ``moves`` (the seat's screen has them, table/screens.py) from event ``start`` on."""
    shown = [move for move in moves if move.index >= start]
    if not shown:
        return ""
    lines = [move_line(m.event, m.tsumogiri, names, loc) for m in shown[-FEED_LENGTH:]]
    if len(shown) > FEED_LENGTH:
        lines.insert(0, t(loc, "feed.more", n=len(shown) - FEED_LENGTH))
    title = t(loc, "feed.title_first" if start == 0 else "feed.title")  # no "last turn" before the first
    return title + "\n" + "\n".join(f"> {line}" for line in lines)


def exchange_text(exchanged: tuple[int, ...] | None, loc: str) -> str:
    """What 換牌 brought the reader (``HandScreen.exchanged``): the tiles that came back from the wall, or that
    the hand was kept; "" when there is nothing to say (before the exchange, after their first move since)."""
    if exchanged is None:
        return ""
    if not exchanged:
        return t(loc, "feed.exchange_kept")
    return t(loc, "feed.exchange", tiles=t(loc, "hint.sep").join(tile_label(loc, tile) for tile in exchanged))


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
