"""The hall's storage (migration 0005): each server's quick-play queue, its hall settings, and the one
write that turns four queued people into a 系統桌. ``Store`` includes these methods (``HallStore``).

    >>> GuildSettings(1).ai_fill_seconds is None and GuildSettings(1).system_turn_seconds
    5
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, fields
from typing import Any, Protocol

from data.driver import Session
from data.errors import StoreConflict
from data.records import Row, SeatRecord, TableRecord, dumps

KINDS = ("player", "system")


@dataclass(frozen=True, slots=True)
class QueueEntry:
    """One person waiting for a 系統桌 of ``rules`` in a server."""

    guild_id: int
    user_id: int
    rules: str
    name: str
    locale: str  # their own language
    table_locale: str  # the server's language, for the table's channel messages
    channel_id: int  # where they queued
    queued_at: float

    @classmethod
    def from_row(cls, row: Row) -> QueueEntry:
        return cls(*(row[f.name] for f in fields(cls)))


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's hall settings; a server that never ran /mahjong setup has these defaults."""

    guild_id: int
    mahjong_channel_id: int | None = None  # None: a 系統桌 opens where the fourth person queued
    system_turn_seconds: int = 5  # the documents' 系統桌皆為5秒
    ai_fill_seconds: int | None = None  # None: AI never fill a 系統桌
    require_password: bool = False  # 玩家桌必須設密碼, when the server asks for it
    organiser_role_id: int | None = None  # besides Manage Server, this role runs tournaments (migration 0012)
    web_board: bool = False  # the leaderboard at the web table's /board/<guild> (migration 0014)

    @classmethod
    def from_row(cls, row: Row) -> GuildSettings:
        return cls(
            row["guild_id"],
            row["mahjong_channel_id"],
            row["system_turn_seconds"],
            row["ai_fill_seconds"],
            bool(row["require_password"]),
            row["organiser_role_id"],
            bool(row["web_board"]),
        )


SETTINGS_COLUMNS = tuple(f.name for f in fields(GuildSettings) if f.name != "guild_id")


class _Database(Protocol):
    """What these methods use of ``Store`` (they are mixed into it)."""

    @property
    def path(self) -> str: ...  # Store's is read-only: a settable member here would shut Store out
    def _clock(self) -> float: ...
    def _write(self) -> AbstractAsyncContextManager[Session]: ...
    def _read(self) -> AbstractAsyncContextManager[Session]: ...


