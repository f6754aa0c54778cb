"""A pure mahjong engine: one hand is a :class:`Game`, a series of hands is a :class:`Match`.

    >>> import engine
    >>> game = engine.Game("taiwan16", seed=7, options=engine.TableOptions(min_tai=3))
    >>> seat = game.to_act()[0]
    >>> events = game.apply(game.legal_actions(seat)[0])
    >>> again = engine.Game.replay(game.header(), [str(a) for a in game.log])
    >>> again.view(None) == game.view(None)
    True

Main entry points: :class:`Game` (``legal_actions``, ``apply``, ``view``, ``header``/``replay``,
``auto_seats``/``auto_action``), :class:`Match` (``new_hand``, ``finish_hand``, ``header``/``replay``),
:class:`Action` and its notation (``Action.from_str("0 discard 5m")``), :class:`TableOptions`, and
:func:`get_profile` for a rule set's :class:`~engine.rules.RuleProfile`. Scoring lives in
:mod:`engine.scoring`. No I/O anywhere in this package.
"""

from .actions import Action, Kind
from .events import Event, EventKind, Phase
from .game import Game, IllegalActionError, InvariantError, Outcome
from .match import Match
from .rules import RuleProfile, TableOptions, get_profile
from .tiles import NotationError, format_tiles, parse_tiles
from .view import GameView, HandResult

__all__ = [
    "Action",
    "Event",
    "EventKind",
    "Game",
    "GameView",
    "HandResult",
    "IllegalActionError",
    "InvariantError",
    "Kind",
    "Match",
    "NotationError",
    "Outcome",
    "Phase",
    "RuleProfile",
    "TableOptions",
    "format_tiles",
    "get_profile",
    "parse_tiles",
]
