"""Round trips of every Store method: what is written comes back the same, and misuse is refused."""

from __future__ import annotations

import asyncio

import pytest

from data import DuplicateMove, SeatRecord, Standing, StoreClosed, StoreConflict
from data.store import Store
from tests.data.conftest import Clock, new_table, play_hand, seats_for


async def test_memory_database_works() -> None:
    store = await Store.open(":memory:")
    table = await new_table(store, [1, 2, 3, 4])
    assert (await store.table(table.id)).phase == "playing"
    await store.close()


async def test_create_table_round_trip(store: Store, clock: Clock) -> None:
    options = {"flowers": True, "base": 100, "per_tai": 20, "名": "滿台"}
    table = await store.create_table(
        guild_id=1, channel_id=2, host_id=3, rules="hongkong", rounds=4, options=options, password_hash="h$1"
    )
    assert table.phase == "lobby" and table.seats == () and table.created_at == clock.now
    assert (table.guild_id, table.channel_id, table.host_id, table.rules, table.rounds) == (
        1,
        2,
        3,
        "hongkong",
        4,
    )
    assert table.options == options and table.password_hash == "h$1"
    assert table.lobby_message_id is None and table.table_message_id is None
    assert await store.table(table.id) == table
    assert await store.table_in_channel(2) == table


async def test_seats_replace_the_previous_seats(store: Store) -> None:
    table = await store.create_table(
        guild_id=1, channel_id=2, host_id=3, rules="taiwan16", rounds=1, options={}, password_hash=None
    )
    await store.set_seats(table.id, seats_for([3, None]))
    seats = (
        SeatRecord(0, 3, "host"),
        SeatRecord(1, 9, "guest"),
        SeatRecord(2, None, "AI 2", "strong"),
        SeatRecord(3, None, "AI 3", "simple"),
    )
    await store.set_seats(table.id, seats)
    assert (await store.table(table.id)).seats == seats
    assert [s.is_ai for s in seats] == [False, False, True, True]


async def test_set_phase_options_and_messages_change_only_what_is_given(store: Store) -> None:
    table = await store.create_table(
        guild_id=1, channel_id=2, host_id=3, rules="taiwan16", rounds=1, options={"a": 1}, password_hash="pw"
    )
    await store.set_options(table.id, rounds=2)
    got = await store.table(table.id)
    assert (got.rules, got.rounds, got.options, got.password_hash) == ("taiwan16", 2, {"a": 1}, "pw")
    await store.set_options(table.id, rules="taiwan13", options={"b": 2}, password_hash=None)
    got = await store.table(table.id)
    assert (got.rules, got.rounds, got.options, got.password_hash) == ("taiwan13", 2, {"b": 2}, None)
    await store.set_messages(table.id, lobby_message_id=111)
    await store.set_messages(table.id, table_message_id=222)
    got = await store.table(table.id)
    assert (got.lobby_message_id, got.table_message_id) == (111, 222)
    await store.set_phase(table.id, "closed")
    assert (await store.table(table.id)).phase == "closed"
    assert await store.table_in_channel(2) is None
    with pytest.raises(ValueError):
        await store.set_phase(table.id, "napping")


async def test_unknown_table_is_a_conflict(store: Store) -> None:
    with pytest.raises(StoreConflict, match="has no table 99"):
        await store.set_phase(99, "over")
    with pytest.raises(StoreConflict):
        await store.set_seats(99, seats_for([1]))
    with pytest.raises(StoreConflict):
        await store.start_hand(99, 1, {})


async def test_unfinished_table_replays_from_header_and_actions(store: Store) -> None:
    table = await new_table(store, [1, 2, None, None])
    first = await play_hand(store, table.id, 1, deltas=[30, -10, -10, -10], winner=0, total=4, moves=2)
    second = await store.start_hand(table.id, 2, {"rules": "taiwan16", "seed": 2, "dealer": 1})
    await store.append_action(second, 0, "1 discard 7z", 50.0)
    await store.append_action(second, 1, "2 pon", 60.0)
    await store.set_deadline(second, 75.0)
    lobby = await store.create_table(
        guild_id=1, channel_id=11, host_id=5, rules="taiwan13", rounds=1, options={}, password_hash=None
    )
    [saved, saved_lobby] = await store.unfinished_tables()
    assert saved.table == await store.table(table.id)
    assert saved.match_header == {"rules": "taiwan16", "rounds": 1}
    assert [h.id for h in saved.hands] == [first, second]
    done, live = saved.hands
    assert done.result == {"winner": 0, "total": 4} and done.deadline is None
    assert done.actions == ["0 discard 1m", "1 discard 2m"]
    assert live.header == {"rules": "taiwan16", "seed": 2, "dealer": 1}
    assert live.actions == ["1 discard 7z", "2 pon"]
    assert live.deadline == 75.0 and live.result is None
    assert saved_lobby.table == lobby and saved_lobby.match_header is None and saved_lobby.hands == []


