"""A seam for watching tables from outside (the benchmarks): the host calls its observer on every batch
of effects it carries out and on every prompt Discord acknowledged, so nothing needs patching in.

The observer only looks: what it is handed is the host's, not to be changed. ``stores`` False turns the
tables' storage writes off (bench/tables.py measures what storage costs a click).
"""

from __future__ import annotations

from collections.abc import Sequence

from table.effects import Effect
from table.session import TableSession


class TableObserver:
    """Watches every table of a bot; the default watches nothing."""

    stores = True  # False: the tables' journals drop their writes (a benchmark's storage-off run)

    def carried(self, session: TableSession, effects: Sequence[Effect]) -> None:
        """The host of ``session`` carried out ``effects`` (the lock held), in order."""

    def delivered(self, session: TableSession, seat: int, version: int) -> None:
        """Discord acknowledged a message showing ``seat`` its prompt at ``version``."""


NO_OBSERVER = TableObserver()


def observer_of(bot: object) -> TableObserver:
    """The observer a bot was started with (``MahjongBot(observer=...)``: the benchmarks), or one that
    watches nothing."""
    return getattr(bot, "table_observer", None) or NO_OBSERVER
