"""Discord's delays, drawn from Config.latency: REST round trips, gateway deliveries, uploads by size,
and the 401/403/429 count Discord's edge bans an IP for (10,000 in 10 minutes)."""

from __future__ import annotations

import random
import time
from collections import deque

from .config import Latency

INVALID_STATUSES = (401, 403, 429)
BAN_WINDOW = 600.0  # seconds
BAN_LIMIT = 10_000  # invalid requests per BAN_WINDOW before Cloudflare bans the IP


class Delays:
    """Seeded draws, so a run's delays repeat; zero everywhere while the model is off."""

    def __init__(self, config: Latency) -> None:
        self.config = config
        self._rng = random.Random(config.seed)

    def _draw(self, median_ms: float) -> float:
        c = self.config
        ms = median_ms + self._rng.uniform(-c.jitter_ms, c.jitter_ms)
        if self._rng.random() < c.tail_chance:
            ms += self._rng.uniform(0, c.tail_ms)
        return max(0.0, ms) / 1000

    def rest(self, body_bytes: int = 0) -> tuple[float, float]:
        """(before, after) the handler: half the round trip plus the upload, then the other half."""
        if not self.config.enabled:
            return 0.0, 0.0
        trip = self._draw(self.config.rest_ms)
        return trip / 2 + body_bytes / self.config.upload_bytes_per_s, trip / 2

    def gateway(self) -> float:
        return self._draw(self.config.gateway_ms) if self.config.enabled else 0.0

    def interaction(self) -> float:
        """Seconds from an interaction's creation to its delivery to the bot."""
        if not self.config.enabled:
            return 0.0
        window = self.config.interaction_delivery
        return self._rng.uniform(*window) if window is not None else self.gateway()


class InvalidRequests:
    """401, 403 and 429 answers the bot got, for the per-10-minutes figure Discord bans at."""

    def __init__(self) -> None:
        self.times: deque[float] = deque()
        self.total = 0
        self.worst = 0  # the most in any BAN_WINDOW so far

    def record(self, status: int) -> None:
        if status not in INVALID_STATUSES:
            return
        now = time.monotonic()
        self.times.append(now)
        self.total += 1
        while self.times and now - self.times[0] > BAN_WINDOW:
            self.times.popleft()
        self.worst = max(self.worst, len(self.times))

    @property
    def banned(self) -> bool:
        return self.worst >= BAN_LIMIT
