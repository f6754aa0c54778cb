"""Players that are not people: a random player (for testing), the 代打 auto-player and the
built-in AI that fills empty seats. A policy sees only its own seat's tiles and the public table."""

from __future__ import annotations

import random
from typing import Protocol

from . import analysis
from .actions import Action, Kind
from .game import Game, auto_play_choice
from .tiles import EAST, is_honor


class Policy(Protocol):
    def choose(self, game: Game, seat: int) -> Action: ...


class RandomPolicy:
    """Uniform over the legal actions: explores every rule path in self-play."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, game: Game, seat: int) -> Action:
        return self.rng.choice(game.legal_actions(seat))


class AutoPlayPolicy:
    """代打: wins when it can, never kongs, otherwise discards the drawn tile."""

    def choose(self, game: Game, seat: int) -> Action:
        return auto_play_choice(game, seat)


class SimpleAI:
    """Shanten-greedy discards, claims that bring the hand closer, and safe tiles against a 聽."""

    def choose(self, game: Game, seat: int) -> Action:
        actions = game.legal_actions(seat)
        for a in actions:
            if a.kind is Kind.WIN:
                return a
        if actions[-1].kind is Kind.PASS:
            return self._claim(game, seat, actions)
        return self._turn(game, seat, actions)

    # -- own turn
    def _turn(self, game: Game, seat: int, actions: list[Action]) -> Action:
        hand = game.hands[seat]
        discards = [a for a in actions if a.kind is Kind.DISCARD]
        kongs = [a for a in actions if a.kind in (Kind.ANKONG, Kind.ADDKONG)]
        if kongs:
            now = analysis.shanten(hand)
            for a in kongs:
                removed = 4 if a.kind is Kind.ANKONG else 1
                hand[a.tile] -= removed
                after = analysis.shanten(hand) if a.kind is Kind.ANKONG else now
                hand[a.tile] += removed
                if after <= now:
                    return a
        if len(discards) == 1:
            return discards[0]
        danger = self._danger(game, seat)
        best = None
        best_key = None
        for a in discards:
            t = a.tile
            hand[t] -= 1
            s = analysis.shanten(hand)
            hand[t] += 1
            key = (s, danger.get(t, 0), self._usefulness(hand, t))
            if best_key is None or key < best_key:
                best, best_key = a, key
        return best

    @staticmethod
    def _usefulness(hand: list[int], t: int) -> int:
        """How much a tile works with its neighbours: isolated honours go first."""
        if t >= 27:
            return hand[t] * 3
        pos = t % 9
        score = hand[t] * 3
        for d in (-2, -1, 1, 2):
            if 0 <= pos + d <= 8 and hand[t + d]:
                score += 2 if abs(d) == 1 else 1
        return score + (0 if pos in (0, 8) else 1)

    @staticmethod
    def _danger(game: Game, seat: int) -> dict[int, int]:
        """Tiles not yet discarded by an opponent who declared 聽 or shows 3+ melds are risky."""
        threats = [s for s in range(4) if s != seat and (game.ready[s] or len(game.melds[s]) >= 3)]
        if not threats:
            return {}
        danger: dict[int, int] = {}
        for t in range(34):
            for s in threats:
                if t not in game.rivers[s]:
                    danger[t] = danger.get(t, 0) + 1
        return danger

    # -- claims
    def _claim(self, game: Game, seat: int, actions: list[Action]) -> Action:
        hand = game.hands[seat]
        now = analysis.shanten(hand)
        best, best_s = actions[-1], now
        for a in actions:
            if a.kind is Kind.PASS:
                continue
            tile = game.claim.tile if game.claim else a.tile
            if a.kind is Kind.KONG:
                if self._valuable_pung(game, seat, tile):
                    return a
                continue
            if a.kind is Kind.PON:
                used = [tile, tile]
            else:
                used = [t for t in (a.tile, a.tile + 1, a.tile + 2) if t != tile]
            for t in used:
                hand[t] -= 1
            after = min((_shanten_after_discard(hand, t) for t in range(34) if hand[t]), default=99)
            for t in used:
                hand[t] += 1
            if a.kind is Kind.PON and self._valuable_pung(game, seat, tile):
                after -= 1
            if after < best_s:
                best, best_s = a, after
        return best

    @staticmethod
    def _valuable_pung(game: Game, seat: int, tile: int) -> bool:
        return is_honor(tile) and (tile >= 31 or tile - EAST in (game.seat_wind(seat), game.round_wind))


def _shanten_after_discard(hand: list[int], t: int) -> int:
    hand[t] -= 1
    s = analysis.shanten(hand)
    hand[t] += 1
    return s


def make_policy(name: str, rng: random.Random) -> Policy:
    """``random`` (uses ``rng``), ``ai`` or ``auto`` (代打)."""
    if name == "random":
        return RandomPolicy(rng)
    if name == "ai":
        return SimpleAI()
    if name == "auto":
        return AutoPlayPolicy()
    raise ValueError(f"unknown policy {name!r}; choose from random, ai, auto")
