"""The table as a pure state machine (sans-I/O, as h11 is for HTTP): ``TableSession`` decides, a host
carries out what it asks.

Every entry point of a session takes the time as an argument and returns a list of effects
(``table.effects``): show the table, show a seat its hand, store these writes, post a notice, wake me
at T. What each message shows, the host asks for with ``screen(who)`` (``table.screens``): plain values
it turns into words, buttons and pictures. The host (``cogs/mahjong/runner.py``) owns the Discord
messages, the DM channels, the journal and the one lock per table; it never decides a rule. This package imports ``engine`` (and the pure
``ranking`` names) only: no discord, no asyncio, no I/O, so every table rule is unit-tested with a
fake clock.
"""

from .effects import Effect
from .lobby import Seat, TableError, TablePhase, TableSettings, TableState
from .session import TableSession
from .timing import Timing

__all__ = ["Effect", "Seat", "TableError", "TablePhase", "TableSession", "TableSettings", "TableState", "Timing"]
