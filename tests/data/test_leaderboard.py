"""Leaderboards, player stats: ranking, paging, rules and period filters, AI seats, server isolation."""

from __future__ import annotations

import asyncio
from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from data.store import Store
from tests.conftest import BACKENDS
from tests.data.conftest import Clock, new_table, play_hand


async def test_ranked_by_points_with_every_number(store: Store) -> None:
    table = await new_table(store, [1, 2, 3, 4], names=["Ann", "Bo", "Cy", "Di"])
    await play_hand(store, table.id, 1, deltas=[90, -30, -30, -30], winner=0, total=8)  # Ann self-draws 8
    await play_hand(store, table.id, 2, deltas=[-20, 20, 0, 0], winner=1, loser=0, total=2)  # Ann deals in
    await play_hand(store, table.id, 3, deltas=[0, 0, 0, 0], winner=None)  # draw game
    await play_hand(store, table.id, 4, deltas=[10, 0, -10, 0], winner=0, loser=2, total=3)
    rows = await store.leaderboard(1)
    assert [(r.rank, r.name, r.points) for r in rows] == [
        (1, "Ann", 80),
        (2, "Bo", -10),
        (3, "Di", -30),
        (4, "Cy", -40),
    ]
    ann = rows[0]
    assert (ann.user_id, ann.matches, ann.hands, ann.wins, ann.self_draws, ann.deal_ins, ann.best_tai) == (
        1,
        1,
        4,
        2,
        1,
        1,
        8,
    )
    assert (ann.win_rate, ann.self_draw_rate, ann.deal_in_rate) == (0.5, 0.5, 0.25)
    cy = rows[3]
    assert (cy.wins, cy.best_tai, cy.win_rate, cy.self_draw_rate, cy.deal_in_rate) == (
        0,
        None,
        0.0,
        0.0,
        0.25,
    )


async def test_ties_go_to_more_wins_then_fewer_hands_then_user_id(store: Store) -> None:
    table = await new_table(store, [40, 30, 20, 10])
    await play_hand(store, table.id, 1, deltas=[10, -10, 0, 0], winner=0, loser=1, total=1)
    await play_hand(store, table.id, 2, deltas=[-10, 10, 0, 0], winner=1, loser=0, total=1)
    await play_hand(store, table.id, 3, deltas=[0, 0, 10, -10], winner=2, loser=3, total=1)
    await play_hand(store, table.id, 4, deltas=[0, 0, -10, 10], winner=3, loser=2, total=1)
    # everyone: 0 points, 1 win, 4 hands -> user id decides
    assert [r.user_id for r in await store.leaderboard(1)] == [10, 20, 30, 40]
    other = await new_table(store, [50, None, None, None], channel_id=11)
    await play_hand(store, other.id, 1, deltas=[0, 0, 0, 0], winner=None)  # 0 points, 0 wins, 1 hand
    await play_hand(store, other.id, 2, deltas=[5, -5, 0, 0], winner=0, loser=1, total=1)
    await play_hand(store, other.id, 3, deltas=[-5, 5, 0, 0], winner=1, loser=0, total=1)
    # user 50: 0 points, 1 win, 3 hands -> ahead of the 4-hand players
    assert [r.user_id for r in await store.leaderboard(1)] == [50, 10, 20, 30, 40]


async def test_name_is_the_latest_one(store: Store, clock: Clock) -> None:
    first = await new_table(store, [1, 2, 3, 4], names=["old name", "b", "c", "d"])
    await play_hand(store, first.id, 1, deltas=[5, -5, 0, 0], winner=0, loser=1, total=1)
    clock.advance(10)
    second = await new_table(store, [1, 2, 3, 4], channel_id=11, names=["new name", "b", "c", "d"])
    await play_hand(store, second.id, 1, deltas=[5, -5, 0, 0], winner=0, loser=1, total=1)
    [top, *_] = await store.leaderboard(1)
    assert (top.name, top.matches, top.hands) == ("new name", 2, 2)
    assert (await store.player_stats(1, 1)).name == "new name"


