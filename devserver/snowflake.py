"""Deterministic Discord snowflakes, so every test run sees the same ids in the same order."""

from __future__ import annotations

import datetime
from collections.abc import Callable

DISCORD_EPOCH_MS = 1_420_070_400_000
# A fixed wall-clock origin: ids (and the timestamps derived from them) never depend on the real clock.
BASE_MS = 1_735_689_600_000  # 2025-01-01T00:00:00Z


class Snowflakes:
    """Hands out increasing snowflakes, one millisecond apart, starting at a fixed instant.

    `skipped` is the time a test jumped over (Clock.advance): ids made after the jump carry a later timestamp.
    """

    def __init__(self, base_ms: int = BASE_MS, skipped: Callable[[], float] = lambda: 0.0) -> None:
        self._base_ms = base_ms
        self._count = 0
        self._skipped = skipped

    def next(self) -> int:
        self._count += 1
        return (self._base_ms + self._count + int(self._skipped() * 1000) - DISCORD_EPOCH_MS) << 22

    @staticmethod
    def timestamp(snowflake: int) -> str:
        """ISO-8601 time of a snowflake, as Discord writes message timestamps."""
        ms = (snowflake >> 22) + DISCORD_EPOCH_MS
        when = datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC)
        return when.isoformat()
