"""The lease fences a table's writes (PostgreSQL migration 0015, PgDriver.fence): once another process
has claimed a table, the process that ran it before stores no more of its hand — no move, no deadline, no
new hand, no result — so the new owner's replay (read right after its claim) holds every stored move and
nothing is stored behind its back. And the journal of the process that lost the lease answers the click
whose move was refused with "the table is moving, press again", never as made (the defect of the loaded
100-table run: 24 answered moves lost after a late renewal, with a KeyError on ``hand_ids``).

Two processes are two Stores on one throw-away PostgreSQL server, each fenced with its own name; a lease
claimed with a ttl of 0 has run out at once, so the takeover needs no waiting."""

from __future__ import annotations

import asyncio
import logging

import asyncpg
import pytest

from cogs.mahjong.journal import Journal
from data import Store, StoreFenced
from data.leases import Leases
from data.mailbox import Mailbox
from data.postgres import FENCED
from table.lobby import TableError

HEADER = {"rules": "taiwan16", "seed": "x"}


async def fenced(target: str, owner: str) -> tuple[Store, Leases]:
    store = await Store.open(target)
    await store.driver.fence(owner)  # type: ignore[attr-defined]
    return store, Leases(store.driver.pool, owner, ttl=0.0)  # type: ignore[attr-defined]


async def a_table(store: Store) -> int:
    record = await store.create_table(
        guild_id=1, channel_id=10, host_id=3, rules="taiwan16", rounds=1, options={}, password_hash=None
    )
    return record.id


async def stored_moves(store: Store, table_id: int) -> list[list[str]]:
    (saved,) = await store.unfinished_tables(only={table_id})
    return [list(hand.actions) for hand in saved.hands]


async def test_a_process_whose_table_was_taken_over_stores_nothing_more_of_it(pg_target: str) -> None:
    (a, a_leases), (b, b_leases) = await fenced(pg_target, "a"), await fenced(pg_target, "b")
    try:
        table = await a_table(a)
        await a.set_phase(table, "playing")
        assert await a_leases.claim(table)
        hand = await a.start_hand(table, 1, HEADER)
        await a.append_actions(hand, [(0, "0 discard 5m", None)])
        # a's renewal comes late: its lease (ttl 0) has run out, and b takes the table over
        assert await b_leases.claim_many([table]) == {table}
        assert await stored_moves(b, table) == [["0 discard 5m"]]  # b replays what a stored before the claim
        with pytest.raises(StoreFenced):
            await a.append_actions(hand, [(1, "1 discard 9p", None)])
        with pytest.raises(StoreFenced):
            await a.append_action(hand, 1, "1 discard 9p", None)
        with pytest.raises(StoreFenced):
            await a.set_deadline(hand, 99.0)
        with pytest.raises(StoreFenced):
            await a.start_hand(table, 2, HEADER)
        # the new owner plays on from the stored moves: its move 1 is stored, a's never was
        await b.append_actions(hand, [(1, "1 discard 1s", 5.0)])
        assert await stored_moves(a, table) == [["0 discard 5m", "1 discard 1s"]]
        (saved,) = await a.unfinished_tables(only={table})
        assert saved.hands[0].deadline == 5.0, "a's refused deadline left b's in place"
    finally:
        await a.close()
        await b.close()


async def test_moves_of_many_tables_in_one_batch_are_fenced_table_by_table(pg_target: str) -> None:
    """The moves of every table arriving together go in one INSERT (data.batch): one table taken over
    refuses its own moves only, the other tables' moves are stored."""
    (a, a_leases), (b, b_leases) = await fenced(pg_target, "a"), await fenced(pg_target, "b")
    try:
        kept, taken = await a_table(a), await a_table(a)
        assert await a_leases.claim_many([kept, taken]) == {kept, taken}
        hands = {t: await a.start_hand(t, 1, HEADER) for t in (kept, taken)}
        assert await b_leases.claim_many([taken]) == {taken}
        outcomes = await asyncio.gather(
            a.append_actions(hands[kept], [(0, "0 discard 5m", None)]),
            a.append_actions(hands[taken], [(0, "0 discard 5m", None)]),
            return_exceptions=True,
        )
        assert outcomes[0] is None and isinstance(outcomes[1], StoreFenced)
        assert await stored_moves(b, kept) == [["0 discard 5m"]] and await stored_moves(b, taken) == [[]]
    finally:
        await a.close()
        await b.close()


