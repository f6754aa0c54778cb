"""Players that are not people, chosen by level name: a random player (for testing), the 代打
auto-player and the AI levels a table host can pick for an empty seat.

Every policy decides from ``(view, legal)`` — the seat's :class:`~engine.view.GameView` and its
legal actions — never from the game itself, so it sees exactly what a person in that seat sees.

    >>> policy = make_policy("strong", random.Random(1))
    >>> action = policy.choose(game.view(seat), game.legal_actions(seat))  # doctest: +SKIP
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from .actions import Action, Kind
from .view import GameView

if TYPE_CHECKING:
    from .ai import SimpleAI

__all__ = [
    "LEVELS",
    "AutoPlayPolicy",
    "Policy",
    "RandomPolicy",
    "SimpleAI",
    "make_policy",
    "reads_view",
]


class Policy(Protocol):
    def choose(self, view: GameView, legal: Sequence[Action]) -> Action: ...


def reads_view(policy: Policy) -> bool:
    """Whether ``policy`` looks at its view. A policy that never does says ``reads_view = False``,
    and a driver that builds a view only for it (self-play) may then pass ``None`` instead."""
    return getattr(policy, "reads_view", True)


class RandomPolicy:
    """Uniform over the legal actions: explores every rule path in self-play."""

    reads_view = False  # chooses from ``legal`` alone

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: GameView | None, legal: Sequence[Action]) -> Action:
        """``rng.choice(legal)``: the same pick from the same state of the generator (its own steps,
        an index below ``n`` drawn as ``getrandbits(n.bit_length())`` until it is below ``n``,
        as engine.wall.shuffle does), without choice's two Python calls at every decision."""
        rng = self.rng
        n = len(legal)
        if type(rng) is not random.Random or not n:
            return rng.choice(legal)
        k = n.bit_length()
        i = rng.getrandbits(k)
        while i >= n:
            i = rng.getrandbits(k)
        return legal[i]


class AutoPlayPolicy:
    """代打: wins when it can, passes on claims, never kongs, otherwise discards the drawn tile."""

    def choose(self, view: GameView, legal: Sequence[Action]) -> Action:
        for a in legal:
            if a.kind is Kind.WIN:
                return a
        for a in legal:
            if a.kind is Kind.PASS:
                return a
        discards = [a for a in legal if a.kind is Kind.DISCARD]
        for a in discards:
            if a.tile == view.drawn:
                return a
        return discards[-1]


# the levels a table host picks from, weakest first (their names in each language: the catalogue, cogs/i18n)
LEVELS = ("easy", "normal", "strong")
_ALIASES = {"ai": "easy", "simple": "easy"}


def make_policy(level: str, rng: random.Random) -> Policy:
    """A fresh player for one seat: ``easy`` (also ``ai``), ``normal``, ``strong``; ``random``
    (uses ``rng``) and ``auto`` (代打) for testing."""
    level = _ALIASES.get(level, level)
    if level == "random":
        return RandomPolicy(rng)
    if level == "auto":
        return AutoPlayPolicy()
    if level in LEVELS:
        from . import ai  # (on first use: a process that plays only random or 代打 seats never loads it)

        if level == "easy":
            return ai.SimpleAI()
        return ai.PlannerAI(ai.NORMAL if level == "normal" else ai.STRONG)
    raise ValueError(f"unknown player level {level!r}; choose from {', '.join(LEVELS)}, random, auto")


def __getattr__(name: str) -> Any:
    """``SimpleAI`` from :mod:`engine.ai`, loaded when first asked for (see :func:`make_policy`)."""
    if name == "SimpleAI":
        from .ai import SimpleAI

        return SimpleAI
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
