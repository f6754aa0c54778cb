"""/mahjong review through the stand-in: a member's review is theirs alone (asking for another's is
refused until they share it), never while the match runs, with a replay button per costly decision
and a Review my play button under the standings."""

from __future__ import annotations

import asyncio

import pytest

from cogs.i18n.steps import step_line
from devserver.config import RateLimits
from devserver.people import Person
from engine.replay import frames
from engine.review import review_match

from .tablebot import PrivacyWatch, build_bot, play_match, table_runner

QUICK = RateLimits(time_scale=0.02)


@pytest.mark.devserver(members=("alice", "bob"), rate_limits=QUICK)
async def test_a_review_is_private_to_its_member_until_shared(harness, devserver, monkeypatch):
    bot = await harness.start(build_bot(seed=5))
    played = await play_match(bot, devserver, PrivacyWatch(monkeypatch), rules="taiwan16", rounds=1)
    runner = played.runner
    table = runner.session.table_id
    alice, bob = devserver.member("alice"), devserver.member("bob")
    seat = runner.session.seating.seat_of_user(alice.id)

    mine = await (await alice.slash("mahjong review", match=table)).message(timeout=30)
    assert mine.ephemeral_to == alice.id
    assert "Review of alice's play" in mine.content and "Agreed with the strong AI on" in mine.content
    expected = review_match(runner.session.match.header(), [r.log for r in runner.session.match.history], seat)
    assert f"{len(expected.decisions)} decisions" in mine.content
    assert f"{expected.loss_per_hand:.2f} expected points lost per hand" in mine.content

    # someone else's review is refused, politely and privately; nor is there one for a non-player
    other = await (await bob.slash("mahjong review", match=table, member=alice)).message()
    assert other.ephemeral_to == bob.id and "A review is for the member" in other.content
    assert "Agreed" not in other.content
    none = await (await bob.slash("mahjong review", match=table)).message()
    assert none.ephemeral_to == bob.id and "did not play in that match" in none.content

    # each costly decision opens a private replay at the step before it
    worst = expected.worst(5)
    if worst:
        d = worst[0]
        step = await (await alice.click(mine, f"▶ Hand {d.hand} · move {d.shown}")).message()
        assert step.ephemeral_to == alice.id and step.attachments[0].filename == "replay.png"
        record = runner.session.match.history[d.hand - 1]
        from data.replays import stored_hand

        stored = await stored_hand(
            bot.get_cog("Mahjong").store, devserver.world.guild_id, table_id=table, hand_no=d.hand
        )
        assert stored is not None and list(stored.moves) == list(record.log)
        names = list(stored.names)
        shown = list(frames(stored.header, stored.moves, seat=seat))[d.frame]
        line = step_line("en", shown.number, shown.events, names)
        assert step.content.splitlines()[-1].strip("*") == line
        assert shown.number == d.shown and line.startswith(f"Move {d.shown} · " if d.shown else "Deal")  # one numbering

    # alice shares hers: now everyone in the channel sees it
    shared = await (await alice.click(mine, "📣 Share")).message()
    assert shared.ephemeral_to is None and "Review of alice's play" in shared.content
    assert not any(b.label == "📣 Share" for b in shared.buttons())

    # the standings' button: each clicker's own review
    from_standings = await (await alice.click(played.standings, "🔍 Review my play")).message(timeout=30)
    assert from_standings.ephemeral_to == alice.id and "Review of alice's play" in from_standings.content
    bob_click = await (await bob.click(played.standings, "🔍 Review my play")).message()
    assert bob_click.ephemeral_to == bob.id and "did not play" in bob_click.content

    # one hand of the match only
    one = await (await alice.slash("mahjong review", match=table, hand_number=1)).message(timeout=30)
    assert "hand 1" in one.content.splitlines()[0]


@pytest.mark.devserver(members=("alice", "bob"), rate_limits=QUICK)
async def test_no_review_while_the_match_is_running(harness, devserver):
    bot = await harness.start(build_bot(seed=9))
    alice = devserver.member("alice")
    lobby = await (await alice.slash("mahjong create", rounds=1)).message()
    await (await alice.click(lobby, "Start")).response()
    runner = table_runner(bot, devserver)
    person = Person(alice)
    stop = asyncio.Event()
    play = asyncio.create_task(person.play(stop))
    await devserver.recorder.wait_until(
        lambda: len(runner.session.match.history) >= 1, 120, lambda: "a finished hand"
    )
    stop.set()
    await play
    refused = await (await alice.slash("mahjong review", match=runner.session.table_id)).message()
    assert refused.ephemeral_to == alice.id and "still being played" in refused.content
    assert not refused.buttons()
