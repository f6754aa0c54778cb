"""Tournaments' storage (migrations 0009 and 0012): what the organiser chose (with the turn and claim
times, house rules and threads every table of it plays with) and the secret key, who registered, checked
in or dropped, each round's byes and tables (with the thread a table opened in), and each table's final
points. ``Store`` includes
these methods (``TournamentStore``); table/tournament.py decides everything they hold.

The key is kept here and handed only to the host (``TournamentRecord.key`` is left out of its repr): a
surface shows it only once ``Tournament.key_may_show`` allows.

    >>> TournamentRecord.PHASES[-2:]
    ('over', 'cancelled')
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from data.driver import Session
from data.errors import StoreConflict
from data.hall import insert_system_table
from data.records import Row, SeatRecord, TableRecord, dumps, loads

REGISTERED, CHECKED_IN, DROPPED = "registered", "checked_in", "dropped"
LIVE_PHASES = ("registration", "playing", "paused")  # a tournament the bot looks after (and resumes)


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    PHASES: ClassVar[tuple[str, ...]] = ("registration", "playing", "paused", "over", "cancelled")

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    organiser_id: int
    name: str
    rules: str
    rounds: int
    hands: int | None  # None: one 東風圈 a table
    duplicate: bool
    ai_fill: bool
    max_entrants: int | None
    starts_at: float | None
    locale: str
    phase: str
    created_at: float
    key: bytes = field(repr=False, default=b"")
    turn_seconds: int | None = None  # every table's; None (created before 0012): the server's 系統桌 turn
    claim_seconds: int | None = None  # None: the rule set's own
    preset: str = "document"  # the house rules' preset (engine.house_rules), as the organiser named it
    house_rules: dict[str, Any] = field(default_factory=dict)  # what preset and switches resolved to (HouseRules)
    threads: bool = False  # each table of a round opens in its own thread under ``channel_id``

    @classmethod
    def from_row(cls, row: Row) -> TournamentRecord:
        return cls(
            row["id"], row["guild_id"], row["channel_id"], row["message_id"], row["organiser_id"], row["name"],
            row["rules"], row["rounds"], row["hands"], bool(row["duplicate"]), bool(row["ai_fill"]),
            row["max_entrants"], row["starts_at"], row["locale"], row["phase"], row["created_at"],
            bytes.fromhex(row["secret_key"]), row["turn_seconds"], row["claim_seconds"], row["preset"],
            loads(row["house_rules"]) or {}, bool(row["threads"]),
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class EntrantRecord:
    user_id: int
    name: str
    locale: str
    status: str  # registered | checked_in | dropped
    dropped_round: int | None  # dropped after this many rounds (0: before the first)
    joined_at: float

    @classmethod
    def from_row(cls, row: Row) -> EntrantRecord:
        return cls(
            row["user_id"], row["name"], row["locale"], row["status"], row["dropped_round"], row["joined_at"]
        )


@dataclass(frozen=True, slots=True)
class RoundTable:
    """One table of a round: its entrants in the tournament's seat order (None: AI), its 系統桌, its points."""

    round: int
    table_no: int
    seats: tuple[int | None, ...]
    table_id: int | None
    points: tuple[int, ...] | None
    thread_id: int | None = None  # the thread it opened in (a tournament with one thread per table)

    @classmethod
    def from_row(cls, row: Row) -> RoundTable:
        points = loads(row["points"])
        return cls(
            row["round"], row["table_no"], tuple(loads(row["seats"])), row["table_id"],
            None if points is None else tuple(points), row["thread_id"],
        )  # fmt: skip


class _Database(Protocol):
    @property
    def path(self) -> str: ...
    def _clock(self) -> float: ...
    def _write(self) -> AbstractAsyncContextManager[Session]: ...
    def _read(self) -> AbstractAsyncContextManager[Session]: ...


