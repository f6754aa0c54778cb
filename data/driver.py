"""The little a :class:`~data.store.Store` needs from a database driver, so its queries are written once.

A driver (:mod:`data.sqlite`, :mod:`data.postgres`) opens and migrates its database and lends out
:class:`Session` objects: inside ``transaction()`` everything commits together or not at all; inside
``session()`` each statement commits on its own (one round trip for a move); ``snapshot()`` reads
several statements as of one moment. Session calls raise :class:`~data.errors.StoreError`s only, a
broken constraint as :class:`~data.errors.Violation` so the store can say which.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from data.dialect import Dialect
from data.records import Row


class Session(Protocol):
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns how many rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    async def copy(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        """Insert many rows into one table at once (PostgreSQL: COPY); names come from code, never users."""
        ...

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...


class Driver(Protocol):
    path: str  # what error messages name: a file, or a server URL without its password
    dialect: Dialect

    def transaction(self) -> AbstractAsyncContextManager[Session]: ...

    def session(self) -> AbstractAsyncContextManager[Session]: ...

    def snapshot(self) -> AbstractAsyncContextManager[Session]: ...

    async def close(self) -> None:
        """Later calls raise :class:`~data.errors.StoreClosed`; closing twice is harmless."""
        ...
