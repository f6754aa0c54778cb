"""A seat's screen as the JSON its page draws: only what ``HandScreen`` holds, which the one visibility rule
(table/visibility.py) already cut to that seat's sight, so nothing hidden from the seat can be written here.
Tiles are written in the project's notation (``5m``, ``7z``, ``f1``; ``??`` for a face-down tile), actions as
the button codes the DM buttons carry (table/codes.py), so a tap and a DM click are one input.

    >>> tile(4), tile(33), tile(-1)
    ('5m', '7z', '??')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.tiles import HIDDEN, NUM_TILE_KINDS, tile_to_str
from table.codes import code_of
from table.screens import Action, HandScreen, Kind, Showing

# what each kind of action is called on its button (the page adds the tile it names)
_KINDS = {
    Kind.DISCARD: "discard",
    Kind.READY: "ready",
    Kind.WIN: "win",
    Kind.PON: "pon",
    Kind.KONG: "kong",
    Kind.ANKONG: "kong",
    Kind.ADDKONG: "kong",
    Kind.CHI: "chi",
    Kind.PASS: "pass",
}


_NAMES = {HIDDEN: "??", **{value: tile_to_str(value) for value in range(NUM_TILE_KINDS)}}  # each tile's, once


def tile(value: int) -> str:
    name = _NAMES.get(value)
    return name if name is not None else tile_to_str(value)


def tiles(values: Iterable[int]) -> list[str]:
    try:
        return [_NAMES[v] for v in values]
    except KeyError:
        return [tile(v) for v in values]


def _action(action: Action) -> dict[str, Any] | None:
    kind = _KINDS.get(action.kind)
    if kind is None or action.tiles:  # 換牌's tile choices are made in the DM's select
        return None
    return {"code": code_of(action), "kind": kind, "tile": tile(action.tile) if action.tile is not None else None}


def hand_json(screen: HandScreen, *, now: float) -> dict[str, Any]:
    """What seat ``screen.seat``'s page shows now; ``now`` lets the page set its clock by the bot's."""
    view = screen.view
    prompt = screen.prompt
    actions: list[dict[str, Any]] = []
    if screen.showing is Showing.PROMPT and prompt is not None:
        actions = [a for a in map(_action, prompt.legal) if a is not None]
    seats = []
    for n, seat in enumerate(view.seats):
        river = screen.rivers[n] if n < len(screen.rivers) else tuple((t, False) for t in seat.discards)
        seats.append({
            "name": screen.seats[n].name if n < len(screen.seats) else "",
            "wind": seat.wind,
            "melds": [{"kind": m.kind.value, "tiles": tiles(m.tiles)} for m in seat.melds],
            "flowers": tiles(seat.flowers),
            "river": [[tile(t), claimed] for t, claimed in river],
            "count": seat.concealed_count,
            "ready": seat.ready,
            "auto": seat.auto,
            "score": seat.score,
            "revealed": tiles(view.revealed[n]) if n in view.revealed else None,
            "seen": tiles(view.others[n]) if n in view.others else None,  # 眼牌: the declarer's own sight
        })
    result = screen.result
    return {
        "type": "screen",
        "now": now,
        "table": screen.table_id,
        "seat": screen.seat,
        "rules": screen.rules,
        "unit": screen.unit,
        "hand": screen.hand_number,
        "decision": screen.decision,
        "showing": screen.showing.value,
        "deadline": screen.deadline,
        "hand_over": screen.hand_over,
        "round_wind": view.round_wind,
        "dealer": view.dealer,
        "wall": view.wall_remaining,
        "turn": view.turn,
        "phase": str(view.phase.value),
        "last_discard": [view.last_discard[0], tile(view.last_discard[1])] if view.last_discard else None,
        "concealed": tiles(view.concealed),
        "drawn": tile(view.drawn) if view.drawn is not None else None,
        "waits": [[tile(t), n] for t, n in view.waits],
        "seats": seats,
        "ask": prompt.kind.value if prompt is not None and screen.showing is Showing.PROMPT else None,
        "claim_tile": tile(prompt.claim_tile) if prompt is not None and prompt.claim_tile is not None else None,
        "actions": actions,
        "marked": sorted({tile(r.tile) for r in screen.ready_discards}),
        "result": None if result is None else {
            "winner": result.winner,
            "loser": result.loser,
            "self_drawn": result.self_drawn,
            "win_tile": tile(result.win_tile) if result.win_tile is not None else None,
            "items": [[item.name, item.value] for item in result.items],
            "total": result.total,
            "deltas": list(result.deltas),
        },
    }
