"""Scoring per rule set: one declarative table module per rule set, one evaluation loop.

    >>> from engine.scoring import WinContext, score_win
    >>> from engine.tiles import parse_tiles
    >>> ctx = WinContext(concealed=tuple(parse_tiles("123456789m 456p 3455s")),
    ...                  win_tile=parse_tiles("2s")[0])
    >>> result = score_win(ctx, "taiwan16")
    >>> result.total, [i.name for i in result.items]
    (3, ['門清', '平胡'])

Adding a rule set: write ``engine/scoring/<id>.py`` exposing ``RULES: RuleSet`` (its table of
:class:`Item` rows, and hooks such as ``readings`` for special hand forms) and
``settle(result: ScoreResult, ctx: engine.settlement.SettleContext) -> Settlement`` (who pays
whom; optionally ``settle_draw(ctx)`` for a draw game), then add one line to :data:`RULE_MODULES`, the game profile to ``engine.rules.PROFILES`` and the entry
to ``engine.rulesets.RULE_SETS``.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from types import ModuleType
from typing import Any

from ..rules import TableOptions
from .core import (
    REASON_CODES,
    HandSet,
    Item,
    Reading,
    RuleSet,
    ScoreResult,
    ScoringError,
    UnknownRules,
    WinContext,
    evaluate,
    meets_minimum,
    ready_items,
    score_with,
    validate_context,
)

# rule-set id -> module holding ``RULES`` (imported on first use)
RULE_MODULES: dict[str, str] = {
    "taiwan16": "engine.scoring.taiwan16",
    "taiwan13": "engine.scoring.taiwan13",
    "hongkong": "engine.scoring.hongkong",
    "guangdong": "engine.scoring.guangdong",
}


def _module(name: str) -> ModuleType:
    module = RULE_MODULES.get(name)
    if module is None:
        known = ", ".join(sorted(RULE_MODULES))
        raise UnknownRules(f"unknown rules {name!r} (known: {known})")
    return import_module(module)


def get_rules(name: str) -> RuleSet:
    """The scoring profile registered under ``name``; :class:`UnknownRules` otherwise."""
    found = _RULES.get(name)
    if found is None:
        found = _RULES[name] = _module(name).RULES
    return found


# the profiles already looked up, by name (every score asks; the import machinery is slow to say
# that a module is loaded)
_RULES: dict[str, RuleSet] = {}


def get_settle(name: str) -> Callable[[ScoreResult, Any], Any]:
    """The rule set's ``settle(result, ctx: SettleContext) -> Settlement`` hook (who pays whom).

    Typed loosely here because engine.settlement builds on this package, not the other way."""
    settle = getattr(_module(name), "settle", None)
    if settle is None:
        raise UnknownRules(f"rule set {name!r} has no settle hook")
    return settle


def get_settle_draw(name: str) -> Callable[[Any], Any] | None:
    """The rule set's optional ``settle_draw(ctx: SettleContext) -> Settlement`` hook: payments at a
    draw game (流局), e.g. kong payments that stand without a winner. None: a draw pays nothing."""
    return getattr(_module(name), "settle_draw", None)


def get_settle_leave(name: str) -> Callable[[int], Any] | None:
    """The rule set's optional ``settle_leave(seat) -> Settlement`` hook: a player who leaves mid-game
    ends the table and pays this (taiwan13 中断连线). None: the seat is auto-played (代打) instead."""
    return getattr(_module(name), "settle_leave", None)


def score_win(ctx: WinContext, rules: str | RuleSet = "taiwan16") -> ScoreResult:
    """Score one win. ``valid`` is False (with ``reason``) for a hand that is not a winning hand,
    or that a requested table option refuses (minimum 台, 限自摸). Raises :class:`ScoringError` for
    an impossible context (bad counts, wrong hand size, contradictory flags)."""
    table = rules if isinstance(rules, RuleSet) else get_rules(rules)
    return score_with(table, ctx)


__all__ = [
    "REASON_CODES",
    "RULE_MODULES",
    "HandSet",
    "Item",
    "Reading",
    "RuleSet",
    "ScoreResult",
    "ScoringError",
    "TableOptions",
    "UnknownRules",
    "WinContext",
    "evaluate",
    "get_rules",
    "get_settle_leave",
    "get_settle",
    "get_settle_draw",
    "meets_minimum",
    "ready_items",
    "score_win",
    "validate_context",
]
