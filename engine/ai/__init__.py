"""AI players. Every one decides from ``(GameView, legal actions)`` alone — what a person in that
seat sees — and never imports :mod:`engine.game`, so it cannot look at other hands or the wall.

- :class:`SimpleAI` (easy): shanten-greedy, claims whatever brings it closer, never folds.
- :class:`PlannerAI` with :data:`NORMAL` or :data:`STRONG`: weighs speed (shanten and the live
  tiles that improve the hand) against value (the 台 the hand can reach and the table minimum),
  claims only when that serves the plan, and (strong) folds against likely ready hands.
"""

from .planner import NORMAL, STRONG, PlannerAI, Style
from .simple import SimpleAI

__all__ = ["NORMAL", "STRONG", "PlannerAI", "SimpleAI", "Style"]
