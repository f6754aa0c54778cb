"""The easy AI: the original built-in player, deciding from the view only."""

from __future__ import annotations

from collections.abc import Sequence

from .. import analysis
from ..actions import Action, Kind
from ..tiles import EAST, is_honor
from ..view import GameView
from .table import claimed_tile, exchange_choice, own_counts


class SimpleAI:
    """Shanten-greedy discards, claims that bring the hand closer, and safe tiles against a 聽.
    It never folds, ignores 台 and never declares 聽."""

    def choose(self, view: GameView, legal: Sequence[Action]) -> Action:
        actions = list(legal)
        for a in actions:
            if a.kind is Kind.WIN:
                return a
        if actions[0].kind is Kind.EXCHANGE:
            return exchange_choice(view, actions)
        hand = own_counts(view)
        if actions[-1].kind is Kind.PASS:
            return self._claim(view, hand, actions)
        return self._turn(view, hand, actions)

    # -- own turn
    def _turn(self, view: GameView, hand: list[int], actions: list[Action]) -> Action:
        discards = []
        kongs = []
        for a in actions:
            kind = a.kind
            if kind is Kind.DISCARD:
                discards.append(a)
            elif kind is Kind.ANKONG or kind is Kind.ADDKONG:
                kongs.append(a)
        if kongs:
            now = analysis.shanten(hand)
            for a in kongs:
                if a.kind is Kind.ADDKONG:
                    return a
                hand[a.tile] -= 4
                after = analysis.shanten(hand)
                hand[a.tile] += 4
                if after <= now:
                    return a
        if len(discards) == 1:
            return discards[0]
        after = analysis.discard_shanten(hand)
        best = min([after[a.tile] for a in discards])
        candidates = [a for a in discards if after[a.tile] == best]
        danger = self._danger(view)
        if danger:
            safest = min(danger.get(a.tile, 0) for a in candidates)
            candidates = [a for a in candidates if danger.get(a.tile, 0) == safest]
        if len(candidates) == 1:
            return candidates[0]
        # ties (first in tile order wins): the tile that works least with its neighbours
        return min(candidates, key=lambda a: self._usefulness(hand, a.tile))

    @staticmethod
    def _usefulness(hand: list[int], t: int) -> int:
        """How much a tile works with its neighbours: isolated honours go first. Three a copy held,
        two a held tile next to it, one two away, and one for a middle tile (2-8)."""
        score = hand[t] * 3 + _MIDDLE[t]
        for u, weight in _NEIGHBOURS[t]:
            if hand[u]:
                score += weight
        return score

    @staticmethod
    def _danger(view: GameView) -> dict[int, int]:
        """Tiles not yet discarded by an opponent who declared 聽 or shows 3+ melds are risky."""
        threats = [p for p in view.seats if p.seat != view.viewer and (p.ready or len(p.melds) >= 3)]
        if not threats:
            return {}
        rivers = [set(p.discards) for p in threats]
        danger: dict[int, int] = {}
        for t in range(34):
            count = 0
            for river in rivers:
                if t not in river:
                    count += 1
            if count:
                danger[t] = count
        return danger

    # -- claims
    def _claim(self, view: GameView, hand: list[int], actions: list[Action]) -> Action:
        tile = claimed_tile(view, actions)
        now = analysis.shanten(hand)
        best, best_s = actions[-1], now
        for a in actions:
            if a.kind is Kind.PASS:
                continue
            if a.kind is Kind.KONG:
                if self._valuable_pung(view, tile):
                    return a
                continue
            used = (
                [tile, tile]
                if a.kind is Kind.PON
                else [t for t in (a.tile, a.tile + 1, a.tile + 2) if t != tile]
            )
            for t in used:
                hand[t] -= 1
            after = min(analysis.discard_shanten(hand).values(), default=99)
            for t in used:
                hand[t] += 1
            if a.kind is Kind.PON and self._valuable_pung(view, tile):
                after -= 1
            if after < best_s:
                best, best_s = a, after
        return best

    @staticmethod
    def _valuable_pung(view: GameView, tile: int) -> bool:
        wind = view.seats[view.viewer].wind
        return is_honor(tile) and (tile >= 31 or tile - EAST in (wind, view.round_wind))


# per tile: its neighbours in the suit with their weights (one apart 2, two apart 1); honours have none
_NEIGHBOURS = tuple(
    ()
    if t >= 27
    else tuple((t + d, 2 if abs(d) == 1 else 1) for d in (-2, -1, 1, 2) if 0 <= t % 9 + d <= 8)
    for t in range(34)
)
_MIDDLE = tuple(0 if t >= 27 or t % 9 in (0, 8) else 1 for t in range(34))
