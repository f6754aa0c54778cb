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
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from types import EllipsisType
from typing import Any

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
    StoreReadOnly,
    StoreUnreachable,
    Violation,
)
from data.hall import HallStore
from data.migrate import MIGRATIONS, PG_MIGRATIONS, Migration
from data.postgres import PgDriver, is_server_url
from data.records import (
    PHASES,
    FinishedHand,
    LeaderRow,
    MatchSummary,
    PlayerStats,
    Row,
    SavedHand,
    SavedTable,
    SeatRecord,
    Standing,
    TableRecord,
    dumps,
    loads,
)
from data.sqlite import SqliteDriver

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


class Store(HallStore):
    """One open database. Use :meth:`open`; all methods are safe to call from many tasks at once."""

    def __init__(self, driver: Driver, clock: Callable[[], float]) -> None:
        self._driver = driver
        self._clock = clock
        self._board_template = _board_sql(driver.dialect.best_rules)
        self._writing: set[asyncio.Future[None]] = set()

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
    ) -> Store:
        """Open (creating if needed), check, migrate. Raises a ``StoreError`` with one clear line.

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
    ) -> TableRecord:
        """A new table in phase "lobby", with no seats yet."""
        async with self._write() as db:
            row = await db.one(
                "INSERT INTO tables (guild_id, channel_id, host_id, rules, rounds, options, password_hash, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (guild_id, channel_id, host_id, rules, rounds, dumps(options), password_hash, self._clock()),
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
        async with self._write() as db:
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
        async with self._write() as db:
            await self._update_table(db, table_id, changes)

    async def set_messages(
        self, table_id: int, *, lobby_message_id: int | None = None, table_message_id: int | None = None
    ) -> None:
        changes = {
            k: v
            for k, v in (("lobby_message_id", lobby_message_id), ("table_message_id", table_message_id))
            if v is not None
        }
        async with self._write() as db:
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

    async def _require_table(self, db: Session, table_id: int) -> None:
        if await db.one("SELECT id FROM tables WHERE id = ?", (table_id,)) is None:
            raise StoreConflict(self.path, f"has no table {table_id}")

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
        async with self._write() as db:
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
        """Store several moves of one hand (``(move_no, action, deadline)`` each) in one round trip: a
        burst of AI and auto-played moves waits once, not once a move. A refused move (a move number
        used twice) keeps every move before it, each stored whole — a position the engine replays."""
        if not moves:
            return
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
        async with self._write() as db:
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
    ) -> None:
        """Record a hand's result and each seat's point change (seats as they sit now)."""
        now = self._clock()
        async with self._write() as db:
            hand = await db.one(
                "SELECT h.table_id, h.finished_at, t.guild_id, t.rules FROM hands h JOIN tables t ON t.id = h.table_id"
                " WHERE h.id = ?",
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
            await db.execute(
                "UPDATE hands SET result = ?, winner = ?, loser = ?, self_drawn = ?, total = ?, finished_at = ?,"
                " deadline = NULL WHERE id = ?",
                (dumps(result), winner, loser, int(self_drawn), total, now, hand_id),
            )
            await db.executemany(
                "INSERT INTO hand_seats (hand_id, seat, user_id, name, delta, won, self_drew, dealt_in, tai,"
                " guild_id, rules, table_id, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                    )
                    for s, delta in zip(seats, deltas, strict=True)
                ],
            )
            await db.executemany(
                "INSERT INTO player_names (guild_id, user_id, name, updated_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at",
                [(hand["guild_id"], s.user_id, s.name, now) for s in seats if s.user_id is not None],
            )

    async def finish_match(self, table_id: int, scores: Sequence[int]) -> None:
        """Record each seat's final score; the table's phase becomes "over"."""
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
            await db.execute(
                "UPDATE matches SET finished_at = ? WHERE table_id = ?", (self._clock(), table_id)
            )
            await db.executemany(
                "INSERT INTO match_scores (table_id, seat, user_id, name, score) VALUES (?, ?, ?, ?, ?)",
                [
                    (table_id, s.seat, s.user_id, s.name, score)
                    for s, score in zip(seats, scores, strict=True)
                ],
            )
            await self._update_table(db, table_id, {"phase": "over"})

    async def _seats(self, db: Session, table_id: int) -> tuple[SeatRecord, ...]:
        rows = await db.all("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))
        return tuple(SeatRecord.from_row(r) for r in rows)

    # ------------------------------------------------------------------ resuming

    async def unfinished_tables(self) -> list[SavedTable]:
        """Tables in the lobby or playing, with everything needed to rebuild them after a restart."""
        async with self._read(snapshot=True) as db:
            tables = await db.all(f"SELECT * FROM tables WHERE {_UNFINISHED_SQL} ORDER BY id")
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
        for hand in await db.all("SELECT * FROM hands WHERE table_id = ? ORDER BY hand_no", (row["id"],)):
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
    ) -> list[LeaderRow]:
        """This server's human players ranked by points (then wins, fewer hands, user id)."""
        board, params = self._board(guild_id, rules, since)
        sql = (
            f"{board} SELECT b.*, n.name FROM board b JOIN player_names n ON n.guild_id = ? AND n.user_id = b.user_id"
            " ORDER BY b.rank LIMIT ? OFFSET ?"
        )
        async with self._read() as db:
            rows = await db.all(sql, (*params, guild_id, limit, offset))
        return [LeaderRow.from_row(r) for r in rows]

    async def leaderboard_count(
        self, guild_id: int, *, rules: str | None = None, since: float | None = None
    ) -> int:
        """How many players :meth:`leaderboard` ranks with the same filters (for paging)."""
        where, params = _board_filter(guild_id, rules, since)
        async with self._read() as db:
            row = await db.one(
                f"SELECT COUNT(DISTINCT user_id) AS players FROM hand_seats WHERE {where}", params
            )
        return 0 if row is None else int(row["players"])

    async def player_stats(
        self, guild_id: int, user_id: int, *, rules: str | None = None
    ) -> PlayerStats | None:
        """One player's numbers in this server and rank among its players; None if they have no finished hand."""
        board, params = self._board(guild_id, rules, None)
        sql = (
            f"{board} SELECT b.*, (SELECT COUNT(*) FROM board) AS players, n.name FROM board b"
            " JOIN player_names n ON n.guild_id = ? AND n.user_id = b.user_id WHERE b.user_id = ?"
        )
        async with self._read() as db:
            row = await db.one(sql, (*params, guild_id, user_id))
        return None if row is None else PlayerStats.from_row(row)

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

    def _board(self, guild_id: int, rules: str | None, since: float | None) -> tuple[str, list[Any]]:
        """A ``WITH board AS (...)`` clause: one row per ranked player, with its rank."""
        where, params = _board_filter(guild_id, rules, since)
        return self._board_template.format(where=where), params


def _board_filter(guild_id: int, rules: str | None, since: float | None) -> tuple[str, list[Any]]:
    """WHERE clause over hand_seats; matches the partial index ``hand_seats_player``."""
    where = ["guild_id = ?", "user_id IS NOT NULL"]
    params: list[Any] = [guild_id]
    if rules is not None:
        where.append("rules = ?")
        params.append(rules)
    if since is not None:
        where.append("finished_at >= ?")
        params.append(since)
    return " AND ".join(where), params


def _board_sql(best_rules: str) -> str:
    """The leaderboard's ``WITH`` clause, with ``{where}`` left to fill; ``best_rules`` from the dialect."""
    return (
        "WITH totals AS (SELECT user_id, SUM(delta) AS points, COUNT(DISTINCT table_id) AS matches,"
        " COUNT(*) AS hands, SUM(won) AS wins, SUM(self_drew) AS self_draws, SUM(dealt_in) AS deal_ins,"
        f" MAX(tai) AS best_tai, {best_rules} AS best_rules FROM hand_seats WHERE {{where}} GROUP BY user_id),"
        " board AS (SELECT *, ROW_NUMBER() OVER (ORDER BY points DESC, wins DESC, hands ASC, user_id ASC) AS rank"
        " FROM totals)"
    )
