"""Where a table stands, as one value (review §4): what the host asks instead of reading the session's
flags (``closed``, ``paused_until``, ``blocked``, whether a hand is dealt, whether the match ended).

The stage is one of seven; a channel that refused a post (``blocked``) is an overlay, since a table may
lose a permission at any stage of play and its stage still says what follows once a post goes through.

    >>> Phase(Stage.PLAYING).table_wanted, Phase(Stage.PLAYING, blocked=True).table_wanted
    (True, False)
    >>> Phase(Stage.OVER).closed, Phase(Stage.OVER).gone, Phase(Stage.LOBBY).gone
    (False, True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Stage(Enum):
    LOBBY = "lobby"  # seats being taken
    DEALING = "dealing"  # the lobby has closed and no hand is at the table yet (or restored before one)
    PLAYING = "playing"  # a hand in play
    SETTLED = "settled"  # the hand at the table is over and the next is not dealt
    PAUSED = "paused"  # settled, everyone was away for the whole hand: the table waits for a Resume
    OVER = "over"  # the match has ended (its last hand settled), the table not yet closed
    CLOSED = "closed"  # nothing more happens here: ended, shut by its host, or stopped here (a shutdown)


_HAND_AT_THE_TABLE = (Stage.PLAYING, Stage.SETTLED, Stage.PAUSED)


@dataclass(frozen=True, slots=True)
class Phase:
    stage: Stage
    blocked: bool = False  # the channel refused a post: nothing moves until a probe goes through

    @property
    def closed(self) -> bool:
        """Nothing more happens at this table here."""
        return self.stage is Stage.CLOSED

    @property
    def paused(self) -> bool:
        return self.stage is Stage.PAUSED

    @property
    def gone(self) -> bool:
        """No match goes on at the table here (a lobby, a match over, a table closed): its table message
        takes no more posts."""
        return self.stage not in (Stage.DEALING, *_HAND_AT_THE_TABLE)

    @property
    def table_wanted(self) -> bool:
        """The channel should have this hand's table message now: a hand is at the table, the match goes
        on, and the channel takes posts."""
        return self.stage in _HAND_AT_THE_TABLE and not self.blocked

    @property
    def waits_for_probe(self) -> bool:
        """Posts wait for the channel's probe (or for nothing: the table is closed)."""
        return self.blocked or self.closed
