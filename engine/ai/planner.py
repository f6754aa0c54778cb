"""The normal and strong AI: every option is scored as expected points, the chance to win times
what the hand would be worth, minus the chance that the discard wins for someone else times what
that would cost. Folding falls out of the same sum: when the hand is slow and a rival is likely
ready, the safest tile scores best.

Speed matters (a Discord table waits ≤ ~20 ms per decision, self-play wants thousands of hands):
shanten after each discard and the improving tiles come from :mod:`engine.analysis`'s per-suit
tables, only discards within one step of the best are looked at in full, the scorer's answer for
a ready hand is kept while the seat's table facts stay the same, and (strong) the discard a claim
was judged with is the one made after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import analysis
from ..actions import Action, Kind
from ..meld import Meld, MeldKind
from ..rules import get_profile
from ..scoring import get_rules
from ..view import GameView
from .table import (
    SafeTiles,
    claimed_tile,
    deal_in_chance,
    exchange_choice,
    own_counts,
    ready_chance,
    unseen_counts,
    visible_value,
)
from .value import Valuer, measured_win_chance, wall_win_chance

BASE_IN_TAI = 3.0  # 底 300 / 台 100: a payment is worth 3 + 台 台
HORIZON_MIN_TAI = 10.0  # own draws a hand counts on at a 三台起胡 table (most hands go to the wall)
RIVAL_WIN = 0.8  # share of the hands we do not win that a rival wins (the rest are draw games)
RIVAL_WIN_MIN_TAI = 0.35  # ... at a 三台起胡 table
MIJI_NET_TAI = 6.0  # Miji's 8 台 less the 門清 / 門清自摸 it replaces
REACH_RON = 1.5  # extra looks per own draw for a ready hand that may win on a discard


@dataclass(frozen=True, slots=True)
class Style:
    """How a level plays."""

    name: str
    defend: bool  # weigh the chance of dealing in (and remember 過水-safe tiles)
    risk_weight: float  # how much a deal-in counts against the hand's own prospects
    claim_margin: float  # a claim must beat passing by this much (expected 台)
    declare_ready: bool  # declare 聽 when ready (it earns nothing in taiwan16 and warns the table)
    # at a table minimum: looks per own draw while an open hand builds (the draw and the claims it
    # makes), and for a concealed hand, which only draws while it stays concealed
    reach: float = 1.4
    reach_closed: float = 1.1
    declare_eye: bool = False  # declare 眼牌 / Miji when the expected 台 pay for the risk
    # after a 吃/碰, discard the tile the claim was judged with (a claim is taken for a plan; the
    # table has changed by the claimed tile alone) instead of weighing every discard again
    keep_claim_plan: bool = False


# normal plays the open, quick game of a casual table: it counts on claims to build its hand
NORMAL = Style(
    "normal",
    defend=False,
    risk_weight=0.0,
    claim_margin=0.05,
    declare_ready=True,
    reach=2.0,
    reach_closed=0.9,
)
STRONG = Style(
    "strong",
    defend=True,
    risk_weight=1.0,
    claim_margin=0.02,
    declare_ready=False,
    reach=1.7,
    declare_eye=True,
    keep_claim_plan=True,
)


@dataclass(frozen=True, slots=True)
class Option:
    """One legal action as the AI values it (for a review): ``value`` expected 台-points (a payment
    is 3 + 台), ``shanten`` of the hand it leaves (-1 a win), ``live`` the unseen tiles that improve it
    (its waits when ready), ``tai`` the 台 it may reach, ``risk`` the expected cost of dealing in."""

    action: Action
    value: float
    shanten: int
    live: int
    tai: float
    risk: float


class PlannerAI:
    """Expected-value player; one instance per seat (it remembers what it saw during a hand)."""

    def __init__(self, style: Style = STRONG) -> None:
        self.style = style
        self.memory = SafeTiles()
        self._plan: tuple[bytes, int] | None = None  # (hand after a claim, the discard it was judged with)

    def choose(self, view: GameView, legal: Sequence[Action]) -> Action:
        actions = list(legal)
        for a in actions:
            if a.kind is Kind.WIN:
                return a
        if len(actions) == 1:
            return actions[0]
        if actions[0].kind is Kind.EXCHANGE:
            return exchange_choice(view, actions)
        if self.style.defend:
            self.memory.update(view)
        ctx = _Decision(view, self.style, self.memory)
        plan, self._plan = self._plan, None
        if actions[-1].kind is Kind.PASS:
            chosen = ctx.claim(actions)
            if self.style.keep_claim_plan and ctx.claim_discard is not None:
                self._plan = ctx.claim_discard
            return chosen
        planned = plan[1] if plan is not None and plan[0] == bytes(ctx.hand) else None
        return ctx.turn(actions, planned)

    def options(self, view: GameView, legal: Sequence[Action]) -> list[Option]:
        """Every legal action valued from the view alone, with the pieces :meth:`choose` weighs (what
        a review shows beside the action the AI would take). Call after :meth:`choose` for the same
        decision (its memory of safe tiles is then up to date)."""
        return _Decision(view, self.style, self.memory).options(list(legal))

    def declare(self, view: GameView, offered: Sequence[Action]) -> Action | None:
        """眼牌 / Miji (``Game.declarations``), asked when the seat holds a ready 3k+1 hand: declare
        when the expected gain (+1 台, Miji +8 台 less the 門清 it replaces, on a win) beats the
        expected penalty (1 台 to whoever else wins). The hand is fixed afterwards, like 聽."""
        if not self.style.declare_eye or not offered or view.phase == "over":
            return None
        ctx = _Decision(view, self.style, self.memory)
        hand = ctx.hand
        if sum(hand) % 3 != 1 or analysis.shanten(hand) != 0:
            return None
        ron, tsumo, _, _ = ctx.valuer.exact(hand, analysis.waits(hand), ctx.unseen)
        if view.options.self_draw_only:
            ron = 0
        live = max(ron, tsumo)
        reach = 1.0 + (REACH_RON * ron / live if live else 0.0)
        win = ctx.chance(0, live, reach)
        payers = (1 - 1 / reach) + 3 / reach
        rival_wins = (1 - win) * (RIVAL_WIN_MIN_TAI if view.options.min_tai else RIVAL_WIN)
        for a in offered:
            gain = (MIJI_NET_TAI if a.kind is Kind.MIJI else 1.0) * payers
            if win * gain > rival_wins:
                return a
        return None


class _Decision:
    """One decision's reading of the table."""

    def __init__(self, view: GameView, style: Style, memory: SafeTiles) -> None:
        self.view = view
        self.style = style
        self.me = view.viewer
        self.hand = own_counts(view)
        self.unseen = unseen_counts(view, self.hand)
        self.made = sum(len(p.discards) for p in view.seats)
        self.min_table = bool(view.options.min_tai)
        self.unseen_total = sum(self.unseen)
        self.draws_left = min(view.wall_remaining / 4, HORIZON_MIN_TAI)
        self.valuer = Valuer(view)
        self.threats: list[tuple[int, float, float]] = []  # (seat, chance ready, cost of dealing in)
        if style.defend:
            for p in view.seats:
                if p.seat == self.me:
                    continue
                chance = ready_chance(view, p.seat)
                if chance >= 0.1:
                    self.threats.append((p.seat, chance, BASE_IN_TAI + visible_value(view, p.seat)))
        self.safe = memory.safe
        # per threat: its river as a set and the tiles known safe against it (what risk() reads)
        self._threat_tiles = [(frozenset(view.seats[seat].discards), self.safe.get(seat, ())) for seat, _, _ in self.threats]
        # the claim chosen in a claim window (吃/碰): the hand it leaves and the discard it was judged with
        self.claim_discard: tuple[bytes, int] | None = None
        self._risk: dict[int, float] = {}  # by tile (a decision asks about a tile several times)

    # -- scoring pieces
    def chance(self, shanten: int, live: int, reach: float) -> float:
        """Chance to win this hand. At a table minimum most hands run to the wall, so it counts the
        draws and claims (``reach`` looks per draw) left; elsewhere rivals usually win first, and
        what self-play measured at this stage of the hand says more than any count."""
        if self.min_table:
            return wall_win_chance(shanten, live, self.unseen_total, self.draws_left, reach)
        return measured_win_chance(shanten, live, self.made)

    def risk(self, tile: int) -> float:
        found = self._risk.get(tile)
        if found is not None:
            return found
        total = 0.0
        for (_, chance, cost), (river, safe) in zip(self.threats, self._threat_tiles, strict=True):
            if tile in safe:
                continue
            total += chance * deal_in_chance(tile, river, self.unseen) * cost
        found = self._risk[tile] = total * self.style.risk_weight
        return found

    def prospect(
        self,
        counts: list[int],
        shanten: int,
        claimed: Meld | None = None,
        worth: tuple[float, float] | None = None,
        live: int | None = None,
    ) -> float:
        """Expected 台-points of a 3k+1 hand: the chance to win times what a win pays, split into
        wins on a discard (one payer) and self-draws (three payers), each only if it may win here.
        ``live``: the unseen copies of the hand's improving tiles, when the caller has them."""
        options = self.view.options
        if shanten == 0:
            waits = analysis.waits(counts)
            ron_live, tsumo_live, ron_tai, tsumo_tai = self.valuer.exact(counts, waits, self.unseen, claimed)
            if options.self_draw_only:
                ron_live = 0
            live = max(ron_live, tsumo_live)
            ron_ok = ron_live / live if live else 0.0
            tsumo_ok = tsumo_live / live if live else 0.0
            # three rivals' discards can complete a hand that may win on a discard
            chance = self.chance(0, live, 1.0 + REACH_RON * ron_ok)
        else:
            if live is None:
                unseen = self.unseen
                live = sum([unseen[t] for t in analysis.improving_tiles(counts)])
            # an open hand keeps claiming; a concealed one that stays so only draws
            style = self.style
            opened = claimed is not None or self.valuer.open
            chance = self.chance(shanten, live, style.reach if opened else style.reach_closed)
            ron_tai, tsumo_tai = worth or self.valuer.estimate(counts, claimed)
            need = options.min_tai
            ron_ok = 0.0 if options.self_draw_only else _reaches(ron_tai, need)
            tsumo_ok = _reaches(tsumo_tai, need)
            # a hand that may only win by its own draw waits about three times as long at the end
            chance *= 0.4 + 0.6 * ron_ok
        if not chance:
            return 0.0
        # of the looks at a winning tile, one in ``reach`` is an own draw (paid by all three)
        reach = 1.0 + REACH_RON * ron_ok
        extra = self.valuer.extra
        ron = (1 - 1 / reach) * (BASE_IN_TAI + ron_tai + extra)
        tsumo = (1 / reach) * tsumo_ok * 3 * (BASE_IN_TAI + tsumo_tai + extra)
        return chance * (ron + tsumo)

    def best_discard(
        self, counts: list[int], allowed: set[int], claimed: Meld | None = None
    ) -> tuple[float, int]:
        after = analysis.discard_shanten(counts)
        options = [(s, t) for t, s in after.items() if t in allowed]
        if not options:
            return float("-inf"), -1
        best_s = min([s for s, _ in options])
        threats = self.threats
        if threats:
            risk = self.risk
            danger = {t: risk(t) for _, t in options}
            least_danger = min([danger[t] for s, t in options if s == best_s])
        worth = self.valuer.estimate_by_discard(counts, [t for s, t in options if s <= best_s + 1], claimed)
        total_worth = {t: sum(w) for t, w in worth.items()}
        best_worth = max([total_worth[t] for s, t in options if s == best_s])
        # a discard that breaks the best shape is worth a look only for value or for safety
        looked = {
            t
            for s, t in options
            if s == best_s
            or (
                s == best_s + 1
                and (total_worth[t] > best_worth + 0.5 or (threats and danger[t] < least_danger - 0.02))
            )
        }
        # the live improving tiles of every hand looked at that is not ready, from one reading of the suits
        live = analysis.live_by_discard(counts, [t for s, t in options if s > 0 and t in looked], self.unseen)
        prospect = self.prospect
        scored: list[tuple[float, float, int]] = []
        for s, t in options:
            d = danger[t] if threats else 0.0
            if t in looked:
                counts[t] -= 1
                gain = prospect(counts, s, claimed, worth[t], live.get(t))
                counts[t] += 1
            elif threats:
                gain = 0.0  # only worth looking at as a way to fold
            else:
                continue
            scored.append((gain - d, -d, t))
        value, _, tile = max(scored)
        return value, tile

    # -- every option valued (a review)
    def options(self, actions: list[Action]) -> list[Option]:
        hand = self.hand
        claim_tile = claimed_tile(self.view, actions) if actions[-1].kind is Kind.PASS else None
        out = []
        for a in actions:
            if a.kind is Kind.WIN:
                out.append(self._win_option(a, claim_tile))
                continue
            removed: list[int] = []
            meld: Meld | None = None
            risk = 0.0
            if a.kind in (Kind.DISCARD, Kind.READY) and a.tile is not None:
                removed, risk = [a.tile], self.risk(a.tile)
            elif a.kind is Kind.ANKONG and a.tile is not None:  # the kong is a set: judged with it
                removed, meld = [a.tile] * 4, Meld(MeldKind.ANKONG, (a.tile,) * 4)
            elif a.kind is Kind.ADDKONG and a.tile is not None:
                removed, risk = [a.tile], self.risk(a.tile)
            elif a.kind is Kind.PASS:
                risk = min((self.risk(t) for t in range(34) if hand[t]), default=0.0) if self.threats else 0.0
            elif a.kind in (Kind.CHI, Kind.PON, Kind.KONG) and claim_tile is not None:
                meld = _claimed_meld(a, claim_tile)
                removed = list(meld.tiles)
                removed.remove(claim_tile)
            else:
                continue  # timeouts and the like are not choices
            for t in removed:
                hand[t] -= 1
            try:
                if a.kind in (Kind.CHI, Kind.PON):
                    allowed = {t for t in range(34) if hand[t] and t != claim_tile}  # 行動限制4
                    value, tile = self.best_discard(hand, allowed or {t for t in range(34) if hand[t]}, meld)
                    hand[tile] -= 1
                    s = analysis.shanten(hand)
                    live, tai = self._shape(hand, s, meld)
                    risk = self.risk(tile)
                    hand[tile] += 1
                else:
                    s = analysis.shanten(hand)
                    value = self.prospect(hand, s, meld) - risk
                    live, tai = self._shape(hand, s, meld)
            finally:
                for t in removed:
                    hand[t] += 1
            out.append(Option(a, value, s, live, tai, risk))
        return out

    def _shape(self, counts: list[int], shanten: int, claimed: Meld | None) -> tuple[int, float]:
        """Live improving tiles (the waits, when ready) and the 台 the hand may reach."""
        if shanten == 0:
            ron, tsumo, ron_tai, tsumo_tai = self.valuer.exact(
                counts, analysis.waits(counts), self.unseen, claimed
            )
            return max(ron, tsumo), max(ron_tai, tsumo_tai)
        live = sum(self.unseen[t] for t in analysis.improving_tiles(counts))
        return live, max(self.valuer.estimate(counts, claimed))

    def _win_option(self, action: Action, claim_tile: int | None) -> Option:
        """A win is worth what it pays now: one payer on a discard, three on a self-draw; a flower
        win on offer (八仙過海 …) its own 台, from three payers or (七搶一) the single flower's holder."""
        offer = self.view.flower_offer
        if offer is not None:
            name = offer[1]
            tai = float(get_rules(self.view.rules).find(name).value_for(self.view.options.house_rules))
            payers = 1 if name == get_profile(self.view.rules).flower_wins[1] else 3
            return Option(action, payers * (BASE_IN_TAI + tai), -1, 0, tai, 0.0)
        hand = self.hand
        self_drawn = claim_tile is None
        tile = claim_tile if claim_tile is not None else self.view.drawn
        tai = 0.0
        if tile is not None:
            if self_drawn:
                hand[tile] -= 1
            one = [0] * 34
            one[tile] = 1
            ron, tsumo, ron_tai, tsumo_tai = self.valuer.exact(hand, [tile], one)
            if self_drawn:
                hand[tile] += 1
            tai = tsumo_tai if self_drawn else ron_tai
        value = (3 if self_drawn else 1) * (BASE_IN_TAI + tai + self.valuer.extra)
        return Option(action, value, -1, 0, tai, 0.0)

    # -- own turn
    def turn(self, actions: list[Action], planned: int | None = None) -> Action:
        """``planned``: the discard a claim that led here was judged with (kept when it is legal)."""
        hand = self.hand
        discards = {a.named_tile for a in actions if a.kind is Kind.DISCARD}
        if len(discards) == 1 and not any(a.kind in (Kind.ANKONG, Kind.ADDKONG) for a in actions):
            return next(a for a in actions if a.kind is Kind.DISCARD)
        if planned is not None and planned in discards:
            tile = planned
        else:
            _, tile = self.best_discard(hand, discards)
        for a in actions:
            if a.kind is Kind.ANKONG and self._kong_keeps_shape(a.named_tile, 4):  # a free draw, never robbed
                return a
            if a.kind is Kind.ADDKONG and (a.tile == tile or self._kong_keeps_shape(a.named_tile, 1)):
                if self.risk(a.named_tile) < 0.05:
                    return a
        if self.style.declare_ready:
            for a in actions:
                if a.kind is Kind.READY and a.tile == tile and self._ready_may_win(tile):
                    return a
        return next(a for a in actions if a.kind is Kind.DISCARD and a.tile == tile)

    def _kong_keeps_shape(self, tile: int, removed: int) -> bool:
        hand = self.hand
        now = analysis.shanten(hand)
        hand[tile] -= removed
        after = analysis.shanten(hand)  # one set fewer to find after a concealed kong
        hand[tile] += removed
        return after <= now

    def _ready_may_win(self, tile: int) -> bool:
        """Declare only a hand that may already win as it stands: on a discard, or by self-draw
        on a 限自摸 table (a hand that needs its own draw to reach the minimum keeps improving)."""
        hand = self.hand
        hand[tile] -= 1
        waits = analysis.waits(hand)
        ron, tsumo, _, _ = self.valuer.exact(hand, waits, self.unseen)
        hand[tile] += 1
        return (tsumo if self.view.options.self_draw_only else ron) > 0

    # -- claim window
    def claim(self, actions: list[Action]) -> Action:
        hand = self.hand
        tile = claimed_tile(self.view, actions)
        passing = actions[-1]
        if tile is None:
            return passing
        now = analysis.shanten(hand)
        # passing, the hand still has to discard after its next draw: count the safest such discard
        pass_risk = min((self.risk(t) for t in range(34) if hand[t]), default=0.0) if self.threats else 0.0
        best, best_value = passing, self.prospect(hand, now) - pass_risk + self.style.claim_margin
        plan: tuple[bytes, int] | None = None
        for a in actions:
            if a.kind is Kind.PASS:
                continue
            meld = _claimed_meld(a, tile)
            used = list(meld.tiles)
            used.remove(tile)
            for t in used:
                hand[t] -= 1
            if a.kind is Kind.KONG:  # a replacement tile follows: judge the hand as it stands
                after = analysis.shanten(hand)
                value = self.prospect(hand, after, meld) if after <= now else float("-inf")
            else:
                allowed = {t for t in range(34) if hand[t] and t != tile}  # 行動限制4
                value, discard = self.best_discard(hand, allowed or {t for t in range(34) if hand[t]}, meld)
                option_plan = (bytes(hand), discard)
            for t in used:
                hand[t] += 1
            if value > best_value:
                best, best_value = a, value
                plan = option_plan if a.kind is not Kind.KONG else None
        self.claim_discard = plan
        return best


def _reaches(tai: float, need: int) -> float:
    """How likely an estimated 台 count reaches the table minimum (it can still grow a little)."""
    return 1.0 if tai >= need else 0.4 ** (need - tai)


def _claimed_meld(action: Action, tile: int) -> Meld:
    if action.kind is Kind.CHI:
        lo = action.named_tile
        return Meld(MeldKind.CHI, (lo, lo + 1, lo + 2), tile)
    if action.kind is Kind.KONG:
        return Meld(MeldKind.KONG, (tile,) * 4, tile)
    return Meld(MeldKind.PON, (tile,) * 3, tile)
