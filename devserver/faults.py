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


@dataclass
class ErrorFault:
    """Answer the next `times` requests matching METHOD + route template with an error, as Discord does
    in an incident (5xx), when it refuses (403 40003 "opening DMs too fast"), or by dropping the
    connection (``status=0``): the bot has to tell a transient failure from a final one."""

    method: str
    route: str
    status: int = 503
    code: int = 0
    times: int = 1
    hits: list[str] = field(default_factory=list)

    def matches(self, method: str, route: str) -> bool:
        return len(self.hits) < self.times and method == self.method.upper() and route == self.route

    def response(self, path: str, request: web.Request | None = None) -> web.Response:
        self.hits.append(path)
        if self.status == 0 and request is not None and request.transport is not None:
            request.transport.abort()  # the connection drops before any answer
        body = {"message": f"{self.status}: injected by the test", "code": self.code}
        return web.json_response(body, status=self.status or 500)
