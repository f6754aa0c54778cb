"""The wall: shuffled once from the game's seeded RNG, broken where the dealer's dice say.

Tiles are drawn from the front (live draws) and from the back (replacements for flowers and
kongs). The hand is a draw game when only the reserve is left: ``drawable`` says how many live
draws remain.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .tiles import full_set

SIDES = 4


_BIT_LENGTHS = tuple(n.bit_length() for n in range(257))


def shuffle(rng: random.Random, tiles: list[int]) -> None:
    """``rng.shuffle(tiles)``: the same order from the same state of the generator (the standard
    library's own steps, each index below ``n`` drawn as ``getrandbits(n.bit_length())`` until it
    is below ``n``) at half its cost, every hand shuffling 144 tiles. A generator of another kind,
    or a wall longer than :data:`_BIT_LENGTHS` knows, is shuffled by ``rng.shuffle`` itself."""
    if type(rng) is not random.Random or len(tiles) >= len(_BIT_LENGTHS):
        rng.shuffle(tiles)
        return
    getrandbits = rng.getrandbits
    bits = _BIT_LENGTHS
    for i in range(len(tiles) - 1, 0, -1):
        n = i + 1
        k = bits[n]
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        tiles[i], tiles[j] = tiles[j], tiles[i]


@dataclass(slots=True)
class Wall:
    tiles: list[int]  # in draw order from the break point
    front: int = 0  # next live draw
    back: int = 0  # one past the next replacement draw (counts down)
    break_side: int = 0  # seat whose wall was broken
    break_stack: int = 0  # stack counted from the right of that wall

    @classmethod
    def build(cls, rng: random.Random, *, flowers: bool, dealer: int, dice_total: int) -> Wall:
        """Shuffle and break: count ``dice_total`` seats counter-clockwise from the dealer (dealer = 1)
        to find the wall, then count that many stacks from its right; drawing starts at the next one."""
        ring = full_set(flowers)
        shuffle(rng, ring)
        per_side = len(ring) // SIDES
        side = (dealer + dice_total - 1) % SIDES
        start = (side * per_side + 2 * dice_total) % len(ring)
        ordered = ring[start:] + ring[:start]
        return cls(ordered, 0, len(ordered), side, dice_total)

    @property
    def remaining(self) -> int:
        return self.back - self.front

    def draw_front(self) -> int:
        if self.front >= self.back:
            raise IndexError("the wall is empty")
        tile = self.tiles[self.front]
        self.front += 1
        return tile

    def draw_back(self) -> int:
        if self.front >= self.back:
            raise IndexError("the wall is empty")
        self.back -= 1
        return self.tiles[self.back]

    def set_aside(self, n: int) -> tuple[int, ...]:
        """Take ``n`` tiles off the wall's end for good (买马's horses): no draw ever reaches them."""
        if not 0 <= n <= self.remaining:
            raise ValueError(f"cannot set aside {n} of {self.remaining} tiles")
        self.back -= n
        return tuple(self.tiles[self.back : self.back + n])

    def remaining_tiles(self) -> list[int]:
        return self.tiles[self.front : self.back]
