"""The rule-set-neutral part of scoring: the win context, hand readings, the item table format and
the evaluation loop ("best total over every reading of the hand").

A rule set is data: a :class:`RuleSet` holding a tuple of :class:`Item` rows. Each row is one line
of the document's table — a name written exactly as the document writes it, a value per
occurrence, a predicate that counts occurrences on a :class:`Reading` and the :class:`WinContext`,
and the names of the items it excludes (``不計三暗刻`` is data beside 四暗刻, not an if-statement).

    >>> from engine.scoring import WinContext, score_win
    >>> from engine.tiles import parse_tiles, tile_from_str
    >>> ctx = WinContext(concealed=tuple(parse_tiles("123456789m 123p 456s 7p")), win_tile=tile_from_str("7p"))
    >>> result = score_win(ctx)
    >>> result.valid, [(i.name, i.value) for i in result.items]
    (True, [('門清', 1), ('獨聽', 1)])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace

from ..analysis import decompositions, waits
from ..house_rules import BY_NAME as HOUSE_SWITCHES
from ..house_rules import HouseRules
from ..meld import Meld, MeldKind
from ..rules import TableOptions
from ..tiles import DRAGONS, NUM_KINDS, WINDS, is_flower, to_counts


class ScoringError(ValueError):
    """The win context is impossible (bad tile counts, wrong hand size, contradictory flags)."""


class UnknownRules(ScoringError):
    """No scoring table is registered under that rule-set id."""


# ---------------------------------------------------------------- the win context


@dataclass(frozen=True, slots=True)
class ScoreItem:
    name: str  # exactly as the rule document writes it
    value: int  # 台 / 番 / multiplier, per ``unit``
    seat: int | None = None  # a settlement line about one seat (a kong's owner, a horse's seat)


@dataclass(frozen=True, slots=True)
class WinContext:
    """Everything the scorer needs to know about one win.

    ``concealed`` is the hand WITHOUT the winning tile; ``win_tile`` is the tile won on (drawn or
    discarded). Winds are 0=E .. 3=N. ``flower_win`` names an instant flower win (八仙過海 /
    七搶一) for which the hand need not be complete.
    """

    concealed: tuple[int, ...] = ()
    melds: tuple[Meld, ...] = ()
    flowers: tuple[int, ...] = ()
    win_tile: int | None = None
    self_drawn: bool = False
    seat_wind: int = 0
    round_wind: int = 0
    dealer: bool = False
    dealer_streak: int = 0
    last_tile: bool = False
    kong_replacement: bool = False  # the winning tile is a replacement draw (after a kong or a flower)
    robbing_kong: bool = False
    heavenly: bool = False
    earthly: bool = False
    declared_ready: bool = False  # 聽 declared; not an item in the document (a house rule)
    eye_declared: bool = False  # 眼牌
    miji: bool = False
    flower_win: str | None = None
    # facts only house rules score (engine.house_rules)
    human: bool = False  # 人胡: an earthly win on a discard before the winner's own first draw
    last_discard: bool = False  # 河底撈魚: won on the last discard of the hand
    heavenly_ready: bool = False  # 天聽: 聽 declared with one's first discard, nobody having claimed
    # ... by a non-dealer who discarded the tile just drawn: the dealt hand itself was ready (配牌聽)
    dealt_ready: bool = False
    after_flower: bool = False  # the replacement draw won on was for a flower, not a kong
    options: TableOptions = field(default_factory=TableOptions)  # the table's (engine.rules)
    bonus_indicators: tuple[int, ...] = ()  # 翻寶牌: face-up tiles; the tile after each is a 寶牌 (hongkong)
    from_dealer: bool = False  # the winning tile is the dealer's discard (hongkong 人和)
    # 八仙過海 / 七搶一 was already paid to this player as a bonus while the hand went on (house rule
    # flower_win_as_bonus): their flowers are not counted again (no 花牌, 見花有台 nor 花槓)
    flower_bonus_taken: bool = False
    # the flower win was offered and declined (八仙過海可不胡, document 001's 就可以喊胡): the hand went
    # on, and its flowers and 花槓 count as ordinary flowers
    flower_win_declined: bool = False


# ---------------------------------------------------------------- readings


@dataclass(frozen=True, slots=True)
class HandSet:
    """One set of a reading. ``kind`` is ``"chi"``, ``"pon"`` or ``"kong"``; ``tile`` is the lowest
    tile. ``concealed`` is True for sets formed in hand without a claimed tile (暗刻, 暗槓);
    ``melded`` is True for declared sets (吃 碰 明槓 加槓 暗槓)."""

    kind: str
    tile: int
    concealed: bool
    melded: bool

    @property
    def is_triplet(self) -> bool:
        return self.kind != "chi"

    @classmethod
    def from_meld(cls, meld: Meld) -> HandSet:
        if meld.kind is MeldKind.CHI:
            return cls("chi", meld.first, concealed=False, melded=True)
        if meld.kind is MeldKind.PON:
            return cls("pon", meld.first, concealed=False, melded=True)
        return cls("kong", meld.first, concealed=meld.kind is MeldKind.ANKONG, melded=True)


# how the winning tile completed the hand
SINGLE, EDGE, CLOSED, TWO_SIDED, DUAL_PON = "single", "edge", "closed", "two_sided", "dual_pon"


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a winning hand: the pair, every set (concealed groups then declared melds),
    where the winning tile sits (``win_in`` indexes ``sets``; -1 is the pair), the wait shape it
    completed, and the hand's whole wait set (``waits``, before the winning tile)."""

    pair: int
    sets: tuple[HandSet, ...]
    win_in: int
    wait: str
    waits: tuple[int, ...]
    tiles: tuple[int, ...]  # every tile of the hand (concealed, melds, winning tile); no flowers
    form: str = ""  # "" for sets + pair, else the special form's name in engine.forms ("lugu")
    # facts many table rows ask about, worked out on the first question (not part of the reading)
    _triplets: tuple[HandSet, ...] | None = field(default=None, init=False, repr=False, compare=False)
    _suits: frozenset[int] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def triplets(self) -> tuple[HandSet, ...]:
        found = self._triplets
        if found is None:
            found = tuple(s for s in self.sets if s.is_triplet)
            object.__setattr__(self, "_triplets", found)
        return found

    @property
    def concealed_triplets(self) -> int:
        return sum(1 for s in self.sets if s.is_triplet and s.concealed)


