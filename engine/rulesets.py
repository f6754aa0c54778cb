"""The rule-set registry: one entry per rule set id, holding what the game loop plays (its
:class:`~engine.rules.RuleProfile`), what scores and settles a hand (its scoring module) and the
facts a host shows (its unit, how a table minimum is written, the minimum a new table plays, its
instant flower wins). Code outside ``engine/`` asks this registry and never names a rule set.

    >>> get("hongkong").minimum_label(3), get("taiwan16").minimum_label(3), get("taiwan13").minimum_label(1)
    ('3番起和', '三台起胡', '1台起胡')
    >>> get(DEFAULT_RULES).unit, get("hongkong").unit, get("hongkong").default_minimum
    ('tai', 'fan', 3)
    >>> get("guangdong").flower_wins, get("taiwan13").flower_wins
    ((), ('大花胡',))

Adding a rule set: its profile (``engine.rules.PROFILES``), its scoring module
(``engine.scoring.RULE_MODULES``) and one entry in :data:`RULE_SETS`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .rules import PROFILES, RuleProfile
from .scoring import RuleSet, ScoreResult, get_rules, get_settle, get_settle_draw, get_settle_leave

DEFAULT_RULES = "taiwan16"  # the flagship: what a table, a board or a command plays unless told


@dataclass(frozen=True, slots=True)
class RuleSetSpec:
    """One rule set's entry. The profile, scorer and settlement hooks are looked up by id (the
    scoring modules load on first use); the rest are facts of the rule documents."""

    id: str
    minimum_word: str = "台起胡"  # a table minimum is written n + this (3番起和, 1台起胡)
    minimum_names: tuple[tuple[int, str], ...] = ()  # minimums players write otherwise (三台起胡)
    default_minimum: int = 0  # a new table's minimum unless the host chooses (document 002: 3番起和)
    # 胡 and 自摸 pay 底 + 台 × the 台 value, the dealer's [2n+1] 台 on top (document 003's formula)
    stake_formula: bool = False
    dealer_counts_a_tai: bool = False  # a payment to or from the dealer counts one 台 more (001's 庄家)
    bonus_tile: bool = False  # 翻寶牌 is played (a table option) and scored

    @property
    def profile(self) -> RuleProfile:
        return PROFILES[self.id]

    @property
    def scorer(self) -> RuleSet:
        return get_rules(self.id)

    @property
    def settle(self) -> Callable[[ScoreResult, Any], Any]:
        return get_settle(self.id)

    @property
    def settle_draw(self) -> Callable[[Any], Any] | None:
        return get_settle_draw(self.id)

    @property
    def settle_leave(self) -> Callable[[int], Any] | None:
        return get_settle_leave(self.id)

    @property
    def unit(self) -> str:
        """What a hand is counted in: ``tai`` (台), ``fan`` (番) or ``multiplier`` (倍)."""
        return self.scorer.unit

    @property
    def pays_stakes(self) -> bool:
        """A table sets 底 and a 台's value (only 台 games pay through them)."""
        return self.unit == "tai"

    @property
    def hand_width(self) -> int:
        """Tiles a hand holds at its widest on a default table: the hand and the drawn tile."""
        return self.profile.hand_size + 1

    @property
    def flower_wins(self) -> tuple[str, ...]:
        """The instant flower wins (八仙過海, 七搶一, 大花胡) of a default table; none without flowers."""
        profile = self.profile
        return tuple(name for name in profile.flower_wins if name) if profile.flowers else ()

    @property
    def eye_declaration(self) -> bool:
        """眼牌 / Miji may be declared."""
        return self.profile.eye_declaration

    @property
    def ready_declaration(self) -> bool:
        """聽 may be declared."""
        return self.profile.ready_declaration

    def minimum_label(self, minimum: int) -> str:
        """A table minimum as players write it: 三台起胡, 1台起胡, 3番起和."""
        return dict(self.minimum_names).get(minimum, f"{minimum}{self.minimum_word}")


RULE_SETS: dict[str, RuleSetSpec] = {
    spec.id: spec
    for spec in (
        RuleSetSpec("taiwan16", minimum_names=((3, "三台起胡"),), stake_formula=True),
        RuleSetSpec("taiwan13", minimum_names=((3, "三台起胡"),), dealer_counts_a_tai=True),
        # 3 番起和 unless the host chooses 1 or 0: document 002's servers offer 3/1/0, and 3 is what
        # most players expect
        RuleSetSpec("hongkong", minimum_word="番起和", default_minimum=3, bonus_tile=True),
        RuleSetSpec("guangdong", minimum_names=((3, "三台起胡"),)),
    )
}
RULE_IDS: tuple[str, ...] = tuple(RULE_SETS)
DEFAULT_MINIMUM: dict[str, int] = {r: s.default_minimum for r, s in RULE_SETS.items() if s.default_minimum}


def get(rules: str) -> RuleSetSpec:
    """The entry for ``rules``; ValueError (as :func:`engine.rules.get_profile`) for an unknown id."""
    try:
        return RULE_SETS[rules]
    except KeyError:
        raise ValueError(f"unknown rule set {rules!r}; known: {', '.join(RULE_IDS)}") from None
