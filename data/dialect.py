"""What differs between the SQL of SQLite and of PostgreSQL, and nothing else.

Every query of :mod:`data.store` is written once, in the common subset of the two (``?`` parameters,
``INSERT … RETURNING``, ``ON CONFLICT … DO UPDATE`` naming the table's own columns as ``table.column``,
window functions, ``COUNT(x)`` rather than ``SUM(x IS NOT NULL)``, ``1 = 1`` rather than ``1``); a
:class:`Dialect` holds the few fragments that cannot be shared, and :func:`numbered` turns ``?`` into PostgreSQL's ``$1, $2, …``.
The schema itself is written per dialect, as numbered migrations with the same numbers and the same
tables and columns (``data/migrations/`` and ``data/migrations/postgresql/``; a test compares them).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True, slots=True)
class Dialect:
    name: str
    # in a GROUP BY: ``{value}`` of the row with the largest ``{by}`` (e.g. the rule set of a player's best hand)
    arg_max: str
    # the larger of two values, as a scalar function name (both are given, never NULL)
    greatest: str
    # the hour a time (Unix seconds) falls in, floor(t / 3600), as an integer
    hour: str
    # after rows were copied in with their own ids, make the next generated id follow them (None: nothing to do)
    follow_ids: str | None
    # an executemany outside a transaction commits row by row (SQLite), rather than all or nothing (asyncpg)
    commits_each_row: bool


SQLITE = Dialect(
    name="sqlite",
    # SQLite takes a bare column of an aggregate query from the row that gave the query's one MAX(): only
    # correct where that MAX({by}) is the query's one min() or max()
    arg_max="{value}",
    greatest="MAX",
    hour="CAST({time} / 3600 AS INTEGER)",  # times are positive: truncation is the floor
    follow_ids=None,  # an INTEGER PRIMARY KEY continues after the largest id by itself
    commits_each_row=True,
)

POSTGRESQL = Dialect(
    name="postgresql",
    arg_max="(array_agg({value} ORDER BY {by} DESC NULLS LAST, {value}))[1]",
    greatest="GREATEST",
    hour="CAST(FLOOR({time} / 3600) AS INTEGER)",  # CAST alone rounds
    follow_ids=(
        "SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0) + 1, false) FROM {table}"
    ),
    commits_each_row=False,
)


@lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``?`` placeholders as ``$1, $2, …`` (question marks inside quoted literals are left alone).

    >>> numbered("SELECT * FROM t WHERE a = ? AND b = '?' AND c = ?")
    "SELECT * FROM t WHERE a = $1 AND b = '?' AND c = $2"
    """
    out: list[str] = []
    count = 0
    quoted = False
    for char in sql:
        if char == "'":
            quoted = not quoted
        if char == "?" and not quoted:
            count += 1
            out.append(f"${count}")
        else:
            out.append(char)
    return "".join(out)
