"""How far this host's clock is from Discord's, measured from the ``Date`` header of Discord's REST replies.

Discord times an interaction's 3 seconds by its own clock, and the bot reads an interaction's age as its
own clock minus the snowflake's time. A host whose clock runs 2.75 s ahead (a VM or container without
NTP) would find every click too old to answer. Each reply tells the time at Discord to the second: the
reply was made at some instant ``T`` in ``[Date, Date + 1)``, between the moment the request left here
(``sent``) and the moment the reply arrived (``received``). So the host's lead ``skew`` (its clock minus
Discord's) lies in ``(sent - Date - 1, received - Date]``; every reply narrows the interval, and its
lower end is a lead the host certainly has. Ages are read with that lower end taken off: never younger
than they are (answers.py defers rather than miss the deadline).

    >>> clock = DiscordClock()
    >>> clock.observe(sent=1000.9, received=1001.0, date=997.0)   # the host is about 3 s ahead
    >>> clock.observe(sent=1004.9, received=1005.0, date=1002.0)
    >>> round(clock.lead, 2), round(clock.upper, 2)
    (2.9, 3.0)
"""

from __future__ import annotations

import datetime
import email.utils
import logging
import time
import types
from typing import Any

import aiohttp

log = logging.getLogger(__name__)

WORTH_SAYING = 1.0  # a lead (or lag) of at least this many seconds is logged as a warning
NARROW = 1.2  # the lead is told once known this closely (with its bounds: replies give it to the second)
AGREEING = 5  # replies that agree with each other but not with the interval: the host's clock was set


class DiscordClock:
    """The host's lead over Discord's clock, as an interval that every reply narrows."""

    def __init__(self) -> None:
        self.lower: float | None = None  # the host's clock is at least this far ahead of Discord's
        self.upper: float | None = None  # and at most this far
        # replies that disagree with the interval (the host's clock was set, or one odd reply): they take
        # its place once ``AGREEING`` of them agree among themselves
        self.other: tuple[float, float, int] | None = None
        self.told: float | None = None  # the lead last logged

    @property
    def lead(self) -> float:
        """Seconds the host's clock is certainly ahead of Discord's (0 until a reply says more)."""
        return self.lower if self.lower is not None and self.lower > 0 else 0.0

    def observe(self, *, sent: float, received: float, date: float) -> None:
        """One reply: sent and received by this host's wall clock, made at ``date`` (whole seconds) by Discord's."""
        low, high = sent - date - 1.0, received - date
        if self.lower is None or self.upper is None:
            self.lower, self.upper = low, high
        elif low <= self.upper and high >= self.lower:
            self.lower, self.upper = max(self.lower, low), min(self.upper, high)
        else:
            other = self.other
            if other is None or low > other[1] or high < other[0]:
                self.other = (low, high, 1)
            else:
                self.other = (max(other[0], low), min(other[1], high), other[2] + 1)
            if self.other[2] < AGREEING:
                return
            self.lower, self.upper, _count = self.other
        self.other = None
        self._tell()

    def _tell(self) -> None:
        assert self.lower is not None and self.upper is not None
        if self.upper - self.lower > NARROW:  # not yet narrow enough to say (a few replies more)
            return
        middle = (self.lower + self.upper) / 2
        if self.told is not None and abs(middle - self.told) < WORTH_SAYING:  # said already
            return
        first = self.told is None
        self.told = middle
        if abs(middle) >= WORTH_SAYING:
            direction = "ahead of" if middle > 0 else "behind"
            log.warning(
                "this host's clock is about %.1f s %s Discord's (%.1f to %.1f s, measured from its Date headers): "
                "set it right (NTP); interactions are timed by Discord's clock meanwhile",
                abs(middle), direction, self.lower, self.upper,
            )
        elif first:
            log.info("this host's clock is within %.1f s of Discord's", max(abs(self.lower), abs(self.upper)))

    def utcnow(self) -> datetime.datetime:
        """Now by Discord's clock, or a little later: an age read from it is never too young."""
        return datetime.datetime.now(datetime.UTC) - datetime.timedelta(seconds=self.lead)

    def trace(self) -> aiohttp.TraceConfig:
        """For discord.py's ``http_trace``: every REST reply's ``Date`` narrows the interval."""
        config = aiohttp.TraceConfig()

        async def started(session: Any, context: types.SimpleNamespace, params: Any) -> None:
            context.sent = time.time()

        async def ended(session: Any, context: types.SimpleNamespace, params: aiohttp.TraceRequestEndParams) -> None:
            header = params.response.headers.get("Date")
            sent = getattr(context, "sent", None)
            if header is None or sent is None:
                return
            try:
                date = email.utils.parsedate_to_datetime(header).timestamp()
            except (TypeError, ValueError):
                return
            self.observe(sent=sent, received=time.time(), date=date)

        config.on_request_start.append(started)
        config.on_request_end.append(ended)
        return config


def discord_now(client: object) -> datetime.datetime:
    """Now by Discord's clock as far as the bot (``client``) knows it; the host's clock when it has no measure.
    (Read by its method, not its class: discord.py re-imports an extension's modules when it is reloaded,
    while the bot keeps the clock it made.)"""
    clock = getattr(client, "discord_clock", None)
    return clock.utcnow() if clock is not None else datetime.datetime.now(datetime.UTC)
