"""What a seat can read from its view: its own tiles, the tiles it has not seen, who threatens
and which tiles are safe against whom. Nothing here looks beyond :class:`~engine.view.GameView`."""

from __future__ import annotations

from collections.abc import Collection

from .. import analysis
from ..actions import Action, Kind
from ..meld import MeldKind
from ..tiles import NUM_KINDS, is_honor
from ..view import GameView


def own_counts(view: GameView) -> list[int]:
    """The viewer's concealed tiles as counts, the freshly drawn tile included."""
    counts = [0] * NUM_KINDS
    for t in view.concealed:
        counts[t] += 1
    if view.drawn is not None:
        counts[view.drawn] += 1
    return counts


def unseen_counts(view: GameView, own: list[int]) -> list[int]:
    """Copies of each kind the viewer has not seen: not in its hand, any shown meld or any river."""
    seen = list(own)
    for seat in view.seats:
        for meld in seat.melds:
            if not meld.is_hidden:
                for t in meld.tiles:
                    seen[t] += 1
        for t in seat.discards:
            seen[t] += 1
    return [4 - n if n < 4 else 0 for n in seen]


EXCHANGE_MAX = 3


def exchange_choice(view: GameView, legal: list[Action]) -> Action:
    """換牌: give back up to three tiles the hand does not need — each one whose loss leaves the
    shanten as it is, loose honours and terminals first, never a dragon or one's own or the round's
    wind (a 台 once paired) — and keep the rest. A fresh tile from the wall can only help where a
    tile that does nothing stood."""
    counts = own_counts(view)
    sets = view.hand_size // 3  # the hand's goal stays the same while tiles are set aside
    now = analysis.shanten(counts, sets)
    given: list[int] = []
    while len(given) < EXCHANGE_MAX:
        free = [
            t
            for t in range(NUM_KINDS)
            if counts[t] and not valuable_honour(view, t) and _shanten_without(counts, t, sets) <= now
        ]
        if not free:
            break
        tile = min(free, key=lambda t: (connections(counts, t), -_edge(t), t))
        counts[tile] -= 1
        given.append(tile)
    choice = tuple(sorted(given))
    for a in legal:
        if a.kind is Kind.EXCHANGE and a.tiles == choice:
            return a
    return next(a for a in legal if a.kind is Kind.EXCHANGE and not a.tiles)  # keep the hand


def valuable_honour(view: GameView, tile: int) -> bool:
    """A dragon, or the viewer's seat wind or the round's wind: a 台 as a pung."""
    return is_honor(tile) and (tile >= 31 or tile - 27 in (view.me.wind, view.round_wind))


def _edge(tile: int) -> int:
    """How far toward the edge of its suit a tile sits (honours furthest: they chain with nothing)."""
    return 5 if is_honor(tile) else abs(tile % 9 - 4)


def _shanten_without(counts: list[int], tile: int, sets: int) -> int:
    counts[tile] -= 1
    try:
        return analysis.shanten(counts, sets)
    finally:
        counts[tile] += 1


def connections(counts: list[int], t: int) -> int:
    """How much a tile works with the rest of the hand: three a copy held (itself included), two a
    held tile next to it in its suit, one a held tile two away."""
    score = counts[t] * 3
    for u, weight in _NEIGHBOURS[t]:
        if counts[u]:
            score += weight
    return score


# per tile: its neighbours in the suit with their weights (one apart 2, two apart 1); honours have none
_NEIGHBOURS = tuple(
    () if t >= 27 else tuple((t + d, 2 if abs(d) == 1 else 1) for d in (-2, -1, 1, 2) if 0 <= t % 9 + d <= 8)
    for t in range(NUM_KINDS)
)


def claimed_tile(view: GameView, legal: list[Action]) -> int | None:
    """The discard the claim window is about (None on one's own turn)."""
    if view.last_discard is not None and view.phase == "claim":
        return view.last_discard[1]
    for a in legal:
        if a.kind in (Kind.PON, Kind.KONG):
            return a.tile
    return None


