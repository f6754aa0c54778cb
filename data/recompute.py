"""Derive every rating and statistic again from the stored matches (after a formula changed):

    python -m data.recompute mahjong.sqlite3 [--guild ID]

Places, items, 連莊 counts, the running totals and every rating are rebuilt from the stored hands and
matches in the order the matches ended (``Store.recompute``); the bot should be stopped meanwhile.
DATABASE is an SQLite file the bot made (a path that holds none is refused, not created) or a
``postgresql://`` URL. Exit 0 recomputed; 2 the database cannot be used (one line on stderr).
"""

from __future__ import annotations

import asyncio
import sys

from data.errors import StoreError
from data.store import Store
from engine.cli import tool_parser


async def run(path: str, guild_id: int | None) -> int:
    store = await Store.open(path, create=False)
    try:
        return await store.recompute(guild_id)
    finally:
        await store.close()


def main(argv: list[str] | None = None) -> int:
    parser = tool_parser("python -m data.recompute", __doc__, whole=True)
    parser.add_argument("database", help="an SQLite file or a postgresql:// URL")
    parser.add_argument("--guild", type=int, default=None, help="one server only (default: all)")
    args = parser.parse_args(argv)
    try:
        rated = asyncio.run(run(args.database, args.guild))
    except StoreError as error:
        print(f"data.recompute: {error}", file=sys.stderr)
        return 2
    print(f"recomputed; {rated} rated matches replayed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
