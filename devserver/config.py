"""Knobs of the stand-in: Discord's real numbers by default, shortened by tests to keep them fast."""

from __future__ import annotations

from dataclasses import dataclass, field

MiB = 1024 * 1024


@dataclass(frozen=True)
class Window:
    """At most `limit` requests per `seconds` (Discord's seconds: RateLimits.time_scale shrinks them)."""

    limit: int
    seconds: float


@dataclass(frozen=True)
class RateLimits:
    """Discord's rate limits, on by default. Published or observed numbers; see devserver/README.md.

    Each window is a bucket per major parameter (channel, guild, or interaction token) that refills in full
    when its window ends, as Discord's X-RateLimit-* headers describe. time_scale multiplies every window
    (0.1 turns "5 per 5 s" into "5 per 0.5 s") so tests keep the counts without the waiting.
    """

    enabled: bool = True
    time_scale: float = 1.0
    global_limit: Window = Window(50, 1.0)  # all bot-token routes together (webhooks are exempt)
    message_create: Window = Window(5, 5.0)  # POST /channels/{id}/messages, per channel
    message_edit: Window = Window(5, 5.0)  # PATCH /channels/{id}/messages/{id}, per channel
    message_delete: Window = Window(5, 1.0)  # DELETE /channels/{id}/messages/{id}, per channel
    webhook: Window = Window(5, 2.0)  # follow-ups and their edits, per interaction token
    other: Window = Window(10, 1.0)  # any other route, per route and major parameter (unpublished)
    dm_open: Window = Window(10, 10.0)  # new DM channels; over it: 403 40003 (unpublished)
    old_message_edit: Window = Window(3, 6.0)  # edits of messages past old_message_age, per channel: 30046


@dataclass(frozen=True)
class Latency:
    """How long Discord takes, off by default so tests stay fast (issue 21: a click must be answered
    within 3 s whatever the network does). REST round trips and gateway deliveries get a median delay
    plus jitter and, now and then, a long tail; uploads take time by size. ``interaction_delivery``
    (seconds after creation, low..high) delivers every interaction that late, as a slow gateway or a
    skewed clock does: the bot's own answer then has what little is left of the 3 s."""

    enabled: bool = False
    rest_ms: float = 60.0  # median added to each REST round trip (half before the handler, half after)
    gateway_ms: float = 40.0  # median added to each gateway event the bot receives (interactions too)
    jitter_ms: float = 30.0  # uniform +- around the median
    tail_chance: float = 0.02  # how often a request or event takes the long tail
    tail_ms: float = 900.0  # the long tail's extra delay (uniform 0..tail_ms)
    upload_bytes_per_s: float = 1_000_000.0  # request bodies (uploads) take size / this
    interaction_delivery: tuple[float, float] | None = None  # e.g. (2.5, 3.5): every interaction that late
    seed: int = 21


@dataclass
class Config:
    token: str = "devserver-bot-token"
    response_deadline: float = 3.0  # seconds to the initial interaction response
    token_lifetime: float = 15 * 60.0  # seconds an interaction token accepts follow-ups and edits
    attachment_size_limit: int = 10 * MiB  # bytes of files per message (sent as attachment_size_limit)
    heartbeat_interval_ms: int = 41_250
    wait_timeout: float = 5.0  # default for the waiting helpers
    rate_limits: RateLimits = field(default_factory=RateLimits)
    old_message_age: float = 3600.0  # seconds after which edits count against rate_limits.old_message_edit
    latency: Latency = field(default_factory=Latency)
    # snowflakes from the real wall clock (as Discord's are), so interaction.created_at gives a real age;
    # off: a fixed 2025 base, the same ids every run
    real_time_ids: bool = False
    # seconds Discord's clock is ahead of the bot's host (negative: the host runs ahead, as a VM without NTP
    # does): snowflakes made from the wall clock (real_time_ids) and every REST reply's Date header say so
    clock_offset: float = 0.0
    shards: int = 1  # the shard count GET /gateway/bot recommends
    # session starts (devserver/identify.py): the bot is in `guilds` servers as Discord counts them (one is
    # simulated; the rest only count), so GET /gateway/bot recommends max(shards, ceil(guilds / 1000)) and a
    # session that would hold more than 2,500 gets close code 4011; one IDENTIFY per rate-limit bucket
    # (shard_id % max_concurrency) per identify_window seconds, op 9 past it; identify_limit a day
    guilds: int = 1
    max_concurrency: int = 1
    identify_window: float = 5.0
    identify_limit: int = 1000
    # request bodies checked against Discord's OpenAPI description (devserver/openapi): `openapi` violations
    openapi: bool = True
    # the app's Activity (devserver/oauth.py): its URL mapping's root (None: no Activity, LAUNCH_ACTIVITY is
    # refused), the app's OAuth2 client secret, and how long an authorization code may be exchanged
    activity_url: str | None = None
    client_secret: str = "devserver-client-secret"
    code_lifetime: float = 600.0