async def test_moves_keep_their_order_whatever_the_insert_order(store: Store) -> None:
    table = await new_table(store, [1, 2, 3, 4])
    hand = await store.start_hand(table.id, 1, {})
    for move in (2, 0, 1):
        await store.append_action(hand, move, f"move {move}", None)
    [saved] = await store.unfinished_tables()
    assert saved.hands[0].actions == ["move 0", "move 1", "move 2"]


async def test_duplicate_move_is_refused_and_the_first_kept(store: Store) -> None:
    table = await new_table(store, [1, 2, 3, 4])
    hand = await store.start_hand(table.id, 1, {})
    await store.append_action(hand, 0, "0 discard 1m", 10.0)
    with pytest.raises(DuplicateMove) as caught:
        await store.append_action(hand, 0, "0 discard 9m", 20.0)
    assert not caught.value.retryable and "move 0 of hand" in str(caught.value)
    [saved] = await store.unfinished_tables()
    assert saved.hands[0].actions == ["0 discard 1m"] and saved.hands[0].deadline == 10.0


async def test_a_burst_of_moves_is_stored_in_order_and_a_refused_move_keeps_the_prefix(store: Store) -> None:
    table = await new_table(store, [1, 2, 3, 4])
    hand = await store.start_hand(table.id, 1, {})
    await store.append_actions(hand, [(0, "0 discard 1m", None), (1, "1 discard 2m", 30.0)])
    with pytest.raises(DuplicateMove):  # move 1 again: refused; the move before it stands whole
        await store.append_actions(hand, [(2, "2 discard 3m", None), (1, "1 discard 9m", None)])
    [saved] = await store.unfinished_tables()
    assert saved.hands[0].actions == ["0 discard 1m", "1 discard 2m", "2 discard 3m"]


async def test_moves_of_many_tables_at_once_are_each_stored_in_order_with_their_deadline(store: Store) -> None:
    """Concurrent tables' moves go in together (data.batch): each hand keeps its own order and deadline."""
    hands = []
    for n in range(6):
        table = await new_table(store, [10 * n + 1, 10 * n + 2, 10 * n + 3, 10 * n + 4], channel_id=100 + n)
        hands.append(await store.start_hand(table.id, 1, {}))

    async def play(index: int, hand: int) -> None:
        for move in range(0, 8, 2):
            await store.append_actions(
                hand, [(move, f"{index} discard {move + 1}m", None), (move + 1, f"{index} discard 9p", float(move))]
            )

    await asyncio.gather(*(play(i, h) for i, h in enumerate(hands)))
    saved = {t.table.id: t for t in await store.unfinished_tables()}
    assert len(saved) == 6
    for index, table in enumerate(sorted(saved.values(), key=lambda t: t.table.id)):
        [hand] = table.hands
        assert hand.actions == [a for move in range(0, 8, 2) for a in (f"{index} discard {move + 1}m", f"{index} discard 9p")]
        assert hand.deadline == 6.0


async def test_a_refused_move_among_other_tables_moves_is_refused_alone(store: Store) -> None:
    """A batch with one bad request is rolled back and written request by request: the others are stored,
    the bad one keeps its prefix and raises, as it would alone."""
    first = await store.start_hand((await new_table(store, [1, 2, 3, 4], channel_id=201)).id, 1, {})
    second = await store.start_hand((await new_table(store, [5, 6, 7, 8], channel_id=202)).id, 1, {})
    await store.append_actions(first, [(0, "0 discard 1m", None)])
    results = await asyncio.gather(
        store.append_actions(first, [(1, "1 discard 2m", None), (0, "0 discard 9m", None)]),
        store.append_actions(second, [(0, "0 discard 5p", 7.0)]),
        return_exceptions=True,
    )
    assert isinstance(results[0], DuplicateMove) and results[1] is None
    saved = {t.hands[0].actions[0]: t.hands[0] for t in await store.unfinished_tables()}
    assert saved["0 discard 1m"].actions == ["0 discard 1m", "1 discard 2m"]
    assert saved["0 discard 5p"].actions == ["0 discard 5p"] and saved["0 discard 5p"].deadline == 7.0


