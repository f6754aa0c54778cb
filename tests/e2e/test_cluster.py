"""Two bot processes, one stand-in, one PostgreSQL database (issue 29): a table in a guild whose shard the
second process runs is played by DM clicks, which Discord delivers to shard 0's process only; that
process forwards each to the table's owner, which answers it. Then the owner is SIGKILLed mid-hand and
the first process takes the table over from its stored moves, and a button posted before still plays
(pressed between the death and the takeover, it is answered with a polite word and changes nothing).
Started again, the guild's process gets its table back (its commands and forms arrive there).

The bots are real child processes (devserver/process.py), not two bots in the test's process: only a
process of its own dies with its connections, leases and unfinished writes the way a crash does.
"""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from devserver.config import RateLimits
from devserver.gateway import shard_of
from devserver.interactions import DEFERRED_UPDATE, UPDATE_MESSAGE, Interaction
from devserver.people import Person, code_of, move_of, point_of, prompt_buttons
from devserver.process import BotProcess
from devserver.recorder import Button
from table.codes import to_action

QUICK = RateLimits(time_scale=0.02)


def split(guild_id: int) -> tuple[int, int]:
    """A shard count that puts the guild on a shard other than 0, and that shard."""
    for count in range(2, 64):
        if shard_of(guild_id, count) != 0:
            return count, shard_of(guild_id, count)
    raise AssertionError("no shard count puts the guild off shard 0")


def seat_of(button: Button) -> int:
    point = point_of(button)
    assert point is not None, f"{button.custom_id} is no action button"
    return point.seat


async def made_in_place(clicked: Interaction | None) -> bool:
    """The click's move made and shown in its DM: updated at once, or acknowledged and then edited,
    as a loaded process does when storing the move outlasts Discord's 3 s (cogs/mahjong/journal.py)."""
    if clicked is None:
        return False
    response = await clicked.response()
    if response.type == DEFERRED_UPDATE:
        await clicked.message(30)  # the edit that shows the move made
        return not clicked.followup_ids  # not a private word sent instead
    return response.type == UPDATE_MESSAGE


async def lease_of(database: str) -> tuple[str, int]:
    connection = await asyncpg.connect(database)
    try:
        row = await connection.fetchrow("SELECT owner, generation FROM table_leases")
        return str(row[0]), int(row[1])
    finally:
        await connection.close()


async def stored_moves(database: str) -> list[str]:
    connection = await asyncpg.connect(database)
    try:
        return [r[0] for r in await connection.fetch("SELECT action FROM moves ORDER BY hand_id, move_no")]
    finally:
        await connection.close()


