"""Session starts as Discord limits them (API docs, Gateway → Identifying, Rate Limiting, Sharding):

- ``max_concurrency`` IDENTIFYs per 5 seconds, one per rate-limit bucket ``shard_id % max_concurrency``, for
  the whole application however many processes it runs; an IDENTIFY past it is answered op 9 Invalid Session
  (``d: false``) and starts no session.
- 1,000 IDENTIFYs a day (RESUMEs do not count): past them Discord ends every session and resets the token
  (here: every socket closed 4004, and an ``identify_limit`` violation that fails the test).
- A session that would hold more than 2,500 guilds (2,500 or more unsharded) is closed 4011 Sharding required;
  ``GET /gateway/bot`` recommends a shard count (about one per 1,000 guilds) and reports what is left of the
  day's session starts.

Every IDENTIFY with the right token counts against the day, refused or not. The 5-second window runs from each
accepted IDENTIFY (a refused one started nothing). Windows are read on the server's clock.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .clock import Clock
    from .config import Config

SHARDING_REQUIRED = 4011
GUILDS_PER_SHARD = 2500  # the most one session may hold
GUILDS_PER_RECOMMENDED_SHARD = 1000
DAY = 24 * 3600.0


class Start(enum.Enum):
    READY = "ready"  # a session starts
    TOO_SOON = "too soon"  # op 9: the bucket had an IDENTIFY within the window
    SHARDING_REQUIRED = "sharding required"  # close 4011
    LIMIT_SPENT = "limit spent"  # the day's IDENTIFYs are spent: the token is reset


@dataclass(frozen=True, slots=True)
class Identify:
    """One IDENTIFY the stand-in received, and what came of it."""

    at: float
    shard: tuple[int, int] | None  # as sent; None: unsharded
    start: Start

    @property
    def shard_id(self) -> int:
        return 0 if self.shard is None else self.shard[0]


@dataclass
class SessionStarts:
    config: Config
    clock: Clock
    identifies: list[Identify] = field(default_factory=list)
    _last: dict[int, float] = field(default_factory=dict)  # bucket → its last accepted IDENTIFY

    @property
    def recommended_shards(self) -> int:
        return max(self.config.shards, math.ceil(self.config.guilds / GUILDS_PER_RECOMMENDED_SHARD))

    def refused(self, start: Start = Start.TOO_SOON) -> list[Identify]:
        return [identify for identify in self.identifies if identify.start is start]

    def limit_payload(self) -> dict[str, int]:
        """``session_start_limit`` of ``GET /gateway/bot``."""
        first = self.identifies[0].at if self.identifies else None
        reset_after = 0 if first is None else max(0, int((first + DAY - self.clock.now()) * 1000))
        return {
            "total": self.config.identify_limit,
            "remaining": max(0, self.config.identify_limit - len(self.identifies)),
            "reset_after": reset_after,
            "max_concurrency": self.config.max_concurrency,
        }

    def identify(self, shard: tuple[int, int] | None) -> Start:
        """Judge one IDENTIFY (its token already checked) and remember it."""
        now = self.clock.now()
        start = self._judge(shard, now)
        self.identifies.append(Identify(now, shard, start))
        if start is Start.READY:
            self._last[(0 if shard is None else shard[0]) % self.config.max_concurrency] = now
        return start

    def _judge(self, shard: tuple[int, int] | None, now: float) -> Start:
        if len(self.identifies) >= self.config.identify_limit:
            return Start.LIMIT_SPENT
        guilds = self.config.guilds
        if shard is None and guilds >= GUILDS_PER_SHARD:
            return Start.SHARDING_REQUIRED
        if shard is not None and math.ceil(guilds / max(1, shard[1])) > GUILDS_PER_SHARD:
            return Start.SHARDING_REQUIRED
        last = self._last.get((0 if shard is None else shard[0]) % self.config.max_concurrency)
        if last is not None and now - last < self.config.identify_window:
            return Start.TOO_SOON
        return Start.READY
