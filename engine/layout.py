"""A position written in tile notation, laid out as tiles: which seat holds what, the wall in draw
order, the horses set aside. No game here — :meth:`engine.game.Game.from_position` puts a layout
on the table, so the game itself sets every one of its fields.

Tiles not placed anywhere go to the wall after the named draws, so the 144 tiles are always
conserved. Seats without a hand get filler tiles from the rest of the set (in kind order).
"""

from __future__ import annotations

from dataclasses import dataclass

from .meld import Meld, parse_melds
from .rules import RuleProfile
from .tiles import NUM_KINDS, full_set, parse_tiles


@dataclass(frozen=True, slots=True)
class Layout:
    hands: list[list[int]]  # counts per seat
    melds: list[list[Meld]]
    flowers: list[list[int]]
    rivers: list[list[int]]
    wall: list[int]  # every tile left, in draw order from the front (replacements come from the end)
    horses: tuple[int, ...]
    drawn: int | None


def lay_out(
    profile: RuleProfile,
    *,
    turn: int,
    hands: dict[int, str] | None = None,
    melds: dict[int, list[str]] | None = None,
    flowers: dict[int, str] | None = None,
    rivers: dict[int, str] | None = None,
    wall: str = "",
    back: str = "",
    drawn: str | None = None,
    live: int | None = None,
    horses: str = "",
) -> Layout:
    """``wall`` names the next live draws in order and ``back`` the replacement draws; ``live`` sets
    how many live draws remain (default: all); ``horses`` names the tiles a profile with 买马 sets
    aside (the rest come from the wall's end). ValueError for a fifth copy of a tile."""
    pool = full_set(profile.flowers)
    hands = hands or {}

    def take(tiles: list[int]) -> list[int]:
        for t in tiles:
            try:
                pool.remove(t)
            except ValueError:
                raise ValueError(f"position uses more than four of tile {t}") from None
        return tiles

    counts = [[0] * NUM_KINDS for _ in range(4)]
    meld_lists: list[list[Meld]] = [[] for _ in range(4)]
    flower_lists: list[list[int]] = [[] for _ in range(4)]
    river_lists: list[list[int]] = [[] for _ in range(4)]
    for seat in range(4):
        meld_lists[seat] = parse_melds((melds or {}).get(seat, []))
        for m in meld_lists[seat]:
            take(list(m.tiles))
        flower_lists[seat] = take(parse_tiles((flowers or {}).get(seat, "")))
        river_lists[seat] = take(parse_tiles((rivers or {}).get(seat, "")))
        for t in take(parse_tiles(hands.get(seat, ""))):
            counts[seat][t] += 1
    front = take(parse_tiles(wall))
    back_tiles = take(parse_tiles(back))
    horse_tiles = take(parse_tiles(horses))
    if len(horse_tiles) > profile.horses:
        raise ValueError(f"{profile.id} sets aside {profile.horses} horses, not {len(horse_tiles)}")
    for seat in range(4):  # fill unspecified hands with tiles that are not flowers
        if seat in hands:
            continue
        need = profile.hand_size - 3 * len(meld_lists[seat]) + (1 if seat == turn else 0)
        for t in take(_filler(pool, need, seat)):
            counts[seat][t] += 1
    rest_flowers = [t for t in pool if t >= NUM_KINDS]
    rest = [t for t in pool if t < NUM_KINDS]
    while len(horse_tiles) < profile.horses:
        horse_tiles.append(rest.pop())
    # replacement draws come from the end: put named back tiles last, flowers out of the way
    tiles = front + rest + rest_flowers + list(reversed(back_tiles))
    if live is not None:
        kongs = sum(1 for seat in meld_lists for m in seat if m.is_kong)
        surplus = len(tiles) - profile.reserve - profile.reserve_per_kong * kongs - live
        if surplus < 0:
            raise ValueError("not enough tiles for that many live draws")
        # tiles cut from the middle of the wall are parked in the river of seat (turn + 2), so the
        # tiles are still conserved and count as seen
        river_lists[(turn + 2) % 4].extend(tiles[len(front) : len(front) + surplus])
        del tiles[len(front) : len(front) + surplus]
    return Layout(
        counts,
        meld_lists,
        flower_lists,
        river_lists,
        tiles,
        tuple(horse_tiles),
        None if drawn is None else parse_tiles(drawn)[0],
    )


def _filler(pool: list[int], need: int, seat: int) -> list[int]:
    """Junk tiles for a seat the test does not care about: one of each kind, three apart in
    each suit, so the filler hand is far from ready and rarely claims anything."""
    shift = seat % 3
    pattern = [s * 9 + (i * 3 + shift + s) % 9 for s in range(3) for i in range(3)] + list(range(27, 34))
    pattern += [t for t in range(34) if t not in pattern]
    available = list(pool)
    chosen: list[int] = []
    for t in pattern * 4:
        if len(chosen) == need:
            break
        if t in available:
            available.remove(t)
            chosen.append(t)
    return chosen
