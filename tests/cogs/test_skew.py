"""The host's lead over Discord's clock, from the Date header of Discord's replies (cogs/mahjong/skew.py)."""

from __future__ import annotations

import logging

from cogs.mahjong.skew import AGREEING, DiscordClock


def replies(clock: DiscordClock, lead: float, start: float, count: int) -> None:
    """``count`` replies a tenth of a second apart, each made 20 ms after it was sent, by a host ``lead``
    seconds ahead of Discord."""
    for n in range(count):
        sent = start + n * 0.1 + 0.013
        made = sent + 0.02 - lead  # Discord's clock when it made the reply
        clock.observe(sent=sent, received=sent + 0.04, date=float(int(made)))


def test_a_host_three_seconds_ahead_is_measured_to_a_lead_it_certainly_has_and_said_once(caplog) -> None:
    clock = DiscordClock()
    with caplog.at_level(logging.INFO, logger="cogs.mahjong.skew"):
        replies(clock, 3.0, 1_000_000.0, 30)
    assert 2.9 < clock.lead <= 3.0 < clock.upper  # type: ignore[operator]
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and " s ahead of Discord's" in warnings[0].getMessage()


def test_a_true_clock_reads_no_lead_and_is_not_warned_about(caplog) -> None:
    clock = DiscordClock()
    with caplog.at_level(logging.INFO, logger="cogs.mahjong.skew"):
        replies(clock, 0.0, 1_000_000.0, 30)
    assert clock.lead == 0.0
    assert not [r for r in caplog.records if r.levelno == logging.WARNING]


def test_one_odd_reply_changes_nothing_and_a_clock_set_right_is_followed() -> None:
    clock = DiscordClock()
    replies(clock, 3.0, 1_000_000.0, 30)
    before = clock.lead
    clock.observe(sent=1_000_010.0, received=1_000_010.05, date=1_000_010.0)  # a proxy's own Date
    assert clock.lead == before
    replies(clock, 0.0, 1_000_020.0, AGREEING)  # NTP set the host's clock: replies agree on a new lead
    assert clock.lead == 0.0
