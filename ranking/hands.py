"""Facts about one stored hand that its result does not hold, read back from its header and action log.

The result keeps only the winner's melds; how often a player calls (副露) needs every seat's. The
action log alone cannot say (a 碰 loses to a 胡 on the same discard), so the hand is replayed.

    >>> from engine.game import Game
    >>> game = Game(seed=3)
    >>> called_seats(game.header(), [])
    (False, False, False, False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.game import Game
from engine.meld import MeldKind


def called_seats(header: Mapping[str, Any], actions: Sequence[str]) -> tuple[bool, ...]:
    """Which seats showed a claimed meld (吃, 碰, 明槓, 加槓 onto a 碰) by the end of the log.
    Raises ``ValueError`` (or the engine's notation errors) when the log does not replay."""
    seats = Game.replay(header, actions).view(None).seats  # a 暗槓 shows as one, face down or up
    return tuple(any(m.kind is not MeldKind.ANKONG for m in seat.melds) for seat in seats)
