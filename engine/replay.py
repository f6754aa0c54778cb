"""Stepping through a finished hand (牌譜 replay): one frame per move that changed the table, each
with every hand face up (a replay is only ever of a hand that is over), what happened as data (the move's
number in the log and the log's events for it: the words are the reader's, made in cogs/i18n/steps.py)
and marks for the jump buttons (next claim, 槓, win).

    for frame in frames(game_header, moves, seat=0):
        frame.number, frame.events, frame.marks, frame.view

Built on :func:`engine.log.hand_steps`, so a replay shows exactly what the log checks. Pure, and
language-free.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .game import Game
from .log import Step, hand_steps
from .view import GameView

CLAIM, KONG, WIN = "claim", "kong", "win"  # what the jump buttons look for


@dataclass(frozen=True, slots=True)
class Frame:
    """One step of a replay: ``number`` is the move in the log (0 the deal; the number a review names),
    ``events`` what it did (the log's events, docs/log-format.md), ``view`` the table after it from
    ``view.viewer``'s seat with every hand revealed."""

    index: int  # position in the replay, 0-based (frames skip moves that changed nothing visible)
    number: int
    events: tuple[dict[str, Any], ...]
    marks: frozenset[str]
    view: GameView


def frames(header: Mapping[str, Any], moves: Sequence[str], *, seat: int = 0) -> Iterator[Frame]:
    """Every frame of the hand ``header`` (:meth:`Game.header`) played with ``moves``, seen from
    ``seat``. Moves that caused no event (a 過 while others still decide) make no frame, nor do the
    代打 switches made after the hand ended (they decide the next hand: the win stays the last frame)."""
    game = Game.replay(header, [])
    index = 0
    for step in hand_steps(game, moves):
        if not shown(step):
            continue
        yield Frame(index, step.number, step.events, marks(step), revealed_view(step.game, seat))
        index += 1


def frame_at(header: Mapping[str, Any], moves: Sequence[str], index: int, *, seat: int = 0) -> Frame:
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
    return Frame(i, last.number, last.events, marks(last), revealed_view(last.game, seat))


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
