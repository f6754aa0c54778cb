"""Deterministic Discord snowflakes, so every test run sees the same ids in the same order."""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable

DISCORD_EPOCH_MS = 1_420_070_400_000
# A fixed wall-clock origin: ids (and the timestamps derived from them) never depend on the real clock.
BASE_MS = 1_735_689_600_000  # 2025-01-01T00:00:00Z


class Snowflakes:
    """Hands out increasing snowflakes, one millisecond apart, starting at a fixed instant.

    `skipped` is the time a test jumped over (Clock.advance): ids made after the jump carry a later timestamp.
    """

    def __init__(
        self,
        base_ms: int = BASE_MS,
        skipped: Callable[[], float] = lambda: 0.0,
        *,
        real_time: bool = False,
        offset: float = 0.0,
    ) -> None:
        self._base_ms = base_ms
        self._count = 0
        self._skipped = skipped
        self._real_time = real_time
        self._offset = offset  # seconds Discord's clock is ahead of this host's (Config.clock_offset)
        self._last_ms = 0
        self._increment = 0

    def next(self) -> int:
        if self._real_time:
            return self._next_real()
        self._count += 1
        return (self._base_ms + self._count + int(self._skipped() * 1000) - DISCORD_EPOCH_MS) << 22

    def _next_real(self) -> int:
        """Discord's layout: the wall-clock millisecond, then a 12-bit increment within it (Config.real_time_ids)."""
        ms = int((time.time() + self._offset + self._skipped()) * 1000)
        if ms <= self._last_ms:
            self._increment += 1
            if self._increment >= 4096:
                self._last_ms, self._increment = self._last_ms + 1, 0
        else:
            self._last_ms, self._increment = ms, 0
        return ((self._last_ms - DISCORD_EPOCH_MS) << 22) | self._increment

    @staticmethod
    def timestamp(snowflake: int) -> str:
        """ISO-8601 time of a snowflake, as Discord writes message timestamps."""
        ms = (snowflake >> 22) + DISCORD_EPOCH_MS
        when = datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC)
        return when.isoformat()
