"""Spectators through the stand-in: at a public table a spectator's DMs hold the public table only
(every picture drawn from the public view, no buttons); at a delayed table, over a whole match of
every rule set, nothing of a hand in play reaches a spectator and each hand comes face up once it is
over; players cannot watch their own table, and a table with spectators off refuses them."""

from __future__ import annotations

import asyncio

import pytest

import cogs.mahjong.watch as watch
from devserver.config import RateLimits
from devserver.people import Person

from .tablebot import PrivacyWatch, build_bot, table_runner

QUICK = RateLimits(time_scale=0.02)


async def start_table(devserver, bot, **create):
    alice = devserver.member("alice")
    lobby = await (await alice.slash("mahjong create", rounds=1, **create)).message()
    await (await alice.click(lobby, "Start")).response()
    runner = table_runner(bot, devserver)
    await devserver.recorder.wait_until(lambda: runner.game is not None, 10, lambda: "a hand dealt")
    await devserver.wait_for_message(  # and shown: the table message is posted once the hand is dealt
        channel="general", predicate=lambda m: bool(m.attachments) and m.attachments[0].filename == "table.png"
    )
    return alice, runner


@pytest.mark.parametrize("rules", ["taiwan16", "taiwan13", "hongkong", "guangdong"])
@pytest.mark.devserver(members=("alice", "bob"), rate_limits=QUICK)
async def test_a_delayed_spectator_sees_no_hand_in_play_and_each_hand_face_up_once_it_is_over(
    harness, devserver, monkeypatch, rules
):
    privacy = PrivacyWatch(monkeypatch)
    reveals: list[tuple[int, int, int | None, bool]] = []  # (hand, hands over, latest hand dealt, match over)
    reveal = watch.hand_reveal

    def recorded(match, number, names):
        runner = table["runner"]
        playing = runner.game.hand_number if runner.game is not None else None  # the latest hand dealt
        reveals.append((number, len(match.history), playing, match.is_over))
        return reveal(match, number, names)

    monkeypatch.setattr(watch, "hand_reveal", recorded)
    bot = await harness.start(build_bot(seed=21))
    alice, runner = await start_table(devserver, bot, rules=rules, spectators="delayed")
    table = {"runner": runner}
    bob = devserver.member("bob")

    refused = await (await alice.slash("mahjong watch")).message()
    assert "never watch their own table" in refused.content and refused.ephemeral_to == alice.id
    watching = await (await bob.slash("mahjong watch")).message()
    assert watching.ephemeral_to == bob.id and "face up once it is over" in watching.content

    stop = asyncio.Event()
    person = Person(alice)
    play = asyncio.create_task(person.play(stop, timeout=30))
    await devserver.wait_for_message(
        channel="general",
        predicate=lambda m: any("Match over" in (e.get("title") or "") for e in m.embeds),
        timeout=150,
    )
    stop.set()
    await play
    hands = len(runner.match.history)
    await devserver.recorder.wait_until(
        lambda: len([m for m in devserver.recorder.seen_by(bob.id) if m.dm_with == bob.id and m.attachments
                     and m.attachments[0].filename.endswith(".gif")]) >= hands,
        30,
        lambda: f"bob shown all {hands} hands face up",
    )  # fmt: skip

    dms = [m for m in devserver.recorder.seen_by(bob.id) if m.dm_with == bob.id]
    gifs = [m for m in dms if m.attachments and m.attachments[0].filename.endswith(".gif")]
    assert len(gifs) == len(dms), [m.content[:80] for m in dms if m not in gifs]
    assert all(not m.components for m in dms)
    assert not [viewer for dm_with, _, viewer in privacy.shown if dm_with == bob.id]  # no picture of a hand in play
    seat_of = {who.user_id: seat for seat, who in enumerate(runner.seating.by_seat) if who.user_id}
    for dm_with, ephemeral_to, viewer in privacy.shown:  # and the players still only saw their own
        reader = dm_with or ephemeral_to
        assert viewer == ("None" if reader is None else str(seat_of[reader]))

    assert sorted(int(m.attachments[0].filename[5:-4]) for m in gifs) == list(range(1, hands + 1))
    for number, over, _, _ in reveals:  # face up only once the hand is over
        assert number <= over


