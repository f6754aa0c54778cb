"""Many tables at once through the local stand-in, with Discord's rate limits on.

    python -m bench.tables --tables 50 --hands 1

Each table has one simulated person (clicking as fast as prompts arrive) and three AI seats. Measured:
``p50_ms``/``p99_ms`` from a click to its interaction response, ``p99_dm_ms`` from the move that
makes it someone's turn to that person's DM showing the prompt, ``rss_mb_per_table`` (the process's
resident memory growth over idle, divided by the tables; the stand-in keeps no image bytes here), and
``store_p99_extra_ms``: the same run with storage switched off, the difference in click p99.

The stand-in's latency model is on (``--no-latency`` turns it off): REST and gateway delays with jitter
and a long tail, uploads by size, real-time snowflakes. ``late_answers`` counts interactions delivered
in time that were not answered within Discord's 3 s (must be 0); ``p99_turn_lost_ms`` is how much of a
turn or claim window, as the bot enforces it, was gone when that person's prompt arrived;
``invalid_requests_10min`` is the most 401/403/429 answers in any 10 minutes (Discord bans at 10,000).
The last stdout line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from devserver import Config, DevServer, Latency, RateLimits
from devserver.fixtures import Harness
from devserver.messages import Messages
from devserver.people import Person, prompt_buttons


def rss_mb() -> float:
    """Current resident memory (Linux /proc; the peak from getrusage elsewhere)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# Discord as measured from a VPS near its edge: ~60 ms round trips, ~40 ms to a gateway event, one
# request or event in fifty takes up to a second more, uploads at 2 MB/s
REAL = Latency(enabled=True, rest_ms=60.0, gateway_ms=40.0, jitter_ms=30.0, tail_chance=0.02, tail_ms=1000.0,
               upload_bytes_per_s=2_000_000.0)


