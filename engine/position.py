"""Set up a game at a chosen position, written in tile notation (the FEN of this engine).

    game = position(
        hands={0: "123456789m1234p5s", 1: "...", ...},   # concealed tiles; the seat to move holds one more
        melds={1: ["pon:555z"]},
        wall="5m7p",            # the next live draws, in order
        turn=0,
    )

Tiles not placed anywhere go to the wall after the named draws, so the 144 tiles are always
conserved. Seats without a hand get filler tiles from the rest of the set (in kind order).
"""

from __future__ import annotations

from .game import Game, Phase, _TurnState
from .meld import Meld, parse_melds
from .rules import RuleProfile, TableOptions
from .tiles import full_set, parse_tiles


def position(
    *,
    hands: dict[int, str] | None = None,
    melds: dict[int, list[str]] | None = None,
    flowers: dict[int, str] | None = None,
    rivers: dict[int, str] | None = None,
    wall: str = "",
    back: str = "",
    turn: int = 0,
    dealer: int = 0,
    drawn: str | None = None,
    rules: str | RuleProfile = "taiwan16",
    options: TableOptions | None = None,
    first_go: bool = False,
    live: int | None = None,
    horses: str = "",
) -> Game:
    """A game in TURN phase for ``turn``. ``live`` sets how many live draws remain (default: all).
    ``horses`` names the tiles a profile with 买马 sets aside (the rest come from the wall's end)."""
    game = Game(rules, seed=0, dealer=dealer, options=options)
    pool = full_set(game.profile.flowers)
    hands = hands or {}
    melds = melds or {}
    flowers = flowers or {}
    rivers = rivers or {}

    def take(tiles: list[int]) -> list[int]:
        for t in tiles:
            try:
                pool.remove(t)
            except ValueError:
                raise ValueError(f"position uses more than four of tile {t}") from None
        return tiles

    game.hands = [[0] * 34 for _ in range(4)]
    game.melds = [[] for _ in range(4)]
    game.flowers = [[] for _ in range(4)]
    game.rivers = [[] for _ in range(4)]
    for seat in range(4):
        meld_list: list[Meld] = parse_melds(melds.get(seat, []))
        for m in meld_list:
            take(list(m.tiles))
        game.melds[seat] = meld_list
        game.flowers[seat] = take(parse_tiles(flowers.get(seat, "")))
        game.rivers[seat] = take(parse_tiles(rivers.get(seat, "")))
        for t in take(parse_tiles(hands.get(seat, ""))):
            game.hands[seat][t] += 1
    front = take(parse_tiles(wall))
    back_tiles = take(parse_tiles(back))
    horse_tiles = take(parse_tiles(horses))
    if len(horse_tiles) > game.profile.horses:
        raise ValueError(f"{game.profile.id} sets aside {game.profile.horses} horses, not {len(horse_tiles)}")
    # fill unspecified hands with tiles that are not flowers
    size = game.profile.hand_size
    for seat in range(4):
        if seat in hands:
            continue
        need = size - 3 * len(game.melds[seat]) + (1 if seat == turn else 0)
        for t in take(_filler(pool, need, seat)):
            game.hands[seat][t] += 1
    rest_flowers = [t for t in pool if t >= 34]
    rest = [t for t in pool if t < 34]
    while len(horse_tiles) < game.profile.horses:
        horse_tiles.append(rest.pop())
    game._horses = tuple(horse_tiles)
    # replacement draws come from the end: put named back tiles last, flowers out of the way
    tiles = front + rest + rest_flowers + list(reversed(back_tiles))
    game.wall.tiles = tiles
    game.wall.front = 0
    game.wall.back = len(tiles)
    game.kongs = sum(1 for s in range(4) for m in game.melds[s] if m.is_kong)
    if live is not None:
        # drop tiles from the middle of the wall so that exactly ``live`` draws remain
        surplus = game.drawable - live
        if surplus < 0:
            raise ValueError("not enough tiles for that many live draws")
        cut = len(front)
        moved = tiles[cut : cut + surplus]
        del tiles[cut : cut + surplus]
        game.wall.back = len(tiles)
        # tiles cut from the wall are kept in the discard pile of nobody: park them in rivers
        # of seat (turn + 2) so conservation still holds and they count as seen
        game.rivers[(turn + 2) % 4].extend(moved)
        assert game.drawable == live
    game.claims_made = any(game.melds)
    game.first_go = [first_go] * 4
    game.first_round = first_go
    game.turn = turn
    game.phase = Phase.TURN
    game.ts = _TurnState()
    game.drawn = [None] * 4
    if drawn is not None:
        game.drawn[turn] = parse_tiles(drawn)[0]
    game.claim = None
    game.last_discard = None
    game.outcome = None
    game.events = []
    game.log = []
    game._turn_cache = None
    game.check_invariants()
    return game


def _filler(pool: list[int], need: int, seat: int) -> list[int]:
    """Junk tiles for a seat the test does not care about: one of each kind, three apart in
    each suit, so the filler hand is far from ready and rarely claims anything."""
    shift = seat % 3
    pattern = [s * 9 + (i * 3 + shift + s) % 9 for s in range(3) for i in range(3)] + list(range(27, 34))
    pattern += [t for t in range(34) if t not in pattern]
    available = list(pool)
    chosen = []
    for t in pattern * 4:
        if len(chosen) == need:
            break
        if t in available:
            available.remove(t)
            chosen.append(t)
    return chosen