async def test_paging_continues_the_ranks(store: Store) -> None:
    for n in range(5):  # users 100..119, user 100+k ends with k points... in some order
        users = [100 + 4 * n + s for s in range(4)]
        table = await new_table(store, users, channel_id=10 + n)
        await play_hand(store, table.id, 1, deltas=[4 * n + s for s in range(4)], winner=None)
    assert await store.leaderboard_count(1) == 20
    pages = [await store.leaderboard(1, limit=6, offset=o) for o in (0, 6, 12, 18)]
    assert [len(p) for p in pages] == [6, 6, 6, 2]
    flat = [r for page in pages for r in page]
    assert [r.rank for r in flat] == list(range(1, 21))
    assert [r.points for r in flat] == list(range(19, -1, -1))
    assert await store.leaderboard(1, limit=6, offset=24) == []


async def test_rules_filter(store: Store) -> None:
    sixteen = await new_table(store, [1, 2, 3, 4], rules="taiwan16")
    thirteen = await new_table(store, [1, 2, 3, 4], rules="taiwan13", channel_id=11)
    await play_hand(store, sixteen.id, 1, deltas=[30, -10, -10, -10], winner=0, total=3)
    await play_hand(store, thirteen.id, 1, deltas=[-10, 30, -10, -10], winner=1, total=5)
    await play_hand(store, thirteen.id, 2, deltas=[-10, 30, -10, -10], winner=1, total=6)
    assert [(r.user_id, r.points) for r in await store.leaderboard(1, rules="taiwan16")][:1] == [(1, 30)]
    assert [(r.user_id, r.points, r.best_tai) for r in await store.leaderboard(1, rules="taiwan13")][:1] == [
        (2, 60, 6)
    ]
    everything = await store.leaderboard(1)
    assert [(r.user_id, r.points, r.matches, r.hands) for r in everything][:2] == [
        (2, 50, 2, 3),
        (1, 10, 2, 3),
    ]
    assert await store.leaderboard(1, rules="hongkong") == []
    assert await store.leaderboard_count(1, rules="hongkong") == 0
    assert (await store.player_stats(1, 1, rules="taiwan16")).rank == 1
    assert (await store.player_stats(1, 1, rules="taiwan13")).rank == 2  # tied at -20 with 3 and 4: lowest id


async def test_since_filter_counts_only_later_hands(store: Store, clock: Clock) -> None:
    table = await new_table(store, [1, 2, 3, 4])
    await play_hand(store, table.id, 1, deltas=[100, -100, 0, 0], winner=0, loser=1, total=10)
    week_start = clock.advance(3600)
    await play_hand(store, table.id, 2, deltas=[-5, 5, 0, 0], winner=1, loser=0, total=1)
    recent = await store.leaderboard(1, since=week_start)
    assert [(r.user_id, r.points, r.hands) for r in recent][:1] == [(2, 5, 1)]
    assert {r.user_id: r.best_tai for r in recent}[1] is None  # the 10-台 hand is before the period
    assert await store.leaderboard_count(1, since=week_start) == 4
    assert await store.leaderboard(1, since=clock.advance(1)) == []


async def test_ai_seats_are_not_ranked(store: Store) -> None:
    table = await new_table(store, [1, None, None, None])
    await play_hand(store, table.id, 1, deltas=[-90, 30, 30, 30], winner=1, total=9)
    rows = await store.leaderboard(1)
    assert [(r.user_id, r.points) for r in rows] == [(1, -90)]
    assert await store.leaderboard_count(1) == 1
    stats = await store.player_stats(1, 1)
    assert (stats.rank, stats.players) == (1, 1)


async def test_servers_never_see_each_other(store: Store) -> None:
    home = await new_table(store, [1, 2, 3, 4], guild_id=1)
    away = await new_table(store, [1, 5, 6, 7], guild_id=2, channel_id=20)
    await play_hand(store, home.id, 1, deltas=[10, -10, 0, 0], winner=0, loser=1, total=1)
    await play_hand(store, away.id, 1, deltas=[-50, 50, 0, 0], winner=1, loser=0, total=7)
    assert {r.user_id for r in await store.leaderboard(1)} == {1, 2, 3, 4}
    assert {r.user_id for r in await store.leaderboard(2)} == {1, 5, 6, 7}
    assert (await store.player_stats(1, 1)).points == 10
    assert (await store.player_stats(2, 1)).points == -50
    assert await store.player_stats(1, 5) is None
    assert await store.player_stats(3, 1) is None