async def test_hand_numbers_are_unique_per_table_and_moves_need_a_hand(store: Store) -> None:
    table = await new_table(store, [1, 2, 3, 4])
    await store.start_hand(table.id, 1, {})
    with pytest.raises(StoreConflict, match="already has hand 1"):
        await store.start_hand(table.id, 1, {})
    with pytest.raises(StoreConflict, match="has no hand 404"):
        await store.append_action(404, 0, "x", None)
    with pytest.raises(StoreConflict):
        await store.set_deadline(404, 1.0)


async def test_finish_hand_twice_or_with_wrong_seat_count_is_refused(store: Store) -> None:
    table = await new_table(store, [1, 2, 3, 4])
    hand = await store.start_hand(table.id, 1, {})
    with pytest.raises(StoreConflict, match="3 point changes for the 4 seats"):
        await store.finish_hand(
            hand, result={}, deltas=[1, -1, 0], winner=0, loser=1, self_drawn=False, total=1
        )
    await store.finish_hand(
        hand, result={}, deltas=[0, 0, 0, 0], winner=None, loser=None, self_drawn=False, total=0
    )
    with pytest.raises(StoreConflict, match="already has the result"):
        await store.finish_hand(
            hand, result={}, deltas=[0, 0, 0, 0], winner=None, loser=None, self_drawn=False, total=0
        )


async def test_finish_match_records_standings_and_ends_the_table(store: Store, clock: Clock) -> None:
    table = await new_table(store, [1, None, 2, 3], names=["Ann", "Bot", "Cid", "Dee"])
    await play_hand(store, table.id, 1, deltas=[-5, 20, -10, -5], winner=1, loser=2, total=3)
    clock.advance(60)
    await store.finish_match(table.id, [995, 1020, 990, 995])
    got = await store.table(table.id)
    assert got.phase == "over"
    assert await store.unfinished_tables() == [] and await store.table_in_channel(10) is None
    [summary] = await store.history(1)
    assert summary.table_id == table.id and summary.rules == "taiwan16" and summary.hands == 1
    assert summary.finished_at == clock.now
    assert summary.standings == (
        Standing("Bot", None, 1020),
        Standing("Ann", 1, 995),
        Standing("Dee", 3, 995),
        Standing("Cid", 2, 990),
    )
    name, user, score = summary.standings[0]
    assert (name, user, score) == ("Bot", None, 1020)
    with pytest.raises(StoreConflict):
        await store.finish_match(table.id, [0, 0, 0, 0])


async def test_match_can_start_once(store: Store) -> None:
    table = await new_table(store, [1, 2, 3, 4])
    with pytest.raises(StoreConflict, match="already has a match"):
        await store.start_match(table.id, {})


async def test_finished_hand_is_shown_only_in_its_own_server(store: Store) -> None:
    table = await new_table(store, [1, 2, 3, 4], guild_id=7, names=["東", "南", "西", "北"])
    result = {"items": [["門清", 1], ["自摸", 1]], "total": 2, "deltas": [60, -20, -20, -20]}
    hand = await play_hand(store, table.id, 1, deltas=[60, -20, -20, -20], winner=0, total=2)
    hand_id = await store.start_hand(table.id, 2, {})
    await store.finish_hand(
        hand_id, result=result, deltas=[60, -20, -20, -20], winner=0, loser=None, self_drawn=True, total=2
    )
    got = await store.finished_hand(7, hand_id)
    assert got.result == result and got.names == ("東", "南", "西", "北")
    assert (got.table_id, got.hand_no, got.rules) == (table.id, 2, "taiwan16")
    assert await store.finished_hand(8, hand_id) is None  # another server
    assert await store.finished_hand(7, 9999) is None
    assert (await store.finished_hand(7, hand)).hand_no == 1
    live = await store.start_hand(table.id, 3, {})
    assert await store.finished_hand(7, live) is None  # still being played


