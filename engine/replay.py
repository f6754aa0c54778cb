"""Stepping through a finished hand (牌譜 replay): one frame per move that changed the table, each
with every hand face up (a replay is only ever of a hand that is over), a line of text saying what
happened ("第 23 手 · AI 2 碰 五萬") and marks for the jump buttons (next claim, 槓, win).

    for frame in frames(game_header, moves, names, seat=0):
        frame.number, frame.line, frame.marks, frame.view

Built on :func:`engine.log.hand_steps`, so a replay shows exactly what the log checks. Pure.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .game import Game
from .log import Step, hand_steps
from .tiles import parse_tiles, tile_from_str, tile_name
from .view import GameView

CLAIM, KONG, WIN = "claim", "kong", "win"  # what the jump buttons look for
MAX_PARTS = 3  # a step's line stays one line


@dataclass(frozen=True, slots=True)
class Frame:
    """One step of a replay: ``number`` is the move (0 the deal), ``view`` the table after it
    from ``view.viewer``'s seat with every hand revealed."""

    index: int  # position in the replay, 0-based (frames skip moves that changed nothing visible)
    number: int
    line: str
    marks: frozenset[str]
    view: GameView


def frames(
    header: Mapping[str, Any], moves: Sequence[str], names: Sequence[str], *, seat: int = 0
) -> Iterator[Frame]:
    """Every frame of the hand ``header`` (:meth:`Game.header`) played with ``moves``, seen from
    ``seat``. Moves that caused no event (a 過 while others still decide) make no frame, nor do the
    代打 switches made after the hand ended (they decide the next hand: the win stays the last frame)."""
    game = Game.replay(header, [])
    index = 0
    for step in hand_steps(game, moves):
        if not shown(step):
            continue
        yield Frame(index, step.number, step_line(step, names), marks(step), revealed_view(step.game, seat))
        index += 1


def frame_at(
    header: Mapping[str, Any], moves: Sequence[str], names: Sequence[str], index: int, *, seat: int = 0
) -> Frame:
    """Frame ``index`` of the hand (clamped to the last): what one click of a replay button draws,
    replaying the moves without building the other frames' views."""
    game = Game.replay(header, [])
    last: Step | None = None
    i = -1
    for step in hand_steps(game, moves):
        if not shown(step):
            continue
        i += 1
        last = step
        if i == index:
            break
    assert last is not None  # the deal is always a frame
    return Frame(i, last.number, step_line(last, names), marks(last), revealed_view(last.game, seat))


def count(header: Mapping[str, Any], moves: Sequence[str]) -> int:
    """How many frames :func:`frames` yields (without building views)."""
    return len(frame_marks(header, moves))


def frame_marks(header: Mapping[str, Any], moves: Sequence[str]) -> list[frozenset[str]]:
    """Each frame's marks, in order (without building views): where the jump buttons go."""
    return [marks(s) for s in hand_steps(Game.replay(header, []), moves) if shown(s)]


def shown(step: Step) -> bool:
    """A step the replay draws: the deal, and every move of the hand that changed something."""
    return not step.number or (bool(step.events) and not step.between)


def next_marked(all_marks: Sequence[frozenset[str]], index: int, mark: str) -> int | None:
    """The first frame after ``index`` with ``mark`` (None: there is none)."""
    return next((i for i in range(index + 1, len(all_marks)) if mark in all_marks[i]), None)


def revealed_view(game: Game, seat: int) -> GameView:
    """``seat``'s view with every concealed hand face up: for replays of hands that are over only."""
    view = game.view(seat)
    if game.is_over:
        return view
    return replace(view, revealed={s: tuple(game.hand(s)) for s in range(4)})


def marks(step: Step) -> frozenset[str]:
    kinds = {e["type"] for e in step.events}
    found = set()
    if kinds & {"chi", "pon", "kong"}:
        found.add(CLAIM)
    if kinds & {"kong", "ankong", "addkong"}:
        found.add(KONG)
    if kinds & {"win", "draw_game", "abandon"}:
        found.add(WIN)
    return frozenset(found)


def step_line(step: Step, names: Sequence[str]) -> str:
    """What a move did, in a player's words: "第 23 手 · AI 2 碰 五萬"."""
    parts = [p for p in (_part(e, names) for e in step.events) if p]
    if step.number == 0:
        dealer = next((e["seat"] for e in step.events if e["type"] == "dice"), 0)
        parts = [f"配牌 · 莊 {names[dealer]}", *parts[1:]]
    if not parts:  # the last 過 of a claim window: the next player draws
        drew = [e for e in step.events if e["type"] == "draw"]
        parts = [f"{names[drew[-1]['seat']]} 摸牌"] if drew else ["過"]
    merged: list[str] = []
    for p in parts:  # "AI 1 超時" then "AI 1 打 五萬" reads "AI 1 超時 · 打 五萬"
        if merged and p.startswith(_name_of(merged[-1], names)) and _name_of(merged[-1], names):
            p = p[len(_name_of(merged[-1], names)) :].lstrip()
        merged.append(p)
    return (
        f"第 {step.number} 手 · " + " · ".join(merged[:MAX_PARTS]) + (" …" if len(merged) > MAX_PARTS else "")
    )


def _name_of(part: str, names: Sequence[str]) -> str:
    return next((n for n in names if part.startswith(n + " ")), "")


def _tile(text: str | None) -> str:
    return tile_name(tile_from_str(text)) if text else ""


def _part(e: Mapping[str, Any], names: Sequence[str]) -> str:
    kind = e["type"]
    who = names[e["seat"]] if e.get("seat") is not None else ""
    tile = _tile(e.get("tile"))
    if kind == "discard":
        return f"{who} 打 {tile}" + ("（摸切）" if e["tsumogiri"] else "")
    if kind == "ready":
        return f"{who} 聽"
    if kind in ("chi", "pon", "kong"):
        verb = {"chi": "吃", "pon": "碰", "kong": "槓"}[kind]
        return f"{who} {verb} {tile}"
    if kind == "ankong":
        return f"{who} 暗槓 {tile_name(parse_tiles(e['meld'].split(':')[1])[0])}"
    if kind == "addkong":
        return f"{who} 加槓 {tile}"
    if kind == "flower":
        return f"{who} 補花 {tile}"
    if kind == "win":
        if e.get("flower_win"):
            return f"{who} {e['flower_win']}"
        if e["self_drawn"]:
            return f"{who} 自摸 {tile}"
        how = "搶槓" if e.get("robbing_kong") else "放槍"
        return f"{who} 胡 {tile}（{names[e['from']]} {how}）"
    if kind == "draw_game":
        return "流局"
    if kind == "abandon":
        return f"{who} 離開，牌局結束"
    return {
        "timeout": f"{who} 超時",
        "auto_on": f"{who} 代打",
        "auto_off": f"{who} 回來",
        "eye": f"{who} {'Miji' if e.get('miji') else '眼牌'}",
        "exchange": f"{who} 換牌",
        "exchanged": "換牌完成",
        "pass_win": f"{who} 過水",
    }.get(kind, "")