class HallStore:
    """Queue, settings and 系統桌 methods of ``Store``; every read and write is scoped to one server."""

    # ------------------------------------------------------------------ settings

    async def guild_settings(self: _Database, guild_id: int) -> GuildSettings:
        async with self._read() as db:
            row = await db.one("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return GuildSettings(guild_id) if row is None else GuildSettings.from_row(row)

    async def set_guild_settings(self: _Database, guild_id: int, **changes: Any) -> GuildSettings:
        """Change the settings named (``ai_fill_seconds=None`` turns AI fill off); returns them all."""
        unknown = set(changes) - set(SETTINGS_COLUMNS)
        if unknown:
            raise ValueError(f"unknown server settings {sorted(unknown)}; expected some of {SETTINGS_COLUMNS}")
        values = {k: int(v) if isinstance(v, bool) else v for k, v in changes.items()}
        async with self._write() as db:
            await db.execute("INSERT INTO guild_settings (guild_id) VALUES (?) ON CONFLICT DO NOTHING", (guild_id,))
            if values:
                columns = ", ".join(f"{name} = ?" for name in values)  # names checked above
                await db.execute(
                    f"UPDATE guild_settings SET {columns} WHERE guild_id = ?", (*values.values(), guild_id)
                )
            row = await db.one("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
        assert row is not None  # inserted in this very transaction
        return GuildSettings.from_row(row)

    # ------------------------------------------------------------------ the queue

    async def enqueue(self: _Database, entry: QueueEntry) -> None:
        """Put a person in a queue; one already queued in this server moves (to the back of ``entry.rules``)."""
        async with self._write() as db:
            await db.execute(
                "INSERT INTO play_queue (guild_id, user_id, rules, name, locale, table_locale, channel_id, queued_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET rules = excluded.rules,"
                " name = excluded.name, locale = excluded.locale, table_locale = excluded.table_locale,"
                " channel_id = excluded.channel_id, queued_at = excluded.queued_at",
                (
                    entry.guild_id,
                    entry.user_id,
                    entry.rules,
                    entry.name,
                    entry.locale,
                    entry.table_locale,
                    entry.channel_id,
                    entry.queued_at,
                ),
            )

    async def dequeue(self: _Database, guild_id: int, user_id: int) -> QueueEntry | None:
        """Take a person out of their queue; the entry they had, None if they were in none."""
        async with self._write() as db:
            row = await db.one(
                "DELETE FROM play_queue WHERE guild_id = ? AND user_id = ? RETURNING *", (guild_id, user_id)
            )
        return None if row is None else QueueEntry.from_row(row)

    async def queued(self: _Database, guild_id: int, user_id: int) -> QueueEntry | None:
        async with self._read() as db:
            row = await db.one("SELECT * FROM play_queue WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        return None if row is None else QueueEntry.from_row(row)

    async def queue(self: _Database, guild_id: int, rules: str | None = None) -> list[QueueEntry]:
        """A server's queue for ``rules`` (every rule set when None), first come first."""
        sql = "SELECT * FROM play_queue WHERE guild_id = ?"
        params: list[Any] = [guild_id]
        if rules is not None:
            sql += " AND rules = ?"
            params.append(rules)
        async with self._read() as db:
            rows = await db.all(sql + " ORDER BY queued_at, user_id", params)
        return [QueueEntry.from_row(r) for r in rows]

    async def waiting_guilds(self: _Database) -> list[int]:
        """Servers with someone queued (at start, to re-arm their queues)."""
        async with self._read() as db:
            rows = await db.all("SELECT DISTINCT guild_id FROM play_queue ORDER BY guild_id")
        return [int(r["guild_id"]) for r in rows]

    # ------------------------------------------------------------------ 系統桌

    async def open_system_table(
        self: _Database,
        entries: Sequence[QueueEntry],
        *,
        channel_id: int,
        host_id: int,
        rounds: int,
        options: dict,
        seats: Sequence[SeatRecord],
    ) -> TableRecord:
        """One transaction: the queued people leave their queue and a 系統桌 with ``seats`` is stored,
        already "playing" (nobody starts it; a bot stopped before its match is stored finds a table it
        cannot restore and closes it with the reason). Raises ``StoreConflict`` (and stores nothing)
        when one of them is no longer queued for it."""
        if not entries:
            raise ValueError("a 系統桌 needs at least one queued person")
        guild_id, rules = entries[0].guild_id, entries[0].rules
        async with self._write() as db:
            for entry in entries:
                removed = await db.execute(
                    "DELETE FROM play_queue WHERE guild_id = ? AND user_id = ? AND rules = ?",
                    (guild_id, entry.user_id, rules),
                )
                if removed != 1:
                    raise StoreConflict(self.path, f"has no queued {rules} player {entry.user_id} in {guild_id}")
            return await insert_system_table(
                db, guild_id, channel_id, host_id, rules, rounds, options, seats, self._clock()
            )


async def insert_system_table(
    db: Session, guild_id: int, channel_id: int, host_id: int, rules: str, rounds: int, options: dict,
    seats: Sequence[SeatRecord], now: float,
) -> TableRecord:  # fmt: skip
    """Store a 系統桌 with its seats, already "playing", inside the caller's transaction (a queue's table
    here, a tournament's in data/tournaments.py)."""
    row = await db.one(
        "INSERT INTO tables (guild_id, channel_id, host_id, rules, rounds, options, password_hash,"
        " phase, created_at, kind) VALUES (?, ?, ?, ?, ?, ?, NULL, 'playing', ?, 'system') RETURNING *",
        (guild_id, channel_id, host_id, rules, rounds, dumps(options), now),
    )
    assert row is not None  # an INSERT … RETURNING that succeeded returns its row
    await db.executemany(
        "INSERT INTO seats (table_id, seat, user_id, name, ai_level) VALUES (?, ?, ?, ?, ?)",
        [(row["id"], s.seat, s.user_id, s.name, s.ai_level) for s in seats],
    )
    return TableRecord.from_row(row, tuple(seats))