def open_melds(view: GameView, seat: int) -> int:
    """Claimed sets (a concealed kong keeps the hand 門清)."""
    return sum(1 for m in view.seats[seat].melds if m.kind is not MeldKind.ANKONG)


class SafeTiles:
    """Tiles known not to win for a seat that declared 聽: its hand is fixed and a win on a discard is
    taken by the table, so every tile discarded after the declaration that did not end the hand is
    safe against it (過水 knowledge). Built from successive views of one hand, as a person
    watching the table would remember it."""

    def __init__(self) -> None:
        self._hand: tuple | None = None
        self._mark: dict[int, list[int]] = {}  # ready seat -> river lengths when first seen ready
        self.safe: dict[int, set[int]] = {}

    def update(self, view: GameView) -> None:
        hand = (view.hand_number, view.round_wind, view.dealer, view.dealer_streak, view.rules)
        if hand != self._hand:
            self._hand = hand
            self._mark.clear()
            self.safe.clear()
        lengths = [len(s.discards) for s in view.seats]
        for seat in view.seats:
            s = seat.seat
            if not seat.ready or s == view.viewer:
                continue
            mark = self._mark.get(s)
            if mark is None:
                self._mark[s] = lengths
                self.safe[s] = set()
                continue
            safe = self.safe[s]
            for r, other in enumerate(view.seats):
                safe.update(other.discards[min(mark[r], lengths[r]) :])
            self._mark[s] = lengths


# chance a seat is ready, by its melds (rows) and its river length // 3 (columns): measured in
# self-play of the easy AI (150 hands), smoothed; a declared 聽 is certain
_READY_CHANCE = (
    (0.0, 0.03, 0.12, 0.28, 0.4, 0.5, 0.6),
    (0.01, 0.08, 0.25, 0.48, 0.64, 0.7, 0.75),
    (0.12, 0.16, 0.31, 0.53, 0.6, 0.7, 0.75),
    (0.3, 0.4, 0.61, 0.7, 0.7, 0.8, 0.8),
    (0.6, 0.7, 0.9, 0.9, 0.9, 0.9, 0.9),
    (0.95,) * 7,
)


def ready_chance(view: GameView, seat: int) -> float:
    """How likely ``seat`` is ready, from what the table shows: its melds and how long its river is."""
    pub = view.seats[seat]
    if pub.ready:
        return 1.0
    return _READY_CHANCE[min(len(pub.melds), 5)][min(len(pub.discards) // 3, 6)]


def visible_value(view: GameView, seat: int) -> float:
    """A rough 台 estimate of ``seat``'s hand from its shown melds and flowers (for the risk of
    dealing in). One suit plus honours in every meld hints at a flush."""
    pub = view.seats[seat]
    value = 3.0
    suits = set()
    for m in pub.melds:
        if m.is_hidden:
            continue
        t = m.tiles[0]
        if is_honor(t):
            if t >= 31 or t - 27 in (pub.wind, view.round_wind):
                value += 1
        else:
            suits.add(t // 9)
    if len(pub.melds) >= 2 and len(suits) <= 1:
        value += 3
    return value + 0.3 * len(pub.flowers)


def deal_in_chance(tile: int, river: Collection[int], unseen: list[int]) -> float:
    """Chance that ``tile`` wins for one ready hand with no better knowledge: waits are a few kinds,
    middle tiles more often than terminals; honours need copies left; its own discards rarely."""
    if is_honor(tile):
        base = (0.005, 0.03, 0.06, 0.07, 0.07)[unseen[tile]]
    else:
        n = tile % 9
        base = 0.05 if n in (0, 8) else 0.07 if n in (1, 7) else 0.09
        if unseen[tile] == 0:
            base *= 0.5
    if tile in river:
        base *= 0.25
    return base
