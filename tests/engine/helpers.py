"""Shared helpers for engine tests: positions in notation, actions in notation."""

from engine.actions import Action, Kind
from engine.game import Game
from engine.tiles import parse_tiles


def act(text: str) -> Action:
    return Action.from_str(text)


def kinds(game: Game, seat: int) -> set[str]:
    return {a.kind.value for a in game.legal_actions(seat)}


def chi_options(game: Game, seat: int) -> list[str]:
    return sorted(str(a).split()[-1] for a in game.legal_actions(seat) if a.kind is Kind.CHI)


def tiles(text: str) -> list[int]:
    return parse_tiles(text)


def tile(text: str) -> int:
    return parse_tiles(text)[0]


def pass_all(game: Game) -> None:
    """Everyone declines the discard on the table (or the kong that may be robbed)."""
    while game.phase.value in ("claim", "rob_kong"):
        seat = game.to_act()[0]
        game.apply(Action(seat, Kind.PASS))