async def owner_gone(database: str, name: str) -> None:
    connection = await asyncpg.connect(database)
    try:
        for _ in range(100):
            if not await connection.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1", f"{name} (mailbox)"
            ):
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"{name}'s connections outlived it")
    finally:
        await connection.close()


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_dm_clicks_reach_the_owner_in_another_process_which_a_takeover_replaces(
    pg_target, harness, devserver
):  # pg_target first: its database outlives the bots
    count, shard = split(devserver.world.guild_id)
    # the lease outlasts the steps from the kill to the early click by seconds even on a loaded machine: a
    # 3 s lease (renewed every 0.75 s) could run out before that click, which the takeover then answered
    # as a move, not with the polite word the test looks for
    common = dict(database=pg_target, shard_count=count, lease_seconds=8.0, edit_interval=0.0, seed=5)
    where = (devserver.api_url, devserver.gateway_url, devserver.config.token)
    zero = BotProcess(*where, shards=(0,), name="zero", **common)  # type: ignore[arg-type]
    other = BotProcess(*where, shards=(shard,), name="other", **common)  # type: ignore[arg-type]
    try:
        await zero.start()  # syncs the commands (the database has no fingerprint yet)
        await other.start()
        alice = devserver.member("alice")
        lobby = await (await alice.slash("mahjong create", turn_seconds=60)).message()  # to the guild's shard
        await (await alice.click(lobby, "Start")).response()
        assert await lease_of(pg_target) == ("other", 1)

        person = Person(alice)
        answered: list[str] = []  # every move a click made, as the person saw it accepted
        for _ in range(4):
            message = await person.next_prompt(30)
            assert message.dm_with == alice.id
            move = move_of(prompt_buttons(message)[0])  # read now: the answer replaces the message's buttons
            clicked = await person.act_once(30)
            assert await made_in_place(clicked)  # answered in place
            answered.append(person.clicks[-1][0] + "@" + move)
        # each DM click reached shard 0's process, which handed it to the owner (which answered it)
        assert len(other.forwarded) >= 4 and zero.forwarded == []

        waiting = await person.next_prompt(30)  # posted by the owner; left unanswered across its death
        other.kill()
        await owner_gone(pg_target, "other")  # its connections end with it; its lease has a while to run
        # the prompt as it stands now: an edit that was on its way when the owner died may have replaced it
        button = prompt_buttons(devserver.recorder.get(waiting.id))[0]
        early = await alice.click(waiting, button.custom_id or "")
        assert (await early.response()).type == 4  # a polite private word, not "did not respond"
        assert "moving to another" in (await early.message()).content
        await devserver.wait_for_message(
            channel="general", predicate=lambda m: "resumes at hand" in m.content, timeout=30
        )
        assert await lease_of(pg_target) == ("zero", 2)  # a new owner: one generation more

        clicked = await alice.click(waiting, button.custom_id or "")  # a button posted before the takeover
        assert await made_in_place(clicked), "the old button still plays"
        person.answered.add(move_of(button))
        answered.append(code_of(button) + "@" + move_of(button))
        for _ in range(3):
            clicked = await person.act_once(30)
            assert await made_in_place(clicked)
        assert zero.forwarded == [], "the table runs where the DM clicks arrive now: nothing to forward"

        other = BotProcess(*where, shards=(shard,), name="other", **common)  # type: ignore[arg-type]
        await other.start()  # back, as its supervisor would start it: the guild's table goes home
        for _ in range(300):  # it asks within 2 s; the table stops, waits out Discord's 5 s windows, moves
            if await lease_of(pg_target) == ("other", 3):
                break
            await asyncio.sleep(0.1)
        assert await lease_of(pg_target) == ("other", 3)
        for _ in range(2):
            clicked = await person.act_once(30)
            assert await made_in_place(clicked)
            answered.append(person.clicks[-1][0] + "@home")
        assert len(other.forwarded) >= 1, "DM clicks are forwarded to the home process again"

        stored = await stored_moves(pg_target)
        seat = seat_of(button)
        for move in answered:  # nothing the person saw accepted is missing from the stored moves
            code = move.split("@")[0]
            assert str(to_action(seat, code)) in stored, f"{move} was answered but not stored"
    finally:
        other.kill()
        await zero.stop()
        await other.stop()
    assert zero.errors == [] and other.errors == []


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_a_clean_shutdown_hands_its_tables_to_the_other_process_at_once(pg_target, harness, devserver):
    """SIGTERM is no crash: the process stores what it holds and gives its leases to the live process,
    which plays the table on at once. The lease here lasts a minute, so only a hand-over can make the
    table play again within the test's half-minute waits."""
    count, shard = split(devserver.world.guild_id)
    common = dict(database=pg_target, shard_count=count, lease_seconds=60.0, edit_interval=0.0, seed=5)
    where = (devserver.api_url, devserver.gateway_url, devserver.config.token)
    zero = BotProcess(*where, shards=(0,), name="zero", **common)  # type: ignore[arg-type]
    other = BotProcess(*where, shards=(shard,), name="other", **common)  # type: ignore[arg-type]
    try:
        await zero.start()
        await other.start()
        alice = devserver.member("alice")
        lobby = await (await alice.slash("mahjong create", turn_seconds=60)).message()
        await (await alice.click(lobby, "Start")).response()
        assert await lease_of(pg_target) == ("other", 1)
        person = Person(alice)
        answered: list[str] = []

        async def play_once() -> None:
            seat = seat_of(prompt_buttons(await person.next_prompt(30))[0])
            clicked = await person.act_once(30)
            assert await made_in_place(clicked)  # answered in place
            answered.append(str(to_action(seat, person.clicks[-1][0])))

        for _ in range(2):
            await play_once()

        assert await other.stop() == 0, "a clean exit"
        assert await lease_of(pg_target) == ("zero", 2), "handed over as it shut down, not left to run out"
        await devserver.wait_for_message(
            channel="general", predicate=lambda m: "resumes at hand" in m.content, timeout=30
        )
        for _ in range(2):  # the fresh hand message plays, answered by the new owner
            await play_once()
        assert zero.forwarded == [], "the table runs where the DM clicks arrive: nothing to forward"
        stored = await stored_moves(pg_target)
        assert all(move in stored for move in answered), "every move answered is stored"
    finally:
        other.kill()
        await zero.stop()
        await other.stop()
    assert zero.errors == [] and other.errors == []


