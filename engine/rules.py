"""Rule profiles and table options.

A rule set is a :class:`RuleProfile`: data the one game loop reads (hand size, flowers, draw-game
reserve, claim rules, special winning forms, dealer rotation) plus a scoring module in
``engine.scoring`` (its item table and its ``settle`` hook). It is never a fork of the game loop.
Adding a rule set: one entry in :data:`PROFILES`, one in ``engine.scoring.RULE_MODULES`` and one in
``engine.rulesets.RULE_SETS`` (its display facts).

:class:`TableOptions` is the one set of switches a host chooses for a table; the game, the scorer
and the settlement all read it.

    >>> opts = TableOptions(min_tai=3)
    >>> TableOptions.from_dict(opts.to_dict()) == opts
    True
    >>> TableOptions.from_dict({"min_tia": 3})
    Traceback (most recent call last):
    ...
    ValueError: unknown table option(s): min_tia
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from .forms import check_forms
from .house_rules import HouseRules

# dealer rotation rules (RuleProfile.rotation)
DEALER_KEEPS = "dealer_keeps"  # taiwan: the dealer keeps the deal on their own win or a draw game
WINNER_DEALS = "winner_deals"  # the winner deals next; a draw game keeps the dealer
# guangdong 谁胡谁庄 (document 004): the winner deals next, and a draw game (荒庄) passes the deal to the 下家
WINNER_DEALS_DRAW_PASSES = "winner_deals_draw_passes"
DEALER_WINS_KEEPS = "dealer_wins_keeps"  # taiwan13: only the dealer's own win keeps the deal
ROTATIONS = (DEALER_KEEPS, WINNER_DEALS, WINNER_DEALS_DRAW_PASSES, DEALER_WINS_KEEPS)

HAND_SIZES = (13, 16)  # tiles in hand before the draw, at any rule set
TURN_SECONDS = (4, 120)  # the document's tables use 4, 5, 6 or 8 s; Discord players need longer
CLAIM_SECONDS = (2, 60)


@dataclass(frozen=True, slots=True)
class TableOptions:
    """The per-table switches of the rule documents (taiwan16 names in comments).

    Frozen and JSON-safe through :meth:`to_dict` / :meth:`from_dict`; a bad value raises ValueError
    at construction, so a table never runs with options nobody can play.
    """

    self_draw_only: bool = False  # 限自摸: only self-drawn wins
    may_pass_win: bool = False  # 可過水: a win may be declined (then 過水 until a non-winning discard)
    min_tai: int = 0  # 三台起胡 → 3: the countable 台 a win needs (hongkong: 番, 3/1/0番起和)
    see_wind_see_flower: bool = False  # 見字見花
    bonus_tile: bool = False  # 翻寶牌 (hongkong, 13-tile play): a face-up tile names the 寶牌
    cap_tai: int | None = 16  # 滿台 (None: no cap)
    bankroll_tai: int | None = 24  # 24-台 rule: no payer pays more than 底 + 24 台 (None: off)
    base: int = 300  # 底, in points
    tai: int = 100  # one 台, in points
    turn_seconds: int = 20  # 出牌時間
    claim_seconds: int = 8  # time to answer a discard (吃/碰/槓/胡/過)
    exchange: bool = False  # 換牌: after the deal and 補花 each player may give back 0-3 tiles
    house_rules: HouseRules = HouseRules()  # the taiwan16 variants (engine.house_rules); default: the document
    hand_size: int | None = None  # hongkong: 13 (寶牌 possible) or 16 (補花); None: the rule set's own
    # a self-drawn win on the replacement of a 明槓 of a discard (杠開 包牌); None: the rule set's own
    # rule (taiwan16 and hongkong: not allowed, 「所補之牌恰巧可以胡牌，不得胡牌」; taiwan13: allowed)
    claimed_kong_bloom: bool | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.house_rules, HouseRules):
            if not isinstance(self.house_rules, dict):
                raise ValueError(f"house_rules must be an object of switches, got {self.house_rules!r}")
            object.__setattr__(self, "house_rules", HouseRules(self.house_rules))
        for name in ("self_draw_only", "may_pass_win", "see_wind_see_flower", "bonus_tile", "exchange"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false, got {getattr(self, name)!r}")
        for name, low in (("min_tai", 0), ("base", 0), ("tai", 0)):
            _check_int(name, getattr(self, name), low)
        for name in ("cap_tai", "bankroll_tai"):
            if getattr(self, name) is not None:
                _check_int(name, getattr(self, name), 0)
        if self.hand_size is not None and (isinstance(self.hand_size, bool) or self.hand_size not in HAND_SIZES):
            raise ValueError(f"hand_size must be one of {', '.join(map(str, HAND_SIZES))}, got {self.hand_size!r}")
        if self.claimed_kong_bloom is not None and not isinstance(self.claimed_kong_bloom, bool):
            raise ValueError(f"claimed_kong_bloom must be true, false or null, got {self.claimed_kong_bloom!r}")
        for name, (low, high) in (("turn_seconds", TURN_SECONDS), ("claim_seconds", CLAIM_SECONDS)):
            _check_int(name, getattr(self, name), low, high)

    def to_dict(self) -> dict[str, Any]:
        """Every field, JSON-safe (``None`` for an option that is off; ``house_rules`` holds only
        the switches that differ from the document)."""
        data = asdict(self)
        data["house_rules"] = self.house_rules.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableOptions:
        """Options from :meth:`to_dict` output; missing keys take the default, unknown keys are refused."""
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ValueError(f"unknown table option(s): {', '.join(unknown)}")
        return cls(**data)


def _check_int(name: str, value: object, low: int, high: int | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"between {low} and {high}" if high is not None else f"at least {low}"
        raise ValueError(f"{name} must be {bound}, got {value}")


@dataclass(frozen=True, slots=True)
class RuleProfile:
    """What the game loop needs to know about a rule set. Scoring and settlement live in the
    scoring module registered under the same ``id`` (``engine.scoring.get_rules`` / ``get_settle``)."""

    id: str
    hand_size: int  # 16 or 13 tiles before the draw
    flowers: bool  # the 8 flower tiles are in the wall
    reserve: int  # tiles left in the wall when the hand is a draw game
    reserve_per_kong: int  # one more tile kept back for each kong
    chi: bool = True  # 吃 from the previous player
    ready_declaration: bool = True  # 聽 can be declared (then the hand is fixed)
    eye_declaration: bool = False  # 眼牌 / Miji may be declared (document 000 only: see Game.declarations)
    exposed_kong_from_previous: bool = False  # 行動限制6: the 上家's discard may not be 明槓'd
    no_claim_last_round: bool = True  # 行動限制5
    no_reclaim_own_discard_kind: bool = True  # 行動限制9
    kong_replacement_no_tsumo: bool = True  # 行動限制2/3
    # special winning forms beyond sets + pair, by name in engine.forms.FORMS ("seven_pairs", ...)
    win_forms: tuple[str, ...] = ()
    rotation: str = DEALER_KEEPS  # how the deal moves after a hand (ROTATIONS)
    host_deals_first: bool = False  # the first dealer is the table's owner (player 0), not the dice's pick
    # instant flower wins, as the scorer names them: (all eight flowers, seven against the eighth)
    flower_wins: tuple[str | None, str | None] = ("八仙過海", "七搶一")
    flower_bonus: bool = False  # house rule flower_win_as_bonus applies (taiwan16's 一底八台 flower wins)
    # a flower win is the player's to call (胡 / 過) rather than the system's: document 001's
    # 「就可以喊胡」; elsewhere the house rule flower_win_optional (八仙過海可不胡) makes it so
    flower_win_optional: bool = False
    earthly_discards: int = 0  # 地胡 within this many discards of the hand (0: the first go-round)
    robbed_kong_deals: bool = False  # the owner of a robbed kong (抢杠) deals the next hand (guangdong)
    scorer_vets_wins: bool = False  # 胡 is offered only when the scorer accepts the win (guangdong: 必须自摸)
    horses: int = 0  # 买马: tiles set aside from the wall's end before the deal, revealed when the hand ends
    options: TableOptions = TableOptions()
    # the other hand sizes a table may choose (TableOptions.hand_size): size -> the fields that change
    sizes: tuple[tuple[int, tuple[tuple[str, Any], ...]], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "win_forms", check_forms(self.win_forms))
        if self.horses < 0:
            raise ValueError(f"horses must be >= 0, got {self.horses}")
        if self.rotation not in ROTATIONS:
            raise ValueError(f"unknown rotation {self.rotation!r}; known: {', '.join(ROTATIONS)}")

    @property
    def wall_size(self) -> int:
        return 144 if self.flowers else 136

    def with_options(self, **changes: Any) -> RuleProfile:
        return replace(self, options=replace(self.options, **changes))

    def for_table(self) -> RuleProfile:
        """The profile its own options make of it: the hand size chosen (``sizes``) and whether a
        claimed kong's replacement may win. ValueError for a hand size the rule set does not offer
        and for 翻寶牌 with flowers.

            >>> HONGKONG.with_options(hand_size=16).for_table().flowers
            True
        """
        profile, options = self, self.options
        if options.hand_size is not None and options.hand_size != self.hand_size:
            changes = dict(self.sizes).get(options.hand_size)
            if changes is None:
                offered = " or ".join(str(n) for n in sorted({self.hand_size, *dict(self.sizes)}))
                raise ValueError(f"{self.id} is played with {offered} tiles, not {options.hand_size}")
            profile = replace(profile, hand_size=options.hand_size, **dict(changes))
        if options.bonus_tile and profile.flowers:
            raise ValueError("翻寶牌 is 13-tile play (十三張麻將才有), not a game with flowers")
        if options.claimed_kong_bloom is not None:
            profile = replace(profile, kong_replacement_no_tsumo=not options.claimed_kong_bloom)
        return profile


TAIWAN16 = RuleProfile(
    id="taiwan16",
    hand_size=16,
    flowers=True,
    reserve=16,
    reserve_per_kong=1,
    flower_bonus=True,
    eye_declaration=True,
)
# document 002's 番 game: 13 tiles, no flowers, 十三幺 (寶牌 a table option), or (hand_size 16) its
# 16-tile procedure with 補花 and no 13-tile forms; no 聽 declaration nor taiwan16's 行動限制 5/9; a
# 明杠's replacement may not win (不得胡牌) unless the table allows it (claimed_kong_bloom: 杠開 包牌).
# Why: docs/rules/hongkong.md
HONGKONG = RuleProfile(
    id="hongkong",
    hand_size=13,
    flowers=False,
    reserve=16,
    reserve_per_kong=1,
    ready_declaration=False,
    no_claim_last_round=False,
    no_reclaim_own_discard_kind=False,
    kong_replacement_no_tsumo=True,
    win_forms=("thirteen_orphans",),
    # 補花牌 (十六張麻將才有); 002 has no 八仙過海, so eight flowers are only flowers
    sizes=((16, (("flowers", True), ("win_forms", ()), ("flower_wins", (None, None)))),),
)

# document 004 (推倒胡): 13 tiles, no flowers, 碰/杠 but no 吃, the wall is played to its last tile, most
# hands only by 自摸 (the scorer decides), 谁胡谁庄, four horses (买马). Why: docs/rules/guangdong.md
GUANGDONG = RuleProfile(
    id="guangdong",
    hand_size=13,
    flowers=False,
    reserve=0,
    reserve_per_kong=0,
    chi=False,
    ready_declaration=False,
    exposed_kong_from_previous=True,
    no_claim_last_round=False,
    no_reclaim_own_discard_kind=False,
    kong_replacement_no_tsumo=False,
    win_forms=("seven_pairs", "thirteen_orphans"),
    rotation=WINNER_DEALS_DRAW_PASSES,
    robbed_kong_deals=True,
    scorer_vets_wins=True,
    horses=4,
    options=TableOptions(cap_tai=None, bankroll_tai=None),
)

# document 001: 13 tiles with flowers, 七对子 and 国士无双, 明杠 of any discard, a 明杠's replacement
# may win (杠上开花), no 聽 declaration, the deal passes unless the dealer wins; no 滿台 and no
# 24-台 rule (its settle hook pays 20 points a 台, docs/rules/taiwan13.md)
TAIWAN13 = RuleProfile(
    id="taiwan13",
    hand_size=13,
    flowers=True,
    reserve=16,
    reserve_per_kong=1,
    ready_declaration=False,
    exposed_kong_from_previous=True,
    no_claim_last_round=False,
    no_reclaim_own_discard_kind=False,
    kong_replacement_no_tsumo=False,
    win_forms=("seven_different_pairs", "thirteen_orphans"),
    rotation=DEALER_WINS_KEEPS,
    host_deals_first=True,  # 庄家：由东家开始(也就是桌长)
    flower_wins=("大花胡", None),
    flower_win_optional=True,  # 只要某一家拿到全部八张的花牌，就可以喊胡: the player may call it
    earthly_discards=8,
    scorer_vets_wins=True,  # a win needs 1 台 (RuleSet.min_tai), whatever the table's options
    options=TableOptions(cap_tai=None, bankroll_tai=None, base=0, tai=20, turn_seconds=15, claim_seconds=5),
)

# rule-set id -> profile; each rule set adds one entry here
PROFILES: dict[str, RuleProfile] = {p.id: p for p in (TAIWAN16, TAIWAN13, HONGKONG, GUANGDONG)}


def get_profile(rules: str | RuleProfile) -> RuleProfile:
    if isinstance(rules, RuleProfile):
        return rules
    try:
        return PROFILES[rules]
    except KeyError:
        raise ValueError(f"unknown rule set {rules!r}; known: {', '.join(sorted(PROFILES))}") from None


def next_dealer(rotation: str, dealer: int, winner: int | None, robbed: int | None = None) -> int:
    """The seat that deals the next hand. The streak (連莊) grows when this returns ``dealer``.
    ``robbed``: the owner of a robbed kong, passed when the profile says they deal next (抢杠)."""
    if robbed is not None:
        return robbed
    if winner is None and rotation in (WINNER_DEALS_DRAW_PASSES, DEALER_WINS_KEEPS):
        return (dealer + 1) % 4  # 荒庄 / 下庄 (taiwan13: 庄家没有胡牌): the 下家 deals
    if winner is None or winner == dealer:
        return dealer  # a draw game (臭莊) or the dealer's own win: 連莊
    if rotation in (WINNER_DEALS, WINNER_DEALS_DRAW_PASSES):
        return winner
    return (dealer + 1) % 4
