"""Discord's rate limits: a bucket per route group and major parameter, its headers, and 429s past them.

discord.py reads X-RateLimit-Remaining/-Reset-After on every response and waits by itself when a bucket is
empty, so a well-behaved bot is slowed, never refused; a 429 here means the bot ignored what it was told.
Two hidden limits (opening DMs, editing hour-old messages) send no headers and answer with their own codes.
"""

from __future__ import annotations

import json
import math
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field

from aiohttp import web

from .clock import Clock
from .config import RateLimits, Window

# Which named window a route falls in; every other rate-limited route gets the `other` window to itself.
NAMED_ROUTES = {
    ("POST", "/channels/{channel_id}/messages"): "message_create",
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): "message_edit",
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"): "message_delete",
    ("POST", "/webhooks/{application_id}/{token}"): "webhook",
    ("GET", "/webhooks/{application_id}/{token}/messages/{message_id}"): "webhook",
    ("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}"): "webhook",
    ("DELETE", "/webhooks/{application_id}/{token}/messages/{message_id}"): "webhook",
}
MAJOR_PARAMETERS = ("channel_id", "guild_id", "token")


def _ms_ceil(seconds: float) -> float:
    """Round up to the millisecond: a bot told to wait never wakes before the bucket refills."""
    return math.ceil(max(seconds, 0.0) * 1000) / 1000


@dataclass
class Bucket:
    """One window of one route group for one major parameter; refills in full when the window ends."""

    name: str
    major: str
    window: Window
    scale: float
    used: int = 0
    resets_at: float | None = None
    accepted: int = 0  # requests let through (what tests count)
    refused: int = 0

    @property
    def hash(self) -> str:
        return f"devserver-{zlib.crc32(self.name.encode()):08x}"

    def take(self, now: float) -> float | None:
        """Count one request; None if allowed, else the seconds until the window refills."""
        if self.resets_at is None or now >= self.resets_at:
            self.used, self.resets_at = 0, now + self.window.seconds * self.scale
        if self.used >= self.window.limit:
            self.refused += 1
            return self.resets_at - now
        self.used += 1
        self.accepted += 1
        return None

    def headers(self, clock: Clock) -> dict[str, str]:
        assert self.resets_at is not None
        after = _ms_ceil(self.resets_at - clock.now())
        return {
            "X-RateLimit-Limit": str(self.window.limit),
            "X-RateLimit-Remaining": str(self.window.limit - self.used),
            "X-RateLimit-Reset": f"{clock.wall(self.resets_at):.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": self.hash,
        }


def too_many_requests(
    retry_after: float, headers: Mapping[str, str], *, is_global: bool = False
) -> web.Response:
    """A 429 the way Discord sends it: JSON body, Retry-After, and Via (without Via discord.py assumes a ban)."""
    retry_after = _ms_ceil(retry_after)
    body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global}
    out = {
        "Content-Type": "application/json",
        "Retry-After": str(math.ceil(retry_after)),
        "X-RateLimit-Scope": "global" if is_global else "user",
        "Via": "1.1 google",
        **headers,
    }
    if is_global:
        out["X-RateLimit-Global"] = "true"
    return web.Response(status=429, body=json.dumps(body).encode(), headers=out)


@dataclass
class Admission:
    """The limiter's answer for one request: the 429 to send instead, or headers to add to the reply."""

    refused: web.Response | None = None
    rule: str = ""  # the violation a refusal records: rate_limited or global_rate_limit
    reason: str = ""
    headers: dict[str, str] = field(default_factory=dict)


class RateLimiter:
    """All buckets of one server, with request counts per bucket for tests."""

    def __init__(self, limits: RateLimits, clock: Clock) -> None:
        self.limits = limits
        self.clock = clock
        self.buckets: dict[tuple[str, str], Bucket] = {}
        self._global = Bucket("global", "", limits.global_limit, limits.time_scale)

    def _bucket(self, name: str, major: str, window: Window) -> Bucket:
        key = (name, major)
        if key not in self.buckets:
            self.buckets[key] = Bucket(name, major, window, self.limits.time_scale)
        return self.buckets[key]

    @staticmethod
    def bucket_name(method: str, route: str) -> str:
        return NAMED_ROUTES.get((method, route), f"{method} {route}")

    def admit(self, method: str, route: str, params: Mapping[str, str]) -> Admission:
        """Count a request against the global limit and its route bucket (interaction callbacks are free)."""
        if route.startswith("/interactions/"):
            return Admission()
        name = self.bucket_name(method, route)
        major = "+".join(params[k] for k in MAJOR_PARAMETERS if k in params)
        window: Window = getattr(self.limits, name) if name in NAMED_ROUTES.values() else self.limits.other
        bucket = self._bucket(name, major, window)
        now = self.clock.now()
        if not self.limits.enabled:
            bucket.accepted += 1
            return Admission()
        if not route.startswith("/webhooks/"):  # webhooks are not bound to the global limit
            wait = self._global.take(now)
            if wait is not None:
                return Admission(
                    too_many_requests(wait, {}, is_global=True),
                    "global_rate_limit",
                    f"global limit {self._global.window}",
                )
        wait = bucket.take(now)
        headers = bucket.headers(self.clock)
        if wait is not None:
            return Admission(
                too_many_requests(wait, headers), "rate_limited", f"bucket {name} [{major}] {bucket.window}"
            )
        return Admission(headers=headers)

    def hidden(self, name: str, major: str) -> float | None:
        """Count one request against a limit Discord does not announce; seconds to wait if over it."""
        if not self.limits.enabled:
            return None
        return self._bucket(name, major, getattr(self.limits, name)).take(self.clock.now())

    def count(self, name: str, major: str | None = None) -> int:
        """Requests let through in bucket `name` (for one major parameter, or all of them)."""
        return sum(b.accepted for (n, m), b in self.buckets.items() if n == name and major in (None, m))
