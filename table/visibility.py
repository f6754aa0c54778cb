"""Who may see what of a table, and when: the one rule every surface asks (DM, channel, spectators,
replay, export, review), so no surface decides on its own.

A viewer is a seat of the match (its player), the public (the table's channel, a spectator of a public
table, anyone else in the server) or a spectator of a delayed table. What each may see:

==========================  ===================  ================================  ==================
viewer, while played        the hand in play     finished hands, face up           key, seeds, walls
==========================  ===================  ================================  ==================
seat ``s``                  seat ``s``'s view    yes (replays, the sealed export)  no
the public                  the public view      no                                no
a delayed spectator         nothing              yes, once each is over            no
anyone, the match over      the last hand, over  yes                               yes
==========================  ===================  ================================  ==================

"Seat ``s``'s view" is :func:`engine.view.build_view`'s: its own tiles, every hand revealed once the
hand is over, and the other hands in a 眼牌 declarer's own view (the rule of that house rule); the waits
and ready discards it shows only where the table's hints are on. The match is over once it is played
to its end or the table has ended (closed by its host, abandoned): its deals are then revealed, the key
with them (engine.fairness), and everyone may see everything.

    >>> sight(Viewer.at(2), over=False)
    Sight(live=True, seat=2, finished_hands=True, secrets=False)
    >>> sight(PUBLIC, over=False).finished_hands
    False
    >>> sight(DELAYED, over=False).live
    False
    >>> sight(PUBLIC, over=True).secrets
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum

from engine.game import Game
from engine.view import GameView


class Audience(Enum):
    SEAT = "seat"  # a player of the match
    PUBLIC = "public"  # the channel, a spectator of a public table, anyone in the server
    DELAYED = "delayed"  # a spectator of a delayed table


@dataclass(frozen=True, slots=True)
class Viewer:
    audience: Audience
    seat: int | None = None  # the seat, for a player

    @classmethod
    def at(cls, seat: int) -> Viewer:
        if not 0 <= seat <= 3:
            raise ValueError(f"a seat is 0-3, got {seat}")
        return cls(Audience.SEAT, seat)


PUBLIC = Viewer(Audience.PUBLIC)
DELAYED = Viewer(Audience.DELAYED)
SPECTATOR_MODES = ("public", "delayed", "off")


@dataclass(frozen=True, slots=True)
class Sight:
    """What one viewer may see of a table now."""

    live: bool  # the hand in play (from ``seat``, or the public view when ``seat`` is None)
    seat: int | None
    finished_hands: bool  # the match's finished hands face up: replays, reveals, the match log
    secrets: bool  # the match key, every hand's seed and wall: only once the match is over


def sight(viewer: Viewer, *, over: bool) -> Sight:
    """What ``viewer`` may see of a table whose match is ``over`` or still being played."""
    if over:  # the last hand too is over: every view of it has every hand revealed
        return Sight(live=True, seat=viewer.seat, finished_hands=True, secrets=True)
    if viewer.audience is Audience.SEAT:
        return Sight(live=True, seat=viewer.seat, finished_hands=True, secrets=False)
    if viewer.audience is Audience.DELAYED:
        return Sight(live=False, seat=None, finished_hands=True, secrets=False)
    return Sight(live=True, seat=None, finished_hands=False, secrets=False)


def spectator(mode: str) -> Viewer | None:
    """The viewer a spectator of a table with spectator ``mode`` is (None: ``off``, no spectators)."""
    if mode not in SPECTATOR_MODES:
        raise ValueError(f"spectators is one of {SPECTATOR_MODES}, got {mode!r}")
    return {"public": PUBLIC, "delayed": DELAYED}.get(mode)


def viewer_of(user_id: int, users_by_seat: Sequence[int | None]) -> Viewer:
    """The viewer a person is at a table whose seats hold ``users_by_seat`` (None for an AI seat)."""
    for seat, user in enumerate(users_by_seat):
        if user is not None and user == user_id:
            return Viewer.at(seat)
    return PUBLIC


def live_view(game: Game, seen: Sight, *, hints: bool = True) -> GameView | None:
    """The hand in play as ``seen`` allows (None: nothing of it). Without the table's hints a seat's
    view keeps no waits, so neither its picture nor its words can name them."""
    if not seen.live:
        return None
    view = game.view(seen.seat)
    if seen.seat is not None and not hints and view.waits:
        view = replace(view, waits=())
    return view