async def test_a_store_that_names_no_process_and_a_table_without_a_lease_are_not_fenced(pg_target: str) -> None:
    """One process alone on PostgreSQL, and the tools, name no process; a table nobody claimed is free."""
    plain = await Store.open(pg_target)
    (b, b_leases) = await fenced(pg_target, "b")
    try:
        table, unleased = await a_table(plain), await a_table(plain)
        assert await b_leases.claim(table)
        hand = await plain.start_hand(table, 1, HEADER)
        await plain.append_actions(hand, [(0, "0 discard 5m", None)])
        other = await b.start_hand(unleased, 1, HEADER)
        await b.append_actions(other, [(0, "0 discard 5m", None)])
        assert await stored_moves(b, table) == [["0 discard 5m"]]
        assert await stored_moves(b, unleased) == [["0 discard 5m"]]
    finally:
        await plain.close()
        await b.close()


async def test_the_journal_of_a_table_taken_over_refuses_the_click_and_stops_the_table(
    pg_target: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The runner answers a click once ``flush()`` returns: a move refused for the lease must make flush
    refuse (the person is told to press again), and the table must stop here (``on_lost``). A hand
    started after the takeover is refused too, and its moves are refused with it (no KeyError)."""
    (a, a_leases), (b, b_leases) = await fenced(pg_target, "a"), await fenced(pg_target, "b")
    lost: list[int] = []
    try:
        table = await a_table(a)
        assert await a_leases.claim(table)
        journal = Journal(a, table, on_lost=lambda: lost.append(table))
        journal.hand(1, HEADER)
        journal.move(1, 0, "0 discard 5m", None)
        await journal.flush()  # stored: the click is answered as made
        assert await b_leases.claim_many([table]) == {table}
        journal.move(1, 1, "1 discard 9p", None)
        journal.hand(2, HEADER)
        journal.move(2, 0, "0 discard 1s", None)
        with caplog.at_level(logging.WARNING), pytest.raises(TableError) as refused:
            await journal.flush()
        assert refused.value.key == "err.table_moving"
        assert lost == [table] and journal.lost
        journal.move(1, 2, "2 discard 2s", None)  # a click that still got in: nothing written, refused
        with pytest.raises(TableError):
            await journal.flush()
        await journal.close()
        assert await stored_moves(b, table) == [["0 discard 5m"]]
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "no write failed as a bug"
    finally:
        await a.close()
        await b.close()


async def test_a_journal_whose_hand_was_refused_refuses_that_hands_writes_without_a_keyerror(
    target: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The 100-table run's KeyError: a hand whose start was refused (here: stored twice, a bug) left no
    hand id, and its moves raised KeyError out of the writer. They are refused and logged instead, and
    the writer goes on with the next writes."""
    store = await Store.open(target)
    try:
        table = await a_table(store)
        await store.start_hand(table, 1, {"other": "header"})
        journal = Journal(store, table)
        journal.hand(1, HEADER)  # refused: hand 1 is stored already
        journal.move(1, 0, "0 discard 5m", None)
        journal.deadline(1, 3.0)
        journal.phase("playing")
        with caplog.at_level(logging.ERROR):
            await journal.flush()
        assert not journal.lost
        assert sum("has no hand 1" in r.getMessage() for r in caplog.records) == 2
        assert not [r for r in caplog.records if r.exc_info and r.exc_info[0] is KeyError]
        assert (await store.table(table)).phase == "playing", "the writes after them were stored"
        await journal.close()
    finally:
        await store.close()


async def test_a_live_owners_lease_that_ran_out_a_moment_ago_is_not_claimed_by_a_process_starting(
    pg_target: str,
) -> None:
    """The loaded run's double owner: a process started again claims every stored table (``claim`` at
    start-up), and took those of the survivor, alive but renewing late, whose leases had run out a moment
    before. A live owner (its mailbox connection up) keeps them a ttl longer, as ``expired()`` says; a
    dead owner's run-out lease is taken at once."""
    store = await Store.open(pg_target)
    try:
        pool = store.driver.pool  # type: ignore[attr-defined]
        late, dead, starting = Leases(pool, "late", ttl=0.0), Leases(pool, "dead", ttl=0.0), Leases(pool, "new", ttl=60)
        one, two = await a_table(store), await a_table(store)
        assert await late.claim(one) and await dead.claim(two)  # a ttl of 0: both ran out at once
        mailbox = await Mailbox.open(pg_target, name="late", on_message=lambda message: None)
        try:
            assert not await starting.claim(one), "the late owner still plays it"
            assert await starting.claim_many([one, two]) == {two}
            assert await late.renew({one}) == {one}, "its late renewal finds the table still its own"
            lease = await starting.owner_of(one)
            assert lease is not None and (lease.owner, lease.generation) == ("late", 1)
        finally:
            await mailbox.close()
        assert await late.claim(one) and await late.claim(one), "one's own lease is claimed again at any time"
    finally:
        await store.close()


async def test_a_silent_owners_tables_are_taken_before_their_leases_run_out_a_listening_owners_never(
    pg_target: str,
) -> None:
    """The takeover's slowest step was waiting out a SIGKILLed owner's lease (8 s): its mailbox connection
    closes at once, so its tables are listed as ``silent`` and claimed at once when asked (the fence
    makes that safe should it be alive after all); a listening owner's unexpired lease is never taken."""
    store = await Store.open(pg_target)
    try:
        pool = store.driver.pool  # type: ignore[attr-defined]
        dead, alive, taker = Leases(pool, "dead", ttl=60), Leases(pool, "alive", ttl=60), Leases(pool, "c", ttl=60)
        one, two = await a_table(store), await a_table(store)
        for table in (one, two):
            await store.set_phase(table, "playing")
        assert await dead.claim(one) and await alive.claim(two)
        mailbox = await Mailbox.open(pg_target, name="alive", on_message=lambda message: None)
        try:
            assert await taker.silent() == [(one, "dead")]
            assert await taker.claim_many([one, two]) == set(), "unexpired: not taken unless asked"
            assert await taker.claim_many([one, two], silent=True) == {one}
            assert await taker.silent() == []
            lease = await taker.owner_of(one)
            assert lease is not None and (lease.owner, lease.generation) == ("c", 2)
            assert await dead.renew({one}) == set(), "the owner, were it alive, learns it at its renewal"
        finally:
            await mailbox.close()
    finally:
        await store.close()


async def test_a_claim_waits_for_the_old_owners_write_under_way_which_the_new_owner_then_reads(
    pg_target: str,
) -> None:
    """The race the fence's lock closes: a's move is being stored (its transaction open) when b claims the
    table. b's claim waits until a's write commits, so b's replay holds that move; a's next write, after the
    claim, is refused. (Without the lock, b could read the table before a's write committed, and a's
    answered move would be missing from b's game.)"""
    (a, a_leases), (b, b_leases) = await fenced(pg_target, "a"), await fenced(pg_target, "b")
    writer = await asyncpg.connect(pg_target, server_settings={"mahjong.owner": "a"})
    try:
        table = await a_table(a)
        assert await a_leases.claim(table)
        hand = await a.start_hand(table, 1, HEADER)
        under_way = writer.transaction()
        await under_way.start()
        await writer.execute("INSERT INTO moves (hand_id, move_no, action) VALUES ($1, 0, '0 discard 5m')", hand)
        claim = asyncio.ensure_future(b_leases.claim_many([table]))
        for _ in range(2000):  # until b's claim is seen waiting for the lock (each look is a round trip)
            waiting = await b.driver.pool.fetchval(  # type: ignore[attr-defined]
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            )
            if waiting:
                break
        assert waiting == 1 and not claim.done(), "the claim waits for the write under way"
        await under_way.commit()
        assert await claim == {table}
        assert await stored_moves(b, table) == [["0 discard 5m"]]
        with pytest.raises(asyncpg.PostgresError, match="run by b") as refused:
            await writer.execute("INSERT INTO moves (hand_id, move_no, action) VALUES ($1, 1, '1 discard 9p')", hand)
        assert refused.value.sqlstate == FENCED
    finally:
        await writer.close()
        await a.close()
        await b.close()
