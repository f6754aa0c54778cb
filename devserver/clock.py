"""The server's one clock: real monotonic time plus whatever a test skipped with advance().

Message age, interaction deadlines and token lifetimes, and rate-limit windows all read it, so a test can age a
message past the one-hour edit cap, or expire a token, without sleeping.
"""

from __future__ import annotations

import time


class Clock:
    """Monotonic seconds that a test can push forward (never back)."""

    def __init__(self) -> None:
        self.skipped = 0.0

    def now(self) -> float:
        return time.monotonic() + self.skipped

    def wall(self, at: float) -> float:
        """Real epoch seconds when the instant `at` of this clock comes (for X-RateLimit-Reset)."""
        return time.time() + (at - self.now())

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        self.skipped += seconds
