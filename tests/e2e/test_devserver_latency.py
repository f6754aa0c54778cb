"""The stand-in's model of Discord's delays and of the 401/403/429 count it bans an IP for."""

from __future__ import annotations

import time

import aiohttp
import pytest

from devserver import Config, Latency
from devserver.latency import BAN_LIMIT, Delays, InvalidRequests
from devserver.snowflake import DISCORD_EPOCH_MS, Snowflakes


def test_latency_is_off_by_default_so_other_tests_stay_fast():
    delays = Delays(Config().latency)
    assert delays.rest(10_000_000) == (0.0, 0.0) and delays.gateway() == 0.0 and delays.interaction() == 0.0


def test_delays_have_jitter_a_long_tail_and_uploads_take_time_by_size():
    delays = Delays(Latency(enabled=True, rest_ms=60, jitter_ms=30, tail_chance=0.05, tail_ms=900))
    trips = [sum(delays.rest()) for _ in range(2000)]
    assert min(trips) >= 0.029 and len({round(t, 4) for t in trips}) > 100  # jitter
    assert max(trips) > 0.5 and sorted(trips)[int(0.9 * len(trips))] < 0.1  # a tail, not the usual
    before, _ = Delays(Latency(enabled=True, jitter_ms=0, upload_bytes_per_s=1_000_000)).rest(2_000_000)
    assert before >= 2.0
    late = Delays(Latency(enabled=True, interaction_delivery=(2.5, 3.5)))
    assert all(2.5 <= late.interaction() <= 3.5 for _ in range(100))


def test_real_time_snowflakes_carry_the_wall_clock_and_increase():
    ids = Snowflakes(real_time=True)
    made = [ids.next() for _ in range(5000)]
    assert made == sorted(made) and len(set(made)) == len(made)
    assert abs(((made[0] >> 22) + DISCORD_EPOCH_MS) / 1000 - time.time()) < 1.0


def test_the_ban_count_is_per_ten_minutes_of_401_403_429():
    count = InvalidRequests()
    for status in (200, 404, 401, 403, 429):
        count.record(status)
    assert count.total == 3 and not count.banned
    for _ in range(BAN_LIMIT):
        count.record(429)
    assert count.banned


@pytest.mark.devserver(latency=Latency(enabled=True, rest_ms=200, jitter_ms=0, tail_chance=0))
async def test_rest_latency_and_refused_requests_are_counted_and_reported(harness, devserver):
    async with aiohttp.ClientSession() as session:
        started = time.monotonic()
        async with session.get(f"{devserver.api_url}/users/@me") as reply:  # no token: 401
            assert reply.status == 401
        assert time.monotonic() - started >= 0.2
    assert devserver.invalid_requests.total == 1
    assert "1 401/403/429" in harness.invalid_requests()
