"""Derive every rating and statistic again from the stored matches (after a formula changed):

    python -m data.recompute mahjong.sqlite3 [--guild ID]

Places, items, 連莊 counts, the running totals and every rating are rebuilt from the stored hands and
matches in the order the matches ended (``Store.recompute``); the bot should be stopped meanwhile.
"""

from __future__ import annotations

import argparse
import asyncio

from data.store import Store


async def run(path: str, guild_id: int | None) -> int:
    store = await Store.open(path)
    try:
        return await store.recompute(guild_id)
    finally:
        await store.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("database")
    parser.add_argument("--guild", type=int, default=None, help="one server only (default: all)")
    args = parser.parse_args(argv)
    rated = asyncio.run(run(args.database, args.guild))
    print(f"recomputed; {rated} rated matches replayed")


if __name__ == "__main__":
    main()
