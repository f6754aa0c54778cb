"""A person's auto toggles (issue 39), as the table applies them: auto-win takes every win offered, no
calls passes every 吃/碰/槓 offer (never a win: a win offered waits for the person, unless auto-win takes
it), auto-discard plays 摸切 (the drawn tile) on every turn with a drawn tile and no win offered. Pure:
which decision a seat's toggles answer, if any.

    >>> from engine.game import Game
    >>> game = Game.from_position(hands={0: "123456789m124p11s555z"}, turn=0, drawn="5z")
    >>> str(answer(game, 0, Toggles(auto_discard=True)))
    '0 discard 5z'
    >>> answer(game, 0, Toggles(no_calls=True)) is None
    True
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.actions import Action, Kind
from engine.game import Game, Phase

CALLS = (Kind.CHI, Kind.PON, Kind.KONG)
NAMES = ("auto_win", "no_calls", "auto_discard")


@dataclass(frozen=True, slots=True)
class Toggles:
    auto_win: bool = False
    no_calls: bool = False
    auto_discard: bool = False

    @property
    def any(self) -> bool:
        return self.auto_win or self.no_calls or self.auto_discard


OFF = Toggles()


def answer(game: Game, seat: int, toggles: Toggles) -> Action | None:
    """The action ``seat``'s toggles take at the decision it owes now, or None: the person decides."""
    if not toggles.any or game.is_over or seat not in game.to_act():
        return None
    if game.phase not in (Phase.TURN, Phase.CLAIM, Phase.ROB_KONG):
        return None  # 換牌, a flower win: always the person's (or the clock's)
    actions = game.legal_actions(seat)
    wins = [a for a in actions if a.kind is Kind.WIN]
    if wins:
        return wins[0] if toggles.auto_win else None
    if game.phase is Phase.TURN:
        drawn = game.drawn[seat]
        if not toggles.auto_discard or drawn is None:
            return None
        return next((a for a in actions if a.kind is Kind.DISCARD and a.tile == drawn), None)
    if toggles.no_calls and any(a.kind in CALLS for a in actions):
        return next((a for a in actions if a.kind is Kind.PASS), None)
    return None
