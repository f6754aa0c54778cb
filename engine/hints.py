"""Where a player stands: the waits of a ready hand and, on the player's turn, the discards that
keep it ready, each with what it would wait on and how many of those are still unseen — the
"tenpai advice" of the apps. A query over a :class:`~engine.game.Game` through its public verbs
(``view``, ``legal_actions``, ``hand``, ``winning_tiles``, ``unseen_counts``), the same in every
rule set because the waits come from the rule set's own win check (special forms included).

>>> from engine.game import Game
>>> from engine.tiles import tile_to_str
>>> game = Game.from_position(hands={0: "123456789m124p11s555z"}, drawn="5z")
>>> [(tile_to_str(d.tile), [(tile_to_str(w), n) for w, n in d.waits]) for d in ready_discards(game, 0)]
[('1p', [('3p', 4)]), ('4p', [('3p', 4)])]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .actions import Kind
from .tiles import NUM_KINDS

if TYPE_CHECKING:
    from .game import Game

Waits = tuple[tuple[int, int], ...]  # (tile, unseen copies), in tile order


@dataclass(frozen=True, slots=True)
class ReadyDiscard:
    """A discard that leaves the hand ready, and what it would then wait on."""

    tile: int
    waits: Waits

    @property
    def unseen(self) -> int:
        return sum(n for _, n in self.waits)


def ready_discards(game: Game, seat: int) -> tuple[ReadyDiscard, ...]:
    """On ``seat``'s turn, each legal discard (one per kind) after which the hand is ready, in tile
    order, with its waits. Empty when it is not ``seat``'s turn to discard or no discard keeps the
    hand ready. The discarded tile goes to the river, where it stays seen: the unseen counts are
    those of now."""
    legal = game.legal_actions(seat)
    tiles = sorted({a.tile for a in legal if a.kind in (Kind.DISCARD, Kind.READY) and a.tile is not None})
    if not tiles:
        return ()
    counts = [0] * NUM_KINDS
    for tile in game.hand(seat):
        if tile < NUM_KINDS:
            counts[tile] += 1
    unseen: list[int] | None = None
    found = []
    for tile in tiles:
        counts[tile] -= 1
        ready_on = game.winning_tiles(counts)
        counts[tile] += 1
        if ready_on:
            if unseen is None:
                unseen = game.unseen_counts(seat)
            found.append(ReadyDiscard(tile, tuple((w, unseen[w]) for w in ready_on)))
    return tuple(found)
