"""The easy AI: the original built-in player, deciding from the view only."""

from __future__ import annotations

from collections.abc import Sequence

from .. import analysis
from ..actions import Action, Kind
from ..view import GameView
from .table import claimed_tile, connections, exchange_choice, own_counts, valuable_honour


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
                tile = a.named_tile
                hand[tile] -= 4
                kept = analysis.shanten(hand)
                hand[tile] += 4
                if kept <= now:
                    return a
        if len(discards) == 1:
            return discards[0]
        after = analysis.discard_shanten(hand)
        best = min([after[a.named_tile] for a in discards])
        candidates = [a for a in discards if after[a.named_tile] == best]
        danger = self._danger(view)
        if danger:
            safest = min(danger.get(a.named_tile, 0) for a in candidates)
            candidates = [a for a in candidates if danger.get(a.named_tile, 0) == safest]
        if len(candidates) == 1:
            return candidates[0]
        # ties (first in tile order wins): the tile that works least with its neighbours
        return min(candidates, key=lambda a: self._usefulness(hand, a.named_tile))

    @staticmethod
    def _usefulness(hand: list[int], t: int) -> int:
        """How much a tile works with the hand (see ``connections``), one more for a middle tile
        (2-8): isolated honours go first."""
        return connections(hand, t) + _MIDDLE[t]

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
        if tile is None:  # no tile on offer: only 過 is listed (a 胡 was taken in choose)
            return actions[-1]
        now = analysis.shanten(hand)
        best, best_s = actions[-1], now
        for a in actions:
            if a.kind is Kind.PASS:
                continue
            if a.kind is Kind.KONG:
                if valuable_honour(view, tile):
                    return a
                continue
            used = (
                [tile, tile]
                if a.kind is Kind.PON
                else [t for t in (a.named_tile, a.named_tile + 1, a.named_tile + 2) if t != tile]
            )
            for t in used:
                hand[t] -= 1
            after = min(analysis.discard_shanten(hand).values(), default=99)
            for t in used:
                hand[t] += 1
            if a.kind is Kind.PON and valuable_honour(view, tile):
                after -= 1
            if after < best_s:
                best, best_s = a, after
        return best


_MIDDLE = tuple(0 if t >= 27 or t % 9 in (0, 8) else 1 for t in range(34))
