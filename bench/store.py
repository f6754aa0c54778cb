"""Cost of storing each move: ``Store.append_action`` on a file database in WAL mode, or on PostgreSQL;
and the leaderboard and stats queries over a server with 100,000 stored hands.

    python -m bench.store [--moves 5000] [--moves-per-hand 120] [--players 40] [--history 0] [--path DIR]
                          [--stats-hands 100000] [--stats-players 200] [--stats-span 300] [--one-by-one]
    python -m bench.store --postgres      # the same on a throw-away PostgreSQL server started here

Target (DESIGN.md): storing each move adds ≤ 5 ms to p99 of a click. Each ``append_action`` is one
transaction (insert the move, update the hand's deadline) through aiosqlite, timed from the caller's
side, so the thread hop is included. Hands start and finish every ``--moves-per-hand`` moves, as in
play, with another table's writes interleaved. synchronous=NORMAL in WAL means a commit does not wait
for fsync; checkpoints do, and they land in the tail. Also times a leaderboard page and a player's
stats over the finished hands.

Then, in a second file, ``--stats-hands`` finished hands (four a match, every match rated, items on
every win) of ``--stats-players`` people of one server, ending over the last ``--stats-span`` seconds,
are stored in bulk (``bench.history``: the rows ``finish_hand``/``finish_match`` write, in a few
multi-row inserts, the running totals derived from them; ``--one-by-one`` stores them through those
calls instead, as the bot does, about 300 s for 100,000 hands), and each query ``/mahjong leaderboard`` and ``/mahjong stats`` make is timed
50 times (target: each ≤ 50 ms). Last stdout line: one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from bench import history
from data import SeatRecord
from data.store import Store


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def run(
    path: Path | str, moves: int, per_hand: int, players: int, seed: int, history: int = 0
) -> dict[str, float]:
    rng = random.Random(seed)
    store = await Store.open(path)
    tables = []
    for n in range(2):
        table = await store.create_table(
            guild_id=1,
            channel_id=100 + n,
            host_id=1,
            rules="taiwan16",
            rounds=4,
            options={},
            password_hash=None,
        )
        users = rng.sample(range(1, players + 1), 3)
        await store.set_seats(
            table.id,
            [SeatRecord(i, u, f"player {u}") for i, u in enumerate(users)]
            + [SeatRecord(3, None, "AI", "simple")],
        )
        await store.start_match(table.id, {"rules": "taiwan16", "rounds": 4})
        tables.append(table.id)

    hand_no = [0, 0]
    hand_ids = [0, 0]
    move_no = [0, 0]
    append_ms: list[float] = []
    hands = 0
    start_all = time.perf_counter()
    for i in range(moves):
        which = i % 2
        if move_no[which] % per_hand == 0:
            if hand_no[which]:
                deltas = [rng.randint(-50, 50) for _ in range(3)]
                await store.finish_hand(
                    hand_ids[which],
                    result={"total": 3},
                    deltas=[*deltas, -sum(deltas)],
                    winner=rng.randrange(4),
                    loser=None,
                    self_drawn=True,
                    total=rng.randint(1, 12),
                )
                hands += 1
            hand_no[which] += 1
            hand_ids[which] = await store.start_hand(tables[which], hand_no[which], {"seed": i})
            move_no[which] = 0
        start = time.perf_counter()
        await store.append_action(
            hand_ids[which], move_no[which], f"{move_no[which] % 4} discard 5m", time.time() + 30
        )
        append_ms.append((time.perf_counter() - start) * 1000)
        move_no[which] += 1
    total_s = time.perf_counter() - start_all

    for n in range(history):  # older finished hands, so the leaderboard aggregates a server's real history
        which = n % 2
        hand_no[which] += 1
        hand_id = await store.start_hand(tables[which], hand_no[which], {"seed": n})
        deltas = [rng.randint(-50, 50) for _ in range(3)]
        await store.finish_hand(
            hand_id,
            result={"total": 1},
            deltas=[*deltas, -sum(deltas)],
            winner=rng.randrange(4),
            loser=None,
            self_drawn=True,
            total=rng.randint(1, 12),
        )
        hands += 1

    board_ms, stats_ms = [], []
    for _ in range(50):
        start = time.perf_counter()
        await store.leaderboard(1, limit=10)
        board_ms.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        await store.player_stats(1, rng.randint(1, players))
        stats_ms.append((time.perf_counter() - start) * 1000)
    size_kb = await database_kb(store, path)
    await store.close()
    return {
        "moves": moves,
        "append_p50_ms": round(percentile(append_ms, 0.50), 3),
        "append_p99_ms": round(percentile(append_ms, 0.99), 3),
        "append_max_ms": round(max(append_ms), 3),
        "append_mean_ms": round(statistics.fmean(append_ms), 3),
        "moves_per_s": round(moves / total_s),
        "finished_hands": hands,
        "leaderboard_p50_ms": round(percentile(board_ms, 0.5), 3),
        "player_stats_p50_ms": round(percentile(stats_ms, 0.5), 3),
        "file_kb": size_kb,
    }


async def database_kb(store: Store, path: Path | str) -> float:
    """The database's size on disk: the file, or the server's database."""
    if isinstance(path, Path):
        return round(path.stat().st_size / 1024, 1)
    async with store.driver.session() as db:
        size = await db.one("SELECT pg_database_size(current_database()) AS n")
    return round((0 if size is None else size["n"]) / 1024, 1)


async def run_stats(
    path: Path | str, hands: int, players: int, seed: int, *, span: float = 300.0, one_by_one: bool = False
) -> dict[str, float]:
    """Seed ``hands`` finished hands (in bulk, or ``one_by_one`` through the Store's calls as the bot
    stores them), ending over the last ``span`` seconds; then time the ranked and stats queries."""
    rng = random.Random(seed)
    matches = history.plan(hands, players, seed)
    stored = sum(len(match.hands) for match in matches)
    # the hands end over the last ``span`` seconds, ticking as a Store's clock would
    ticks = iter(range(1, 1 + 3 * len(matches) + 2 * stored))
    began = time.time() - span
    step = span / (3 * len(matches) + 2 * stored)

    def clock() -> float:
        return began + step * next(ticks)

    store = await Store.open(path, clock=clock)
    start_seed = time.perf_counter()
    if one_by_one:
        await history.through_store(store, matches)
    else:
        await history.in_bulk(store, matches, clock)
    seed_s = time.perf_counter() - start_seed

    timings: dict[str, list[float]] = {
        "leaderboard": [], "leaderboard_month": [], "rating_board": [], "player_figures": [], "server_figures": []
    }

    async def timed(name: str, call) -> None:
        begin = time.perf_counter()
        await call
        timings[name].append((time.perf_counter() - begin) * 1000)

    for _ in range(50):
        user = rng.randint(1, players)
        # what /mahjong leaderboard sends: one page and the number of players (for paging), in one query
        await timed("leaderboard", store.leaderboard_page(1, rules="taiwan16", min_matches=1))
        # a period reads that period's hands (here: every hand, all stored just now)
        month = time.time() - 30 * 86_400
        await timed("leaderboard_month", store.leaderboard_page(1, rules="taiwan16", since=month, min_matches=1))
        await timed("rating_board", _both(store.rating_board_count(1, "taiwan16", min_matches=5),
                                          store.rating_board(1, "taiwan16", limit=10, min_matches=5)))
        await timed("player_figures", store.player_figures(1, user))
        await timed("server_figures", store.server_figures(1, "taiwan16"))
    size_kb = round(await database_kb(store, path))
    await store.close()
    out: dict[str, float] = {"stats_hands": stored, "stats_seed_s": round(seed_s, 1), "stats_file_kb": size_kb}
    for name, values in timings.items():
        out[f"stats_{name}_p50_ms"] = round(percentile(values, 0.5), 2)
        out[f"stats_{name}_p99_ms"] = round(percentile(values, 0.99), 2)
    return out


async def _both(first, second) -> None:
    await first
    await second


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--moves", type=int, default=5000)
    parser.add_argument("--moves-per-hand", type=int, default=120)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--history", type=int, default=0, help="extra finished hands before timing the leaderboard"
    )
    parser.add_argument(
        "--path", type=Path, default=None, help="folder for the database (default: a temp folder)"
    )
    parser.add_argument("--postgres", action="store_true", help="on a throw-away PostgreSQL server instead of SQLite")
    parser.add_argument("--stats-hands", type=int, default=100_000, help="stored hands for the stats queries (0: skip)")
    parser.add_argument("--stats-players", type=int, default=200)
    parser.add_argument(
        "--stats-span", type=float, default=300.0, help="seconds over which the stored hands ended (before now)"
    )
    parser.add_argument(
        "--one-by-one", action="store_true", help="store the hands through finish_hand one by one (slow)"
    )
    args = parser.parse_args(argv)
    cluster = None
    if args.postgres:
        from tests.pgcluster import Cluster

        cluster = Cluster.create()
    with tempfile.TemporaryDirectory(dir=args.path) as folder:
        target = Path(folder) / "bench.sqlite3" if cluster is None else cluster.url(asyncio.run(cluster.create_database("bench")))
        out = asyncio.run(
            run(
                target,
                args.moves,
                args.moves_per_hand,
                args.players,
                args.seed,
                args.history,
            )
        )
        if args.stats_hands:
            stats_target = (
                Path(folder) / "stats.sqlite3"
                if cluster is None
                else cluster.url(asyncio.run(cluster.create_database("stats")))
            )
            out |= asyncio.run(
                run_stats(
                    stats_target, args.stats_hands, args.stats_players, args.seed,
                    span=args.stats_span, one_by_one=args.one_by_one,
                )  # fmt: skip
            )
    if cluster is not None:
        cluster.destroy()
    print(
        f"append_action over {out['moves']} moves: p50 {out['append_p50_ms']} ms, p99 {out['append_p99_ms']} ms,"
        f" max {out['append_max_ms']} ms ({out['moves_per_s']} moves/s)"
    )
    print(
        f"leaderboard page p50 {out['leaderboard_p50_ms']} ms, player stats p50 {out['player_stats_p50_ms']} ms"
    )
    if args.stats_hands:
        print(
            f"over {out['stats_hands']:,} stored hands ({out['stats_seed_s']} s to store):"
            + "".join(
                f" {name} p50 {out[f'stats_{name}_p50_ms']} ms / p99 {out[f'stats_{name}_p99_ms']} ms;"
                for name in ("leaderboard", "leaderboard_month", "rating_board", "player_figures", "server_figures")
            )
        )
    print(json.dumps(out))


if __name__ == "__main__":
    main()