def _wait_shape(kind: str, low: int, win: int) -> str:
    if kind == "pon":
        return DUAL_PON
    if win == low + 1:
        return CLOSED
    if (win == low + 2 and low % 9 == 0) or (win == low and low % 9 == 6):
        return EDGE
    return TWO_SIDED


# A win on a discard and the same win self-drawn read the same tiles, and every wait of a hand reads
# the same hand: the AI values each ready hand that way, so the decompositions of the last complete
# hands and the waits of the last hands are kept (a few thousand, so a long process keeps no more).
_DECOMPOSITIONS: dict[bytes, list] = {}
_HAND_WAITS: dict[bytes, tuple[int, ...]] = {}
_HAND_SETS: dict[tuple[str, int, bool], HandSet] = {}
_READINGS_KEPT = 4096


def _decompositions(counts: list[int]) -> list:
    key = bytes(counts)
    found = _DECOMPOSITIONS.get(key)
    if found is None:
        if len(_DECOMPOSITIONS) >= _READINGS_KEPT:
            _DECOMPOSITIONS.clear()
        found = _DECOMPOSITIONS[key] = decompositions(counts)
    return found


def _hand_set(kind: str, tile: int, concealed: bool) -> HandSet:
    """The set of a decomposition, made once (a few hundred exist)."""
    key = (kind, tile, concealed)
    found = _HAND_SETS.get(key)
    if found is None:
        found = _HAND_SETS[key] = HandSet(kind, tile, concealed=concealed, melded=False)
    return found


def standard_readings(ctx: WinContext) -> list[Reading]:
    """Readings of a regular hand (sets + one pair). For a win on a discard, a triplet the winning
    tile completed is not concealed; when the tile could sit in several sets every placement is a
    separate reading, so the scorer can take the one the player would choose."""
    assert ctx.win_tile is not None
    win = ctx.win_tile
    counts = to_counts(ctx.concealed)
    hand = bytes(counts)
    counts[win] += 1
    decs = _decompositions(counts)
    if not decs:
        return []
    hand_waits = _HAND_WAITS.get(hand)
    if hand_waits is None:
        if len(_HAND_WAITS) >= _READINGS_KEPT:
            _HAND_WAITS.clear()
        hand_waits = _HAND_WAITS[hand] = tuple(waits(list(hand)))
    melded = tuple(HandSet.from_meld(m) for m in ctx.melds)
    tiles = (*ctx.concealed, win, *(t for m in ctx.melds for t in m.tiles))
    out: list[Reading] = []
    for dec in decs:
        slots: list[int] = [-1] if dec.pair == win else []
        seen: set[tuple[str, int]] = set()
        for i, g in enumerate(dec.groups):
            holds = g.tile == win if g.kind == "pon" else g.tile <= win <= g.tile + 2
            if holds and (g.kind, g.tile) not in seen:
                seen.add((g.kind, g.tile))
                slots.append(i)
        for slot in slots:
            sets = tuple(
                _hand_set(g.kind, g.tile, not (i == slot and g.kind == "pon" and not ctx.self_drawn))
                for i, g in enumerate(dec.groups)
            )
            if slot == -1:
                wait = SINGLE
            else:
                g = dec.groups[slot]
                wait = _wait_shape(g.kind, g.tile, win)
            out.append(Reading(dec.pair, sets + melded, slot, wait, hand_waits, tiles))
    return out


