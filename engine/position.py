"""Set up a game at a chosen position, written in tile notation (the FEN of this engine).

    game = position(
        hands={0: "123456789m1234p5s", 1: "...", ...},   # concealed tiles; the seat to move holds one more
        melds={1: ["pon:555z"]},
        wall="5m7p",            # the next live draws, in order
        turn=0,
    )

The short name for :meth:`engine.game.Game.from_position`; the tiles are laid out by
:func:`engine.layout.lay_out` (tiles not named go to the wall, so the 144 are always conserved).
"""

from __future__ import annotations

from .game import Game
from .rules import RuleProfile, TableOptions


def position(
    *,
    hands: dict[int, str] | None = None,
    melds: dict[int, list[str]] | None = None,
    flowers: dict[int, str] | None = None,
    rivers: dict[int, str] | None = None,
    wall: str = "",
    back: str = "",
    turn: int = 0,
    dealer: int = 0,
    drawn: str | None = None,
    rules: str | RuleProfile = "taiwan16",
    options: TableOptions | None = None,
    first_go: bool = False,
    live: int | None = None,
    horses: str = "",
) -> Game:
    """A game in TURN phase for ``turn`` (see :meth:`Game.from_position`)."""
    return Game.from_position(
        hands=hands,
        melds=melds,
        flowers=flowers,
        rivers=rivers,
        wall=wall,
        back=back,
        turn=turn,
        dealer=dealer,
        drawn=drawn,
        rules=rules,
        options=options,
        first_go=first_go,
        live=live,
        horses=horses,
    )
