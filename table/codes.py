"""Actions as short codes inside button custom ids (``d5m`` = discard 5m, ``c3m`` = chi 345m, ``w`` = 胡).

A click carries its action in the custom id, so the callback needs no lookup table and survives a
restart: ``to_action(seat, code)`` rebuilds the engine action.

    >>> code_of(Action.from_str("2 chi 345m"))
    'c3m'
    >>> str(to_action(2, "c3m"))
    '2 chi 345m'
"""

from __future__ import annotations

from engine.actions import Action, Kind
from engine.tiles import NotationError, tile_from_str, tile_to_str

_LETTERS = {
    Kind.DISCARD: "d",
    Kind.READY: "r",
    Kind.WIN: "w",
    Kind.PON: "p",
    Kind.KONG: "k",
    Kind.ANKONG: "n",
    Kind.ADDKONG: "x",
    Kind.CHI: "c",
    Kind.PASS: "s",
    Kind.EXCHANGE: "h",  # 換牌 keeping the hand; tiles to give back come from the exchange select
}
_KINDS = {letter: kind for kind, letter in _LETTERS.items()}
PATTERN = r"[drwpknxcsh](?:[1-9][mpsz])?"


def code_of(action: Action) -> str:
    if action.tiles:
        raise ValueError(f"{action} has no button code: an exchange of tiles is chosen in the select")
    letter = _LETTERS[action.kind]
    return letter + (tile_to_str(action.tile) if action.tile is not None else "")


def to_action(seat: int, code: str) -> Action:
    """Raises NotationError for a code no button of ours carries."""
    kind = _KINDS.get(code[:1])
    if kind is None:
        raise NotationError(f"unknown action code {code!r}")
    tile = tile_from_str(code[1:]) if len(code) > 1 else None
    return Action(seat, kind, tile)
