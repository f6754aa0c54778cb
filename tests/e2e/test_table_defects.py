"""Defects found by playing the bot from outside (issue 22), each reproduced through the stand-in: 代打
switched between hands and stored, a table that cannot be restored is never stuck, clicks from DMs
that were closed since, forged command arguments, nothing after a table ended, the everyone-away pause,
and the words of a message agreeing with its picture."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import struct
import time
import zlib

import pytest

import render
from data import Store
from devserver.config import RateLimits
from devserver.messages import Messages
from devserver.people import Person
from table.effects import WakeAt
from table.session import TableSession
from table.timing import Timing

from .tablebot import FAST, build_bot, table_runner

QUICK = RateLimits(time_scale=0.02)
BETWEEN = Timing(ai_delay=0.0, hand_pause=1.5, edit_interval=0.0, timer_scale=1.0)


async def open_table(devserver, *, channel="general", who="alice", **options):
    person = devserver.member(who)
    lobby = await (await person.slash("mahjong create", channel=channel, **options)).message()
    await (await person.click(lobby, "Start")).response()
    return lobby


async def first_hand(bot, devserver, channel="general"):
    await devserver.recorder.wait_until(
        lambda: (r := bot.get_cog("Mahjong").registry.in_channel(devserver.channel(channel).id)) and r.session.game, 5, lambda: "a hand"
    )
    return table_runner(bot, devserver, channel)


def stored_moves(database: str, hand_no: int) -> list[str]:
    with sqlite3.connect(database) as db:
        rows = db.execute(
            "SELECT m.action FROM moves m JOIN hands h ON h.id = m.hand_id WHERE h.hand_no = ? ORDER BY m.move_no",
            (hand_no,),
        ).fetchall()
    return [r[0] for r in rows]


def take_back_dm(alice):
    return alice.wait_for_dm(lambda m: any(b.label == "Take back control" for b in m.buttons()), timeout=30)


# ---------------------------------------------------------------- 1. take back between hands is stored


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_take_back_between_hands_is_stored_and_a_later_leave_still_restores(harness, devserver, tmp_path):
    database = str(tmp_path / "mahjong.sqlite3")
    first = await harness.start(build_bot(BETWEEN, database=database, seed=3))
    alice = devserver.member("alice")
    await open_table(devserver, rounds=2)
    runner = await first_hand(first, devserver)
    seat = runner.session.seating.seat_of_user(alice.id)
    await (await alice.slash("mahjong leave")).response()  # 代打 from now on (taiwan16)
    await devserver.wait_for_message(channel="general", predicate=lambda m: (m.attachments or [None])[0] is not None
                                     and m.attachments[0].filename == "score.png", timeout=30)
    assert runner.session.game.is_over and runner.session.result is not None  # the score sheet is up: between two hands
    dm = await take_back_dm(alice)
    answer = await (await alice.click(dm, "Take back control")).response()
    assert answer.type in (4, 7)
    await devserver.recorder.wait_until(lambda: runner.session.game.hand_number == 2, 10, lambda: "hand 2")
    assert stored_moves(database, 1)[-1] == f"{seat} back"
    assert seat not in runner.session.game.auto_seats()
    await (await alice.slash("mahjong leave")).response()  # leaves again, in the same match
    await runner.journal.flush()
    assert f"{seat} away" in stored_moves(database, 2)

    await harness.stop(first)
    second = await harness.start(build_bot(BETWEEN, database=database, seed=3))
    restored = table_runner(second, devserver)
    assert restored.session.game is not None and seat in restored.session.game.auto_seats()
    await devserver.wait_for_message(channel="general", predicate=lambda m: "I restarted" in m.content)


# ---------------------------------------------------------------- 2. a table that cannot be restored


@pytest.mark.devserver(members=("alice", "bob"), rate_limits=QUICK)
async def test_a_table_that_cannot_be_restored_is_closed_with_its_reason_and_frees_its_seats(
    harness, devserver, tmp_path
):
    database = str(tmp_path / "mahjong.sqlite3")
    first = await harness.start(build_bot(BETWEEN, database=database, seed=5))
    await open_table(devserver, rounds=1)
    runner = await first_hand(first, devserver)
    table_id = runner.session.table_id
    await runner.journal.flush()
    await harness.stop(first)
    with sqlite3.connect(database) as db:  # as a newer version of the bot would have written it
        db.execute("UPDATE matches SET header = '{\"version\": 99, \"rules\": \"taiwan16\"}'")
        assert db.total_changes == 1

    await harness.start(build_bot(BETWEEN, database=database, seed=5))
    notice = await devserver.wait_for_message(channel="general", predicate=lambda m: "could not be restored" in m.content)
    assert f"#{table_id}" in notice.content
    store = await Store.open(database)
    try:
        assert await store.unfinished_tables() == []
        assert "version 99" in (await store.table_failure(table_id) or "")
        assert (await store.table(table_id)).phase == "closed"
    finally:
        await store.close()
    alice = devserver.member("alice")
    closed = await (await alice.slash("mahjong close")).message()
    assert f"#{table_id}" in closed.content and closed.ephemeral
    again = await (await alice.slash("mahjong create")).message()  # her seat is free, the channel too
    assert again.button("Start")


# ---------------------------------------------------------------- 3. take back as the hand ends


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_take_back_pressed_as_the_hand_ends_goes_to_the_next_hand(harness, devserver, monkeypatch):
    settle = asyncio.Event()
    bot = await harness.start(build_bot(FAST, seed=2))
    real = TableSession.tick

    def held(self, *, now, coming=frozenset()):  # the hand is over, its settlement has not run yet: the
        game = self.game  # window the click fell into
        if game is not None and game.is_over and self.result is None and not settle.is_set():
            return [WakeAt(now + 0.02)]
        return real(self, now=now, coming=coming)

    monkeypatch.setattr(TableSession, "tick", held)
    alice = devserver.member("alice")
    await open_table(devserver, rounds=1)
    runner = await first_hand(bot, devserver)
    seat = runner.session.seating.seat_of_user(alice.id)
    await (await alice.slash("mahjong leave")).response()
    await devserver.recorder.wait_until(lambda: runner.session.game.is_over, 30, lambda: "the hand's end")
    assert runner.session.result is None
    dm = await take_back_dm(alice)
    answer = await (await alice.click(dm, "Take back control")).response()
    assert answer.type in (4, 7)
    settle.set()
    await devserver.recorder.wait_until(lambda: runner.session.game.hand_number == 2, 10, lambda: "hand 2")
    assert seat not in runner.session.game.auto_seats()
    assert runner.session.match.history[0].log[-1] == f"{seat} back"


# ---------------------------------------------------------------- 4. an old DM button after DMs closed


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_an_old_dm_button_pressed_after_dms_closed_is_answered_in_place(harness, devserver):
    bot = await harness.start(build_bot(BETWEEN, seed=4))
    alice = devserver.member("alice")
    await open_table(devserver, rounds=1)
    runner = await first_hand(bot, devserver)
    seat = runner.session.seating.seat_of_user(alice.id)
    await (await alice.slash("mahjong leave")).response()
    old = await take_back_dm(alice)
    devserver.refuse_dms(alice)
    await devserver.wait_for_message(channel="general", predicate=lambda m: "direct messages" in m.content, timeout=30)
    assert runner.hands.slots[seat].failed  # hand 2: her DM could not be sent
    answer = await (await alice.click(old, "Take back control")).response()
    assert answer.type == 7  # the old DM shows her hand again, in place; no "This interaction failed"
    assert seat not in runner.session.game.auto_seats() or runner.session.game.is_over


# ---------------------------------------------------------------- 5. forged command arguments

FORGED = [
    ("mahjong create", {"rules": ""}, "rules"),
    ("mahjong create", {"rules": "riichi"}, "rules"),
    ("mahjong create", {"preset": "nope"}, "preset"),
    ("mahjong create", {"rounds": 0}, "rounds"),
    ("mahjong create", {"rounds": 9}, "rounds"),
    ("mahjong create", {"turn_seconds": 0}, "turn_seconds"),
    ("mahjong create", {"turn_seconds": 3}, "turn_seconds"),
    ("mahjong create", {"turn_seconds": 1_000_000}, "turn_seconds"),
    ("mahjong create", {"claim_seconds": 0}, "claim_seconds"),
    ("mahjong create", {"claim_seconds": 1}, "claim_seconds"),
    ("mahjong create", {"minimum": 2}, "minimum"),
    ("mahjong create", {"base": -5}, "base"),
    ("mahjong leaderboard", {"period": "decade"}, "period"),
    ("mahjong leaderboard", {"rules": "x"}, "rules"),
    ("mahjong leaderboard", {"page": 0}, "page"),
    ("mahjong hand", {"hand_id": 0}, "hand_id"),
    ("mahjong create", {"pace": "turbo"}, "pace"),
    ("mahjong create", {"theme": "neon"}, "theme"),
]


@pytest.mark.devserver(members=("alice",))
async def test_arguments_a_client_should_never_send_get_a_polite_answer_naming_the_accepted_values(
    harness, devserver
):
    bot = await harness.start(build_bot())
    alice = devserver.member("alice")
    for command, options, name in FORGED:
        answer = await (await alice.slash(command, forged=True, **options)).message()
        assert answer.ephemeral and f"`{name}` takes one of:" in answer.content, (command, options, answer.content)
    assert "4, 5, 6, 8, 15, 20, 30, 60" in answer_for(devserver, "turn_seconds")
    assert bot.get_cog("Mahjong").registry.in_channel(devserver.channel("general").id) is None  # nothing opened


def answer_for(devserver, name: str) -> str:
    return next(m.content for m in devserver.recorder.messages.values() if f"`{name}`" in m.content)


# ---------------------------------------------------------------- 6 and 11. nothing after a table ended


@pytest.mark.devserver(members=("alice", "bob"), rate_limits=QUICK)
async def test_two_leaves_at_a_taiwan13_table_charge_one_penalty_and_every_message_shows_the_end(
    harness, devserver, tmp_path
):
    database = str(tmp_path / "mahjong.sqlite3")
    bot = await harness.start(build_bot(BETWEEN, database=database, seed=6))
    alice, bob = devserver.members("alice", "bob")
    lobby = await (await alice.slash("mahjong create", rules="taiwan13")).message()
    await (await bob.click(lobby, "Join")).response()
    await (await alice.click(lobby, "Start")).response()
    runner = await first_hand(bot, devserver)
    await asyncio.gather(
        alice.slash("mahjong leave"), bob.slash("mahjong leave")
    )  # the second leave arrives as the table ends
    await devserver.wait_for_message(
        channel="general", predicate=lambda m: any("Match over" in (e.get("title") or "") for e in m.embeds)
    )
    await devserver.recorder.wait_until(lambda: runner.session.table_id not in bot.get_cog("Mahjong").registry, 10, lambda: "end")
    assert sorted(runner.session.match.scores) == [-50, 0, 0, 0]
    with sqlite3.connect(database) as db:
        standings = dict(db.execute("SELECT seat, score FROM match_scores WHERE table_id = ?", (runner.session.table_id,)))
        summed = dict(
            db.execute(
                "SELECT s.seat, SUM(s.delta) FROM hand_seats s WHERE s.table_id = ? GROUP BY s.seat", (runner.session.table_id,)
            )
        )
    assert standings == summed and sorted(standings.values()) == [-50, 0, 0, 0]
    # every message of the finished table shows it finished, with no live buttons
    table = [m for m in devserver.channel_messages() if m.attachments and m.attachments[0].filename == "table.png"]
    assert table and "match is over" in table[-1].content and not table[-1].buttons()
    for person in (alice, bob):
        for dm in person.seen():
            if dm.dm_with == person.id and dm.attachments:
                assert not dm.buttons(), dm.content


# ---------------------------------------------------------------- 7. everyone away: the table pauses


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_a_table_where_everyone_is_away_for_a_hand_pauses_and_resume_plays_on(harness, devserver):
    bot = await harness.start(build_bot(FAST, seed=8))
    alice = devserver.member("alice")
    await open_table(devserver, rules="hongkong", rounds=1)
    runner = await first_hand(bot, devserver)
    seat = runner.session.seating.seat_of_user(alice.id)
    await (await alice.slash("mahjong leave")).response()
    paused = await devserver.wait_for_message(channel="general", predicate=lambda m: "paused" in m.content, timeout=60)
    hands = runner.session.game.hand_number
    assert hands >= 2 and runner.session.paused_until is not None and runner.session.game.is_over
    await asyncio.sleep(0.3)
    assert runner.session.game.hand_number == hands, "a paused table deals no new hand"
    answer = await (await alice.click(paused, "Resume")).message()
    assert answer.ephemeral and "plays on" in answer.content
    await devserver.recorder.wait_until(lambda: runner.session.game.hand_number == hands + 1, 10, lambda: "the next hand")
    assert seat not in runner.session.game.auto_seats()
    assert not devserver.recorder.get(paused.id).buttons()


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_a_paused_table_nobody_resumes_ends_with_its_standings(harness, devserver, tmp_path):
    database = str(tmp_path / "mahjong.sqlite3")
    timing = Timing(ai_delay=0.0, hand_pause=0.0, edit_interval=0.0, pause_limit=0.3)
    bot = await harness.start(build_bot(timing, database=database, seed=8))
    alice = devserver.member("alice")
    await open_table(devserver, rules="hongkong", rounds=1)
    runner = await first_hand(bot, devserver)
    await (await alice.slash("mahjong leave")).response()
    await devserver.wait_for_message(
        channel="general", predicate=lambda m: any("Match over" in (e.get("title") or "") for e in m.embeds), timeout=60
    )
    assert any("Nobody came back" in m.content for m in devserver.channel_messages())
    await devserver.recorder.wait_until(lambda: runner.session.table_id not in bot.get_cog("Mahjong").registry, 10, lambda: "end")
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT phase FROM tables WHERE id = ?", (runner.session.table_id,)).fetchone()[0] == "over"


# ---------------------------------------------------------------- a moderator deletes the table message


def table_posts(devserver) -> list:
    return [m for m in devserver.recorder.in_channel(devserver.channel("general").id)
            if m.attachments and m.attachments[0].filename == "table.png"]  # fmt: skip


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_a_deleted_table_message_is_posted_afresh_at_most_once_an_interval(harness, devserver):
    """Issue 37, item 13: an edit of the table message answered 10008 (a moderator deleted it) left the
    channel without a table and people with closed DMs without "Show my hand"."""
    bot = await harness.start(build_bot(Timing(ai_delay=0.0, hand_pause=0.0, edit_interval=0.0, repost_interval=60.0)))
    alice = devserver.member("alice")
    await open_table(devserver, rules="hongkong", rounds=1)
    runner = await first_hand(bot, devserver)
    person = Person(alice)
    await person.next_prompt(10)  # the table waits for alice: nothing changes it but her move
    [first] = table_posts(devserver)
    devserver.delete_message(first)
    await person.act_once()  # her move is shown on the table message: 10008, and a fresh one
    fresh = await devserver.wait_for_message(
        channel="general", predicate=lambda m: m.attachments and m.attachments[0].filename == "table.png"
    )
    assert fresh.id != first.id and "Show my hand" in [b.label for b in fresh.buttons()]
    # the stand-in records the post before the bot reads its answer: the bot holds it once the repost is done
    await devserver.recorder.wait_until(lambda: runner.channel.reposting.done(), 10, lambda: "the repost stored")
    assert runner.session.game.hand_number == 1 and runner.channel.table.message.id == fresh.id
    devserver.delete_message(fresh)  # deleted at once again (a cleanup bot): no post a move
    await person.act_once()
    await devserver.recorder.wait_until(
        lambda: runner.channel.table.closed and not runner.channel.reposting.done(), 10, lambda: "the next repost waiting"
    )
    assert table_posts(devserver) == []  # both deleted; the next fresh one waits out the interval
    assert [m.id for m in devserver.recorder.messages.values() if m.attachments
            and m.attachments[0].filename == "table.png"] == [first.id, fresh.id]  # fmt: skip


# ---------------------------------------------------------------- 9. the seat draw says what the picture shows


@pytest.mark.parametrize("rules", ["taiwan16", "taiwan13"])
@pytest.mark.devserver(members=("小明",), rate_limits=QUICK)
async def test_the_seat_draw_message_names_the_winds_the_table_picture_shows(harness, devserver, rules):
    bot = await harness.start(build_bot(BETWEEN, seed=9))
    ming = devserver.member("小明")
    lobby = await (await ming.slash("mahjong create", rules=rules)).message()
    await (await ming.click(lobby, "Start")).response()
    runner = await first_hand(bot, devserver)
    draw = await devserver.wait_for_message(channel="general", predicate=lambda m: "抓位" in m.content)
    game = runner.session.game
    winds = ["East", "South", "West", "North"]
    names = runner.session.seating.names()
    for seat, name in enumerate(names):
        line = next(line for line in draw.content.splitlines() if line.endswith(f"· {name}"))
        assert line.startswith(winds[game.seat_wind(seat)]), (line, game.seat_wind(seat))
        assert ("(dealer)" in line) == (seat == game.dealer)
    dealer_line = next(line for line in draw.content.splitlines() if "deals first" in line)
    assert names[game.dealer] in dealer_line


# ---------------------------------------------------------------- 10. the caption and its picture


def _stamp_tiles(png: bytes, tiles: int) -> bytes:
    data = b"tiles\0" + str(tiles).encode() + b";"  # ended: the chunk's CRC that follows may start with a digit
    chunk = struct.pack(">I", len(data)) + b"tEXt" + data + struct.pack(">I", zlib.crc32(b"tEXt" + data))
    return png[:33] + chunk + png[33:]


def _stamped_tiles(png: bytes) -> int | None:
    found = re.search(rb"tEXttiles\0(\d+);", png)
    return int(found[1]) if found else None


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_every_table_message_shows_one_moment_in_its_words_and_its_picture(harness, devserver, monkeypatch):
    table = render.render_table

    def slow_table(view, *args, **kwargs):  # a slow render: the table moves on while the picture is drawn
        time.sleep(0.03)
        return _stamp_tiles(table(view, *args, **kwargs), view.wall_remaining)

    monkeypatch.setattr(render, "render_table", slow_table)
    shown: list[tuple[str, int]] = []
    create, edit = Messages.create, Messages.edit

    def record(message):
        for attachment in message.attachments:
            tiles = _stamped_tiles(attachment.data)
            if tiles is not None and (said := re.search(r"(\d+) tiles left", message.content)):
                shown.append((message.content, tiles - int(said[1])))
        return message

    monkeypatch.setattr(Messages, "create", lambda s, *a, **k: record(create(s, *a, **k)))
    monkeypatch.setattr(Messages, "edit", lambda s, *a, **k: record(edit(s, *a, **k)))
    await harness.start(build_bot(FAST, seed=10))
    alice = devserver.member("alice")
    await open_table(devserver, rounds=1)
    person = Person(alice)
    for _ in range(12):
        await person.act_once(30)
    assert len(shown) >= 4
    assert all(diff == 0 for _, diff in shown), [(c, d) for c, d in shown if d]
