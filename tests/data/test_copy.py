"""python -m data.copy: a server's data moves SQLite → PostgreSQL and back unchanged, verified by
counts and checksums; a non-empty destination is refused, and a copy that does not match is rolled back."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from data import QueueEntry, SeatRecord
from data.copy import NOT_COPIED, TABLES, run, table_sum
from data.store import Store
from tests.data.conftest import Clock, new_table, play_hand
from tests.data.schema import execute, fetch, tables
from tests.pgcluster import Cluster

ROOT = Path(__file__).resolve().parents[2]


async def fill(target: str) -> None:
    """A database with something in every table and column: lobbies, a live hand whose deadline was
    moved after its last move, finished matches in two servers, AI seats, names in several scripts, a
    rated match (AI seats counting) whose winner made items named in Chinese, and who left it."""
    clock = Clock(1_700_000_000.25)
    store = await Store.open(target, clock=clock)
    lobby = await store.create_table(
        guild_id=2**62 + 7,
        channel_id=2**60,
        host_id=3,
        rules="hongkong",
        rounds=4,
        options={"名": "滿台", "base": 100},
        password_hash="pbkdf2$x",
    )
    await store.set_seats(lobby.id, [SeatRecord(0, 3, "Zoë"), SeatRecord(2, None, "AI 2", "strong")])
    await store.set_messages(lobby.id, lobby_message_id=2**55 + 1)
    for n in range(3):
        table = await new_table(
            store,
            [1, 2, None, 4 + n],
            guild_id=1 + n % 2,
            channel_id=20 + n,
            names=["東", "Bob", "AI", "Дима"],
        )
        for hand_no in range(1, 3):
            clock.advance(61.5)
            await play_hand(
                store,
                table.id,
                hand_no,
                deltas=[30, -10, -10, -10],
                winner=hand_no % 2,
                loser=None,
                total=hand_no + n,
                moves=5,
            )
        if n < 2:
            await store.finish_match(table.id, [1030, 990, 990, 990])
    live = await new_table(store, [1, 5, 6, None], channel_id=30)
    hand = await store.start_hand(live.id, 1, {"rules": "taiwan16", "seed": 9})
    await store.append_actions(hand, [(0, "0 discard 1m", 10.5), (1, "1 pon", 11.0)])
    await store.set_deadline(hand, 99.125)  # after the last move: the copy must keep this, not the move's
    await store.set_setting("commands", "fingerprint-1")
    broken = await new_table(store, [7, None, None, None], channel_id=31)
    await store.fail_table(broken.id, "ValueError: a move this code cannot read")
    await store.remember_dm_channel(2**61 + 3, 2**59 + 5)
    await store.set_player_prefs(2**61 + 3, theme="sakura", no_calls=True)
    await store.open_spectator_thread(live.id, 2**62 + 1, revealed=0)  # a delayed table's spectators (watch.py)
    await store.add_spectator(live.id, 2**60 + 7, "zh-CN")
    await store.enqueue(QueueEntry(1, 8, "taiwan16", "Ärger", "de", "zh-TW", 20, clock.advance()))
    await store.set_guild_settings(1, mahjong_channel_id=20, ai_fill_seconds=90, require_password=True)
    rated = await store.create_table(
        guild_id=1, channel_id=32, host_id=1, rules="taiwan13", rounds=1, options={}, password_hash=None,
        ranking="rated_ai",
    )
    await store.set_seats(rated.id, [SeatRecord(0, 1, "東"), SeatRecord(1, 2, "Bob"), SeatRecord(2, None, "AI", "strong"),
                                     SeatRecord(3, 9, "Ἀθηνᾶ")])
    await store.start_match(rated.id, {"rules": "taiwan13", "rounds": 1})
    won = await store.start_hand(rated.id, 1, {"rules": "taiwan13", "dealer": 3, "dealer_streak": 2})
    clock.advance(3600.5)
    await store.finish_hand(
        won,
        result={"items": [["七对子", 2], ["门清", 1], ["Z字一色", 10], ["dora", 1]]},  # "dora": after Z in bytes only
        deltas=[-60, 0, 0, 60],
        winner=3,
        loser=0,
        self_drawn=False,
        total=13,
        called=[True, False, False, False],
    )
    await store.finish_match(rated.id, [940, 1000, 1000, 1060], leaver=1)
    league = await store.create_tournament(
        guild_id=1, channel_id=20, organiser_id=2**60 + 1, name="Ärger league", rules="taiwan16", rounds=2, hands=None,
        duplicate=True, ai_fill=True, max_entrants=None, starts_at=1_700_000_100.25, locale="zh-TW", key=bytes(32),
    )  # fmt: skip
    await store.register(league.id, 8, "Ärger", "de")
    await store.seat_round(league.id, 1, [(8, None, None, None)], byes=[])
    await store.record_table(league.id, 1, 0, [30, -10, -10, -10])
    async with store.driver.session() as db:  # a lease (data/leases.py writes them on PostgreSQL only)
        await db.execute(
            "INSERT INTO table_leases (table_id, owner, expires_at, generation) VALUES (?, ?, ?, ?)",
            (live.id, "host-a shards 0-3 of 8", 1_700_000_008.5, 2),
        )
    await store.close()


async def sums(target: str) -> list:
    store = await Store.open(target)
    try:
        async with store.driver.snapshot() as db:
            return [await table_sum(db, table, key) for table, key in TABLES]
    finally:
        await store.close()


async def views(target: str) -> tuple:
    """What the bot reads, through the Store."""
    store = await Store.open(target)
    try:
        return (
            await store.unfinished_tables(),
            await store.history(1),
            await store.history(2),
            await store.leaderboard(1, limit=50),
            await store.player_stats(1, 2),
            await store.finished_hand(1, 1),
            await store.setting("commands"),
            await store.table_failure(6),  # the broken table
            await store.queue(1),
            await store.guild_settings(1),
            await store.dm_channel_of(2**61 + 3),
            await store.leaderboard(1, since=1_700_000_100.0, limit=50),
            await store.rating_board(1, "taiwan13"),
            await store.player_figures(1, 9),
            await store.server_figures(1, "taiwan13"),
            await store.match_standings(1, 7),
            await store.spectator_thread(5),  # the live table
        )
    finally:
        await store.close()


@pytest.fixture
async def server(pg_cluster: Cluster) -> str:
    return pg_cluster.url(await pg_cluster.create_database())


async def test_sqlite_to_postgresql_and_back_is_unchanged(tmp_path: Path, server: str, capsys) -> None:
    source, back = str(tmp_path / "source.sqlite3"), str(tmp_path / "back.sqlite3")
    await fill(source)
    assert await run(source, server) == 0
    out = capsys.readouterr().out
    assert "every count and checksum matches" in out and f"{len(TABLES)} tables" in out
    original = await sums(source)
    assert all(entry.rows > 0 for entry in original)
    assert await sums(server) == original
    assert (await views(source))[7] == "ValueError: a move this code cannot read"
    assert all(view not in (None, []) for view in (await views(source))[11:])  # the ranked reads see rows
    assert await views(server) == await views(source)
    assert await run(server, back) == 0
    assert await sums(back) == original
    assert await views(back) == await views(source)

    [(last_table, last_hand)] = await fetch(
        source, "SELECT (SELECT MAX(id) FROM tables), (SELECT MAX(id) FROM hands)"
    )
    for target in (server, back):  # new rows get new ids after the copied ones, on both
        store = await Store.open(target)
        table = await new_table(store, [1, 2, 3, 4], channel_id=99)
        hand = await store.start_hand(table.id, 1, {})
        await store.close()
        assert (table.id, hand) == (last_table + 1, last_hand + 1), target


async def test_a_destination_with_rows_is_refused_and_left_as_it_was(
    tmp_path: Path, server: str, capsys
) -> None:
    source = str(tmp_path / "source.sqlite3")
    await fill(source)
    store = await Store.open(server)
    await store.set_setting("mine", "keep")
    await store.close()
    assert await run(source, server) == 2
    assert "is not empty" in capsys.readouterr().err
    assert await fetch(server, "SELECT key, value FROM bot_settings") == [("mine", "keep")]
    assert await fetch(server, "SELECT COUNT(*) FROM tables") == [(0,)]


async def test_a_copy_that_does_not_match_commits_nothing(tmp_path: Path, server: str, capsys) -> None:
    """A destination that does not store what it is given (here a trigger that rewrites names)."""
    source = str(tmp_path / "source.sqlite3")
    await fill(source)
    await (await Store.open(server)).close()
    await execute(
        server,
        "CREATE FUNCTION shout() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.name := upper(NEW.name); RETURN NEW; END $$;"
        " CREATE TRIGGER shout BEFORE INSERT ON seats FOR EACH ROW EXECUTE FUNCTION shout();",
    )
    assert await run(source, server) == 1
    err = capsys.readouterr().err
    assert "does not match, nothing was committed" in err and "table seats" in err
    for table, _ in TABLES:
        assert await fetch(server, f"SELECT COUNT(*) FROM {table}") == [(0,)], table


async def test_every_table_of_the_schema_is_copied(tmp_path: Path) -> None:
    target = str(tmp_path / "x.sqlite3")
    await (await Store.open(target)).close()
    assert {table for table, _ in TABLES} | set(NOT_COPIED) == await tables(target)


def test_the_command_line_copies_and_says_what_it_checked(tmp_path: Path, server: str) -> None:
    import asyncio

    source = str(tmp_path / "source.sqlite3")
    asyncio.run(fill(source))
    done = subprocess.run(
        [sys.executable, "-m", "data.copy", source, server],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines[:-1]] == [table for table, _ in TABLES]
    assert "password" not in done.stdout
    again = subprocess.run(
        [sys.executable, "-m", "data.copy", source, server],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert again.returncode == 2 and "not empty" in again.stderr


async def test_a_server_database_that_sorts_text_its_own_way_gets_a_verified_copy(
    tmp_path: Path, pg_cluster: Cluster
) -> None:
    """A database created with a language's collation (ICU en-US: 'a' before 'B') would read text keys
    in another order than SQLite's bytes, and every checksum would differ: key text is byte-ordered."""
    source = str(tmp_path / "source.sqlite3")
    await fill(source)
    store = await Store.open(source)
    for key in ("B", "a", "Z", "ä"):
        await store.set_setting(key, key)
    await store.close()
    name = "copy_icu_en_us"
    admin = await pg_cluster.admin()
    try:
        await admin.execute(
            f"CREATE DATABASE {name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'"
        )
    finally:
        await admin.close()
    server = pg_cluster.url(name)
    try:
        assert await fetch(server, "SELECT k FROM (VALUES ('B'), ('a')) v(k) ORDER BY k") == [("a",), ("B",)]
        assert await run(source, server) == 0
        assert await sums(server) == await sums(source)
        assert await views(server) == await views(source)
    finally:
        await pg_cluster.drop_database(name)
