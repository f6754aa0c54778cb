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
        actions = legal if type(legal) is list else list(legal)  # read only, never changed here
        for a in actions:
            if a.kind is _WIN:
                return a
        if actions[0].kind is Kind.EXCHANGE:
            return exchange_choice(view, actions)
        hand = own_counts(view)
        if actions[-1].kind is Kind.PASS:
            return self._claim(view, hand, actions)
        return self._turn(view, hand, actions)

    # -- own turn
    def _turn(self, view: GameView, hand: list[int], actions: list[Action]) -> Action:
        # the discards by tile, in the order listed (the game lists them in tile order)
        discards: dict[int | None, Action] = {a.tile: a for a in actions if a.kind is _DISCARD}
        if len(discards) < len(actions):  # a kong (or 聽) on offer besides the discards
            kongs = [a for a in actions if a.kind is Kind.ANKONG or a.kind is Kind.ADDKONG]
        else:
            kongs = []
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
            return next(iter(discards.values()))
        # the discards that leave the lowest shanten, in the order listed (a caller may list them
        # in another order than the tiles'): the hand's best ones, when one is listed (the tile
        # just claimed may not be); else the best of those listed
        best_tiles = analysis.best_discards(hand)[1]
        candidates = [a for t, a in discards.items() if t in best_tiles]
        if not candidates:
            after = analysis.discard_shanten(hand)
            best = min([after[a.named_tile] for a in discards.values()])
            candidates = [a for a in discards.values() if after[a.named_tile] == best]
        if len(candidates) > 1:
            rivers = self._threat_rivers(view)
            if rivers:  # the tiles fewest threatening opponents have not discarded
                danger = [sum(1 for river in rivers if a.named_tile not in river) for a in candidates]
                safest = min(danger)
                candidates = [a for a, d in zip(candidates, danger, strict=True) if d == safest]
        if len(candidates) == 1:
            return candidates[0]
        # ties (the first listed wins): the tile that works least with its neighbours, one more
        # for a middle tile (2-8): isolated honours go first
        loosest, least = candidates[0], 99  # the first with the least (inline: most turns tie)
        for a in candidates:
            t = a.named_tile
            n = connections(hand, t) + _MIDDLE[t]
            if n < least:
                loosest, least = a, n
        return loosest

    @staticmethod
    def _threat_rivers(view: GameView) -> list[set[int]]:
        """The rivers of the opponents who declared 聽 or show 3+ melds: a tile not yet in one of
        them is risky against that opponent."""
        return [set(p.discards) for p in view.seats if p.seat != view.viewer and (p.ready or len(p.melds) >= 3)]

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
            after = analysis.best_discard_shanten(hand)
            for t in used:
                hand[t] += 1
            if a.kind is Kind.PON and valuable_honour(view, tile):
                after -= 1
            if after < best_s:
                best, best_s = a, after
        return best


_DISCARD, _WIN = Kind.DISCARD, Kind.WIN
_MIDDLE = tuple(0 if t >= 27 or t % 9 in (0, 8) else 1 for t in range(34))
