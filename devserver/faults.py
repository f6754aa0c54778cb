"""Faults a test injects on purpose: 429s on chosen routes, which discord.py has to ride out."""

from __future__ import annotations

import json
import time
import zlib
from dataclasses import dataclass, field

from aiohttp import web


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
        body = {"message": "You are being rate limited.", "retry_after": self.retry_after, "global": False}
        headers = {
            "Content-Type": "application/json",
            "Retry-After": f"{self.retry_after:g}",
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + self.retry_after:.3f}",
            "X-RateLimit-Reset-After": f"{self.retry_after:.3f}",
            "X-RateLimit-Bucket": f"devserver-{zlib.crc32(self.route.encode()):08x}",
            "X-RateLimit-Scope": "user",
            "Via": "1.1 google",  # discord.py treats a 429 without Via as a Cloudflare ban
        }
        return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)