async def test_player_stats_rank_matches_the_leaderboard(store: Store) -> None:
    table = await new_table(store, [1, 2, 3, 4])
    await play_hand(store, table.id, 1, deltas=[-30, 10, 15, 5], winner=2, loser=0, total=2)
    board = await store.leaderboard(1)
    for row in board:
        stats = await store.player_stats(1, row.user_id)
        assert (stats.rank, stats.points, stats.hands, stats.players) == (row.rank, row.points, row.hands, 4)


async def query_plan(store: Store, sql: str, params) -> str:
    """The database's own plan for ``sql``, one line. PostgreSQL is told to avoid whole-table scans,
    as it would on a table of real size (on a handful of rows it rightly prefers them)."""
    if store.driver.dialect.name == "sqlite":
        async with store.driver.connection.execute(f"EXPLAIN QUERY PLAN {sql}", params) as cur:
            return " | ".join(row[3] for row in await cur.fetchall())
    from data.dialect import numbered

    async with store.driver.pool.acquire() as connection, connection.transaction():
        await connection.execute("SET LOCAL enable_seqscan = off")
        rows = await connection.fetch(f"EXPLAIN {numbered(sql)}", *params)
    return " | ".join(row[0] for row in rows)


async def test_leaderboard_reads_through_the_index(store: Store) -> None:
    for rules, since in ((None, None), ("taiwan16", None), (None, 5.0), ("taiwan16", 5.0)):
        sql, params = store._board(1, rules, since)
        plan = await query_plan(store, f"{sql} SELECT * FROM board ORDER BY rank", params)
        if since is None:  # all time: the running totals, a row a player, never the hands
            assert "player_totals" in plan and "hand_seats" not in plan, plan
            continue
        # a period: its hours' totals, the hands of its first partial hour through an index, its tables
        assert "player_hours" in plan and "player_tables" in plan, plan
        if store.driver.dialect.name == "sqlite":
            assert "INDEX hand_seats_recent" in plan, plan
            assert "SCAN hand_seats " not in plan + " ", plan
        else:
            assert "hand_seats_recent on hand_seats" in plan, plan
            assert "Seq Scan" not in plan, plan


hands_strategy = st.lists(
    st.tuples(
        st.integers(0, 2),  # which table (0, 1: server 1; 2: server 2)
        st.lists(st.integers(-50, 50), min_size=3, max_size=3),
        st.sampled_from([None, 0, 1, 2, 3]),  # winner
        st.integers(1, 20),
    ),
    max_size=25,
)


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=40, deadline=None)
@given(hands=hands_strategy)
def test_points_are_the_sum_of_each_players_changes(hands: list, backend: str, request) -> None:
    """Property: the board equals a sum done by hand, is sorted by points, and holds humans only."""

    async def check() -> None:
        store, database = await fresh_store(backend, cluster, Clock())
        users = [[1, 2, None, 3], [2, 4, 5, None], [1, 6, 7, 8]]
        tables = [
            await new_table(store, users[n], guild_id=1 if n < 2 else 2, channel_id=10 + n) for n in range(3)
        ]
        expected: dict[int, int] = defaultdict(int)
        numbers = defaultdict(int)
        for hand_no, (which, first3, winner, total) in enumerate(hands, start=1):
            deltas = [*first3, -sum(first3)]
            await play_hand(
                store, tables[which].id, hand_no, deltas=deltas, winner=winner, total=total, moves=0
            )
            if which < 2:
                for seat, user in enumerate(users[which]):
                    if user is not None:
                        expected[user] += deltas[seat]
                        numbers[user] += 1
        rows = await store.leaderboard(1, limit=100)
        assert {r.user_id: r.points for r in rows} == dict(expected)
        assert {r.user_id: r.hands for r in rows} == dict(numbers)
        assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
        assert await store.leaderboard_count(1) == len(expected)
        await store.close()
        if database is not None:
            await cluster.drop_database(database)

    cluster = request.getfixturevalue("pg_cluster") if backend == "postgresql" else None
    asyncio.run(check())


async def fresh_store(backend: str, cluster, clock: Clock) -> tuple[Store, str | None]:
    """A new empty store for one hypothesis example: SQLite in memory, or a new PostgreSQL database
    (returned, for the caller to drop)."""
    if backend == "sqlite":
        return await Store.open(":memory:", clock=clock), None
    database = await cluster.migrated_database()
    return await Store.open(cluster.url(database), clock=clock), database