@pytest.mark.devserver(members=("alice", "bob"), rate_limits=QUICK)
async def test_a_public_table_shows_no_hand_face_up_and_spectators_off_refuses(
    harness, devserver, monkeypatch
):
    bot = await harness.start(build_bot(seed=22))
    alice, runner = await start_table(devserver, bot)
    bob = devserver.member("bob")
    table = [
        m for m in devserver.channel_messages() if m.attachments and m.attachments[0].filename == "table.png"
    ][-1]
    watching = await (await bob.click(table, "👀 Watch")).message()  # the table message's button
    assert "the public table comes to your DMs" in watching.content and watching.ephemeral_to == bob.id
    await devserver.recorder.wait_until(
        lambda: any(m.dm_with == bob.id for m in devserver.recorder.seen_by(bob.id)),
        10,
        lambda: "bob's table DM",
    )
    stop = asyncio.Event()
    play = asyncio.create_task(Person(alice).play(stop, timeout=30))
    await devserver.recorder.wait_until(
        lambda: len(runner.match.history) >= 2, 120, lambda: "two hands played"
    )
    stopped = await (await bob.slash("mahjong watch")).message()
    assert "stopped watching" in stopped.content
    stop.set()
    await play
    dms = [m for m in devserver.recorder.seen_by(bob.id) if m.dm_with == bob.id]
    assert dms and not any(a.filename.endswith(".gif") for m in dms for a in m.attachments)

    await (await alice.slash("mahjong close")).response()
    await (await alice.slash("mahjong create", rounds=1, spectators="off")).message()
    refused = await (await bob.slash("mahjong watch")).message()
    assert "takes no spectators" in refused.content


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_the_lobby_says_when_spectators_are_delayed_or_off(harness, devserver):
    await harness.start(build_bot(seed=23))
    alice = devserver.member("alice")
    lobby = await (await alice.slash("mahjong create", spectators="delayed")).message()
    assert "delayed (every hand face up once over)" in lobby.embeds[0]["fields"][1]["value"]
    await (await alice.slash("mahjong close")).response()
    off = await (await alice.slash("mahjong create", spectators="off")).message()
    assert "no spectators" in off.embeds[0]["fields"][1]["value"]
    await (await alice.slash("mahjong close")).response()
    plain = (await (await alice.slash("mahjong create")).message()).embeds[0]["fields"][1]["value"]
    assert "delayed" not in plain and "no spectators" not in plain


@pytest.mark.devserver(members=("alice", "bob"), rate_limits=QUICK)
async def test_the_spectators_setting_survives_a_restart(harness, devserver, tmp_path):
    database = str(tmp_path / "mahjong.sqlite3")
    first = await harness.start(build_bot(seed=24, database=database))
    alice, bob = devserver.member("alice"), devserver.member("bob")
    await (await alice.slash("mahjong create", spectators="off")).message()
    await harness.stop(first)
    second = await harness.start(build_bot(seed=24, database=database))
    runner = table_runner(second, devserver)
    assert runner.state.settings.spectators == "off"
    lobby = await (await alice.slash("mahjong table")).message()
    await (await alice.click(lobby, "Start")).response()
    await devserver.recorder.wait_until(lambda: runner.game is not None, 10, lambda: "a hand dealt")
    refused = await (await bob.slash("mahjong watch")).message()
    assert "takes no spectators" in refused.content
    await harness.stop(second)
    third = await harness.start(build_bot(seed=24, database=database))  # mid-match now
    assert table_runner(third, devserver).state.settings.spectators == "off"