async def test_history_is_newest_first_limited_and_per_server(store: Store, clock: Clock) -> None:
    ids = []
    for n in range(4):
        guild = 1 if n != 2 else 2
        table = await new_table(store, [1, 2, 3, 4], guild_id=guild, channel_id=100 + n)
        await store.finish_match(table.id, [n, 0, 0, 0])
        clock.advance()
        ids.append(table.id)
    assert [m.table_id for m in await store.history(1)] == [ids[3], ids[1], ids[0]]
    assert [m.table_id for m in await store.history(1, limit=2)] == [ids[3], ids[1]]
    assert [m.table_id for m in await store.history(2)] == [ids[2]]
    assert await store.history(3) == []


async def test_data_survives_close_and_reopen(target: str, clock: Clock) -> None:
    store = await Store.open(target, clock=clock)
    table = await new_table(store, [1, 2, 3, None])
    hand = await store.start_hand(table.id, 1, {"seed": 5})
    await store.append_action(hand, 0, "0 discard 5m", 3.5)
    before = await store.unfinished_tables()
    await store.close()
    store = await Store.open(target, clock=clock)
    assert await store.unfinished_tables() == before
    await store.close()


async def test_a_closed_store_says_so_and_is_not_retried(target: str) -> None:
    store = await Store.open(target)
    table = await new_table(store, [1, 2, 3, 4])
    await store.close()
    await store.close()  # twice is harmless
    with pytest.raises(StoreClosed) as caught:
        await store.append_action(1, 0, "0 discard 1m", None)
    assert not caught.value.retryable and "is closed" in str(caught.value)
    with pytest.raises(StoreClosed):
        await store.set_phase(table.id, "over")
    with pytest.raises(StoreClosed):
        await store.leaderboard(1)


async def test_a_read_sees_every_write_begun_before_it(store: Store) -> None:
    """The runner stores a match's end without waiting and posts the standings; a /history right after
    must show the match, on PostgreSQL's pool of connections as on SQLite's one."""
    tables = [await new_table(store, [1, 2, 3, 4], channel_id=100 + n) for n in range(5)]
    writes = [asyncio.create_task(store.finish_match(t.id, [n, 0, 0, 0])) for n, t in enumerate(tables)]
    await asyncio.sleep(0)  # every write has begun, none has finished
    assert not any(w.done() for w in writes)
    assert {m.table_id for m in await store.history(1)} == {t.id for t in tables}
    await asyncio.gather(*writes)


async def test_many_tables_writing_at_once_each_keep_every_move_in_order(store: Store) -> None:
    """As at a busy bot: every table's writes run side by side (PostgreSQL's pool has fewer connections
    than there are tables), each table's own in order."""
    tables = await asyncio.gather(*(new_table(store, [1, 2, 3, 4], channel_id=200 + n) for n in range(20)))
    assert len({t.id for t in tables}) == 20

    async def play(table_id: int) -> int:
        hand = await store.start_hand(table_id, 1, {"seed": table_id})
        for move in range(30):
            await store.append_action(hand, move, f"{move % 4} discard {move % 9 + 1}p", float(move))
        return hand

    hands = await asyncio.gather(*(play(t.id) for t in tables))
    saved = {s.table.id: s for s in await store.unfinished_tables()}
    for table, hand in zip(tables, hands, strict=True):
        [stored] = saved[table.id].hands
        assert stored.id == hand and stored.deadline == 29.0
        assert stored.actions == [f"{m % 4} discard {m % 9 + 1}p" for m in range(30)]


async def test_a_delayed_tables_spectators_and_thread_are_kept_until_its_match_ends(store: Store) -> None:
    """Issue 37, item 12: watchers are stored, so a restart keeps them (cogs/mahjong/watch.py)."""
    table = await new_table(store, [1, 2, 3, 4])
    assert await store.spectator_thread(table.id) is None
    thread = 2**62 + 5  # Discord ids need 64 bits
    await store.open_spectator_thread(table.id, thread, revealed=2)
    await store.add_spectator(table.id, 2**60 + 9, "zh-TW")
    await store.add_spectator(table.id, 7, "en")
    await store.add_spectator(table.id, 7, "zh-CN")  # again: their language now
    await store.spectator_thread_shown(table.id, 3)
    kept = await store.spectator_thread(table.id)
    assert kept is not None and (kept.thread_id, kept.revealed) == (thread, 3)
    assert kept.spectators == ((7, "zh-CN"), (2**60 + 9, "zh-TW"))
    await store.remove_spectator(table.id, 7)
    assert (await store.spectator_thread(table.id)).spectators == ((2**60 + 9, "zh-TW"),)
    await store.forget_spectators(table.id)
    assert await store.spectator_thread(table.id) is None
