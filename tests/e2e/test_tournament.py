"""A league night through the stand-in (issue 42): nine people register, eight check in, a two-round
duplicate tournament of one hand a table runs to its final standings with a restart in round 2, and what
is stored agrees: each table's recorded points are its stored match's, the standings are the tournament's
own over them (and the exported CSV's), both tables of a round were dealt from the round's one key, every
table's exported match log verifies, and no key showed early."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace

import pytest

from cogs.mahjong.watch import Watchers
from data import Store
from devserver.config import RateLimits
from devserver.state import MEMBER_PERMISSIONS
from engine.fairness import commitment
from engine.log import verify_log
from engine.match import Match
from ranking.swiss import Seating
from table.tournament import Tournament

from .tablebot import FAST, build_bot

PEOPLE = tuple(f"p{n}" for n in range(1, 10))
SCALED = replace(FAST, timer_scale=0.01)  # a 5-second turn is 0.05 s: people who look away are played for
QUICK = RateLimits(time_scale=0.02)


def tournament_tables(bot):
    return [r for r in bot.get_cog("Mahjong").registry if r.state.kind == "system"]


async def stored(path: str, tournament_id: int):
    store = await Store.open(path)
    try:
        record = await store.tournament(tournament_id)
        entrants = await store.entrants(tournament_id)
        tables = await store.round_tables(tournament_id)
        matches = {rt.table_id: await store.match_standings(record.guild_id, rt.table_id) for rt in tables}
        return record, entrants, tables, matches
    finally:
        await store.close()


def match_headers(path: str) -> dict[int, dict]:
    with sqlite3.connect(path) as db:
        return {table_id: json.loads(header) for table_id, header in db.execute("SELECT table_id, header FROM matches")}


@pytest.mark.devserver(members=PEOPLE, channels=("general",), rate_limits=QUICK)
async def test_nine_register_eight_check_in_and_a_duplicate_tournament_runs_through_a_restart(
    harness, devserver, tmp_path
) -> None:
    database = str(tmp_path / "mahjong.sqlite3")
    bot = await harness.start(build_bot(timing=SCALED, database=database))
    people = devserver.members(*PEOPLE)
    organiser, everyday = people[0], people[8]
    everyday.record.permissions = MEMBER_PERMISSIONS
    refused = await (await everyday.slash("mahjong tournament create", name="Night", round_count=2)).message()
    assert refused.content == "Only a member with Manage Server may create and run tournaments."

    made = await organiser.slash("mahjong tournament create", name="Night", round_count=2, hands=1)
    registration = await made.message()
    assert "Night" in registration.text and "Duplicate walls" in registration.text
    for person in people:
        joined = await (await person.click(registration, "Join")).message()
        assert joined.content == "You are entered in Night. Check in before the start."
    await harness.stop(bot)  # registrations are stored, and the buttons work after a restart
    bot = await harness.start(build_bot(timing=SCALED, database=database))
    for person in people[:8]:
        checked = await (await person.click(registration, "Check in")).message()
        assert checked.content == "You are checked in for Night."
    current = await devserver.recorder.wait_until(
        lambda: "checked in 8" in devserver.recorder.messages[registration.id].text
        and devserver.recorder.messages[registration.id], 5, lambda: "the registration message up to date"
    )
    assert "Entrants 9/∞" in current.text

    started = await (await organiser.slash("mahjong tournament start")).message()
    assert started.content == "**Night** starts with 8 players. Round 1 is being seated."
    general = devserver.channel("general").id
    await devserver.recorder.wait_until(  # round 2's two tables have drawn their seats: restart mid-round
        lambda: sum("seat draw" in m.content for m in devserver.recorder.in_channel(general)) == 4,
        30, lambda: "round 2's tables dealt",
    )  # fmt: skip
    await harness.stop(bot)
    again = await harness.start(build_bot(timing=SCALED, database=database))
    final = await devserver.wait_for_message(
        channel="general", predicate=lambda m: "final standings" in m.content, timeout=30
    )
    await devserver.wait_for_message(channel="general", predicate=lambda m: "Night is over" in m.content)
    assert not [r for r in tournament_tables(again) if not r.session.phase.closed]

    record, entrants, tables, matches = await stored(database, 1)
    headers = match_headers(database)
    assert record.phase == "over" and len(tables) == 4
    dropped = [e for e in entrants if e.status == "dropped"]
    assert [e.user_id for e in dropped] == [everyday.id] and dropped[0].dropped_round == 0
    tournament = Tournament(key=record.key, entrants=tuple(sorted(p.id for p in people[:8])), rounds=2, duplicate=True)
    for rt in tables:
        match = matches[rt.table_id]
        assert match is not None and sum(match.scores) == 0
        header = headers[rt.table_id]
        assert header["deal"] == "position" and header["hands"] == 1
        assert bytes.fromhex(header["key"]) == tournament.table_key(rt.round, rt.table_no)
        seat_of = Match.from_header(header).seat_of_player
        assert list(rt.points) == [match.scores[seat_of[p]] for p in range(4)]
        assert [match.user_ids[seat_of[p]] for p in range(4)] == list(rt.seats)
    for number in (1, 2):
        tournament.seatings.append(Seating(tuple(rt.seats for rt in tables if rt.round == number)))
        for rt in tables:
            if rt.round == number:
                tournament.record(number, rt.table_no, rt.points)
    names = {e.user_id: e.name for e in entrants}
    rows = [line for line in final.content.splitlines() if line[:2].strip().isdigit()]
    assert [line.split()[1] for line in rows] == [names[s.entrant][:14] for s in tournament.standings()]
    exported = await (await everyday.slash("mahjong tournament export")).followup()
    files = {a.filename: a.data for a in exported.attachments}
    lines = files["tournament-1.csv"].decode().splitlines()
    assert lines[0] == "rank,player,user_id,points,duplicate,placements,firsts"
    expected = tournament.standings()
    assert [tuple(line.split(",")[1:4]) for line in lines[1:]] == [
        (names[s.entrant], str(s.entrant), str(s.points)) for s in expected
    ]
    results = json.loads(files["tournament-1.json"])
    assert [r["key"] for r in results["rounds"]] == [tournament.table_key(n, 0).hex() for n in (1, 2)]
    for table in (table for r in results["rounds"] for table in r["tables"]):
        assert verify_log(table["log"]).hands == 1  # every table's match log verifies against its key
    for number in (1, 2):  # the round's key, shown once the round was over, and never at a table's end
        key = tournament.table_key(number, 0).hex()
        shown = [m for m in devserver.recorder.in_channel(general) if key in m.text]
        assert shown and all("key (every table of the round" in m.text for m in shown)
        assert commitment(bytes.fromhex(key)) in "".join(m.text for m in devserver.recorder.messages.values())


@pytest.mark.devserver(members=PEOPLE[:5], channels=("general",), rate_limits=QUICK)
async def test_a_tournament_starts_by_itself_at_its_start_time_without_who_did_not_check_in(harness, devserver):
    """starts_in: 1 minute (0.6 s at the tests' timer scale). Four check in, a fifth only registered: the
    fifth is dropped, the four play one table (no AI fill, no duplicate walls: it shows its own key)."""
    await harness.start(build_bot(timing=SCALED))
    people = devserver.members(*PEOPLE[:5])
    made = await people[0].slash(
        "mahjong tournament create", name="Quick", round_count=1, hands=1, duplicate=False, ai_fill=False, starts_in=1
    )
    registration = await made.message()
    assert "<t:" in registration.text and "byes" in registration.text
    for person in people:
        await (await person.click(registration, "Join")).message()
    for person in people[:4]:
        await (await person.click(registration, "Check in")).message()
    await devserver.wait_for_message(
        channel="general", predicate=lambda m: m.content == "**Quick** starts with 4 players. Round 1 is being seated."
    )
    final = await devserver.wait_for_message(
        channel="general", predicate=lambda m: "final standings" in m.content, timeout=20
    )
    rows = [line for line in final.content.splitlines() if line[:2].strip().isdigit()]
    assert len(rows) == 4 and "p5" not in final.content and "Ranked by points" in final.content
    over = await devserver.wait_for_message(channel="general", predicate=lambda m: "Match over" in m.text)
    await devserver.wait_for_message(channel="general", predicate=lambda m: "Quick is over" in m.content)
    assert over.embeds and any("key" in f["name"].lower() for f in over.embeds[0].get("fields", []))


@pytest.mark.devserver(members=PEOPLE[:4], channels=("general",), rate_limits=QUICK)
async def test_a_table_closed_is_played_again_a_round_ended_early_a_dropped_player_played_for_and_cancel_ends_it(
    harness, devserver, tmp_path
):
    """The stated rule for a table that ends without finishing its match: it is opened again, dealt as
    before (the same table key), so the round can still end; the organiser may end the round (a table still
    playing counts its settled hands); a dropped player's seat is played for; cancelling closes the tables."""
    database = str(tmp_path / "mahjong.sqlite3")
    bot = await harness.start(build_bot(database=database))  # real turn times: nothing ends on its own here
    people = devserver.members(*PEOPLE[:4])
    made = await people[0].slash("mahjong tournament create", name="Again", round_count=2, ai_fill=False)
    registration = await made.message()
    for person in people:
        await (await person.click(registration, "Join")).message()
        await (await person.click(registration, "Check in")).message()
    await (await people[0].slash("mahjong tournament start")).message()
    first = (await devserver.recorder.wait_until(lambda: tournament_tables(bot), 5, lambda: "round 1's table"))[0]
    await devserver.recorder.wait_until(lambda: first.session.game, 5, lambda: "its first hand")
    await (await people[0].slash("mahjong close", table=first.session.table_id)).message()
    again = await devserver.recorder.wait_until(
        lambda: [r for r in tournament_tables(bot) if r.session.table_id != first.session.table_id], 5, lambda: "the table again"
    )  # fmt: skip
    assert sorted(s.user_id for s in again[0].state.seats) == sorted(p.id for p in people)
    await devserver.recorder.wait_until(lambda: again[0].session.match, 5, lambda: "its match")
    assert again[0].session.match.key == first.session.match.key  # dealt as before
    ended = await (await people[0].slash("mahjong tournament end_round")).followup()
    assert ended.content.startswith("Again: the round is ended by the organiser. Tables closed now: 1")
    await devserver.wait_for_message(channel="general", predicate=lambda m: "standings after round 1" in m.content)
    second = await devserver.recorder.wait_until(
        lambda: [r for r in tournament_tables(bot) if r.session.table_id not in (first.session.table_id, again[0].session.table_id)],
        5, lambda: "round 2's table",
    )  # fmt: skip
    await devserver.recorder.wait_until(lambda: second[0].session.game, 5, lambda: "round 2's first hand")
    dropped = await (await people[0].slash("mahjong tournament drop", player=people[3])).message()
    assert dropped.content.startswith(f"{people[3].name} leaves Again")
    assert people[3].id in second[0].session.left  # AI play the seat from now (代打)
    cancelled = await (await people[0].slash("mahjong tournament cancel")).message()
    assert cancelled.content == "**Again** is cancelled; its running tables are closed."
    await devserver.recorder.wait_until(lambda: second[0].session.phase.closed, 5, lambda: "its table closed")
    store = await Store.open(database)
    try:
        assert (await store.tournament(1)).phase == "cancelled"
        gone = [e for e in await store.entrants(1) if e.status == "dropped"]
        assert [(e.user_id, e.dropped_round) for e in gone] == [(people[3].id, 2)]
        ended_table, playing = await store.round_tables(1)
        assert ended_table.table_id == again[0].session.table_id and ended_table.points == (0, 0, 0, 0)  # no hand settled
        assert playing.table_id == second[0].session.table_id and playing.points is None
    finally:
        await store.close()
    assert len(tournament_tables(bot)) == 0 or all(r.session.phase.closed for r in tournament_tables(bot))


@pytest.mark.devserver(members=PEOPLE[:4], channels=("general",), rate_limits=QUICK)
async def test_an_organisers_role_runs_a_tournament_whose_tables_keep_its_times_and_house_rules_in_their_own_threads(
    harness, devserver, tmp_path
):
    """/mahjong setup organisers gives a role the tournament commands (anyone else is refused privately);
    the tournament's turn and claim times and house rules are every table's, stored and kept through a
    restart; with threads on, each table plays in its own thread "Round 1 · Table 1" under the channel,
    with its players in it, archived once its match is over; the round's standings come as a picture beside
    the text, tie-break stated."""
    database = str(tmp_path / "mahjong.sqlite3")
    people = devserver.members(*PEOPLE[:4])
    organiser, everyday, manager = people[0], people[1], people[3]
    role = devserver.world.add_role("Organisers", organiser.record)  # before the bot connects: GUILD_CREATE has it
    organiser.record.permissions = everyday.record.permissions = MEMBER_PERMISSIONS
    bot = await harness.start(build_bot(timing=SCALED, database=database))
    refused = await (await organiser.slash("mahjong tournament create", name="Roles", round_count=1)).message()
    assert refused.content == "Only a member with Manage Server may create and run tournaments." and refused.ephemeral
    shown = await (await manager.slash("mahjong setup organisers", role=role)).message()
    assert f"members with Manage Server and members with <@&{role}>" in shown.content
    refused = await (await everyday.slash("mahjong tournament create", name="Roles", round_count=1)).message()
    assert refused.content == f"Only a member with Manage Server or the role <@&{role}> may create and run tournaments."
    bad = await (await organiser.slash("mahjong tournament create", name="Roles", round_count=1, house_rules="no such rule")).message()
    assert bad.ephemeral and "house rule" in bad.content.lower()

    made = await organiser.slash(
        "mahjong tournament create", name="Roles", round_count=1, hands=1, duplicate=False, ai_fill=False,
        turn_seconds=8, claim_seconds=10, house_rules="天胡 24", threads=True,
    )  # fmt: skip
    registration = await made.message()
    assert "Every table: turn 8 s, claims 10 s" in registration.text and "own thread" in registration.text
    for person in people:
        await (await person.click(registration, "Join")).message()
        await (await person.click(registration, "Check in")).message()
    refused = await (await everyday.slash("mahjong tournament start")).message()
    assert refused.ephemeral and "the role" in refused.content
    await (await organiser.slash("mahjong tournament start")).message()
    table = (await devserver.recorder.wait_until(lambda: tournament_tables(bot), 5, lambda: "round 1's table"))[0]
    general = devserver.channel("general")
    thread = devserver.world.channel(table.state.channel_id)
    assert thread.is_thread and thread.parent_id == general.id and thread.name == "Round 1 · Table 1"
    assert {p.id for p in people} <= thread.members
    options = table.state.settings.options
    assert (options.turn_seconds, options.claim_seconds, options.house_rules.to_dict()) == (8, 10, {"heavenly_tai": 24})

    await harness.stop(bot)  # the tournament's settings are stored: the table and the next ones keep them
    again = await harness.start(build_bot(timing=SCALED, database=database))
    final = await devserver.wait_for_message(
        channel="general", predicate=lambda m: "final standings" in m.content, timeout=30
    )
    assert "Ranked by points" in final.content
    assert [a.filename for a in final.attachments] == ["standings-1-1.png"]
    store = await Store.open(database)
    try:
        record = await store.tournament(1)
        (rt,) = await store.round_tables(1)
    finally:
        await store.close()
    assert (record.turn_seconds, record.claim_seconds, record.house_rules, record.threads) == (8, 10, {"heavenly_tai": 24}, True)
    assert rt.thread_id == thread.id and rt.points is not None
    resumed = [r for r in tournament_tables(again) if r.session.table_id == table.session.table_id]
    assert not resumed or resumed[0].state.settings.options.claim_seconds == 10
    assert not [m for m in devserver.recorder.in_channel(general.id) if "Match over" in m.text]  # the table's own posts: in its thread
    assert [m for m in devserver.recorder.in_channel(thread.id) if "Match over" in m.text]
    await devserver.recorder.wait_until(lambda: thread.archived, 10, lambda: "the finished table's thread archived")


@pytest.mark.devserver(members=PEOPLE[:5], channels=("general",), rate_limits=QUICK)
async def test_a_person_takes_a_players_seat_mid_round_gets_the_hand_and_the_seats_result_counts_for_them(
    harness, devserver, tmp_path
):
    """/mahjong tournament replace: a member who never entered takes a player's seat in the match in
    play; their hand comes by DM (the leaver's DM is not edited to it), the table's stored seats and the
    round's seating name them, and the stated rule holds: the seat's result of the round counts for the
    one who took it, the replaced player is dropped with no result for it."""
    database = str(tmp_path / "mahjong.sqlite3")
    bot = await harness.start(build_bot(database=database))  # real turn times: the match waits for people
    people = devserver.members(*PEOPLE[:5])
    newcomer, leaver = people[4], people[3]
    made = await people[0].slash("mahjong tournament create", name="Sub", round_count=1, hands=1, ai_fill=False)
    registration = await made.message()
    for person in people[:4]:
        await (await person.click(registration, "Join")).message()
        await (await person.click(registration, "Check in")).message()
    await (await people[0].slash("mahjong tournament start")).message()
    table = (await devserver.recorder.wait_until(lambda: tournament_tables(bot), 5, lambda: "round 1's table"))[0]
    await devserver.recorder.wait_until(lambda: table.session.game, 5, lambda: "its first hand")
    seat = table.session.seating.seat_of_user(leaver.id)
    people[1].record.permissions = MEMBER_PERMISSIONS
    refused = await (await people[1].slash("mahjong tournament replace", player=leaver, by=newcomer)).message()
    assert refused.ephemeral and refused.content.startswith("Only a member with Manage Server")
    # the round's tables play the same walls (duplicate): someone who follows one of them face up cannot sit
    bot.get_cog("Mahjong").registry.watchers[table.session.table_id] = Watchers(
        bot.get_cog("Mahjong"), table, thread_id=1, spectators={newcomer.id: "en"}
    )
    watched = await (await people[0].slash("mahjong tournament replace", player=leaver, by=newcomer)).message()
    assert watched.ephemeral and "play the same walls" in watched.content
    assert table.session.seating.seat_of_user(leaver.id) == seat
    del bot.get_cog("Mahjong").registry.watchers[table.session.table_id]
    before = len(devserver.recorder.private_to(newcomer.id))
    done = await (await people[0].slash("mahjong tournament replace", player=leaver, by=newcomer)).message()
    assert done.content.startswith(f"{newcomer.name} takes {leaver.name}'s seat in Sub (round 1, table 1)")
    assert table.session.seating.seat_of_user(newcomer.id) == seat and table.session.seating.seat_of_user(leaver.id) is None
    await devserver.recorder.wait_until(  # the newcomer's hand, in their DMs
        lambda: len(devserver.recorder.private_to(newcomer.id)) > before, 5, lambda: "the newcomer's hand DM"
    )
    again = await (await people[0].slash("mahjong tournament replace", player=leaver, by=people[2])).message()
    assert again.ephemeral and "has no seat" in again.content
    await harness.stop(bot)  # the seat is stored with the newcomer: the restored table seats them
    bot = await harness.start(build_bot(database=database))
    restored = await devserver.recorder.wait_until(
        lambda: [r for r in tournament_tables(bot) if r.session.table_id == table.session.table_id], 10, lambda: "restored"
    )  # fmt: skip
    assert restored[0].state.seats and newcomer.id in {s.user_id for s in restored[0].state.seats}
    assert leaver.id not in {s.user_id for s in restored[0].state.seats}

    ended = await (await people[0].slash("mahjong tournament end_round")).followup()
    assert "Tables closed now: 1" in ended.content
    final = await devserver.wait_for_message(channel="general", predicate=lambda m: "final standings" in m.content)
    rows = [line.split()[1] for line in final.content.splitlines() if line[:2].strip().isdigit()]
    assert newcomer.name in rows and leaver.name not in rows and len(rows) == 4
    record, entrants, tables, matches = await stored(database, 1)
    status = {e.user_id: (e.status, e.dropped_round) for e in entrants}
    assert status[newcomer.id] == ("checked_in", None) and status[leaver.id] == ("dropped", 0)
    (rt,) = tables
    assert newcomer.id in rt.seats and leaver.id not in rt.seats
    with sqlite3.connect(database) as db:  # the table's stored seats (ended early: no finished match)
        seated = {user for (user,) in db.execute("SELECT user_id FROM seats WHERE table_id = ?", (rt.table_id,))}
    assert newcomer.id in seated and leaver.id not in seated