class TournamentStore:
    """Tournament methods of ``Store``; each write is one transaction."""

    # ------------------------------------------------------------------ the tournament

    async def create_tournament(
        self: _Database, *, guild_id: int, channel_id: int, organiser_id: int, name: str, rules: str,
        rounds: int, hands: int | None, duplicate: bool, ai_fill: bool, max_entrants: int | None,
        starts_at: float | None, locale: str, key: bytes, turn_seconds: int | None = None,
        claim_seconds: int | None = None, preset: str = "document", house_rules: dict[str, Any] | None = None,
        threads: bool = False,
    ) -> TournamentRecord:  # fmt: skip
        async with self._write() as db:
            row = await db.one(
                "INSERT INTO tournaments (guild_id, channel_id, organiser_id, name, rules, rounds, hands, duplicate,"
                " ai_fill, max_entrants, starts_at, locale, secret_key, created_at, turn_seconds, claim_seconds,"
                " preset, house_rules, threads)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (guild_id, channel_id, organiser_id, name, rules, rounds, hands, int(duplicate), int(ai_fill),
                 max_entrants, starts_at, locale, key.hex(), self._clock(), turn_seconds, claim_seconds, preset,
                 dumps(house_rules or {}), int(threads)),
            )  # fmt: skip
        assert row is not None
        return TournamentRecord.from_row(row)

    async def tournament(self: _Database, tournament_id: int) -> TournamentRecord | None:
        found = await _tournaments(self, "id = ?", (tournament_id,))
        return found[0] if found else None

    async def tournaments_of(self: _Database, guild_id: int) -> list[TournamentRecord]:
        """A server's tournaments, newest first."""
        return await _tournaments(self, "guild_id = ? ORDER BY id DESC", (guild_id,))

    async def live_tournaments(self: _Database) -> list[TournamentRecord]:
        """Every tournament still registering or playing (at start, to resume them)."""
        return await _tournaments(self, "phase IN ('registration', 'playing', 'paused') ORDER BY id", ())

    async def set_tournament(self: _Database, tournament_id: int, **changes: Any) -> None:
        """Change ``phase`` or ``message_id``."""
        allowed = {"phase", "message_id"}
        if not changes or set(changes) - allowed:
            raise ValueError(f"a tournament changes only {sorted(allowed)}")
        columns = ", ".join(f"{name} = ?" for name in changes)  # names checked above
        async with self._write() as db:
            await db.execute(f"UPDATE tournaments SET {columns} WHERE id = ?", (*changes.values(), tournament_id))

    # ------------------------------------------------------------------ entrants

    async def register(self: _Database, tournament_id: int, user_id: int, name: str, locale: str) -> bool:
        """Enter a person (False: already entered). Raises ``StoreConflict`` when registration has closed
        or the field is full."""
        async with self._write() as db:
            row = await db.one("SELECT phase, max_entrants FROM tournaments WHERE id = ?", (tournament_id,))
            if row is None or row["phase"] != "registration":
                raise StoreConflict(self.path, f"has tournament {tournament_id} not registering")
            known = await db.one(
                "SELECT status FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                (tournament_id, user_id),
            )
            if known is not None:
                return False
            count = await db.one("SELECT COUNT(*) AS n FROM tournament_entrants WHERE tournament_id = ?", (tournament_id,))
            if row["max_entrants"] is not None and count is not None and count["n"] >= row["max_entrants"]:
                raise StoreConflict(self.path, f"has tournament {tournament_id} full")
            await db.execute(
                "INSERT INTO tournament_entrants (tournament_id, user_id, name, locale, joined_at) VALUES (?, ?, ?, ?, ?)",
                (tournament_id, user_id, name, locale, self._clock()),
            )
        return True

    async def unregister(self: _Database, tournament_id: int, user_id: int) -> bool:
        """Leave before the start (False: was not entered, or it has started)."""
        async with self._write() as db:
            removed = await db.execute(
                "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ? AND tournament_id IN"
                " (SELECT id FROM tournaments WHERE phase = 'registration')",
                (tournament_id, user_id),
            )
        return removed == 1

    async def check_in(self: _Database, tournament_id: int, user_id: int) -> bool:
        """Say one is here (False: not entered, or it has started)."""
        async with self._write() as db:
            changed = await db.execute(
                "UPDATE tournament_entrants SET status = 'checked_in' WHERE tournament_id = ? AND user_id = ?"
                " AND tournament_id IN (SELECT id FROM tournaments WHERE phase = 'registration')",
                (tournament_id, user_id),
            )
        return changed == 1

    async def entrants(self: _Database, tournament_id: int) -> list[EntrantRecord]:
        """Everyone entered, first come first."""
        async with self._read() as db:
            return await _entrants(db, tournament_id)

    async def start_tournament(self: _Database, tournament_id: int) -> list[EntrantRecord]:
        """Registration closes: whoever did not check in is dropped (before round 1); the entrants who play."""
        async with self._write() as db:
            changed = await db.execute(
                "UPDATE tournaments SET phase = 'playing' WHERE id = ? AND phase = 'registration'", (tournament_id,)
            )
            if changed != 1:
                raise StoreConflict(self.path, f"has tournament {tournament_id} not registering")
            await db.execute(
                "UPDATE tournament_entrants SET status = 'dropped', dropped_round = 0"
                " WHERE tournament_id = ? AND status = 'registered'",
                (tournament_id,),
            )
            entrants = await _entrants(db, tournament_id, status=CHECKED_IN)
        return entrants

    async def drop_entrant(self: _Database, tournament_id: int, user_id: int, after_round: int) -> bool:
        """A player leaves a started tournament after ``after_round`` rounds (False: not playing in it)."""
        async with self._write() as db:
            changed = await db.execute(
                "UPDATE tournament_entrants SET status = 'dropped', dropped_round = ?"
                " WHERE tournament_id = ? AND user_id = ? AND status = 'checked_in'",
                (after_round, tournament_id, user_id),
            )
        return changed == 1

    async def replace_entrant(
        self: _Database, tournament_id: int, number: int, table_no: int, old: int, new: int, name: str, locale: str
    ) -> bool:
        """One transaction: ``new`` takes ``old``'s seat at a round's table still playing. The stated rule:
        the seat's result of this round counts for ``new`` (the tables' seats say who holds a seat's
        result); ``old`` is dropped after the rounds before it (their earlier results stay theirs); ``new``
        plays on as a checked-in entrant (entered now if they were not; out of the round's byes). False
        (nothing changed): ``old`` has no seat there, the table is recorded, or ``new`` sits in this round."""
        async with self._write() as db:
            rows = await db.all(
                "SELECT table_no, seats, points FROM tournament_tables WHERE tournament_id = ? AND round = ?",
                (tournament_id, number),
            )
            seats = {int(r["table_no"]): list(loads(r["seats"])) for r in rows}
            mine = next((r for r in rows if int(r["table_no"]) == table_no), None)
            if mine is None or mine["points"] is not None or old not in seats[table_no]:
                return False
            if any(new in s for s in seats.values()):
                return False
            known = await db.one(
                "SELECT status, dropped_round FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                (tournament_id, new),
            )
            if known is not None and known["status"] == DROPPED and (known["dropped_round"] or 0) > 0:
                return False  # left the tournament after playing: not seated again
            changed = [new if u == old else u for u in seats[table_no]]
            await db.execute(
                "UPDATE tournament_tables SET seats = ? WHERE tournament_id = ? AND round = ? AND table_no = ?",
                (dumps(changed), tournament_id, number, table_no),
            )
            await db.execute(
                "UPDATE tournament_entrants SET status = 'dropped', dropped_round = ? WHERE tournament_id = ? AND user_id = ?",
                (number - 1, tournament_id, old),
            )
            if known is None:
                await db.execute(
                    "INSERT INTO tournament_entrants (tournament_id, user_id, name, locale, status, joined_at)"
                    " VALUES (?, ?, ?, ?, 'checked_in', ?)",
                    (tournament_id, new, name, locale, self._clock()),
                )
            else:
                await db.execute(
                    "UPDATE tournament_entrants SET status = 'checked_in', dropped_round = NULL"
                    " WHERE tournament_id = ? AND user_id = ?",
                    (tournament_id, new),
                )
            byes = await db.one(
                "SELECT byes FROM tournament_rounds WHERE tournament_id = ? AND round = ?", (tournament_id, number)
            )
            if byes is not None and new in loads(byes["byes"]):
                await db.execute(
                    "UPDATE tournament_rounds SET byes = ? WHERE tournament_id = ? AND round = ?",
                    (dumps([u for u in loads(byes["byes"]) if u != new]), tournament_id, number),
                )
        return True

    # ------------------------------------------------------------------ rounds and tables

    async def seat_round(
        self: _Database, tournament_id: int, number: int, tables: Sequence[Sequence[int | None]], byes: Sequence[int]
    ) -> None:
        """Store round ``number``'s seating (its tables get their 系統桌 as they open)."""
        async with self._write() as db:
            await db.execute(
                "INSERT INTO tournament_rounds (tournament_id, round, byes) VALUES (?, ?, ?)",
                (tournament_id, number, dumps(list(byes))),
            )
            await db.executemany(
                "INSERT INTO tournament_tables (tournament_id, round, table_no, seats) VALUES (?, ?, ?, ?)",
                [(tournament_id, number, n, dumps(list(seats))) for n, seats in enumerate(tables)],
            )

    async def open_tournament_table(
        self: _Database, tournament_id: int, number: int, table_no: int, *, guild_id: int, channel_id: int,
        host_id: int, rules: str, rounds: int, options: dict, seats: Sequence[SeatRecord],
    ) -> TableRecord:  # fmt: skip
        """One transaction: a round's table gets its 系統桌, stored already "playing". Raises
        ``StoreConflict`` (and stores nothing) when that table already has one."""
        async with self._write() as db:
            row = await db.one(
                "SELECT table_id FROM tournament_tables WHERE tournament_id = ? AND round = ? AND table_no = ?",
                (tournament_id, number, table_no),
            )
            if row is None or row["table_id"] is not None:
                raise StoreConflict(self.path, f"has no table {table_no} of round {number} to open")
            record = await insert_system_table(
                db, guild_id, channel_id, host_id, rules, rounds, options, seats, self._clock()
            )
            await db.execute(
                "UPDATE tournament_tables SET table_id = ? WHERE tournament_id = ? AND round = ? AND table_no = ?",
                (record.id, tournament_id, number, table_no),
            )
        return record

    async def set_table_thread(self: _Database, tournament_id: int, number: int, table_no: int, thread_id: int) -> None:
        """The thread a round's table opens in (kept: the table opened again, or after a restart, reuses it)."""
        async with self._write() as db:
            await db.execute(
                "UPDATE tournament_tables SET thread_id = ? WHERE tournament_id = ? AND round = ? AND table_no = ?",
                (thread_id, tournament_id, number, table_no),
            )

    async def reopen_tournament_table(self: _Database, tournament_id: int, number: int, table_no: int) -> bool:
        """A round's table whose 系統桌 ended without finishing its match (closed, or not restorable after a
        restart) is to be opened again: it forgets that 系統桌. False: it has its points already."""
        async with self._write() as db:
            changed = await db.execute(
                "UPDATE tournament_tables SET table_id = NULL WHERE tournament_id = ? AND round = ? AND table_no = ?"
                " AND points IS NULL",
                (tournament_id, number, table_no),
            )
        return changed == 1

    async def record_table(
        self: _Database, tournament_id: int, number: int, table_no: int, points: Sequence[int]
    ) -> bool:
        """A round's table ended with these points (the tournament's seat order); False: already recorded."""
        async with self._write() as db:
            changed = await db.execute(
                "UPDATE tournament_tables SET points = ? WHERE tournament_id = ? AND round = ? AND table_no = ?"
                " AND points IS NULL",
                (dumps(list(points)), tournament_id, number, table_no),
            )
        return changed == 1

    async def round_tables(self: _Database, tournament_id: int) -> list[RoundTable]:
        """Every table of every round so far, in order."""
        async with self._read() as db:
            rows = await db.all(
                "SELECT * FROM tournament_tables WHERE tournament_id = ? ORDER BY round, table_no", (tournament_id,)
            )
        return [RoundTable.from_row(r) for r in rows]

    async def round_byes(self: _Database, tournament_id: int) -> dict[int, tuple[int, ...]]:
        """Each seated round's byes."""
        async with self._read() as db:
            rows = await db.all(
                "SELECT round, byes FROM tournament_rounds WHERE tournament_id = ? ORDER BY round", (tournament_id,)
            )
        return {int(r["round"]): tuple(loads(r["byes"])) for r in rows}

    async def tournament_table(self: _Database, table_id: int) -> tuple[int, int, int] | None:
        """(tournament, round, table number) of a 系統桌 a tournament opened; None for any other table."""
        async with self._read() as db:
            row = await db.one(
                "SELECT tournament_id, round, table_no FROM tournament_tables WHERE table_id = ?", (table_id,)
            )
        return None if row is None else (int(row["tournament_id"]), int(row["round"]), int(row["table_no"]))

    async def round_over_for(self: _Database, table_id: int) -> bool:
        """Whether every table of the tournament round that ``table_id`` played in has its points (True for
        a table no tournament opened): a duplicate round's key may show only then."""
        async with self._read() as db:
            row = await db.one(
                "SELECT COUNT(*) AS open FROM tournament_tables t JOIN tournament_tables mine"
                " ON mine.tournament_id = t.tournament_id AND mine.round = t.round"
                " WHERE mine.table_id = ? AND t.points IS NULL",
                (table_id,),
            )
        return row is None or int(row["open"]) == 0


async def _tournaments(store: _Database, where: str, params: tuple) -> list[TournamentRecord]:
    """The tournaments ``where`` selects (a condition and its order, written here, never from input)."""
    async with store._read() as db:  # noqa: SLF001 (a method of Store's own mixin)
        rows = await db.all(f"SELECT * FROM tournaments WHERE {where}", params)
    return [TournamentRecord.from_row(r) for r in rows]


async def _entrants(db: Session, tournament_id: int, *, status: str | None = None) -> list[EntrantRecord]:
    """A tournament's entrants (with ``status`` only, when given), first come first."""
    only = "" if status is None else " AND status = ?"
    rows = await db.all(
        f"SELECT * FROM tournament_entrants WHERE tournament_id = ?{only} ORDER BY joined_at, user_id",
        (tournament_id,) if status is None else (tournament_id, status),
    )
    return [EntrantRecord.from_row(r) for r in rows]