async def test_a_channels_open_table_is_found_through_the_index(store: Store) -> None:
    from data import store as store_module

    sql = f"SELECT * FROM tables WHERE channel_id = ? AND {store_module._UNFINISHED_SQL} ORDER BY id DESC LIMIT 1"
    plan = await query_plan(store, sql, (5,))
    assert ("INDEX tables_unfinished" if store.driver.dialect.name == "sqlite" else "tables_unfinished") in plan, plan


async def test_the_best_hand_carries_the_rule_set_it_was_won_under(store: Store) -> None:
    taiwan = await new_table(store, [1, 2, 3, 4])
    await play_hand(store, taiwan.id, 1, deltas=[30, -10, -10, -10], winner=0, total=5)
    hongkong = await new_table(store, [1, 2, 3, 4], channel_id=11, rules="hongkong")
    await play_hand(store, hongkong.id, 1, deltas=[80, -80, 0, 0], winner=0, loser=1, total=7)
    await play_hand(store, hongkong.id, 2, deltas=[-10, 10, 0, 0], winner=1, loser=0, total=3)
    best = {r.user_id: (r.best_tai, r.best_rules) for r in await store.leaderboard(1)}
    assert best[1] == (7, "hongkong")  # the 7-番 hand, not the 5-台 one
    assert best[2] == (3, "hongkong")
    assert best[3] == (None, best[3][1])  # never won: no best hand to name
    only_taiwan = {
        r.user_id: (r.best_tai, r.best_rules) for r in await store.leaderboard(1, rules="taiwan16")
    }
    assert only_taiwan[1] == (5, "taiwan16")


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=40, deadline=None)
@given(
    hands=st.lists(
        st.tuples(
            st.integers(0, 2),  # which table
            st.integers(0, 9_000),  # seconds since the previous hand (hours are 3,600)
            st.lists(st.integers(-50, 50), min_size=3, max_size=3),
            st.sampled_from([None, 0, 1, 3]),
            st.integers(1, 20),
        ),
        max_size=20,
    ),
    back=st.integers(0, 40_000),
    rules=st.sampled_from([None, "taiwan16", "hongkong"]),
)
def test_a_period_board_equals_the_sum_of_the_periods_hands(
    hands: list, back: int, rules: str | None, backend: str, request
) -> None:
    """Property: hours' totals plus the first partial hour give exactly what adding up the hands gives."""

    async def check() -> None:
        clock = Clock(1_000_000.0 + 1234.5)  # not on an hour boundary
        store, database = await fresh_store(backend, cluster, clock)
        users = [[1, 2, None, 3], [2, 4, 5, None], [1, 6, 7, 8]]
        table_rules = ["taiwan16", "hongkong", "taiwan16"]
        tables = [
            await new_table(store, users[n], channel_id=10 + n, rules=table_rules[n]) for n in range(3)
        ]
        played = []
        for hand_no, (which, wait, first3, winner, total) in enumerate(hands, start=1):
            clock.advance(wait)
            deltas = [*first3, -sum(first3)]
            await play_hand(store, tables[which].id, hand_no, deltas=deltas, winner=winner, total=total, moves=0)
            played.append((clock.now, which, deltas, winner, total))
        since = clock.now - back
        expected: dict[int, list] = {}
        for at, which, deltas, winner, total in played:
            if at < since or (rules is not None and table_rules[which] != rules):
                continue
            for seat, user in enumerate(users[which]):
                if user is None:
                    continue
                row = expected.setdefault(user, [0, set(), 0, 0, None])
                row[0] += deltas[seat]
                row[1].add(which)
                row[2] += 1
                row[3] += int(seat == winner)
                if seat == winner:
                    row[4] = total if row[4] is None else max(row[4], total)
        board = await store.leaderboard(1, rules=rules, since=since, limit=100)
        got = {r.user_id: (r.points, r.matches, r.hands, r.wins, r.best_tai) for r in board}
        assert got == {u: (p, len(m), h, w, b) for u, (p, m, h, w, b) in expected.items()}
        assert await store.leaderboard_count(1, rules=rules, since=since) == len(expected)
        await store.close()
        if database is not None:
            await cluster.drop_database(database)

    cluster = request.getfixturevalue("pg_cluster") if backend == "postgresql" else None
    asyncio.run(check())
