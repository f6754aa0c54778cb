"""The bot's storage behind a small typed async API, so cogs hold no SQL: an SQLite file by default,
or a PostgreSQL server shared by several bot processes.

    store = await Store.open("mahjong.sqlite3")      # WAL, migrations, health check
    store = await Store.open("postgresql://bot@db/mahjong")   # the same, on a server
    table = await store.create_table(guild_id=1, channel_id=2, host_id=3, rules="taiwan16",
                                     rounds=1, options={}, password_hash=None)
    ...
    await store.close()

Every write method is one transaction, so a crash or a failing disk leaves either all of a move or
none of it. Every read for stats is scoped by ``guild_id``. Each query is written here once for both
databases (:mod:`data.dialect` holds the few words that differ; :mod:`data.sqlite` and
:mod:`data.postgres` the drivers). Driver errors surface as :class:`~data.errors.StoreError`
subclasses whose text is one line a person can act on.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import AsyncIterator, Callable, Collection, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from types import EllipsisType
from typing import Any

from data.batch import GroupWriter
from data.dialect import Dialect
from data.driver import Driver, Session
from data.errors import (
    DuplicateMove,
    SchemaTooNew,
    StoreClosed,
    StoreConflict,
    StoreCorrupt,
    StoreError,
    StoreFull,
    StoreLocked,
    StoreMissing,
    StoreReadOnly,
    StoreUnreachable,
    Violation,
)
from data.hall import HallStore
from data.migrate import MIGRATIONS, PG_MIGRATIONS, Migration
from data.postgres import PgDriver, is_server_url
from data.prefs import PrefsStore
from data.records import (
    PHASES,
    BigHand,
    FinishedHand,
    ItemCount,
    LeaderRow,
    MatchStandings,
    MatchSummary,
    PlayerFigures,
    PlayerStats,
    RatingRow,
    Row,
    SavedHand,
    SavedTable,
    SeatRecord,
    ServerFigures,
    SpectatorThread,
    Standing,
    TableRecord,
    dumps,
    loads,
)
from data.sqlite import SqliteDriver
from data.tournaments import TournamentStore
from ranking import RANKINGS, is_rated
from ranking.hands import called_seats
from ranking.places import placements
from ranking.rating import Rating, ai_rating, new_rating, rate, shown

__all__ = [
    "Store",
    "StoreError",
    "StoreLocked",
    "StoreReadOnly",
    "StoreFull",
    "StoreCorrupt",
    "StoreConflict",
    "StoreClosed",
    "StoreUnreachable",
    "SchemaTooNew",
    "DuplicateMove",
]

# Written out, not bound: SQLite uses the partial index tables_unfinished only for this literal text.
_UNFINISHED_SQL = "phase IN ('lobby', 'playing')"
_INSERT_MOVE = "INSERT INTO moves (hand_id, move_no, action, deadline) VALUES (?, ?, ?, ?)"
_MoveRequest = tuple[int, tuple[tuple[int, str, float | None], ...]]  # a hand's id and its moves
_ROWS_PER_INSERT = 500  # 2,000 parameters a statement: well under SQLite's and PostgreSQL's limits


def _names_a_file(target: str) -> bool:
    """An SQLite target that is a plain path (not ``:memory:`` nor a ``file:`` URI)."""
    return target != ":memory:" and not target.startswith("file:")


def _insert_moves(rows: int) -> str:
    return "INSERT INTO moves (hand_id, move_no, action, deadline) VALUES " + ", ".join(["(?, ?, ?, ?)"] * rows)
log = logging.getLogger(__name__)
# A hand added to a running total row (player_totals, player_hours) on conflict; the existing row's
# columns named by the table, as PostgreSQL requires (a bare name could be the row proposed: excluded).
_ADD_TOTALS = (
    "points = {table}.points + excluded.points, hands = {table}.hands + 1, wins = {table}.wins + excluded.wins,"
    " self_draws = {table}.self_draws + excluded.self_draws, deal_ins = {table}.deal_ins + excluded.deal_ins,"
    " best_tai = {greatest}(COALESCE({table}.best_tai, excluded.best_tai),"
    " COALESCE(excluded.best_tai, {table}.best_tai))"
)


class Store(HallStore, TournamentStore, PrefsStore):
    """One open database. Use :meth:`open`; all methods are safe to call from many tasks at once."""

    def __init__(self, driver: Driver, clock: Callable[[], float]) -> None:
        self._driver = driver
        self._clock = clock
        self._writing: set[asyncio.Future[None]] = set()
        self._moves: GroupWriter[_MoveRequest] = GroupWriter(self._append_many, self._append_alone)

    @property
    def path(self) -> str:
        """The database as messages name it: a file, or a server URL without its password."""
        return self._driver.path

    @property
    def driver(self) -> Driver:
        return self._driver

    # ------------------------------------------------------------------ open / close

    @classmethod
    async def open(
        cls,
        target: str | Path = "mahjong.sqlite3",
        *,
        busy_timeout: float = 2.0,
        clock: Callable[[], float] = time.time,
        migrations: Sequence[Migration] | None = None,
        create: bool = True,
    ) -> Store:
        """Open (creating if needed), check, migrate. Raises a ``StoreError`` with one clear line.

        ``create=False`` (the tools that read or rebuild a bot's data) refuses an SQLite file that does
        not exist with :class:`StoreMissing` instead of creating an empty one.

        ``target`` is an SQLite file, ``":memory:"`` or a ``file:`` URI (e.g. ``file:x.sqlite3?mode=ro``),
        or a ``postgresql://`` URL. ``busy_timeout`` is how long a write waits for another's lock. A
        database newer than this code raises :class:`SchemaTooNew` before anything is written to it.
        """
        name = str(target)
        driver: Driver
        if is_server_url(name):
            driver = await PgDriver.open(
                name,
                busy_timeout=busy_timeout,
                migrations=PG_MIGRATIONS if migrations is None else migrations,
            )
        else:
            if not create and _names_a_file(name) and not Path(name).exists():
                raise StoreMissing(name)
            driver = await SqliteDriver.open(
                name, busy_timeout=busy_timeout, migrations=MIGRATIONS if migrations is None else migrations
            )
        return cls(driver, clock)

    async def close(self) -> None:
        """Close the database (later calls raise :class:`StoreClosed`). Closing twice is harmless."""
        await self._driver.close()

    # ------------------------------------------------------------------ ordering

    @asynccontextmanager
    async def _write(self, *, single: bool = False) -> AsyncIterator[Session]:
        """A write: one transaction, or (``single``) statements that each commit on their own."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._writing.add(done)
        try:
            async with self._driver.session() if single else self._driver.transaction() as db:
                yield db
        finally:
            self._writing.discard(done)
            done.set_result(None)

    @asynccontextmanager
    async def _read(self, *, snapshot: bool = False) -> AsyncIterator[Session]:
        """A read sees every write this store began before it, on either database: SQLite's one
        connection runs them in turn anyway, but PostgreSQL's pool would let a read overtake a write
        still in flight (a /history just after "Match over" must show that match)."""
        if self._writing:
            await asyncio.wait(list(self._writing))
        async with self._driver.snapshot() if snapshot else self._driver.session() as db:
            yield db

    # ------------------------------------------------------------------ tables

    async def create_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        rules: str,
        rounds: int,
        options: dict,
        password_hash: str | None,
        ranking: str = "casual",
    ) -> TableRecord:
        """A new table in phase "lobby", with no seats yet; ``ranking`` is one of ``RANKINGS``."""
        if ranking not in RANKINGS:
            raise ValueError(f"unknown ranking {ranking!r}; expected one of {RANKINGS}")
        async with self._write() as db:
            row = await db.one(
                "INSERT INTO tables (guild_id, channel_id, host_id, rules, rounds, options, password_hash,"
                " created_at, ranking) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (guild_id, channel_id, host_id, rules, rounds, dumps(options), password_hash, self._clock(), ranking),
            )
        assert row is not None  # an INSERT … RETURNING that succeeded returns its row
        return TableRecord.from_row(row)

    async def set_seats(self, table_id: int, seats: Sequence[SeatRecord]) -> None:
        """Replace the table's seats with ``seats`` (any subset of 0..3)."""
        async with self._write() as db:
            await self._require_table(db, table_id)
            await db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            await db.executemany(
                "INSERT INTO seats (table_id, seat, user_id, name, ai_level) VALUES (?, ?, ?, ?, ?)",
                [(table_id, s.seat, s.user_id, s.name, s.ai_level) for s in seats],
            )

    async def set_phase(self, table_id: int, phase: str) -> None:
        if phase not in PHASES:
            raise ValueError(f"unknown phase {phase!r}; expected one of {PHASES}")
        async with self._write(single=True) as db:  # one statement: atomic without a transaction's round trips
            await self._update_table(db, table_id, {"phase": phase})

    async def set_options(
        self,
        table_id: int,
        *,
        rules: str | None = None,
        rounds: int | None = None,
        options: dict | None = None,
        password_hash: str | None | EllipsisType = ...,
    ) -> None:
        """Change only the fields given (``password_hash=None`` removes the password)."""
        changes: dict[str, Any] = {}
        if rules is not None:
            changes["rules"] = rules
        if rounds is not None:
            changes["rounds"] = rounds
        if options is not None:
            changes["options"] = dumps(options)
        if password_hash is not ...:
            changes["password_hash"] = password_hash
        async with self._write(single=bool(changes)) as db:  # one UPDATE; none: a read that checks the table
            await self._update_table(db, table_id, changes)

    async def set_messages(
        self, table_id: int, *, lobby_message_id: int | None = None, table_message_id: int | None = None
    ) -> None:
        changes = {
            k: v
            for k, v in (("lobby_message_id", lobby_message_id), ("table_message_id", table_message_id))
            if v is not None
        }
        async with self._write(single=bool(changes)) as db:
            await self._update_table(db, table_id, changes)

    async def _update_table(self, db: Session, table_id: int, changes: dict[str, Any]) -> None:
        if not changes:
            await self._require_table(db, table_id)
            return
        columns = ", ".join(
            f"{name} = ?" for name in changes
        )  # names come from this module, never from users
        if await db.execute(f"UPDATE tables SET {columns} WHERE id = ?", (*changes.values(), table_id)) != 1:
            raise StoreConflict(self.path, f"has no table {table_id}")

    async def _require_table(self, db: Session, table_id: int) -> Row:
        row = await db.one("SELECT * FROM tables WHERE id = ?", (table_id,))
        if row is None:
            raise StoreConflict(self.path, f"has no table {table_id}")
        return row

    # ------------------------------------------------------------------ match and hands

    async def start_match(self, table_id: int, header: dict) -> None:
        """Store the engine's match header; the table's phase becomes "playing"."""
        async with self._write() as db:
            await self._update_table(db, table_id, {"phase": "playing"})
            try:
                await db.execute(
                    "INSERT INTO matches (table_id, header, started_at) VALUES (?, ?, ?)",
                    (table_id, dumps(header), self._clock()),
                )
            except Violation as error:
                raise StoreConflict(self.path, f"already has a match for table {table_id}") from error

    async def start_hand(self, table_id: int, hand_no: int, header: dict) -> int:
        """Store a hand's engine header; returns the hand id the moves are stored under."""
        async with self._write(single=True) as db:  # one INSERT … RETURNING
            try:
                row = await db.one(
                    "INSERT INTO hands (table_id, hand_no, header, started_at) VALUES (?, ?, ?, ?) RETURNING id",
                    (table_id, hand_no, dumps(header), self._clock()),
                )
            except Violation as error:
                if error.kind == "duplicate":
                    raise StoreConflict(
                        self.path, f"already has hand {hand_no} of table {table_id}"
                    ) from error
                raise StoreConflict(self.path, f"has no table {table_id}") from error
        assert row is not None  # an INSERT … RETURNING that succeeded returns its row
        return int(row["id"])

    async def append_action(self, hand_id: int, move_no: int, action: str, deadline: float | None) -> None:
        """Store one move (in notation) and the hand's deadline after it.

        One INSERT (a trigger sets the hand's deadline), hence one transaction and one round trip:
        this runs on every click.
        """
        async with self._write(single=True) as db:
            try:
                await db.execute(_INSERT_MOVE, (hand_id, move_no, action, deadline))
            except Violation as error:
                raise self._move_refused(error, hand_id, move_no) from error

    async def append_actions(self, hand_id: int, moves: Sequence[tuple[int, str, float | None]]) -> None:
        """Store several moves of one hand (``(move_no, action, deadline)`` each): a burst of AI and
        auto-played moves waits once, not once a move, and the moves of every table that arrive
        together are stored in one transaction (data.batch). A refused move (a move number used twice)
        keeps every move before it, each stored whole — a position the engine replays."""
        if not moves:
            return
        await self._moves.submit((hand_id, tuple(moves)))

    async def _append_many(self, requests: list[_MoveRequest]) -> None:
        """Every request's moves as one multi-row INSERT: one statement is all or nothing on both
        databases, and it is one round trip to SQLite's thread however many tables wait (data.batch)."""
        rows = [(hand_id, *move) for hand_id, moves in requests for move in moves]
        async with self._write(single=len(rows) <= _ROWS_PER_INSERT) as db:  # more: one transaction
            for start in range(0, len(rows), _ROWS_PER_INSERT):
                chunk = rows[start : start + _ROWS_PER_INSERT]
                await db.execute(_insert_moves(len(chunk)), [value for row in chunk for value in row])

    async def _append_alone(self, request: _MoveRequest) -> None:
        hand_id, moves = request
        rows = [(hand_id, move_no, action, deadline) for move_no, action, deadline in moves]
        async with self._write(single=True) as db:
            try:
                await db.executemany(_INSERT_MOVE, rows)
                return
            except Violation as error:
                if self._driver.dialect.commits_each_row:  # the moves before the refused one are stored
                    raise self._move_refused(error, hand_id, moves[0][0]) from error
            # refused whole (one transaction): store the moves one by one, up to the refused one
            for row in rows:
                try:
                    await db.execute(_INSERT_MOVE, row)
                except Violation as error:
                    raise self._move_refused(error, hand_id, row[1]) from error

    def _move_refused(self, error: Violation, hand_id: int, move_no: int) -> StoreConflict:
        if error.kind == "duplicate":
            return DuplicateMove(self.path, hand_id, move_no)
        return StoreConflict(self.path, f"has no hand {hand_id}")

    async def set_deadline(self, hand_id: int, deadline: float | None) -> None:
        async with self._write(single=True) as db:
            if await db.execute("UPDATE hands SET deadline = ? WHERE id = ?", (deadline, hand_id)) != 1:
                raise StoreConflict(self.path, f"has no hand {hand_id}")

    async def finish_hand(
        self,
        hand_id: int,
        *,
        result: dict,
        deltas: Sequence[int],
        winner: int | None,
        loser: int | None,
        self_drawn: bool,
        total: int,
        called: Sequence[bool] | None = None,
    ) -> None:
        """Record a hand's result and each seat's point change (seats as they sit now), with the facts the
        statistics read: who called (副露; replayed from the stored moves unless ``called`` says), the
        dealer's 連莊 count (from the hand's header) and the winner's items (from ``result["items"]``)."""
        if called is None:
            called = await self._called_from_moves(hand_id)  # None when the log does not replay
        now = self._clock()
        async with self._write() as db:
            hand = await db.one(
                "SELECT h.table_id, h.finished_at, h.header, t.guild_id, t.rules FROM hands h"
                " JOIN tables t ON t.id = h.table_id WHERE h.id = ?",
                (hand_id,),
            )
            if hand is None:
                raise StoreConflict(self.path, f"has no hand {hand_id}")
            if hand["finished_at"] is not None:
                raise StoreConflict(self.path, f"already has the result of hand {hand_id}")
            seats = await self._seats(db, hand["table_id"])
            if len(seats) != len(deltas):
                raise StoreConflict(
                    self.path, f"got {len(deltas)} point changes for the {len(seats)} seats of hand {hand_id}"
                )
            first = await db.one(
                "SELECT NOT EXISTS (SELECT 1 FROM hands WHERE table_id = ? AND finished_at IS NOT NULL) AS first",
                (hand["table_id"],),
            )
            new_match = int(first is not None and bool(first["first"]))  # the table's first finished hand
            await db.execute(
                "UPDATE hands SET result = ?, winner = ?, loser = ?, self_drawn = ?, total = ?, finished_at = ?,"
                " deadline = NULL WHERE id = ?",
                (dumps(result), winner, loser, int(self_drawn), total, now, hand_id),
            )
            called = (False,) * len(seats) if called is None else called
            if len(called) != len(seats):
                raise StoreConflict(
                    self.path, f"got {len(called)} call flags for the {len(seats)} seats of hand {hand_id}"
                )
            dealer, streak = _dealer_streak(loads(hand["header"]))
            await db.executemany(
                "INSERT INTO hand_seats (hand_id, seat, user_id, name, delta, won, self_drew, dealt_in, tai,"
                " guild_id, rules, table_id, finished_at, called, streak)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        hand_id,
                        s.seat,
                        s.user_id,
                        s.name,
                        delta,
                        int(s.seat == winner),
                        int(s.seat == winner and self_drawn),
                        int(s.seat == loser),
                        total if s.seat == winner else None,
                        hand["guild_id"],
                        hand["rules"],
                        hand["table_id"],
                        now,
                        int(bool(calls)),
                        streak if s.seat == dealer else None,
                    )
                    for s, delta, calls in zip(seats, deltas, called, strict=True)
                ],
            )
            greatest = self._driver.dialect.greatest
            # The shared rows (each person's totals, each item's count) in one order, by user id and by
            # item: two tables ending a hand at once on PostgreSQL then never wait on each other in a circle.
            people = sorted(
                ((s, delta) for s, delta in zip(seats, deltas, strict=True) if s.user_id is not None),
                key=lambda person: (person[0].user_id, person[0].seat),
            )
            await db.executemany(
                f"INSERT INTO player_totals (guild_id, rules, user_id, points, matches, hands, wins, self_draws,"
                " deal_ins, best_tai) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?) ON CONFLICT (guild_id, rules, user_id)"
                f" DO UPDATE SET {_ADD_TOTALS.format(table='player_totals', greatest=greatest)},"
                " matches = player_totals.matches + excluded.matches",
                [
                    (
                        hand["guild_id"],
                        hand["rules"],
                        s.user_id,
                        delta,
                        new_match,
                        int(s.seat == winner),
                        int(s.seat == winner and self_drawn),
                        int(s.seat == loser),
                        total if s.seat == winner else None,
                    )
                    for s, delta in people
                ],
            )
            await db.executemany(
                f"INSERT INTO player_hours (guild_id, hour, rules, user_id, points, hands, wins, self_draws, deal_ins,"
                " best_tai) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?) ON CONFLICT (guild_id, hour, rules, user_id)"
                f" DO UPDATE SET {_ADD_TOTALS.format(table='player_hours', greatest=greatest)}",
                [
                    (
                        hand["guild_id"],
                        _hour(now),
                        hand["rules"],
                        s.user_id,
                        delta,
                        int(s.seat == winner),
                        int(s.seat == winner and self_drawn),
                        int(s.seat == loser),
                        total if s.seat == winner else None,
                    )
                    for s, delta in people
                ],
            )
            await _move_tables_hour(db, hand["guild_id"], hand["table_id"], hand["rules"], now, people)
            await db.executemany(
                "INSERT INTO player_tables (guild_id, user_id, table_id, rules, last_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id, user_id, table_id) DO UPDATE SET last_at = excluded.last_at",
                [(hand["guild_id"], s.user_id, hand["table_id"], hand["rules"], now) for s, _ in people],
            )
            await db.execute(
                "INSERT INTO server_totals (guild_id, rules, hands, wins) VALUES (?, ?, 1, ?)"
                " ON CONFLICT (guild_id, rules) DO UPDATE SET hands = server_totals.hands + 1,"
                " wins = server_totals.wins + excluded.wins",
                (hand["guild_id"], hand["rules"], int(winner is not None)),
            )
            if winner is not None and 0 <= winner < len(seats):
                await _store_items(
                    db, greatest, hand_id, result, seats[winner].user_id, hand["guild_id"], hand["rules"]
                )
            await db.executemany(
                "INSERT INTO player_names (guild_id, user_id, name, updated_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at",
                [(hand["guild_id"], s.user_id, s.name, now) for s, _ in people],
            )

    async def finish_match(self, table_id: int, scores: Sequence[int], *, leaver: int | None = None) -> None:
        """Record each seat's final score and place (``leaver``, the seat whose leaving ended the table,
        is last); a rated table's people get their new ratings; the table's phase becomes "over"."""
        async with self._write() as db:
            match = await db.one("SELECT finished_at FROM matches WHERE table_id = ?", (table_id,))
            if match is None:
                raise StoreConflict(self.path, f"has no match for table {table_id} to finish")
            if match["finished_at"] is not None:
                raise StoreConflict(self.path, f"already has the final scores of table {table_id}")
            seats = await self._seats(db, table_id)
            if len(seats) != len(scores):
                raise StoreConflict(
                    self.path, f"got {len(scores)} scores for the {len(seats)} seats of table {table_id}"
                )
            table = await self._require_table(db, table_id)
            places = placements(scores, leaver)
            await db.execute(
                "UPDATE matches SET finished_at = ?, leaver = ? WHERE table_id = ?", (self._clock(), leaver, table_id)
            )
            await db.executemany(
                "INSERT INTO match_scores (table_id, seat, user_id, name, score, place, guild_id, rules)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (table_id, s.seat, s.user_id, s.name, score, place, table["guild_id"], table["rules"])
                    for s, score, place in zip(seats, scores, places, strict=True)
                ],
            )
            await self._update_table(db, table_id, {"phase": "over"})
            await _rate_match(db, table_id, table["guild_id"], table["rules"], table["ranking"], seats, places)

    async def _called_from_moves(self, hand_id: int) -> tuple[bool, ...] | None:
        """Who called in a stored hand, by replaying its header and moves (off the event loop). A log that
        does not replay (a hand stored by hand, a header from an older engine) counts no calls."""
        async with self._read(snapshot=True) as db:
            hand = await db.one("SELECT header FROM hands WHERE id = ?", (hand_id,))
            moves = await db.all("SELECT action FROM moves WHERE hand_id = ? ORDER BY move_no", (hand_id,))
        if hand is None:
            raise StoreConflict(self.path, f"has no hand {hand_id}")
        try:
            return await asyncio.to_thread(called_seats, loads(hand["header"]), [m["action"] for m in moves])
        except Exception as error:  # not replayable: record the hand all the same
            log.info("hand %s does not replay (%s): no calls recorded", hand_id, error)
            return None

    async def _seats(self, db: Session, table_id: int) -> tuple[SeatRecord, ...]:
        rows = await db.all("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))
        return tuple(SeatRecord.from_row(r) for r in rows)

    # ------------------------------------------------------------------ resuming

    async def unfinished_tables(self, only: Collection[int] | None = None) -> list[SavedTable]:
        """Tables in the lobby or playing, with everything needed to rebuild them after a restart;
        ``only`` those (a takeover reads the tables it claimed, not every table of every process)."""
        async with self._read(snapshot=True) as db:
            tables = await db.all(f"SELECT * FROM tables WHERE {_UNFINISHED_SQL} ORDER BY id")
            if only is not None:
                wanted = set(only)
                tables = [row for row in tables if row["id"] in wanted]
            saved = []
            for row in tables:
                seats = await self._seats(db, row["id"])
                try:
                    saved.append(await self._saved_table(db, row, seats))
                except (ValueError, TypeError, KeyError) as error:  # a row this code cannot read
                    table = TableRecord.from_row({**dict(row), "options": None}, seats)
                    saved.append(SavedTable(table, None, [], problem=f"{type(error).__name__}: {error}"))
        return saved

    async def _saved_table(self, db: Session, row: Row, seats: tuple[SeatRecord, ...]) -> SavedTable:
        table = TableRecord.from_row(row, seats)
        match = await db.one("SELECT header FROM matches WHERE table_id = ?", (row["id"],))
        hands = []
        for hand in await db.all(
            "SELECT * FROM hands WHERE table_id = ? ORDER BY hand_no", (row["id"],)):
            moves = await db.all("SELECT action FROM moves WHERE hand_id = ? ORDER BY move_no", (hand["id"],))
            hands.append(SavedHand.from_row(hand, [m["action"] for m in moves]))
        header = None if match is None else loads(match["header"])
        return SavedTable(table, header, hands)

    async def dm_channel_of(self, user_id: int) -> int | None:
        """The DM channel opened with this person before, if any."""
        async with self._read() as db:
            row = await db.one("SELECT channel_id FROM dm_channels WHERE user_id = ?", (user_id,))
        return None if row is None else int(row["channel_id"])

    async def remember_dm_channel(self, user_id: int, channel_id: int) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id",
                (user_id, channel_id),
            )

    # ------------------------------------------------------------------ spectators (cogs/mahjong/watch.py)

    async def spectator_thread(self, table_id: int) -> SpectatorThread | None:
        """The table's spectator thread and its spectators, if it has one."""
        async with self._read(snapshot=True) as db:
            row = await db.one(
                "SELECT thread_id, revealed FROM spectator_threads WHERE table_id = ?", (table_id,)
            )
            if row is None:
                return None
            rows = await db.all(
                "SELECT user_id, locale FROM spectators WHERE table_id = ? ORDER BY user_id", (table_id,)
            )
        spectators = tuple((int(r["user_id"]), str(r["locale"])) for r in rows)
        return SpectatorThread(table_id, int(row["thread_id"]), int(row["revealed"]), spectators)

    async def open_spectator_thread(self, table_id: int, thread_id: int, revealed: int) -> None:
        """The table's spectator thread was opened, ``revealed`` hands already over (not shown in it)."""
        async with self._write() as db:
            await db.execute(
                "INSERT INTO spectator_threads (table_id, thread_id, revealed) VALUES (?, ?, ?)"
                " ON CONFLICT (table_id) DO UPDATE SET thread_id = excluded.thread_id, revealed = excluded.revealed",
                (table_id, thread_id, revealed),
            )

    async def spectator_thread_shown(self, table_id: int, revealed: int) -> None:
        """The thread has shown the match's first ``revealed`` hands face up."""
        async with self._write() as db:
            await db.execute(
                "UPDATE spectator_threads SET revealed = ? WHERE table_id = ?", (revealed, table_id)
            )

    async def add_spectator(self, table_id: int, user_id: int, locale: str) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO spectators (table_id, user_id, locale) VALUES (?, ?, ?)"
                " ON CONFLICT (table_id, user_id) DO UPDATE SET locale = excluded.locale",
                (table_id, user_id, locale),
            )

    async def remove_spectator(self, table_id: int, user_id: int) -> None:
        async with self._write() as db:
            await db.execute("DELETE FROM spectators WHERE table_id = ? AND user_id = ?", (table_id, user_id))

    async def forget_spectators(self, table_id: int) -> None:
        """The match is over: its thread has shown every hand and keeps them; nobody watches any more."""
        async with self._write() as db:
            await db.execute("DELETE FROM spectators WHERE table_id = ?", (table_id,))
            await db.execute("DELETE FROM spectator_threads WHERE table_id = ?", (table_id,))

    async def fail_table(self, table_id: int, reason: str) -> None:
        """A table that cannot be rebuilt: closed (its seats free, never restored again), the reason
        kept beside it, its match and moves left as they were for inspection."""
        async with self._write() as db:
            await self._update_table(db, table_id, {"phase": "closed"})
            await db.execute(
                "INSERT INTO table_failures (table_id, reason, failed_at) VALUES (?, ?, ?)"
                " ON CONFLICT (table_id) DO UPDATE SET reason = excluded.reason, failed_at = excluded.failed_at",
                (table_id, reason[:2000], self._clock()),
            )

    async def table_failure(self, table_id: int) -> str | None:
        """Why a table could not be restored, if it could not."""
        async with self._read() as db:
            row = await db.one("SELECT reason FROM table_failures WHERE table_id = ?", (table_id,))
        return None if row is None else str(row["reason"])

    async def table_in_channel(self, channel_id: int) -> TableRecord | None:
        """The channel's unfinished table, if any."""
        async with self._read(snapshot=True) as db:
            row = await db.one(
                f"SELECT * FROM tables WHERE channel_id = ? AND {_UNFINISHED_SQL} ORDER BY id DESC LIMIT 1",
                (channel_id,),
            )
            if row is None:
                return None
            return TableRecord.from_row(row, await self._seats(db, row["id"]))

    async def setting(self, key: str) -> str | None:
        """One of the bot's own stored facts (``bot_settings``), None when never set."""
        async with self._read() as db:
            row = await db.one("SELECT value FROM bot_settings WHERE key = ?", (key,))
        return None if row is None else str(row["value"])

    async def set_setting(self, key: str, value: str) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO bot_settings (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    async def table(self, table_id: int) -> TableRecord | None:
        async with self._read(snapshot=True) as db:
            row = await db.one("SELECT * FROM tables WHERE id = ?", (table_id,))
            if row is None:
                return None
            return TableRecord.from_row(row, await self._seats(db, row["id"]))

    # ------------------------------------------------------------------ leaderboards and history

    async def leaderboard(
        self,
        guild_id: int,
        *,
        rules: str | None = None,
        since: float | None = None,
        limit: int = 10,
        offset: int = 0,
        min_matches: int = 0,
    ) -> list[LeaderRow]:
        """This server's human players ranked by points (then wins, fewer hands, user id), each with their
        rating of ``rules`` (or their best one over every rule set); at least ``min_matches`` tables each."""
        board, params = self._board(guild_id, rules, since, min_matches)
        rating, rating_params = self._rating_join(guild_id, rules)
        sql = (
            f"{board} SELECT b.*, n.name, r.shown AS rating, COALESCE(r.matches, 0) AS rated_matches FROM board b"
            f" JOIN player_names n ON n.guild_id = ? AND n.user_id = b.user_id {rating}"
            " ORDER BY b.rank LIMIT ? OFFSET ?"
        )
        async with self._read() as db:
            rows = await db.all(sql, (*params, guild_id, *rating_params, limit, offset))
        return [LeaderRow.from_row(r) for r in rows]

    async def leaderboard_page(
        self,
        guild_id: int,
        *,
        rules: str | None = None,
        since: float | None = None,
        page: int = 1,
        size: int = 10,
        min_matches: int = 0,
    ) -> tuple[list[LeaderRow], int, int]:
        """One page of :meth:`leaderboard` and how many players the board ranks, in one pass over it
        (a page past the end answers with the last page): ``(rows, players, page)``."""
        board, params = self._board(guild_id, rules, since, min_matches)
        rating, rating_params = self._rating_join(guild_id, rules)
        sql = (
            f"{board} SELECT b.*, n.name, r.shown AS rating, COALESCE(r.matches, 0) AS rated_matches,"
            " COUNT(*) OVER () AS players FROM board b"
            f" JOIN player_names n ON n.guild_id = ? AND n.user_id = b.user_id {rating}"
            " ORDER BY b.rank LIMIT ? OFFSET ?"
        )
        page = max(1, page)
        async with self._read() as db:
            rows = await db.all(sql, (*params, guild_id, *rating_params, size, (page - 1) * size))
        if not rows and page > 1:  # past the end: the last page
            players = await self.leaderboard_count(guild_id, rules=rules, since=since, min_matches=min_matches)
            last = max(1, -(-players // size))
            return await self.leaderboard_page(
                guild_id, rules=rules, since=since, page=last, size=size, min_matches=min_matches
            ) if players else ([], 0, 1)
        players = rows[0]["players"] if rows else 0
        return [LeaderRow.from_row(r) for r in rows], players, page

    async def leaderboard_count(
        self, guild_id: int, *, rules: str | None = None, since: float | None = None, min_matches: int = 0
    ) -> int:
        """How many players :meth:`leaderboard` ranks with the same filters (for paging)."""
        board, params = self._board(guild_id, rules, since, min_matches)
        async with self._read() as db:
            row = await db.one(f"{board} SELECT COUNT(*) AS players FROM totals", params)
        return 0 if row is None else int(row["players"])

    async def player_stats(
        self, guild_id: int, user_id: int, *, rules: str | None = None
    ) -> PlayerStats | None:
        """One player's numbers in this server and rank among its players; None if they have no finished hand."""
        board, params = self._board(guild_id, rules, None)
        rating, rating_params = self._rating_join(guild_id, rules)
        sql = (
            f"{board} SELECT b.*, (SELECT COUNT(*) FROM board) AS players, n.name, r.shown AS rating,"
            " COALESCE(r.matches, 0) AS rated_matches FROM board b"
            f" JOIN player_names n ON n.guild_id = ? AND n.user_id = b.user_id {rating} WHERE b.user_id = ?"
        )
        async with self._read() as db:
            row = await db.one(sql, (*params, guild_id, *rating_params, user_id))
        return None if row is None else PlayerStats.from_row(row)

    # ------------------------------------------------------------------ ratings and statistics

    async def rating_board(
        self, guild_id: int, rules: str, *, limit: int = 10, offset: int = 0, min_matches: int = 0
    ) -> list[RatingRow]:
        """This server's rated people of ``rules`` by shown rating (then more matches, user id), each with
        at least ``min_matches`` rated matches, and their average place there."""
        sql = (
            "WITH board AS (SELECT *, ROW_NUMBER() OVER (ORDER BY shown DESC, matches DESC, user_id) AS rank"
            " FROM ratings WHERE guild_id = ? AND rules = ? AND matches >= ?)"
            " SELECT b.*, n.name, (SELECT AVG(CAST(place AS DOUBLE PRECISION)) FROM match_scores m WHERE m.guild_id = b.guild_id"
            " AND m.user_id = b.user_id AND m.rules = b.rules) AS average_place FROM board b"
            " JOIN player_names n ON n.guild_id = b.guild_id AND n.user_id = b.user_id"
            " ORDER BY b.rank LIMIT ? OFFSET ?"
        )
        async with self._read() as db:
            rows = await db.all(sql, (guild_id, rules, min_matches, limit, offset))
        return [RatingRow.from_row(r) for r in rows]

    async def rating_board_count(self, guild_id: int, rules: str, *, min_matches: int = 0) -> int:
        async with self._read() as db:
            row = await db.one(
                "SELECT COUNT(*) AS n FROM ratings WHERE guild_id = ? AND rules = ? AND matches >= ?",
                (guild_id, rules, min_matches),
            )
        return 0 if row is None else int(row["n"])

    async def rated_rules(self, guild_id: int) -> list[str]:
        """The rule sets this server has ratings for, the one with most rated people first."""
        async with self._read() as db:
            rows = await db.all(
                "SELECT rules FROM ratings WHERE guild_id = ? GROUP BY rules ORDER BY COUNT(*) DESC, rules",
                (guild_id,),
            )
        return [r["rules"] for r in rows]

    async def player_figures(
        self, guild_id: int, user_id: int, *, rules: str | None = None, top: int = 5
    ) -> PlayerFigures | None:
        """A person's numbers of one rule set in this server (by default the one they played most hands
        of); None when they have no finished hand there."""
        async with self._read(snapshot=True) as db:
            played = await db.all(
                "SELECT rules, COUNT(*) AS n FROM hand_seats WHERE guild_id = ? AND user_id = ?"
                " GROUP BY rules ORDER BY n DESC, rules",
                (guild_id, user_id),
            )
            played_rules = [r["rules"] for r in played]
            if rules is None:
                if not played_rules:
                    return None
                rules = played_rules[0]
            if rules not in played_rules:
                return None
            key = (guild_id, user_id, rules)
            totals = await db.one(
                "SELECT SUM(delta) AS points, COUNT(*) AS hands, SUM(won) AS wins, SUM(self_drew) AS self_draws,"
                " SUM(dealt_in) AS deal_ins, SUM(called) AS calls, COALESCE(SUM(tai), 0) AS tai_sum,"
                " MAX(tai) AS best_tai, COALESCE(MAX(streak), 0) AS longest_streak FROM hand_seats"
                " WHERE guild_id = ? AND user_id = ? AND rules = ?",
                key,
            )
            assert totals is not None  # an aggregate always answers one row
            best = await db.one(
                "SELECT hand_id FROM hand_seats WHERE guild_id = ? AND user_id = ? AND rules = ? AND won = 1"
                " ORDER BY tai DESC, hand_id LIMIT 1",
                key,
            )
            place_rows = await db.all(
                "SELECT place, COUNT(*) AS n FROM match_scores WHERE guild_id = ? AND user_id = ? AND rules = ?"
                " GROUP BY place",
                key,
            )
            items = await db.all(
                "SELECT item, COUNT(*) AS n FROM hand_items WHERE guild_id = ? AND user_id = ? AND rules = ?"
                " GROUP BY item ORDER BY n DESC, item LIMIT ?",
                (*key, top),
            )
            rating = await db.one(
                "SELECT shown, matches, (SELECT COUNT(*) FROM ratings o WHERE o.guild_id = r.guild_id"
                " AND o.rules = r.rules AND o.shown > r.shown) + 1 AS rank,"
                " (SELECT COUNT(*) FROM ratings o WHERE o.guild_id = r.guild_id AND o.rules = r.rules) AS players"
                " FROM ratings r WHERE guild_id = ? AND rules = ? AND user_id = ?",
                (guild_id, rules, user_id),
            )
            name = await db.one(
                "SELECT name FROM player_names WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
            )
        places = [0, 0, 0, 0]
        for row in place_rows:
            if 1 <= row["place"] <= 4:
                places[row["place"] - 1] = row["n"]
        return PlayerFigures(
            user_id=user_id,
            name="" if name is None else name["name"],
            rules=rules,
            points=totals["points"],
            hands=totals["hands"],
            wins=totals["wins"],
            self_draws=totals["self_draws"],
            deal_ins=totals["deal_ins"],
            calls=totals["calls"],
            tai_sum=totals["tai_sum"],
            best_tai=totals["best_tai"],
            best_hand=None if best is None else best["hand_id"],
            longest_streak=totals["longest_streak"],
            places=(places[0], places[1], places[2], places[3]),
            top_items=tuple((r["item"], r["n"]) for r in items),
            rating=None if rating is None else rating["shown"],
            rated_matches=0 if rating is None else rating["matches"],
            rank=None if rating is None else rating["rank"],
            players=0 if rating is None else rating["players"],
            other_rules=tuple(r for r in played_rules if r != rules),
        )

    async def server_figures(self, guild_id: int, rules: str, *, top: int = 5) -> ServerFigures:
        """This server's won hands of ``rules``: the most-made items, the rarest, and the biggest hands."""
        item_sql = (
            "SELECT item, hands AS n, last_hand FROM item_totals WHERE guild_id = ? AND rules = ?"
            " ORDER BY n {order}, last_hand DESC, item LIMIT ?"
        )
        async with self._read(snapshot=True) as db:
            counts = await db.one(
                "SELECT hands, wins FROM server_totals WHERE guild_id = ? AND rules = ?", (guild_id, rules)
            )
            most = await db.all(item_sql.format(order="DESC"), (guild_id, rules, top))
            rare = await db.all(item_sql.format(order="ASC"), (guild_id, rules, top))
            biggest = await db.all(
                "SELECT s.hand_id, s.tai, COALESCE(n.name, s.name) AS name FROM hand_seats s"
                " LEFT JOIN player_names n ON n.guild_id = s.guild_id AND n.user_id = s.user_id"
                " WHERE s.guild_id = ? AND s.rules = ? AND s.won = 1 ORDER BY s.tai DESC, s.hand_id LIMIT ?",
                (guild_id, rules, top),
            )
            names = {}
            for row in (*most, *rare):
                if row["last_hand"] not in names:
                    who = await db.one(
                        "SELECT COALESCE(n.name, s.name) AS name FROM hand_seats s LEFT JOIN player_names n"
                        " ON n.guild_id = s.guild_id AND n.user_id = s.user_id WHERE s.hand_id = ? AND s.won = 1",
                        (row["last_hand"],),
                    )
                    names[row["last_hand"]] = "" if who is None else who["name"]
        def counted(rows: list[Row]) -> tuple[ItemCount, ...]:
            return tuple(ItemCount(r["item"], r["n"], r["last_hand"], names[r["last_hand"]]) for r in rows)

        return ServerFigures(
            rules=rules,
            hands=0 if counts is None else counts["hands"],
            wins=0 if counts is None else counts["wins"],
            most_made=counted(most),
            rarest=counted(rare),
            biggest=tuple(BigHand(r["hand_id"], r["tai"], r["name"]) for r in biggest),
        )

    async def match_standings(self, guild_id: int, table_id: int) -> MatchStandings | None:
        """A finished match of this server with its final scores by seat (None: unknown here, or not over)."""
        async with self._read(snapshot=True) as db:
            match = await db.one(
                "SELECT m.finished_at, m.leaver, t.rules, t.options FROM matches m JOIN tables t ON t.id = m.table_id"
                " WHERE m.table_id = ? AND t.guild_id = ? AND m.finished_at IS NOT NULL",
                (table_id, guild_id),
            )
            if match is None:
                return None
            scores = await db.all("SELECT * FROM match_scores WHERE table_id = ? ORDER BY seat", (table_id,))
            changes = await db.all(
                "SELECT seat, before, after FROM match_ratings WHERE table_id = ? ORDER BY seat", (table_id,)
            )
        options = loads(match["options"]) or {}
        return MatchStandings(
            table_id=table_id,
            rules=match["rules"],
            options=options.get("table", {}) if isinstance(options, dict) else {},
            names=tuple(r["name"] for r in scores),
            user_ids=tuple(r["user_id"] for r in scores),
            scores=tuple(r["score"] for r in scores),
            places=tuple(r["place"] for r in scores),
            leaver=match["leaver"],
            finished_at=match["finished_at"],
            rating_changes=tuple((r["seat"], r["before"], r["after"]) for r in changes),
        )

    async def recompute(self, guild_id: int | None = None) -> int:
        """Derive again, from the stored matches and hands, everything the ratings and statistics read
        beyond what a hand recorded: places, items, 連莊 counts, each player's and the server's totals and
        every rating (rated matches replayed in the order they ended). For one server, or all. Returns how
        many rated matches were replayed. Who called (副露) stays as recorded when the hand ended (it came
        from replaying its moves)."""
        scope, params = ("t.guild_id = ?", (guild_id,)) if guild_id is not None else ("1 = 1", ())
        dialect = self._driver.dialect
        rated = 0
        async with self._write() as db:
            await db.execute(
                f"DELETE FROM hand_items WHERE hand_id IN (SELECT h.id FROM hands h JOIN tables t ON t.id = h.table_id"
                f" WHERE {scope})",
                params,
            )
            hands = await db.all(
                "SELECT h.id, h.header, h.result, h.winner, t.guild_id, t.rules FROM hands h"
                f" JOIN tables t ON t.id = h.table_id WHERE {scope} AND h.finished_at IS NOT NULL",
                params,
            )
            for hand in hands:
                dealer, streak = _dealer_streak(loads(hand["header"]))
                await db.execute(
                    "UPDATE hand_seats SET streak = CASE WHEN seat = ? THEN CAST(? AS INTEGER) END WHERE hand_id = ?",
                    (dealer, streak, hand["id"]),
                )
                winner = hand["winner"]
                if winner is not None:
                    row = await db.one(
                        "SELECT user_id FROM hand_seats WHERE hand_id = ? AND seat = ?", (hand["id"], winner)
                    )
                    if row is not None:
                        await _store_items(
                            db,
                            dialect.greatest,
                            hand["id"], loads(hand["result"]), row["user_id"], hand["guild_id"], hand["rules"]
                        )
            await _derive_totals(db, dialect, guild_id)
            where_ratings = "guild_id = ?" if guild_id is not None else "1 = 1"
            await db.execute(f"DELETE FROM ratings WHERE {where_ratings}", params)
            await db.execute(
                f"DELETE FROM match_ratings WHERE table_id IN (SELECT id FROM tables t WHERE {scope})", params
            )
            matches = await db.all(
                "SELECT m.table_id, m.leaver, t.guild_id, t.rules, t.ranking FROM matches m"
                f" JOIN tables t ON t.id = m.table_id WHERE {scope} AND m.finished_at IS NOT NULL"
                " ORDER BY m.finished_at, m.table_id",
                params,
            )
            for match in matches:
                rows = await db.all(  # an AI seat's level is kept with the table's seats
                    "SELECT m.*, s.ai_level FROM match_scores m LEFT JOIN seats s ON s.table_id = m.table_id"
                    " AND s.seat = m.seat WHERE m.table_id = ? ORDER BY m.seat",
                    (match["table_id"],),
                )
                places = placements([r["score"] for r in rows], match["leaver"])
                await db.executemany(
                    "UPDATE match_scores SET place = ?, guild_id = ?, rules = ? WHERE table_id = ? AND seat = ?",
                    [
                        (place, match["guild_id"], match["rules"], match["table_id"], r["seat"])
                        for r, place in zip(rows, places, strict=True)
                    ],
                )
                seats = [SeatRecord(r["seat"], r["user_id"], r["name"], r["ai_level"]) for r in rows]
                if is_rated(match["ranking"], sum(1 for s in seats if s.user_id is not None), len(seats)):
                    rated += 1
                await _rate_match(
                    db, match["table_id"], match["guild_id"], match["rules"], match["ranking"], seats, places
                )
        return rated

    async def rebuild_totals(self, guild_id: int | None = None) -> None:
        """Derive the running totals (player_totals, player_hours, player_tables, item_totals,
        server_totals) again from the stored hands, seats and items, in one transaction: for a history
        written in bulk rather than hand by hand through :meth:`finish_hand` (``bench.history``)."""
        async with self._write() as db:
            await _derive_totals(db, self._driver.dialect, guild_id)

    async def history(self, guild_id: int, *, limit: int = 10) -> list[MatchSummary]:
        """This server's finished matches, newest first, each with its standings best first."""
        async with self._read(snapshot=True) as db:
            matches = await db.all(
                "SELECT m.table_id, m.started_at, m.finished_at, t.rules, t.rounds,"
                " (SELECT COUNT(*) FROM hands h WHERE h.table_id = m.table_id AND h.finished_at IS NOT NULL) AS hands"
                " FROM matches m JOIN tables t ON t.id = m.table_id"
                " WHERE t.guild_id = ? AND m.finished_at IS NOT NULL ORDER BY m.finished_at DESC, m.table_id DESC"
                " LIMIT ?",
                (guild_id, limit),
            )
            summaries = []
            for m in matches:
                scores = await db.all(
                    "SELECT name, user_id, score FROM match_scores WHERE table_id = ? ORDER BY score DESC, seat",
                    (m["table_id"],),
                )
                summaries.append(
                    MatchSummary(
                        table_id=m["table_id"],
                        rules=m["rules"],
                        rounds=m["rounds"],
                        started_at=m["started_at"],
                        finished_at=m["finished_at"],
                        hands=m["hands"],
                        standings=tuple(Standing(s["name"], s["user_id"], s["score"]) for s in scores),
                    )
                )
        return summaries

    async def finished_hand(self, guild_id: int, hand_id: int) -> FinishedHand | None:
        """A finished hand of this server (None for another server's hand, or one still being played)."""
        async with self._read(snapshot=True) as db:
            row = await db.one(
                "SELECT h.id, h.table_id, h.hand_no, h.result, h.finished_at, t.rules FROM hands h"
                " JOIN tables t ON t.id = h.table_id WHERE h.id = ? AND t.guild_id = ? AND h.result IS NOT NULL",
                (hand_id, guild_id),
            )
            if row is None:
                return None
            seats = await db.all(
                "SELECT seat, name FROM hand_seats WHERE hand_id = ? ORDER BY seat", (hand_id,)
            )
        return FinishedHand.from_row(row, tuple(s["name"] for s in seats))

    def _board(
        self, guild_id: int, rules: str | None, since: float | None, min_matches: int = 0
    ) -> tuple[str, list[Any]]:
        return _board_sql(self._driver.dialect, guild_id, rules, since, min_matches)

    def _rating_join(self, guild_id: int, rules: str | None) -> tuple[str, list[Any]]:
        return _rating_sql(self._driver.dialect, guild_id, rules)


def _rating_sql(dialect: Dialect, guild_id: int, rules: str | None) -> tuple[str, list[Any]]:
    """LEFT JOIN ``r``: a player's rating of ``rules``, or (all rule sets) their best shown one."""
    if rules is not None:
        return (
            "LEFT JOIN ratings r ON r.guild_id = ? AND r.rules = ? AND r.user_id = b.user_id",
            [guild_id, rules],
        )
    matches = dialect.arg_max.format(value="matches", by="shown")  # one max() in the subquery
    return (
        f"LEFT JOIN (SELECT user_id, MAX(shown) AS shown, {matches} AS matches FROM ratings WHERE guild_id = ?"
        " GROUP BY user_id) r ON r.user_id = b.user_id",
        [guild_id],
    )


def _board_sql(
    dialect: Dialect, guild_id: int, rules: str | None, since: float | None, min_matches: int = 0
) -> tuple[str, list[Any]]:
    """A ``WITH board AS (...)`` clause: one row per ranked player, with its rank. All time reads the
    running totals (a row a player and rule set); a period reads that period's hands. The rule set of
    a player's best hand (``best_rules``) comes from the row of ``MAX(best_tai)``, the query's one max()."""
    if since is None:
        params: list[Any] = [guild_id] if rules is None else [guild_id, rules]
        where = "guild_id = ?" if rules is None else "guild_id = ? AND rules = ?"
        sql = (
            "WITH totals AS (SELECT user_id, SUM(points) AS points, SUM(matches) AS matches, SUM(hands) AS hands,"
            " SUM(wins) AS wins, SUM(self_draws) AS self_draws, SUM(deal_ins) AS deal_ins,"
            f" MAX(best_tai) AS best_tai, {dialect.arg_max.format(value='rules', by='best_tai')} AS best_rules"
            f" FROM player_totals WHERE {where} GROUP BY user_id"
            " HAVING SUM(matches) >= ?),"
            " board AS (SELECT *, ROW_NUMBER() OVER (ORDER BY points DESC, wins DESC, hands ASC, user_id ASC) AS rank"
            " FROM totals)"
        )
        return sql, [*params, min_matches]
    # a period: its whole hours from player_hours, the hands of its first partial hour, and the tables
    # with a hand in it (a table's latest hand is in the period exactly when one of its hands is): their
    # count by whole hours from player_table_hours, the tables of the first partial hour from player_tables
    first_hour = math.ceil(since / 3600)
    by_rules, rule_params = ("", []) if rules is None else (" AND rules = ?", [rules])
    sql = (
        "WITH parts AS (SELECT user_id, rules, points, hands, wins, self_draws, deal_ins, best_tai FROM player_hours"
        f" WHERE guild_id = ? AND hour >= ?{by_rules}"
        " UNION ALL SELECT user_id, rules, delta, 1, won, self_drew, dealt_in, tai FROM hand_seats"
        f" WHERE guild_id = ? AND user_id IS NOT NULL AND finished_at >= ? AND finished_at < ?{by_rules}),"
        " tabled AS (SELECT user_id, matches FROM player_table_hours WHERE guild_id = ? AND hour >= ?"
        f"{by_rules} UNION ALL SELECT user_id, 1 FROM player_tables"
        f" WHERE guild_id = ? AND last_at >= ? AND last_at < ?{by_rules}),"
        " counted AS (SELECT user_id, SUM(matches) AS matches FROM tabled GROUP BY user_id),"
        "totals AS (SELECT p.user_id, SUM(p.points) AS points, c.matches AS matches, SUM(p.hands) AS hands,"
        " SUM(p.wins) AS wins, SUM(p.self_draws) AS self_draws, SUM(p.deal_ins) AS deal_ins,"
        f" MAX(p.best_tai) AS best_tai, {dialect.arg_max.format(value='p.rules', by='p.best_tai')} AS best_rules"
        " FROM parts p JOIN counted c ON c.user_id = p.user_id"
        " GROUP BY p.user_id, c.matches HAVING c.matches >= ?),"
        " board AS (SELECT *, ROW_NUMBER() OVER (ORDER BY points DESC, wins DESC, hands ASC, user_id ASC) AS rank"
        " FROM totals)"
    )
    params = [
        guild_id, first_hour, *rule_params,
        guild_id, since, first_hour * 3600, *rule_params,
        guild_id, first_hour, *rule_params, guild_id, since, first_hour * 3600, *rule_params,
        min_matches,
    ]
    return sql, params


def _hour(moment: float) -> int:
    """The hour bucket of ``player_hours`` a moment falls in."""
    return int(moment // 3600)


def _dealer_streak(header: Any) -> tuple[int | None, int]:
    """(dealer seat, 連莊 count) from a hand's engine header; (None, 0) for a header without them."""
    if not isinstance(header, dict) or not isinstance(header.get("dealer"), int):
        return None, 0
    streak = header.get("dealer_streak")
    return header["dealer"], streak if isinstance(streak, int) else 0


async def _derive_totals(db: Session, dialect: Dialect, guild_id: int | None) -> None:
    """The running totals of one server (or all) rebuilt from hand_seats, hand_items and hands."""
    scope, params = ("t.guild_id = ?", (guild_id,)) if guild_id is not None else ("1 = 1", ())
    hour = dialect.hour.format(time="finished_at")
    where_ratings = "guild_id = ?" if guild_id is not None else "1 = 1"
    await db.execute(f"DELETE FROM player_totals WHERE {where_ratings}", params)
    await db.execute(f"DELETE FROM player_hours WHERE {where_ratings}", params)
    await db.execute(
        "INSERT INTO player_hours (guild_id, hour, rules, user_id, points, hands, wins, self_draws, deal_ins,"
        f" best_tai) SELECT guild_id, {hour}, rules, user_id,"
        " SUM(delta), COUNT(*), SUM(won), SUM(self_drew), SUM(dealt_in), MAX(tai) FROM hand_seats"
        f" WHERE user_id IS NOT NULL AND {where_ratings}"
        f" GROUP BY guild_id, {hour}, rules, user_id",
        params,
    )
    await db.execute(f"DELETE FROM player_tables WHERE {where_ratings}", params)
    await db.execute(
        "INSERT INTO player_tables (guild_id, user_id, table_id, rules, last_at)"
        " SELECT guild_id, user_id, table_id, MIN(rules), MAX(finished_at) FROM hand_seats"
        f" WHERE user_id IS NOT NULL AND {where_ratings} GROUP BY guild_id, user_id, table_id",
        params,
    )
    await db.execute(f"DELETE FROM player_table_hours WHERE {where_ratings}", params)
    last_hour = dialect.hour.format(time="last_at")
    await db.execute(
        "INSERT INTO player_table_hours (guild_id, hour, rules, user_id, matches)"
        f" SELECT guild_id, {last_hour}, rules, user_id, COUNT(*) FROM player_tables WHERE {where_ratings}"
        f" GROUP BY guild_id, {last_hour}, rules, user_id",
        params,
    )
    await db.execute(f"DELETE FROM item_totals WHERE {where_ratings}", params)
    await db.execute(
        "INSERT INTO item_totals (guild_id, rules, item, hands, last_hand)"
        " SELECT guild_id, rules, item, COUNT(*), MAX(hand_id) FROM hand_items"
        f" WHERE {where_ratings} GROUP BY guild_id, rules, item",
        params,
    )
    await db.execute(f"DELETE FROM server_totals WHERE {where_ratings}", params)
    await db.execute(
        "INSERT INTO server_totals (guild_id, rules, hands, wins)"
        " SELECT t.guild_id, t.rules, COUNT(*), COUNT(h.winner) FROM hands h"
        f" JOIN tables t ON t.id = h.table_id WHERE {scope} AND h.finished_at IS NOT NULL"
        " GROUP BY t.guild_id, t.rules",
        params,
    )
    await db.execute(
        "INSERT INTO player_totals (guild_id, rules, user_id, points, matches, hands, wins, self_draws,"
        " deal_ins, best_tai) SELECT guild_id, rules, user_id, SUM(delta), COUNT(DISTINCT table_id),"
        " COUNT(*), SUM(won), SUM(self_drew), SUM(dealt_in), MAX(tai) FROM hand_seats"
        f" WHERE user_id IS NOT NULL AND {where_ratings} GROUP BY guild_id, rules, user_id",
        params,
    )


async def _move_tables_hour(
    db: Session, guild_id: int, table_id: int, rules: str, now: float, people: Sequence[tuple[SeatRecord, int]]
) -> None:
    """Keep player_table_hours beside player_tables: each person's table leaves the hour its latest hand
    ended in for ``now``'s hour (a first hand only arrives), before player_tables takes ``now``."""
    users = sorted({s.user_id for s, _ in people if s.user_id is not None})
    if not users:
        return
    marks = ", ".join("?" for _ in users)
    rows = await db.all(
        f"SELECT user_id, last_at FROM player_tables WHERE guild_id = ? AND table_id = ? AND user_id IN ({marks})",
        (guild_id, table_id, *users),
    )
    hour = _hour(now)
    before = {row["user_id"]: _hour(row["last_at"]) for row in rows}
    moved = [user for user in users if before.get(user) != hour]
    await db.executemany(
        "UPDATE player_table_hours SET matches = matches - 1"
        " WHERE guild_id = ? AND hour = ? AND rules = ? AND user_id = ?",
        [(guild_id, before[user], rules, user) for user in moved if user in before],
    )
    await db.executemany(  # an hour none of the person's tables ends in any more holds no row
        "DELETE FROM player_table_hours WHERE guild_id = ? AND hour = ? AND rules = ? AND user_id = ? AND matches = 0",
        [(guild_id, before[user], rules, user) for user in moved if user in before],
    )
    await db.executemany(
        "INSERT INTO player_table_hours (guild_id, hour, rules, user_id, matches) VALUES (?, ?, ?, ?, 1)"
        " ON CONFLICT (guild_id, hour, rules, user_id) DO UPDATE SET matches = player_table_hours.matches + 1",
        [(guild_id, hour, rules, user) for user in moved],
    )


async def _store_items(
    db: Session, greatest: str, hand_id: int, result: Any, user_id: int | None, guild_id: int, rules: str
) -> None:
    """One row per 台/番 item of a won hand (an item listed twice is one row with the values added)."""
    items: dict[str, int] = {}
    for entry in (result.get("items") or ()) if isinstance(result, dict) else ():
        name, value = entry[0], entry[1]
        items[name] = items.get(name, 0) + int(value)
    await db.executemany(
        "INSERT INTO hand_items (hand_id, item, value, user_id, guild_id, rules) VALUES (?, ?, ?, ?, ?, ?)",
        [(hand_id, name, items[name], user_id, guild_id, rules) for name in sorted(items)],
    )
    await db.executemany(
        "INSERT INTO item_totals (guild_id, rules, item, hands, last_hand) VALUES (?, ?, ?, 1, ?)"
        " ON CONFLICT (guild_id, rules, item) DO UPDATE SET hands = item_totals.hands + 1,"
        f" last_hand = {greatest}(item_totals.last_hand, excluded.last_hand)",
        [(guild_id, rules, name, hand_id) for name in sorted(items)],  # in one order (finish_hand)
    )


async def _rate_match(
    db: Session,
    table_id: int,
    guild_id: int,
    rules: str,
    ranking: str,
    seats: Sequence[SeatRecord],
    places: Sequence[int],
) -> None:
    """Move the ratings of a rated match's people (which matches count: ``ranking.is_rated``)."""
    if not is_rated(ranking, sum(1 for s in seats if s.user_id is not None), len(seats)):
        return
    before: list[Rating] = []
    for seat in seats:
        if seat.user_id is None:
            before.append(ai_rating(seat.ai_level))
            continue
        row = await db.one(
            "SELECT mu, sigma, matches FROM ratings WHERE guild_id = ? AND rules = ? AND user_id = ?",
            (guild_id, rules, seat.user_id),
        )
        before.append(new_rating() if row is None else Rating(row["mu"], row["sigma"], row["matches"]))
    after = rate(before, places, fixed=[s.user_id is None for s in seats])
    people = sorted(  # by user id, as finish_hand takes people's rows
        ((s, old, new) for s, old, new in zip(seats, before, after, strict=True) if s.user_id is not None),
        key=lambda person: (person[0].user_id, person[0].seat),
    )
    await db.executemany(
        "INSERT INTO ratings (guild_id, rules, user_id, mu, sigma, shown, matches) VALUES (?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, rules, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
        " shown = excluded.shown, matches = excluded.matches",
        [(guild_id, rules, s.user_id, new.mu, new.sigma, shown(new), new.matches) for s, _, new in people],
    )
    await db.executemany(
        "INSERT INTO match_ratings (table_id, seat, user_id, before, after) VALUES (?, ?, ?, ?, ?)",
        [(table_id, s.seat, s.user_id, shown(old), shown(new)) for s, old, new in people],
    )
