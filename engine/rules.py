"""Rule profiles and table options.

A rule set is data the one game loop reads (hand size, flowers, draw-game reserve, claim rules),
plus a scorer that lives in ``engine.scoring``; it is never a fork of the game loop.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass(frozen=True, slots=True)
class TableOptions:
    """The per-table switches of the rule documents (taiwan16 names in comments)."""

    self_draw_only: bool = False  # 限自摸: only self-drawn wins
    may_pass_win: bool = False  # 可過水: a win may be declined (then 過水 until a non-winning discard)
    min_tai: int = 0  # 三台起胡 → 3
    see_wind_see_flower: bool = False  # 見字見花
    cap_tai: int | None = 16  # 滿台 (None: no cap)
    bankroll_tai: int | None = None  # 24-台 bankroll rule (None: off)
    extra: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True, slots=True)
class RuleProfile:
    id: str
    hand_size: int  # 16 or 13 tiles before the draw
    flowers: bool  # the 8 flower tiles are in the wall
    reserve: int  # tiles left in the wall when the hand is a draw game
    reserve_per_kong: int  # one more tile kept back for each kong
    chi: bool = True  # 吃 from the previous player
    ready_declaration: bool = True  # 聽 can be declared (then the hand is fixed)
    exposed_kong_from_previous: bool = False  # 行動限制6: the 上家's discard may not be 明槓'd
    no_claim_last_round: bool = True  # 行動限制5
    no_reclaim_own_discard_kind: bool = True  # 行動限制9
    kong_replacement_no_tsumo: bool = True  # 行動限制2/3
    options: TableOptions = TableOptions()

    @property
    def wall_size(self) -> int:
        return 144 if self.flowers else 136

    def with_options(self, **changes: object) -> RuleProfile:
        return replace(self, options=replace(self.options, **changes))


TAIWAN16 = RuleProfile(id="taiwan16", hand_size=16, flowers=True, reserve=16, reserve_per_kong=1)

PROFILES: dict[str, RuleProfile] = {TAIWAN16.id: TAIWAN16}


def get_profile(rules: str | RuleProfile) -> RuleProfile:
    if isinstance(rules, RuleProfile):
        return rules
    try:
        return PROFILES[rules]
    except KeyError:
        raise ValueError(f"unknown rule set {rules!r}; known: {', '.join(sorted(PROFILES))}") from None
