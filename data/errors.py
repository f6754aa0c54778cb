"""Storage errors a person can act on: each ``str()`` is one line naming the database and what to do.

``retryable`` tells :class:`data.pending.PendingWrites` whether waiting can help: a locked, read-only,
full or corrupt file may be fixed by an operator while the bot keeps the table in memory; a conflicting
write (a move number used twice) is a bug in the caller and would fail forever.
"""

from __future__ import annotations

import sqlite3


class StoreError(Exception):
    """Base class: the database could not do what was asked."""

    retryable = True

    def __init__(self, path: str, detail: str, cause: str = "") -> None:
        self.path = path
        self.detail = detail
        self.cause = cause  # the driver's own words, for logs
        super().__init__(f"database {path} {detail}")


class StoreLocked(StoreError):
    def __init__(self, path: str, cause: str = "", *, advice: str = "") -> None:
        super().__init__(
            path,
            "is locked by another program "
            + (advice or "(a second bot, or an open sqlite3 shell?); close it and retry"),
            cause,
        )


class StoreReadOnly(StoreError):
    def __init__(self, path: str, cause: str = "", *, advice: str = "") -> None:
        super().__init__(
            path,
            "is read-only; " + (advice or "give the bot write permission on the file and its folder"),
            cause,
        )


class StoreFull(StoreError):
    def __init__(self, path: str, cause: str = "") -> None:
        super().__init__(
            path, "is full (no space left on the disk or a size limit reached); free some space", cause
        )


class StoreCorrupt(StoreError):
    def __init__(self, path: str, cause: str = "", *, advice: str = "") -> None:
        reason = f" ({cause})" if cause else ""
        super().__init__(
            path,
            f"is corrupt{reason}; "
            + (advice or "restore it from a backup, or move it aside to start with an empty one"),
            cause,
        )


class StoreMissing(StoreError):
    """A tool asked for an existing database (to read or rebuild it) and the path holds none: it is not
    created, as an empty one would only hide the mistyped path."""

    retryable = False

    def __init__(self, path: str) -> None:
        super().__init__(path, "does not exist; check the path (the bot creates its database when it first starts)")


class StoreUnreachable(StoreError):
    """A database server that does not answer (stopped, restarting, network down): waiting may help."""

    def __init__(self, path: str, cause: str = "") -> None:
        reason = f" ({cause})" if cause else ""
        super().__init__(
            path,
            f"cannot be reached{reason}; check that the server is running and MAHJONG_DB names it",
            cause,
        )


class SchemaTooNew(StoreError):
    """The file was written by a newer version of the bot; it is refused and left unchanged."""

    retryable = False

    def __init__(self, path: str, found: int, known: int) -> None:
        self.found = found
        self.known = known
        super().__init__(
            path,
            f"has schema version {found} but this bot knows only up to version {known}; "
            "upgrade the bot (the file was left unchanged)",
        )


class StoreClosed(StoreError):
    """The store was closed (the bot is shutting down); flush pending writes before closing it."""

    retryable = False

    def __init__(self, path: str) -> None:
        super().__init__(path, "is closed; nothing more can be stored until the bot opens it again")


class StoreConflict(StoreError):
    """A write contradicts what is stored (unknown id, hand finished twice): a bug in the caller."""

    retryable = False


class Violation(StoreConflict):
    """A statement broke a constraint, as a driver reports it; the store turns it into its own words.

    ``kind`` is "duplicate" (a key or unique value used twice), "missing" (a reference to a row that
    does not exist) or "other" (a CHECK or NOT NULL).
    """

    def __init__(self, path: str, kind: str, cause: str = "") -> None:
        self.kind = kind
        super().__init__(path, f"refused a write that contradicts what is stored ({cause})", cause)


class StoreFenced(StoreConflict):
    """A table's write refused because another process holds its lease now (a takeover while this one
    still ran it: PostgreSQL migration 0015). The table is the other process's: this one stops running it,
    and the click whose move this was is told to press again (the new owner answers it)."""

    def __init__(self, path: str, cause: str = "") -> None:
        super().__init__(path, f"refused a write: another process runs the table now ({cause})", cause)


class DuplicateMove(StoreConflict):
    def __init__(self, path: str, hand_id: int, move_no: int) -> None:
        self.hand_id = hand_id
        self.move_no = move_no
        super().__init__(path, f"already has move {move_no} of hand {hand_id}; the move was not stored twice")


# SQLite primary result codes (the low byte of an extended code).
_BUSY = 5
_LOCKED = 6
_READONLY = 8
_IOERR = 10
_CORRUPT = 11
_FULL = 13
_CANTOPEN = 14
_CONSTRAINT = 19
_NOTADB = 26
# extended codes of _CONSTRAINT
_FOREIGN_KEY = 787
_PRIMARY_KEY = 1555
_UNIQUE = 2067


def translate(error: sqlite3.Error, path: str) -> StoreError:
    """The :class:`StoreError` for an SQLite error, chosen by its result code (PostgreSQL's:
    :func:`data.postgres.translate`)."""
    extended = getattr(error, "sqlite_errorcode", None) or 0
    code = extended & 0xFF
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    if code in (_BUSY, _LOCKED):
        return StoreLocked(path, text)
    if code == _READONLY:
        return StoreReadOnly(path, text)
    if code == _FULL:
        return StoreFull(path, text)
    if code in (_CORRUPT, _NOTADB):
        return StoreCorrupt(path, text)
    if code == _CANTOPEN:
        return StoreError(
            path, "cannot be opened; check that its folder exists and the bot may write there", text
        )
    if code == _CONSTRAINT:
        kind = {_PRIMARY_KEY: "duplicate", _UNIQUE: "duplicate", _FOREIGN_KEY: "missing"}.get(
            extended, "other"
        )
        return Violation(path, kind, text)
    if code == _IOERR:
        return StoreError(path, f"could not be read or written ({text}); check the disk", text)
    return StoreError(path, f"failed: {text}", text)
