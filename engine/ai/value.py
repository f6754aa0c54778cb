"""What a hand is worth: a quick 台 estimate while it is being built, and the scorer's exact answer
once it is ready (so a hand that cannot reach the table minimum is known to be dead)."""

from __future__ import annotations

import math

from ..meld import Meld, MeldKind
from ..scoring import WinContext, score_win
from ..tiles import flower_wind
from ..view import GameView

# chance that a hand still holding n tiles outside its main suit ends as a flush
_FLUSH_CHANCE = (1.0, 0.55, 0.3, 0.12, 0.04)
# chance of 碰碰胡 by the number of kinds held two or more times (pungs and pairs)
_PONGS_CHANCE = {4: 0.08, 5: 0.3, 6: 0.6}
SELF_DRAW_SHARE = 0.3  # part of wins that are self-drawn (all three pay)


class Valuer:
    """台 estimates for one seat's hand during one decision."""

    def __init__(self, view: GameView) -> None:
        self.view = view
        facts = _seat_facts(view)
        (
            self.seat_wind,
            self.melds,
            self.open,
            self.flowers,
            self.extra,
            self.honour_worth,
            self.meld_counts,
            self.chow_meld,
            self.meld_honours,
            self.triplet_melds,
            self._tai,
        ) = facts
        self._exact: dict[tuple, tuple[int, int, float, float]] = {}

    def estimate(self, counts: list[int], claimed: Meld | None = None) -> tuple[float, float]:
        """Countable 台 the hand may reach when it wins on a discard and when it draws its own tile
        (a smooth estimate, not a promise); ``claimed`` is a meld the hand is thinking of claiming.
        A concealed hand that draws its own tile has 門清自摸 (3), enough for 三台起胡 by itself."""
        honours, suits = self._shown_tiles(claimed)
        honours += sum(counts[27:])
        suits = [suits[0] + sum(counts[0:9]), suits[1] + sum(counts[9:18]), suits[2] + sum(counts[18:27])]
        pairs = 34 - counts.count(0) - counts.count(1)
        return self._worth(self._honour_total(counts, claimed), honours, suits, pairs, claimed)

    def estimate_by_discard(
        self, counts: list[int], tiles: list[int], claimed: Meld | None = None
    ) -> dict[int, tuple[float, float]]:
        """:meth:`estimate` of the hand each discard in ``tiles`` leaves from the 3k+2 hand ``counts``
        (the same numbers, to the last bit), reading the hand once: a discard changes one suit's
        count, one kind's, and the honour 台 only when it is an honour."""
        shown_honours, shown_suits = self._shown_tiles(claimed)
        honours = shown_honours + sum(counts[27:])
        suits = (
            shown_suits[0] + sum(counts[0:9]),
            shown_suits[1] + sum(counts[9:18]),
            shown_suits[2] + sum(counts[18:27]),
        )
        pairs = 34 - counts.count(0) - counts.count(1)
        kept_honours = None  # the honour 台 of the hand less a suited tile: the whole hand's
        # a suited discard's estimate depends on its suit and whether it breaks a pair alone
        by_suit: dict[tuple[int, bool], tuple[float, float]] = {}
        result = {}
        for t in tiles:
            # a kind held twice goes down to one copy (once or three times, the pairs stay)
            breaks = counts[t] == 2
            if t >= 27:
                counts[t] -= 1
                total = self._honour_total(counts, claimed)
                counts[t] += 1
                result[t] = self._worth(total, honours - 1, list(suits), pairs - breaks, claimed)
                continue
            shape = (t // 9, breaks)
            found = by_suit.get(shape)
            if found is None:
                if kept_honours is None:
                    kept_honours = self._honour_total(counts, claimed)  # a suited tile leaves them
                left = list(suits)
                left[t // 9] -= 1
                found = by_suit[shape] = self._worth(kept_honours, honours, left, pairs - breaks, claimed)
            result[t] = found
        return result

    def _honour_total(self, counts: list[int], claimed: Meld | None) -> float:
        """The 台 of the honours held and shown (a pung, or 0.4 of it for a pair)."""
        total = 0.0
        mc = self.meld_counts
        claimed_honour = claimed.tiles[0] if claimed is not None and claimed.tiles[0] >= 27 else -1
        for h in range(7):
            worth = self.honour_worth[h]
            if worth:
                n = counts[27 + h] + mc[27 + h] + (3 if claimed_honour == 27 + h else 0)
                if n >= 3:
                    total += worth
                elif n == 2:
                    total += 0.4 * worth
        return total

    def _shown_tiles(self, claimed: Meld | None) -> tuple[int, list[int]]:
        """Honours and tiles of each suit in the shown melds (``claimed`` among them)."""
        honours = self.meld_honours
        suits = [0, 0, 0]
        for m in self.melds if claimed is None else (*self.melds, claimed):
            t = m.tiles[0]
            if 0 <= t < 27:
                suits[t // 9] += 3
            elif t >= 27 and m is claimed:
                honours += 3
        return honours, suits

    def _worth(
        self, total: float, honours: int, suits: list[int], pairs: int, claimed: Meld | None
    ) -> tuple[float, float]:
        main = max(suits)
        off = suits[0] + suits[1] + suits[2] - main
        if off < len(_FLUSH_CHANCE):
            total += _FLUSH_CHANCE[off] * (4 if honours else 8)
        if not self.chow_meld and not (claimed is not None and claimed.kind is MeldKind.CHI):
            pairs += self.triplet_melds + (claimed is not None)
            total += 4 * _PONGS_CHANCE.get(min(pairs, 6), 0.0)
        if self.open or claimed is not None:
            return total, total + 1  # 自摸
        return total + 1, total + 3  # 門清 / 門清自摸

    def exact(
        self, counts: list[int], waits: list[int], unseen: list[int], claimed: Meld | None = None
    ) -> tuple[int, int, float, float]:
        """For a ready hand, from the scorer: live copies of the waits that may win on a discard and
        on a self-draw at this table (minimum, 限自摸), and the mean 台 of each kind of win."""
        key = (tuple(counts), tuple(waits), claimed)
        found = self._exact.get(key)
        if found is not None:
            return found
        known = self._tai
        if len(known) >= _TAI_KEPT:
            known.clear()
        hand = bytes(counts)
        live_by = [0, 0]
        tai_by = [0.0, 0.0]
        concealed: tuple[int, ...] | None = None
        for w in waits:
            live = unseen[w]
            if not live:
                continue
            for self_drawn in (False, True):
                tai_key = (hand, claimed, w, self_drawn)
                tai = known.get(tai_key, UNSCORED)
                if tai == UNSCORED:
                    if concealed is None:
                        concealed = tuple(t for t in range(34) for _ in range(counts[t]))
                    tai = known[tai_key] = self._score(concealed, w, self_drawn, claimed)
                if tai is None:
                    continue
                live_by[self_drawn] += live
                tai_by[self_drawn] += live * tai
        found = (
            live_by[0],
            live_by[1],
            tai_by[0] / live_by[0] if live_by[0] else 0.0,
            tai_by[1] / live_by[1] if live_by[1] else 0.0,
        )
        self._exact[key] = found
        return found

    def _score(self, concealed: tuple[int, ...], win: int, self_drawn: bool, claimed: Meld | None) -> int | None:
        """台 a win pays at this table (None: it may not win here)."""
        view = self.view
        me = view.me
        ctx = WinContext(
            concealed=concealed,
            melds=tuple(self.melds) + ((claimed,) if claimed is not None else ()),
            flowers=me.flowers,
            win_tile=win,
            self_drawn=self_drawn,
            seat_wind=me.wind,
            round_wind=view.round_wind,
            dealer=view.dealer == view.viewer,
            dealer_streak=view.dealer_streak,
            options=view.options,
        )
        result = score_win(ctx, view.rules)
        if not result.meets_minimum(ctx.options.min_tai):
            return None
        return result.capped_total(ctx.options.cap_tai) - result.dealer


UNSCORED = -1  # not asked yet (a win pays 0 台 or more; None: it may not win)


# what a Valuer reads from the view about its seat, the scorer's answers for its ready hands last
SeatFacts = tuple[int, tuple[Meld, ...], bool, int, int, list[int], list[int], bool, int, int, dict[tuple, int | None]]


def _seat_facts(view: GameView) -> SeatFacts:
    """A seat's facts for valuing its hand — winds, shown melds, flowers, dealer, the table — and
    what the scorer said about its ready hands with these facts, by (hand, claimed meld, winning
    tile, self-drawn). They change only with a claim, a flower or a new hand: a seat's decisions in
    between read them once, and a ready hand valued again at every decision it stays ready (each
    rival's discard, each own draw that does not win) asks the scorer once."""
    me = view.me
    options = view.options
    dealer = view.dealer == view.viewer
    key = (view.rules, id(options), me.wind, view.round_wind, dealer, view.dealer_streak, me.flowers, me.melds)
    found = _SEAT_FACTS.get(key)
    if found is not None and found[0] is options:
        return found[1]
    see = options.see_wind_see_flower
    flowers = len(me.flowers) if see else sum(1 for f in me.flowers if flower_wind(f) == me.wind)
    extra = flowers + ((1 + 2 * min(view.dealer_streak, 8)) if dealer else 0)
    honour_worth = [0] * 7
    for h in range(7):
        if h >= 4 or see:
            honour_worth[h] = 1
        else:
            honour_worth[h] = (h == me.wind) + (h == view.round_wind)
    meld_counts = [0] * 34
    chow_meld = False
    for m in me.melds:
        if m.kind is MeldKind.CHI:
            chow_meld = True
        for t in m.tiles:
            meld_counts[t] += 1
    facts: SeatFacts = (
        me.wind,
        me.melds,
        any(m.kind is not MeldKind.ANKONG for m in me.melds),
        flowers,
        extra,
        honour_worth,
        meld_counts,
        chow_meld,
        sum(3 for m in me.melds if not m.is_hidden and m.tiles[0] >= 27),
        sum(1 for m in me.melds if m.is_triplet),
        {},
    )
    if len(_SEAT_FACTS) >= _SEATS_KEPT:
        _SEAT_FACTS.clear()
    # the options are kept beside the facts, so that an id reused by other options is never taken for them
    _SEAT_FACTS[key] = (options, facts)
    return facts


_SEAT_FACTS: dict[tuple, tuple[object, SeatFacts]] = {}
_SEATS_KEPT = 64  # seats' facts kept (a few hands of a table)
_TAI_KEPT = 4096  # scorer answers kept per seat's facts


# Chance that the hand wins, by shanten (rows, 0 = ready) and stage of the hand (columns: discards
# the table has made, 8 a column), measured in self-play of the strong AI against three easy ones
# on a table with no minimum (3,200 hands), smoothed so it never rises with shanten or stage. There
# most hands end early in someone's win, which a count of draws until the wall cannot see.
_WIN_BY_STAGE = (
    (0.601, 0.601, 0.499, 0.431, 0.352, 0.263, 0.124),
    (0.492, 0.378, 0.280, 0.189, 0.118, 0.053, 0.027),
    (0.362, 0.249, 0.142, 0.084, 0.033, 0.016, 0.003),
    (0.261, 0.152, 0.092, 0.022, 0.015, 0.006, 0.003),
    (0.181, 0.095, 0.048, 0.022, 0.015, 0.006, 0.003),
    (0.126, 0.050, 0.029, 0.022, 0.015, 0.006, 0.003),
)
STAGE_DISCARDS = 8
# the median count of live improving tiles at each shanten in the same games: a hand with more
# live tiles than is usual wins more often, about as the square root of the ratio
_MEDIAN_LIVE = (4, 12, 20, 30, 60, 80)
LIVE_EXPONENT = 0.5


def measured_win_chance(shanten: int, live: int, discards_made: int) -> float:
    """Chance that a hand at ``shanten`` with ``live`` improving tiles unseen wins this hand at a
    table with no minimum, when the table has made ``discards_made`` discards (a few thousand
    distinct questions, each asked many times: the answers are kept)."""
    key = (shanten, live, discards_made)
    found = _MEASURED.get(key)
    if found is None:
        found = _MEASURED[key] = _measured_win_chance(shanten, live, discards_made)
    return found


_MEASURED: dict[tuple[int, int, int], float] = {}


def _measured_win_chance(shanten: int, live: int, discards_made: int) -> float:
    if shanten < 0:
        return 1.0
    if live <= 0:
        return 0.0
    row = _WIN_BY_STAGE[min(shanten, 5)]
    stage = min(discards_made / STAGE_DISCARDS, len(row) - 1)
    i = min(int(stage), len(row) - 2)
    base = row[i] + (row[i + 1] - row[i]) * (stage - i)
    ratio = min(max(live / _MEDIAN_LIVE[min(shanten, 5)], 0.25), 2.5)
    return min(0.95, base * ratio**LIVE_EXPONENT)


# live tiles a hand typically has at each shanten (16-tile hands, about 100 tiles unseen)
_TYPICAL_LIVE = (8, 22, 38, 52, 64)


def wall_win_chance(shanten: int, live: int, unseen_total: int, draws_left: float, reach: float) -> float:
    """Chance to complete before the wall runs out, for a table minimum where most hands do run to
    the wall. Each step to the next shanten takes about unseen / live looks (own draws and usable
    discards, ``reach`` per draw); the first step uses the hand's own live tiles, later ones a
    typical count. The steps are treated as a Poisson stream."""
    if shanten < 0:
        return 1.0
    if live <= 0 or draws_left <= 0:
        return 0.0
    total = max(unseen_total, 1)
    scale = total / 100
    looks = total / live + sum(total / (_TYPICAL_LIVE[min(k, 4)] * scale) for k in range(shanten))
    lam = (shanten + 1) * draws_left * reach / looks
    term = math.exp(-lam)
    tail = 1.0 - term
    for k in range(1, shanten + 1):
        term *= lam / k
        tail -= term
    return max(0.0, tail)