async def run(tables: int, hands: int, *, storage: bool, database: str, latency: bool = True) -> dict:
    from bot import Config as BotConfig
    from bot import MahjongBot
    from cogs.mahjong import journal, runner
    from table.timing import Timing

    names = [f"player{i}" for i in range(tables)]
    channels = tuple(f"table-{i}" for i in range(tables))
    config = Config(
        rate_limits=RateLimits(), wait_timeout=600, latency=REAL if latency else Latency(), real_time_ids=latency
    )
    server = DevServer(config, channels=channels, members=tuple(names))
    patches = []

    # the stand-in keeps no image bytes, so the memory figure is the bot's
    keep = Messages._attachments

    def light(self, payload, uploads, kept):  # type: ignore[no-untyped-def]
        found = keep(self, payload, uploads, kept)
        for attachment in found:
            attachment.data = attachment.data[:64]
        return found

    patches.append((Messages, "_attachments", keep))
    Messages._attachments = light  # type: ignore[method-assign]
    if not storage:
        record = journal.Journal.record
        patches.append((journal.Journal, "record", record))
        journal.Journal.record = lambda self, write: None  # type: ignore[method-assign]

    # when each decision point opened (table, hand, seat-less move id) → for DM latency
    opened: dict[tuple[int, int, int], float] = {}
    new_decision = runner.TableRunner._new_decision

    # each decision's enforced window: (deadline as it ends up, its length in seconds)
    windows: dict[tuple[int, int, int], tuple[float, float]] = {}

    def window(self):  # type: ignore[no-untyped-def]
        if self.deadline is not None and self.game is not None:
            seconds = self._seconds(self.game) * self.timing.timer_scale
            windows[(self.table_id, self.game.hand_number, self.decision)] = (self.deadline, seconds)

    def stamped(self):  # type: ignore[no-untyped-def]
        new_decision(self)
        opened[(self.table_id, self.game.hand_number, self.decision)] = time.perf_counter()
        window(self)

    delivered_hook = runner.TableRunner._prompt_delivered

    def delivered(self, seat, version):  # type: ignore[no-untyped-def]
        delivered_hook(self, seat, version)
        window(self)

    patches.append((runner.TableRunner, "_new_decision", new_decision))
    runner.TableRunner._new_decision = stamped  # type: ignore[method-assign]
    patches.append((runner.TableRunner, "_prompt_delivered", delivered_hook))
    runner.TableRunner._prompt_delivered = delivered  # type: ignore[method-assign]
    arrived: dict[tuple[int, int, int], float] = {}  # wall time each decision's prompt reached its person
    dm_latency: list[float] = []
    seen_prompts: set[str] = set()
    edit = Messages.edit

    def watched(self, message, payload, uploads, **kwargs):  # type: ignore[no-untyped-def]
        result = edit(self, message, payload, uploads, **kwargs)
        if message.dm_with is not None:
            buttons = prompt_buttons(result)
            if buttons and buttons[0].custom_id not in seen_prompts:
                seen_prompts.add(buttons[0].custom_id or "")
                _, _, table, hand, _, move, _ = (buttons[0].custom_id or "").split(":")
                start = opened.get((int(table), int(hand), int(move)))
                if start is not None:
                    dm_latency.append(time.perf_counter() - start)
                arrived.setdefault((int(table), int(hand), int(move)), time.time())
        return result

    patches.append((Messages, "edit", edit))
    Messages.edit = watched  # type: ignore[method-assign]
    create = Messages.create

    def created(self, channel, payload, uploads, **kwargs):  # type: ignore[no-untyped-def]
        result = create(self, channel, payload, uploads, **kwargs)
        if result.dm_with is not None:  # a hand's first DM carries its first prompt
            buttons = prompt_buttons(result)
            if buttons:
                _, _, table, hand, _, move, _ = (buttons[0].custom_id or "").split(":")
                arrived.setdefault((int(table), int(hand), int(move)), time.time())
        return result

    patches.append((Messages, "create", create))
    Messages.create = created  # type: ignore[method-assign]

    timing = Timing(ai_delay=0.0, hand_pause=0.0, edit_interval=1.0, timer_scale=1.0)
    config = BotConfig(token=server.config.token, database=Path(database), timing=timing, seed=1)
    try:
        async with Harness(server) as harness:
            bot = await harness.start(MahjongBot(config, guild_ready_timeout=0.05), timeout=30)
            await bot.warming
            idle = rss_mb()
            cog = bot.get_cog("Mahjong")
            people = [Person(server.member(n)) for n in names]
            for person, channel in zip(people, channels, strict=True):
                await (await person.user.slash("mahjong create", channel=channel, rounds=4)).message()
                await (await person.user.slash("mahjong start", channel=channel)).message()
            runners = [cog.tables[server.channel(c).id] for c in channels]
            stop = asyncio.Event()
            started = time.perf_counter()
            playing = [asyncio.create_task(p.play(stop, timeout=600)) for p in people]
            peak = idle
            while not all(r.match is not None and len(r.match.history) >= hands for r in runners):
                await asyncio.sleep(0.5)
                peak = max(peak, rss_mb())
            seconds = time.perf_counter() - started
            stop.set()
            await asyncio.gather(*playing, return_exceptions=True)
            for r in runners:
                await r.close()
            problems = harness.problems()
            errors = len(problems)
            for problem in problems[:5]:
                print("problem:", problem, file=sys.stderr)
            routes: dict[str, int] = {}
            for line in server.recorder.log:
                routes[line] = routes.get(line, 0) + 1
            print("requests:", json.dumps(routes), file=sys.stderr)
            print("invalid requests:", harness.invalid_requests(), file=sys.stderr)
            late_answers = len(server.late_answers())
            delivered_late = sum(i.delivered_late for i in server.interactions.by_id.values())
            invalid = server.invalid_requests.worst
    finally:
        for owner, name, original in patches:
            setattr(owner, name, original)
    latencies = [x for p in people for x in p.latencies]
    worst = sorted(((at - (windows[k][0] - windows[k][1]), k) for k, at in arrived.items() if k in windows))[-2:]
    print("worst turn lost (s, (table, hand, move)):", worst, file=sys.stderr)
    turn_lost = [
        max(0.0, at - (windows[key][0] - windows[key][1])) for key, at in arrived.items() if key in windows
    ]
    return {
        "tables": tables,
        "hands": sum(min(len(r.match.history), hands) for r in runners),
        "clicks": len(latencies),
        "errors": errors,
        "p50_ms": round(1000 * statistics.median(latencies), 1) if latencies else None,
        "p99_ms": round(1000 * percentile(latencies, 0.99), 1),
        "p99_dm_ms": round(1000 * percentile(dm_latency, 0.99), 1),
        "rss_mb_per_table": round((peak - idle) / tables, 2),
        "late_answers": late_answers,
        "delivered_too_late": delivered_late,
        "p99_turn_lost_ms": round(1000 * percentile(turn_lost, 0.99), 1),
        "max_turn_lost_ms": round(1000 * max(turn_lost, default=0.0), 1),
        "invalid_requests_10min": invalid,
        "seconds": round(seconds, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.tables", description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--hands", type=int, default=1)
    parser.add_argument("--no-compare", action="store_true", help="skip the run with storage off")
    parser.add_argument("--no-latency", action="store_true", help="the stand-in answers at once (as before)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    with tempfile.TemporaryDirectory() as folder:
        latency = not args.no_latency
        stored = asyncio.run(
            run(args.tables, args.hands, storage=True, database=f"{folder}/bench.sqlite3", latency=latency)
        )
        print("with storage (SQLite file, WAL):", json.dumps(stored), file=sys.stderr)
        if not args.no_compare:
            bare = asyncio.run(
                run(args.tables, args.hands, storage=False, database=f"{folder}/bare.sqlite3", latency=latency)
            )
            print("storage off:                    ", json.dumps(bare), file=sys.stderr)
            stored["store_p99_extra_ms"] = round(stored["p99_ms"] - bare["p99_ms"], 1)
    print(json.dumps(stored))
    return 0 if stored["errors"] == 0 and stored["late_answers"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
