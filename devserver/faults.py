"""Faults a test injects on purpose: 429s on chosen routes, which discord.py has to ride out."""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass, field

from aiohttp import web

from .ratelimits import too_many_requests


@dataclass
class RateLimitFault:
    """Answer the next `times` requests matching METHOD + route template with a 429."""

    method: str
    route: str  # e.g. "/channels/{channel_id}/messages"
    times: int = 1
    retry_after: float = 0.05
    hits: list[str] = field(default_factory=list)

    def matches(self, method: str, route: str) -> bool:
        return len(self.hits) < self.times and method == self.method.upper() and route == self.route

    def response(self, path: str) -> web.Response:
        """A per-route (not global) 429 the way Discord sends it: headers plus a JSON body."""
        self.hits.append(path)
        headers = {
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + self.retry_after:.3f}",
            "X-RateLimit-Reset-After": f"{self.retry_after:.3f}",
            "X-RateLimit-Bucket": f"devserver-fault-{zlib.crc32(self.route.encode()):08x}",
        }
        return too_many_requests(self.retry_after, headers)