# ---------------------------------------------------------------- facts every rule set's predicates share


def concealed_hand(c: WinContext) -> bool:
    """門清: nothing claimed (暗槓 does not break it)."""
    return all(m.kind is MeldKind.ANKONG for m in c.melds)


def wind_triplets(h: Reading) -> list[int]:
    """The wind tiles of the reading's 刻子 and 槓."""
    return [s.tile for s in h.triplets if s.tile in WINDS]


def dragon_triplets(h: Reading) -> list[int]:
    return [s.tile for s in h.triplets if s.tile in DRAGONS]


def suits(h: Reading) -> frozenset[int]:
    """The suits (0 萬, 1 筒, 2 索) the hand's tiles come from."""
    found = h._suits
    if found is None:
        found = frozenset([t // 9 for t in h.tiles if t < 27])
        object.__setattr__(h, "_suits", found)
    return found


def has_honour(h: Reading) -> bool:
    return any(27 <= t < 34 for t in h.tiles)


# ---------------------------------------------------------------- the table format

# a row's predicate: how many times the item applies to a reading of the hand. Rows marked
# ``needs_hand=False`` read the context alone and are also asked without a reading (an instant
# flower win has none): their predicates take None there, which :func:`evaluate` alone passes
Count = Callable[[Reading, WinContext], int]

# item tags
DEALER = "dealer"  # 莊家 / 連莊: settled as the dealer's extra, outside any cap (and any minimum only with NO_MIN)
NO_MIN = "no_min"  # not counted toward the table minimum (三台起胡)
NO_CAP = "no_cap"  # added on top of the capped rest (滿台 exceptions)
READY = "ready"  # paid for declaring 聽 (聽牌, 天聽, 地聽): reads the context alone (see :func:`ready_items`)


# a house-rule switch an item reads: its name (on while its value is truthy), or (name, value): on
# while the switch holds exactly that value (a switch of several choices, e.g. 天胡加計 0 / 1 / 3)
SwitchSpec = str | tuple[str, int]


def switch_on(house: HouseRules, spec: SwitchSpec) -> bool:
    """Whether ``spec`` (see :data:`SwitchSpec`) is on at a table with these house rules."""
    if isinstance(spec, str):
        return bool(house[spec])
    name, value = spec
    return house[name] == value and isinstance(house[name], bool) == isinstance(value, bool)


def _spec_name(spec: SwitchSpec) -> str:
    return spec if isinstance(spec, str) else spec[0]


@dataclass(frozen=True, slots=True)
class Condition:
    """A condition of an item that a house-rule switch can lift or add: ``test`` must hold unless
    a switch named in ``waived_by`` (one name or several) is on, or (``required_by``) only while
    that switch is on."""

    test: Count
    waived_by: str | tuple[str, ...] | None = None
    required_by: str | None = None

    @property
    def waivers(self) -> tuple[str, ...]:
        if self.waived_by is None:
            return ()
        return (self.waived_by,) if isinstance(self.waived_by, str) else self.waived_by

    def holds(self, reading: Reading | None, ctx: WinContext, house: HouseRules) -> bool:
        if any(house[w] for w in self.waivers):
            return True
        if self.required_by is not None and not house[self.required_by]:
            return True
        # a condition is tested without a reading only on a needs_hand=False row (see Count)
        return bool(self.test(reading, ctx))  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Item:
    """One row of a scoring table.

    ``count(reading, ctx)`` says how many times the item applies (0: absent, 1 for yes/no items);
    the item is worth ``value * count``. ``reading`` is None for an instant win without a complete
    hand; only rows with ``needs_hand=False`` are evaluated then. ``option`` (the name of a boolean
    :class:`~engine.rules.TableOptions` field, e.g. ``"see_wind_see_flower"``) puts the row in play
    only when that option is on, ``unless_option`` takes it out when it is on. ``excludes`` names
    the items not counted when this one is counted (an item that is itself excluded excludes
    nothing).

    House rules (``ctx.options.house_rules``) are read here too, as data: ``value_from`` names the
    switch holding the item's value (0 takes the row out), ``keeps`` maps a switch to excluded
    names that are counted after all while it is on, ``drops`` maps a switch to names this item
    excludes only while it is on (天聽 replaces Miji), and ``conditions`` are tests a switch lifts
    or adds (:class:`Condition`). A switch is a :data:`SwitchSpec`: a name, or a name and the one
    value it must hold.
    """

    name: str
    value: int
    count: Count
    excludes: frozenset[str] = frozenset()
    tags: frozenset[str] = frozenset()
    needs_hand: bool = True
    option: str | None = None
    unless_option: str | None = None
    note: str = ""
    value_from: str | None = None
    keeps: tuple[tuple[SwitchSpec, frozenset[str]], ...] = ()
    conditions: tuple[Condition, ...] = ()
    drops: tuple[tuple[SwitchSpec, frozenset[str]], ...] = ()

    def value_for(self, house: HouseRules) -> int:
        return int(house[self.value_from]) if self.value_from is not None else self.value

    def excludes_for(self, house: HouseRules) -> frozenset[str]:
        """What this item excludes at a table with these house rules."""
        out = self.excludes
        for switch, names in self.drops:
            if switch_on(house, switch):
                out = out | names
        for switch, names in self.keeps:
            if switch_on(house, switch):
                out = out - names
        return out

    def may_exclude(self) -> frozenset[str]:
        """Every name this item excludes at some table (the order of evaluation must serve all)."""
        return self.excludes.union(*(names for _, names in self.drops))

    def switches(self) -> set[str]:
        """The house-rule switches this row reads."""
        named = [self.value_from, *(_spec_name(s) for s, _ in (*self.keeps, *self.drops))]
        named += [s for c in self.conditions for s in (*c.waivers, c.required_by)]
        return {s for s in named if s is not None}


def item(
    name: str,
    value: int,
    count: Count,
    excludes: Iterable[str] = (),
    tags: Iterable[str] = (),
    keeps: Mapping[SwitchSpec, Iterable[str]] | None = None,
    conditions: Iterable[Condition] = (),
    drops: Mapping[SwitchSpec, Iterable[str]] | None = None,
    **kw: object,
) -> Item:
    """Table-row shorthand: ``item("四暗刻", 5, lambda h, c: ..., excludes=["三暗刻"])``; ``keeps`` maps
    a house-rule switch to excluded names it counts after all, ``drops`` to names it excludes only
    while the switch is on (see :class:`Item`)."""
    return Item(
        name,
        value,
        count,
        frozenset(excludes),
        frozenset(tags),
        keeps=tuple((k, frozenset(v)) for k, v in (keeps or {}).items()),
        conditions=tuple(conditions),
        drops=tuple((k, frozenset(v)) for k, v in (drops or {}).items()),
        **kw,  # type: ignore[arg-type]
    )


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A rule set's scoring profile: its table and the hooks the loop needs."""

    name: str
    unit: str
    items: tuple[Item, ...]
    hand_size: int = 16  # concealed + 3 per meld, winning tile excluded
    readings: Callable[[WinContext], list[Reading]] = standard_readings
    # extra validation / refusal for a context: returns a reason the win is refused, or "".
    refuse: Callable[[WinContext], str] | None = None
    min_tai: int = 0  # the rule set's own minimum, on every table (taiwan13: 1 台)
    # what one payer pays for a scored win, after any cap (hongkong: 2^番 with 爆和); None: no points
    points: Callable[[ScoreResult], int] | None = None
    # the instant win all eight flowers in one hand are (taiwan16 八仙過海, taiwan13 大花胡); None: none
    eight_flowers: str | None = None
    # readings of special winning forms a house rule adds, by form name (engine.forms.FORMS)
    form_readings: tuple[tuple[str, Callable[[WinContext], list[Reading]]], ...] = ()
    # the same rule set played with another hand size (TableOptions.hand_size): hongkong's 16 tiles
    sizes: tuple[tuple[int, RuleSet], ...] = ()
    order: tuple[Item, ...] = ()  # evaluation order (filled in by __post_init__)

    def __post_init__(self) -> None:
        names = [i.name for i in self.items]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.name}: duplicate item names")
        named = {x for i in self.items for x in i.may_exclude()}
        named |= {x for i in self.items for _, xs in i.keeps for x in xs}
        unknown = named - set(names)
        if unknown:
            raise ValueError(f"{self.name}: items exclude unknown names {sorted(unknown)}")
        bad_switches = {s for i in self.items for s in i.switches()} - set(HOUSE_SWITCHES)
        if bad_switches:
            raise ValueError(f"{self.name}: items read unknown house rules {sorted(bad_switches)}")
        switches = {f.name for f in fields(TableOptions) if f.type in ("bool", bool)}
        bad = {o for i in self.items for o in (i.option, i.unless_option) if o is not None} - switches
        if bad:
            raise ValueError(f"{self.name}: items depend on unknown table options {sorted(bad)}")
        object.__setattr__(self, "order", _exclusion_order(self.items))

    def sized(self, hand_size: int | None) -> RuleSet:
        """The table for a hand size (None: this one); :class:`ScoringError` for one not offered."""
        if hand_size is None or hand_size == self.hand_size:
            return self
        for size, rules in self.sizes:
            if size == hand_size:
                return rules
        offered = " or ".join(str(n) for n in sorted({self.hand_size, *(n for n, _ in self.sizes)}))
        raise ScoringError(f"{self.name} is played with {offered} tiles, not {hand_size}")

    def find(self, name: str) -> Item:
        for i in self.items:
            if i.name == name:
                return i
        raise KeyError(name)


def _exclusion_order(items: tuple[Item, ...]) -> tuple[Item, ...]:
    """Excluders before the items they exclude (table order otherwise), so that an item removed by
    an exclusion never removes anything itself. A cycle is a table bug."""
    by_name = {i.name: i for i in items}
    excluded_by: dict[str, set[str]] = {i.name: set() for i in items}
    for i in items:  # every exclusion any table may make, so this order serves every table
        for x in i.may_exclude():
            excluded_by[x].add(i.name)
    done: list[Item] = []
    placed: set[str] = set()
    while len(done) < len(items):
        ready = [i for i in items if i.name not in placed and excluded_by[i.name] <= placed]
        if not ready:
            raise ValueError("exclusion cycle in scoring table")
        done.append(ready[0])
        placed.add(ready[0].name)
    assert set(placed) == set(by_name)
    return tuple(done)


# ---------------------------------------------------------------- results


def apply_cap(total: int, outside: int, cap: int | None) -> int:
    """滿台: the part of ``total`` that is not ``outside`` the cap is limited to ``cap`` (None: no cap)."""
    if cap is None:
        return total
    return min(total - outside, cap) + outside


@dataclass(frozen=True, slots=True)
class ScoreResult:
    """The score of one win. ``items`` are in table order; ``total`` is before any cap.

    ``dealer`` is the part from 莊家/連莊 items, ``uncapped`` the other items outside the cap
    (taiwan16: 門清自摸, 眼牌) and ``countable`` the part that counts toward the table minimum.
    ``reason`` is an English sentence for logs; ``code`` names it for translated messages
    (one of :data:`REASON_CODES`, "" when valid).
    """

    valid: bool
    reason: str
    items: tuple[ScoreItem, ...]
    total: int
    unit: str
    rules: str
    dealer: int = 0
    uncapped: int = 0
    countable: int = 0
    reading: Reading | None = None
    flower_win: str | None = None
    code: str = ""

    def capped_total(self, cap: int | None) -> int:
        """Total after the cap: the capped part is limited, dealer and uncapped items added on top."""
        return apply_cap(self.total, self.dealer + self.uncapped, cap)

    def meets_minimum(self, min_tai: int) -> bool:
        return self.valid and self.countable >= min_tai


def meets_minimum(result: ScoreResult, options: TableOptions | int) -> bool:
    """Whether a scored win may be declared at a table with a minimum (三台起胡). The game calls
    this before offering 胡; an invalid result never meets it."""
    min_tai = options if isinstance(options, int) else options.min_tai
    return result.meets_minimum(min_tai)


# why a scored hand may not win (ScoreResult.code), stable across languages
NOT_WINNING = "not_winning"  # the tiles do not form a winning hand
FLOWER_WIN_INVALID = "flower_win_invalid"  # 八仙過海 / 七搶一 without the flowers it needs
REFUSED = "refused"  # the rule set's ``refuse`` hook (e.g. taiwan16 限自摸 on a discard)
BELOW_MINIMUM = "below_minimum"  # under the table minimum (三台起胡)
REASON_CODES = (NOT_WINNING, FLOWER_WIN_INVALID, REFUSED, BELOW_MINIMUM)


def _invalid(rules: RuleSet, reason: str, code: str) -> ScoreResult:
    return ScoreResult(False, reason, (), 0, rules.unit, rules.name, code=code)


# ---------------------------------------------------------------- validation


def validate_context(ctx: WinContext, hand_size: int = 16) -> None:
    """Raise :class:`ScoringError` for a context no real table can produce."""
    for t in ctx.concealed:
        if not 0 <= t < NUM_KINDS:
            raise ScoringError(f"concealed hand holds a non-hand tile {t} (flowers go in 'flowers')")
    if len(set(ctx.flowers)) != len(ctx.flowers) or not all(is_flower(f) and f < 42 for f in ctx.flowers):
        raise ScoringError("flowers must be distinct flower tiles f1..f8")
    if ctx.flower_win is None and (ctx.win_tile is None or not 0 <= ctx.win_tile < NUM_KINDS):
        raise ScoringError("the winning tile must be a suited or honour tile")
    for w, name in ((ctx.seat_wind, "seat_wind"), (ctx.round_wind, "round_wind")):
        if w not in (0, 1, 2, 3):
            raise ScoringError(f"{name} must be 0..3 (E S W N)")
    if ctx.dealer_streak < 0:
        raise ScoringError("dealer_streak cannot be negative")
    counts = to_counts(ctx.concealed)
    if ctx.win_tile is not None and ctx.win_tile < NUM_KINDS:
        counts[ctx.win_tile] += 1
    for m in ctx.melds:
        m.validate()
        for t in m.tiles:
            counts[t] += 1
    for t, n in enumerate(counts):
        if n > 4:
            raise ScoringError(f"impossible hand: {n} copies of one tile (kind {t})")
    if ctx.flower_win is None:
        size = len(ctx.concealed) + 3 * len(ctx.melds)
        if size != hand_size:
            raise ScoringError(
                f"wrong hand size: concealed {len(ctx.concealed)} + 3 x {len(ctx.melds)} melds = {size}, "
                f"expected {hand_size} tiles plus the winning tile"
            )
    if ctx.heavenly and not (ctx.dealer and ctx.self_drawn):
        raise ScoringError("heavenly (天胡) is the dealer's self-drawn win")
    if ctx.earthly and ctx.dealer:
        raise ScoringError("earthly (地胡) is a non-dealer's win")
    if (ctx.heavenly or ctx.earthly) and ctx.melds:
        raise ScoringError("天胡/地胡 happen before any 吃碰槓")
    if ctx.robbing_kong and ctx.self_drawn:
        raise ScoringError("robbing a kong (搶槓) is not a self-draw")
    if ctx.kong_replacement and not ctx.self_drawn:
        raise ScoringError("a replacement draw (槓上開花) is a self-draw")
    if ctx.after_flower and not ctx.kong_replacement:
        raise ScoringError("after_flower describes a replacement draw: set kong_replacement too")
    if ctx.human and not (ctx.earthly and not ctx.self_drawn):
        raise ScoringError("人胡 is an earthly win (地胡) on a discard: set earthly, not self_drawn")
    if ctx.last_discard and (ctx.self_drawn or ctx.robbing_kong):
        raise ScoringError("河底撈魚 is a win on the last discard, not a self-draw or a robbed kong")
    if ctx.heavenly_ready and not ctx.declared_ready:
        raise ScoringError("天聽 is a 聽 declaration: set declared_ready too")
    if ctx.dealt_ready and (ctx.dealer or not ctx.heavenly_ready):
        raise ScoringError("dealt_ready is a non-dealer's 天聽 on the dealt hand: set heavenly_ready, not dealer")
    if ctx.flower_win_declined and (ctx.flower_win is not None or len(ctx.flowers) < 7):
        raise ScoringError(
            "flower_win_declined is the later win of a player who declined 八仙過海/七搶一/大花胡: "
            "seven or eight flowers, and no flower_win"
        )
    if ctx.flower_bonus_taken and (ctx.flower_win is not None or len(ctx.flowers) < 7):
        raise ScoringError(
            "flower_bonus_taken is the later win of a player paid 八仙過海/七搶一 at once: "
            "seven or eight flowers, and no flower_win"
        )


# ---------------------------------------------------------------- the evaluation loop


@dataclass(frozen=True, slots=True)
class _Row:
    """One item as a table with given options and house rules evaluates it: the tests its
    conditions still make there, what it excludes there and what it is worth."""

    item: Item
    count: Count
    needs_hand: bool
    tests: tuple[Count, ...]
    excludes: frozenset[str]
    value: int
    position: int  # in the table's order (the order results are listed in)
    dealer: bool  # tagged DEALER
    uncapped: bool  # tagged NO_CAP and not DEALER
    countable: bool  # not tagged NO_MIN


def _rows(rules: RuleSet, options: TableOptions) -> tuple[_Row, ...]:
    """The rows of ``rules`` in play at a table with ``options``, in evaluation order. Which rows
    play, which conditions a house rule lifts, what a row excludes and what it is worth depend on
    the table alone, so they are read once per table rather than once per reading."""
    key = (id(rules), options)
    found = _ROWS.get(key)
    if found is not None and found[0] is rules:
        return found[1]
    house = options.house_rules
    position = {it.name: i for i, it in enumerate(rules.items)}
    rows = []
    for it in rules.order:
        if it.option is not None and not getattr(options, it.option):
            continue
        if it.unless_option is not None and getattr(options, it.unless_option):
            continue
        if it.value_from is not None and not house[it.value_from]:
            continue
        tests = tuple(
            c.test
            for c in it.conditions
            if not any(house[w] for w in c.waivers) and (c.required_by is None or house[c.required_by])
        )
        dealer = DEALER in it.tags
        rows.append(
            _Row(
                it,
                it.count,
                it.needs_hand,
                tests,
                it.excludes_for(house),
                it.value_for(house),
                position[it.name],
                dealer,
                NO_CAP in it.tags and not dealer,
                NO_MIN not in it.tags,
            )
        )
    if len(_ROWS) >= _ROWS_KEPT:
        _ROWS.clear()
    _ROWS[key] = (rules, tuple(rows))
    return tuple(rows)


# rows in play by (rule set, table options); the rule set is kept beside them so that an id reused
# by another object after the first is gone is never taken for it
_ROWS: dict[tuple[int, TableOptions], tuple[RuleSet, tuple[_Row, ...]]] = {}
_ROWS_KEPT = 256


def _counted(rules: RuleSet, reading: Reading | None, ctx: WinContext) -> list[tuple[_Row, int]]:
    """The counted rows of one reading with their 台 (count × value), in table order, exclusions
    applied."""
    present: list[tuple[_Row, int]] = []
    for row in _rows(rules, ctx.options):
        if reading is None and row.needs_hand:
            continue
        if row.tests and not all(test(reading, ctx) for test in row.tests):  # type: ignore[arg-type]
            continue
        n = row.count(reading, ctx)  # type: ignore[arg-type]  # None only for needs_hand=False rows (Count)
        if n > 0:
            present.append((row, n))
    counted: list[tuple[_Row, int]] = []
    removed: frozenset[str] | set[str] = frozenset()
    for row, n in present:  # in evaluation order: excluders come first
        if row.item.name not in removed:
            counted.append((row, n * row.value))
            if row.excludes:
                removed = removed | row.excludes
    counted.sort(key=_by_position)
    return counted


def ready_items(rules: RuleSet, ctx: WinContext) -> tuple[ScoreItem, ...]:
    """What declaring 聽 adds to a win at this table (``ctx``: the table's options, whether the
    seat is the dealer, whether this 聽 comes with its first discard): the READY rows in play whose
    tests pass, exclusions applied (天聽 replaces 聽牌). Empty where 聽 scores nothing, as document
    000 has it. A READY row reads the context alone, so no reading of the hand is needed.

        >>> from engine.house_rules import HouseRules
        >>> from engine.rules import TableOptions
        >>> from engine.scoring import get_rules
        >>> ready_items(get_rules("taiwan16"), WinContext(declared_ready=True))
        ()
        >>> common = TableOptions(house_rules=HouseRules({"ready_tai": 1, "heavenly_ready_tai": 8}))
        >>> ready_items(get_rules("taiwan16"), WinContext(declared_ready=True, options=common))
        (ScoreItem(name='聽牌', value=1, seat=None),)
        >>> ready_items(get_rules("taiwan16"), WinContext(declared_ready=True, heavenly_ready=True, options=common))
        (ScoreItem(name='天聽', value=8, seat=None),)
    """
    present: list[_Row] = []
    for row in _rows(rules, ctx.options):
        if READY not in row.item.tags:
            continue
        if row.tests and not all(test(None, ctx) for test in row.tests):  # type: ignore[arg-type]
            continue
        if row.count(None, ctx) > 0:  # type: ignore[arg-type]
            present.append(row)
    removed: set[str] = set()
    counted: list[_Row] = []
    for row in present:  # evaluation order: excluders first
        if row.item.name not in removed:
            counted.append(row)
            removed |= row.excludes
    counted.sort(key=lambda row: row.position)
    return tuple(ScoreItem(row.item.name, row.value) for row in counted)


def _by_position(entry: tuple[_Row, int]) -> int:
    return entry[0].position


def evaluate(rules: RuleSet, reading: Reading | None, ctx: WinContext) -> list[tuple[Item, int]]:
    """The counted items of one reading, in table order, with exclusions applied (both as the
    table's house rules set them)."""
    return [(row.item, v) for row, v in _counted(rules, reading, ctx)]


def _result(rules: RuleSet, reading: Reading | None, ctx: WinContext) -> ScoreResult:
    return _result_of(rules, reading, ctx, _counted(rules, reading, ctx))


def _result_of(
    rules: RuleSet, reading: Reading | None, ctx: WinContext, counted: list[tuple[_Row, int]]
) -> ScoreResult:
    items = tuple(ScoreItem(row.item.name, v) for row, v in counted)
    total, dealer, uncapped, countable = _totals(counted)
    return ScoreResult(
        True, "", items, total, rules.unit, rules.name, dealer, uncapped, countable, reading, ctx.flower_win
    )


def _totals(counted: list[tuple[_Row, int]]) -> tuple[int, int, int, int]:
    """(total, the dealer's part, the other part outside any cap, the part that counts toward a
    table minimum) of counted rows."""
    total = dealer = uncapped = countable = 0
    for row, v in counted:
        total += v
        if row.dealer:
            dealer += v
        elif row.uncapped:
            uncapped += v
        if row.countable:
            countable += v
    return total, dealer, uncapped, countable


def score_with(rules: RuleSet, ctx: WinContext) -> ScoreResult:
    """Score ``ctx`` with a rule set: the best total over every reading (ties: more countable).

    Raises :class:`ScoringError` for impossible contexts; returns ``valid=False`` with a reason for
    a hand that is not a winning hand or that the requested table options refuse. A hand holding
    all eight flowers is the rule set's flower win (``RuleSet.eight_flowers``), unless that was
    paid as a bonus (``flower_bonus_taken``) or declined (``flower_win_declined``).
    """
    rules = rules.sized(ctx.options.hand_size)
    declined = ctx.flower_bonus_taken or ctx.flower_win_declined  # the flower win was paid or passed
    if rules.eight_flowers and ctx.flower_win is None and not declined and len(set(ctx.flowers)) == 8:
        ctx = replace(ctx, flower_win=rules.eight_flowers)  # 只要某一家拿到全部八张的花牌: that is the win
    validate_context(ctx, rules.hand_size)
    minimum = max(ctx.options.min_tai, rules.min_tai)
    if ctx.flower_win is not None:
        best = _result(rules, None, ctx)
        if not any(i.name == ctx.flower_win for i in best.items):
            return _invalid(rules, f"{ctx.flower_win} does not apply to these flowers", FLOWER_WIN_INVALID)
    else:
        readings = rules.readings(ctx)
        added = ctx.options.house_rules.forms()
        readings += [r for form, read in rules.form_readings if form in added for r in read(ctx)]
        if not readings:
            return _invalid(rules, "not a winning hand: the tiles do not form sets and a pair", NOT_WINNING)
        # the first reading with the best (reaches the minimum, total, countable); only it is built
        best_key: tuple[bool, int, int] | None = None
        for r in readings:
            counted = _counted(rules, r, ctx)
            total, _, _, countable = _totals(counted)
            key = (countable >= minimum, total, countable)
            if best_key is None or key > best_key:
                best_key, best_reading, best_counted = key, r, counted
        best = _result_of(rules, best_reading, ctx, best_counted)
    if rules.refuse is not None:
        reason = rules.refuse(ctx)
        if reason:
            return replace(best, valid=False, reason=reason, code=REFUSED)
    if minimum and best.countable < minimum:
        return replace(
            best,
            valid=False,
            code=BELOW_MINIMUM,
            reason=f"below the table minimum: {best.countable} countable {rules.unit}, {minimum} needed",
        )
    return best
