"""A replay step in words, in the reader's language: "Move 23 · AI 2 pungs 5 Crak", "第 23 手 · AI 2 碰
五萬", "第 23 手 · AI 2 碰 五万". The engine gives the step as data (engine.replay.Frame: its move number
and the log's events); the words are made here from the catalogue's ``step.*`` strings, with tiles as the
buttons write them, so the text of a replay, its picture and an export say the same thing in one script.

One numbering: a step is the move number of the match log (0 the deal), the number the review names too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.tiles import parse_tiles, tile_from_str

from . import item_name, run_label, t, tile_label

MAX_PARTS = 3  # a step's line stays one line


def step_line(locale: Any, number: int, events: Sequence[Mapping[str, Any]], names: Sequence[str]) -> str:
    """What move ``number`` did (its log ``events``), one line: ``Move 23 · AI 2 pungs 5 Crak``."""
    parts = [p for p in (_part(locale, e, names) for e in events) if p]
    if number == 0:
        dealer = next((e["seat"] for e in events if e["type"] == "dice"), 0)
        parts = [t(locale, "step.deal", dealer=names[dealer]), *parts]
    if not parts:  # the last 過 of a claim window: the next player draws
        drew = [e for e in events if e["type"] == "draw"]
        parts = [t(locale, "step.draws", name=names[drew[-1]["seat"]])] if drew else [t(locale, "step.pass")]
    what = t(locale, "step.sep").join(parts[:MAX_PARTS]) + (t(locale, "step.more") if len(parts) > MAX_PARTS else "")
    return what if number == 0 else t(locale, "step.move", n=number, what=what)


def _tile(locale: Any, text: str | None) -> str:
    return tile_label(locale, tile_from_str(text)) if text else ""


def _part(locale: Any, e: Mapping[str, Any], names: Sequence[str]) -> str:
    kind = e["type"]
    name = names[e["seat"]] if e.get("seat") is not None else ""
    tile = _tile(locale, e.get("tile"))
    if kind == "discard":
        return t(locale, "step.discard_drawn" if e.get("tsumogiri") else "step.discard", name=name, tile=tile)
    if kind == "chi":
        first = min(parse_tiles(str(e["meld"]).split(":")[1]))
        return t(locale, "step.chi", name=name, tiles=run_label(locale, first))
    if kind in ("pon", "kong", "addkong", "flower", "ready"):
        return t(locale, f"step.{kind}", name=name, tile=tile)
    if kind == "ankong":
        concealed = parse_tiles(str(e["meld"]).split(":")[1])[0]
        return t(locale, "step.ankong", name=name, tile=tile_label(locale, concealed))
    if kind == "win":
        if e.get("flower_win"):
            return t(locale, "step.flower_win", name=name, what=item_name(locale, str(e["flower_win"])))
        if e.get("self_drawn"):
            return t(locale, "step.win_self", name=name, tile=tile)
        key = "step.win_rob" if e.get("robbing_kong") else "step.win"
        return t(locale, key, name=name, tile=tile, loser=names[e["from"]])
    if kind == "eye":
        return t(locale, "step.miji" if e.get("miji") else "step.eye", name=name)
    if kind in ("draw_game", "abandon", "timeout", "auto_on", "auto_off", "exchange", "exchanged", "pass_win"):
        return t(locale, f"step.{kind}", name=name)
    return ""  # draws, 換牌 draws, the deal's own events: the line says what was done, not each tile drawn
