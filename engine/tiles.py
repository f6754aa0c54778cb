"""Tiles and their notation.

A tile is a plain ``int`` (like python-chess squares) so that hands can be count arrays and
hot loops stay cheap:

* ``0..8``   萬 1m..9m, ``9..17`` 筒 1p..9p, ``18..26`` 索 1s..9s
* ``27..33`` honours 1z..7z: 東 南 西 北 白 發 中
* ``34..41`` flowers f1..f8: 春 夏 秋 冬 梅 蘭 菊 竹

Notation follows DESIGN.md::

    >>> parse_tiles("123m55z f1")
    [0, 1, 2, 31, 31, 34]
    >>> format_tiles([0, 1, 2, 31, 31, 34])
    '123m55zf1'
"""

from __future__ import annotations

import re
from collections.abc import Iterable

NUM_KINDS = 34  # suited + honours: the tiles that can be in a hand
NUM_TILE_KINDS = 42  # plus the eight flowers
SUITS = "mps"

MAN, PIN, SOU, HONOR, FLOWER = "m", "p", "s", "z", "f"

EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
WHITE, GREEN, RED = 31, 32, 33
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (WHITE, GREEN, RED)
FLOWERS = tuple(range(34, 42))

WIND_LETTERS = "ESWN"

HIDDEN = -1  # a face-down tile in someone else's view (another player's 暗槓)

_SUIT_NAMES = {"m": "萬", "p": "筒", "s": "索"}
_NUMERALS = "一二三四五六七八九"
HONOR_NAMES = "東南西北白發中"
FLOWER_NAMES = "春夏秋冬梅蘭菊竹"

_TOKEN = re.compile(r"([1-9]+)([mpsz])|f([1-8])|\s+|,")


class NotationError(ValueError):
    """Raised for text that is not valid tile or meld notation."""


def suit_of(tile: int) -> str:
    if tile < 27:
        return SUITS[tile // 9]
    return HONOR if tile < 34 else FLOWER


def number_of(tile: int) -> int:
    """1-9 for suited tiles, 1-7 for honours, 1-8 for flowers."""
    if tile < 27:
        return tile % 9 + 1
    return tile - 26 if tile < 34 else tile - 33


def is_suited(tile: int) -> bool:
    return tile < 27


def is_honor(tile: int) -> bool:
    return 27 <= tile < 34


def is_flower(tile: int) -> bool:
    return tile >= 34


def is_terminal(tile: int) -> bool:
    return tile < 27 and tile % 9 in (0, 8)


def flower_wind(tile: int) -> int:
    """The seat-wind index (0=E..3=N) a flower belongs to: f1/f5 東, f2/f6 南, ..."""
    return (tile - 34) % 4


def tile_from_str(text: str) -> int:
    """``"5m"`` → 4, ``"7z"`` → 33, ``"f3"`` → 36."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise NotationError(f"expected exactly one tile, got {text!r}")
    return tiles[0]


def tile_to_str(tile: int) -> str:
    if tile >= 34:
        return f"f{tile - 33}"
    return f"{number_of(tile)}{suit_of(tile)}"


def parse_tiles(text: str) -> list[int]:
    """Parse ``"123m456p77z f1f2"``; order is kept, spaces and commas are ignored."""
    if not isinstance(text, str):
        raise NotationError(f"tile notation must be text, got {type(text).__name__}")
    tiles: list[int] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if not match:
            raise NotationError(f"bad tile notation at {text[pos : pos + 20]!r} in {text[:60]!r}")
        digits, suit, flower = match.groups()
        if digits:
            for d in digits:
                n = int(d)
                if suit == HONOR:
                    if n > 7:
                        raise NotationError(f"there is no honour {n}z in {text!r}")
                    tiles.append(26 + n)
                else:
                    tiles.append(SUITS.index(suit) * 9 + n - 1)
        elif flower:
            tiles.append(33 + int(flower))
        pos = match.end()
    return tiles


def format_tiles(tiles: Iterable[int], *, sort: bool = False) -> str:
    """Compact notation: runs of one suit share the suit letter (``"123m55z"``)."""
    seq = sorted(tiles) if sort else list(tiles)
    out: list[str] = []
    run: list[str] = []
    run_suit = ""
    for t in seq:
        s = suit_of(t)
        if s == FLOWER:
            if run:
                out.append("".join(run) + run_suit)
                run = []
            out.append(tile_to_str(t))
            run_suit = ""
            continue
        if s != run_suit and run:
            out.append("".join(run) + run_suit)
            run = []
        run_suit = s
        run.append(str(number_of(t)))
    if run:
        out.append("".join(run) + run_suit)
    return "".join(out)


def tile_name(tile: int) -> str:
    """Chinese name: 五萬, 三筒, 九索, 東, 中, 春."""
    if tile < 27:
        return _NUMERALS[tile % 9] + _SUIT_NAMES[SUITS[tile // 9]]
    if tile < 34:
        return HONOR_NAMES[tile - 27]
    return FLOWER_NAMES[tile - 34]


def sort_key(tile: int) -> int:
    """Display order: 萬 筒 索, then 東南西北中發白 as players lay them out, then flowers."""
    if 31 <= tile <= 33:
        return 31 + (33 - tile)  # 中 發 白
    return tile


def sorted_tiles(tiles: Iterable[int]) -> list[int]:
    return sorted(tiles, key=sort_key)


def to_counts(tiles: Iterable[int]) -> list[int]:
    """34-entry count array (flowers are ignored: they never sit in a hand)."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        if t < NUM_KINDS:
            counts[t] += 1
    return counts


def from_counts(counts: list[int]) -> list[int]:
    return [t for t in range(NUM_KINDS) for _ in range(counts[t])]


def full_set(flowers: bool = True) -> list[int]:
    """The 144 (or 136 without flowers) physical tiles, in kind order."""
    return list(_FULL_SET if flowers else _FULL_SET[: 4 * NUM_KINDS])  # (a copy: every hand shuffles one)


_FULL_SET = (*(t for t in range(NUM_KINDS) for _ in range(4)), *FLOWERS)


def wind_index(letter: str) -> int:
    """``"E"`` → 0 … ``"N"`` → 3."""
    if isinstance(letter, str) and len(letter) == 1 and letter in "ESWNeswn":
        return WIND_LETTERS.index(letter.upper())
    shown = repr(letter[:20]) if isinstance(letter, str) else type(letter).__name__
    raise NotationError(f"wind must be one of E S W N, got {shown}")