@pytest.mark.devserver(members=("alice", "bob", "carol", "dave"), rate_limits=QUICK)
async def test_a_system_table_is_leased_and_played_by_dm_from_the_other_process(pg_target, harness, devserver):
    """Quick play forms its 系統桌 in the guild's process, which claims it as it claims any table: the DM
    clicks shard 0's process receives find the owner and are answered there (before, no lease: "That
    table has finished" mid-hand, and no takeover could ever find it)."""
    count, shard = split(devserver.world.guild_id)
    common = dict(database=pg_target, shard_count=count, lease_seconds=3.0, edit_interval=0.0, seed=5)
    where = (devserver.api_url, devserver.gateway_url, devserver.config.token)
    zero = BotProcess(*where, shards=(0,), name="zero", **common)  # type: ignore[arg-type]
    other = BotProcess(*where, shards=(shard,), name="other", **common)  # type: ignore[arg-type]
    stop = asyncio.Event()
    try:
        await zero.start()
        await other.start()
        people = devserver.members("alice", "bob", "carol", "dave")
        for member in people:  # the fourth in the queue forms the table, in the guild's process
            await (await member.slash("mahjong play")).response()
        await devserver.wait_for_message(channel="general", predicate=lambda m: "seat draw" in m.content, timeout=30)
        assert await lease_of(pg_target) == ("other", 1)
        others = [asyncio.create_task(Person(p).play(stop)) for p in people[1:]]
        alice = Person(people[0])
        for _ in range(2):
            clicked = await alice.act_once(30)
            assert await made_in_place(clicked), "answered in place, by its owner"
        assert len(other.forwarded) >= 2 and zero.forwarded == []
        stop.set()
        await asyncio.gather(*others)
    finally:
        stop.set()
        await zero.stop()
        await other.stop()
    assert zero.errors == [] and other.errors == []


async def claims_of(database: str) -> dict[str, int]:
    connection = await asyncpg.connect(database)
    try:
        rows = await connection.fetch("SELECT owner, count(*) FROM interaction_claims GROUP BY owner")
        return {str(r[0]): int(r[1]) for r in rows}
    finally:
        await connection.close()


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_dm_play_goes_on_when_shard_0s_process_dies_through_a_standby_session(pg_target, harness, devserver):
    """Shard 0 is no single point of failure: the guild's process also runs a standby session of shard 0,
    so Discord sends it every DM click too. While both live, each click is answered once (by the table's
    owner, which claims it first); SIGKILLed mid-hand, shard 0's process takes nothing with it: the
    person's next DM click is answered, at once, and stored."""
    count, shard = split(devserver.world.guild_id)
    common = dict(database=pg_target, shard_count=count, lease_seconds=3.0, edit_interval=0.0, seed=5)
    where = (devserver.api_url, devserver.gateway_url, devserver.config.token)
    zero = BotProcess(*where, shards=(0,), name="zero", **common)  # type: ignore[arg-type]
    other = BotProcess(*where, shards=(shard,), name="other", shard0_standby=True, **common)  # type: ignore[arg-type]
    try:
        await zero.start()
        await other.start()
        assert len([s for s in devserver.gateway.every if s.shard_id == 0 and not s.ws.closed]) == 2
        alice = devserver.member("alice")
        lobby = await (await alice.slash("mahjong create", turn_seconds=60)).message()
        await (await alice.click(lobby, "Start")).response()
        assert await lease_of(pg_target) == ("other", 1)
        person = Person(alice)
        answered: list[str] = []

        async def play_once() -> None:
            seat = seat_of(prompt_buttons(await person.next_prompt(30))[0])
            clicked = await person.act_once(30)
            assert await made_in_place(clicked)  # answered in place, once
            answered.append(str(to_action(seat, person.clicks[-1][0])))

        for _ in range(2):
            await play_once()
        assert (await claims_of(pg_target)).get("other", 0) >= 2, "the owner claimed its table's DM clicks"
        assert other.forwarded == [] and zero.forwarded == [], "heard by the owner itself: nothing forwarded"

        zero.kill()  # mid-hand: shard 0's own process is gone
        await owner_gone(pg_target, "zero")
        for _ in range(2):  # the next DM clicks reach the standby session, and the owner answers them
            await play_once()
        stored = await stored_moves(pg_target)
        assert all(move in stored for move in answered), "every move answered is stored"
        assert await lease_of(pg_target) == ("other", 1), "no takeover was needed"
    finally:
        zero.kill()
        await zero.stop()
        await other.stop()
    assert other.errors == []
