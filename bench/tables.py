"""Many tables at once through the local stand-in, with Discord's rate limits on.

    python -m bench.tables --tables 50 --hands 1

Each table has one simulated person (clicking as fast as prompts arrive, or after ``--think`` seconds on
average) and three AI seats (``--people N``: N people). Measured:
``p50_ms``/``p99_ms`` from a click to its interaction response, ``p99_dm_ms`` from the move that
makes it someone's turn to that person's DM showing the prompt, ``rss_mb_per_table`` (the process's
resident memory growth over idle, divided by the tables; the stand-in keeps no image bytes here), and
``store_p99_extra_ms``: the same run with storage switched off, the difference in click p99.

The stand-in's latency model is on (``--no-latency`` turns it off): REST and gateway delays with jitter
and a long tail, uploads by size, real-time snowflakes. ``late_answers`` counts interactions delivered
in time that were not answered within Discord's 3 s (must be 0); ``p99_turn_lost_ms`` is how much of a
turn or claim window, as the bot enforces it, was gone when that person's prompt arrived;
``invalid_requests_10min`` is the most 401/403/429 answers in any 10 minutes (Discord bans at 10,000).
A turn counts as lost from when its decision opened; a person who answers the moment a late first DM
shows (before Discord's acknowledgement reaches the bot) keeps that wait in the figure although the
clock, which holds while a prompt is on its way, never ran out on them (see README, ``--first-time``).

``--attention`` gives each person the stand-in's attention model (``devserver.people.Attention``, issue 39):
they notice a new message at once but an edit only while they look at their DM, and after each click they
look at the table's channel for 2–12 s. ``clock_played_pct`` is the share of the people's decisions (each
decision point whose clock ran for a person) that their clock played: a ``timeout`` move in a person's seat.

People are regulars by default: the bot opened their DM channels in an earlier match and stored them
(``--first-time``: each is opened during the run, at the pace Discord allows, about one a second).

Capacity figures: ``requests_per_hand`` counts the REST requests outside interaction answers (what
Discord's 50-a-second global limit bounds: channel and DM posts and edits, DM opens), from the first
``/mahjong start`` to the end of each table's last counted hand (a table that has played its hands
stays idle), over the hands played; ``p99_prompt_ms`` is from the move that opens a
decision to that person's prompt being visible (a new DM, an edit, or the answer to their own click);
``loop_lag_p99_ms`` is how late a 50 ms timer on the event loop fires; ``gateway_behind`` counts
discord.py's "Can't keep up" warnings (the gateway websocket behind; must be 0); ``cpu_s_per_hand`` and
``cores_used`` are the process's CPU time (bot, stand-in and render threads) per hand and per second.

The stand-in and the simulated people run in the bot's process and on its event loop (one core's
worth of Python for both): the figures are the bot's plus the stand-in's work, and when that loop is
short of CPU the stand-in's own clock (its rate limits, its 3-second rule) runs late with it. The stand-in finds each
person's messages through a per-person index and wakes only the people whose messages changed, so its
work grows with the tables, not with their square; ``standin_cpu_share`` is the fraction of the run's
CPU samples spent in ``devserver`` code (profiled by a sampling timer), so the bot's own share can be read.
``--uvloop`` runs on uvloop's loop (when installed), ``--render-processes N`` is the bot's ``picture_workers``: the pictures drawn in N worker
processes: both are there to measure those choices. The last stdout line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import logging
import random
import resource
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from cogs.mahjong.observer import TableObserver
from devserver import Config, DevServer, Latency, RateLimits
from devserver.fixtures import Harness
from devserver.interactions import COMPONENT
from devserver.messages import Messages
from devserver.people import Attention, Person, prompt_buttons
from table.effects import Effect
from table.session import TableSession

if TYPE_CHECKING:
    from cogs.mahjong import Mahjong


def rss_mb() -> float:
    """Current resident memory (Linux /proc; the peak from getrusage elsewhere)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@dataclass
class Thinking(Person):
    """A person who takes ``think`` seconds on average (0.2–1.8 ×) before answering a prompt."""

    think: float = 0.0
    rng: random.Random = field(default_factory=random.Random)

    async def act_once(self, timeout: float = 10.0):
        if self.think:
            await asyncio.sleep(self.think * self.rng.uniform(0.2, 1.8))
        return await super().act_once(timeout)


class LoopLag:
    """How late a short timer fires on the running loop: the wait any ready callback has behind others."""

    def __init__(self, period: float = 0.05) -> None:
        self.period = period
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            planned = loop.time() + self.period
            await asyncio.sleep(self.period)
            self.lags.append(max(0.0, loop.time() - planned))

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="loop-lag")

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()


class CpuShare:
    """A sampling profiler (SIGPROF every 5 ms of process CPU time) that says which part of the process
    the main thread was in: the stand-in (``devserver/``, aiohttp's server side) or the bot."""

    STANDIN = ("/devserver/", "/aiohttp/web_")

    def __init__(self) -> None:
        self.samples = 0
        self.standin = 0

    def _sample(self, signum, frame) -> None:
        self.samples += 1
        while frame is not None:
            if any(part in frame.f_code.co_filename for part in self.STANDIN):
                self.standin += 1
                return
            frame = frame.f_back

    def __enter__(self) -> CpuShare:
        signal.signal(signal.SIGPROF, self._sample)
        signal.setitimer(signal.ITIMER_PROF, 0.005, 0.005)
        return self

    def __exit__(self, *exc: object) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        signal.signal(signal.SIGPROF, signal.SIG_DFL)

    def share(self) -> float:
        return round(self.standin / self.samples, 3) if self.samples else 0.0


class Behind(logging.Handler):
    """Counts discord.py's "Can't keep up" warnings (its gateway websocket fell behind)."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        if "keep up" in str(record.msg):
            self.count += 1


def interaction_route(line: str) -> bool:
    """A request that answers an interaction (exempt from the global limit), or not a REST call at all."""
    route = line.split(" ", 1)[-1]
    return route.startswith(("/interactions/", "/webhooks/", "/gateway", "/attachments/"))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# Discord as measured from a VPS near its edge: ~60 ms round trips, ~40 ms to a gateway event, one
# request or event in fifty takes up to a second more, uploads at 2 MB/s
REAL = Latency(enabled=True, rest_ms=60.0, gateway_ms=40.0, jitter_ms=30.0, tail_chance=0.02, tail_ms=1000.0,
               upload_bytes_per_s=2_000_000.0)


class Watch(TableObserver):
    """What the run reads off each table, through the host's observer seam: when each decision opened (for
    the DM latency), each decision's enforced window (its deadline as it ends up, and its length), and the
    tables that have played their hands. ``stores`` False: the storage-off run."""

    def __init__(self, hands: int, *, stores: bool) -> None:
        self.hands = hands
        self.stores = stores
        self.opened: dict[tuple[int, int, int], float] = {}  # (table, hand, decision) → perf_counter
        self.windows: dict[tuple[int, int, int], tuple[float, float]] = {}
        self.done: set[int] = set()

    def carried(self, session: TableSession, effects: Sequence[Effect]) -> None:
        game, match = session.game, session.match
        if match is not None and len(match.history) >= self.hands:
            self.done.add(session.table_id)
        if game is None:
            return
        key = (session.table_id, game.hand_number, session.decision)
        self.opened.setdefault(key, time.perf_counter())
        if session.deadline is not None:
            self.windows[key] = (session.deadline, session.seconds())

    def delivered(self, session: TableSession, seat: int, version: int) -> None:
        self.carried(session, ())


async def run(
    tables: int,
    hands: int,
    *,
    storage: bool,
    database: str,
    latency: bool = True,
    people_per_table: int = 1,
    ai_delay: float = 0.8,
    first_time: bool = False,
    think: float = 0.0,
    picture_workers: int = 0,
    attention: bool = False,
) -> dict:
    from bot import Config as BotConfig
    from bot import MahjongBot
    from table.timing import Timing

    names = [f"player{i}" for i in range(tables * people_per_table)]
    channels = tuple(f"table-{i}" for i in range(tables))
    config = Config(
        rate_limits=RateLimits(), wait_timeout=600, latency=REAL if latency else Latency(), real_time_ids=latency,
        openapi=False,  # the bodies' schema check is the tests' cost, not the bot's: the bench measures the bot
    )
    server = DevServer(config, channels=channels, members=tuple(names))
    patches: list[tuple[type, str, Any]] = []  # the stand-in's (devserver) own methods, watched

    # the stand-in keeps no image bytes, so the memory figure is the bot's
    keep = Messages._attachments

    def light(self, payload, uploads, kept):
        found = keep(self, payload, uploads, kept)
        for attachment in found:
            if not hasattr(attachment, "digest"):
                attachment.digest = hashlib.sha1(attachment.data).hexdigest()
            attachment.data = attachment.data[:64]
        return found

    patches.append((Messages, "_attachments", keep))
    Messages._attachments = light  # type: ignore[method-assign]
    watch = Watch(hands, stores=storage)  # the bot's own seam (cogs/mahjong/observer.py): nothing patched in
    opened, windows, done = watch.opened, watch.windows, watch.done
    arrived: dict[tuple[int, int, int], float] = {}  # wall time each decision's prompt reached its person
    dm_latency: list[float] = []
    seen_at: dict[tuple[int, int, int], float] = {}  # perf_counter when each decision's prompt was first visible
    seen_prompts: set[str] = set()
    edits: dict[str, int] = {}  # REST edits (not click answers) by where, and how many uploaded a file
    edit = Messages.edit

    def shows(message):
        files = [getattr(a, "digest", a.data) for a in message.attachments]
        return json.dumps([message.content, message.components, message.embeds, files], sort_keys=True)

    def watched(self, message, payload, uploads, **kwargs):
        before = shows(message)
        result = edit(self, message, payload, uploads, **kwargs)
        if kwargs.get("by_request", True):
            kind = "dm" if message.dm_with is not None else "channel"
            edits[kind] = edits.get(kind, 0) + 1
            if shows(result) == before:
                edits[kind + " unchanged"] = edits.get(kind + " unchanged", 0) + 1
            if "attachments" in payload or uploads:
                edits[kind + " with upload"] = edits.get(kind + " with upload", 0) + (1 if uploads else 0)
        if message.dm_with is not None:
            buttons = prompt_buttons(result)
            if buttons and buttons[0].custom_id not in seen_prompts:
                seen_prompts.add(buttons[0].custom_id or "")
                _, _, table, hand, _, move, _ = (buttons[0].custom_id or "").split(":")
                start = opened.get((int(table), int(hand), int(move)))
                if start is not None:
                    dm_latency.append(time.perf_counter() - start)
                arrived.setdefault((int(table), int(hand), int(move)), time.time())
                seen_at.setdefault((int(table), int(hand), int(move)), time.perf_counter())
        return result

    patches.append((Messages, "edit", edit))
    Messages.edit = watched  # type: ignore[method-assign]
    create = Messages.create

    def created(self, channel, payload, uploads, **kwargs):
        result = create(self, channel, payload, uploads, **kwargs)
        if result.dm_with is not None:  # a hand's first DM carries its first prompt
            buttons = prompt_buttons(result)
            if buttons:
                _, _, table, hand, _, move, _ = (buttons[0].custom_id or "").split(":")
                arrived.setdefault((int(table), int(hand), int(move)), time.time())
                seen_at.setdefault((int(table), int(hand), int(move)), time.perf_counter())
        return result

    patches.append((Messages, "create", create))
    Messages.create = created  # type: ignore[method-assign]

    lag = LoopLag()
    behind = Behind()
    logging.getLogger("discord").addHandler(behind)
    # the product's edit pace; a table that has played its hands stays idle: what the run counts is their cost
    timing = Timing(ai_delay=ai_delay, hand_pause=0.0, timer_scale=1.0, hands=hands)
    bot_config = BotConfig(
        token=server.config.token, database=Path(database), timing=timing, seed=1, picture_workers=picture_workers
    )
    try:
        async with Harness(server) as harness:
            bot = await harness.start(MahjongBot(bot_config, observer=watch, guild_ready_timeout=0.05), timeout=30)
            assert isinstance(bot, MahjongBot)
            await bot.warming
            idle = rss_mb()
            cog = cast("Mahjong", bot.get_cog("Mahjong"))  # loaded as an extension: not this import's class
            people = [
                Thinking(
                    server.member(n), think=think, rng=random.Random(i),
                    attention=Attention(rng=random.Random(1000 + i)) if attention else None,
                )
                for i, n in enumerate(names)
            ]
            if not first_time:  # regulars: the bot opened their DM channels in an earlier match and kept them
                for person in people:
                    await cog.store.remember_dm_channel(person.user.id, server.world.dm_channel(person.user.id).id)
            hosts = people[::people_per_table]
            for number, (host, channel) in enumerate(zip(hosts, channels, strict=True)):
                await (await host.user.slash("mahjong create", channel=channel, rounds=4)).message()
                for guest in people[number * people_per_table + 1 : (number + 1) * people_per_table]:
                    await (await guest.user.slash("mahjong join", channel=channel)).message()
            first_request = len(server.recorder.log)  # from the first start: what playing costs
            lag.start()
            not_started = 0
            for host, channel in zip(hosts, channels, strict=True):
                try:
                    await (await host.user.slash("mahjong start", channel=channel)).message()
                except AssertionError as failed:  # not answered in time: counted in errors, the rest play on
                    print("start failed:", failed, file=sys.stderr)
                    not_started += 1
            found = [cog.registry.in_channel(server.channel(c).id) for c in channels]
            runners = [r for r in found if r is not None and r.session.match is not None]
            stop = asyncio.Event()
            started = time.perf_counter()
            cpu_started = time.process_time()
            playing = [asyncio.create_task(p.play(stop, timeout=600)) for p in people]
            peak = idle
            with CpuShare() as cpu:
                while len(done) < len(runners):
                    await asyncio.sleep(0.5)
                    peak = max(peak, rss_mb())
            seconds = time.perf_counter() - started
            cpu_seconds = time.process_time() - cpu_started
            lag.stop()
            stop.set()
            await asyncio.gather(*playing, return_exceptions=True)
            for r in runners:
                await r.close()
            problems = harness.problems()
            errors = len(problems) + not_started
            for problem in problems[:5]:
                print("problem:", problem, file=sys.stderr)
            routes: dict[str, int] = {}
            for line in server.recorder.log:
                routes[line] = routes.get(line, 0) + 1
            spent = [line for line in server.recorder.log[first_request:] if not interaction_route(line)]
            print("requests:", json.dumps(routes), file=sys.stderr)
            by_route: dict[str, int] = {}
            for line in spent:
                by_route[line] = by_route.get(line, 0) + 1
            print("requests outside interactions, from the first start:", json.dumps(by_route), file=sys.stderr)
            print("edits (channel route and click tokens):", json.dumps(edits), file=sys.stderr)
            print("invalid requests:", harness.invalid_requests(), file=sys.stderr)
            late_answers = len(server.late_answers())
            delivered_late = sum(i.delivered_late for i in server.interactions.by_id.values())
            held = [
                i.bot_seconds
                for i in server.interactions.by_id.values()
                if i.bot_seconds is not None and i.type == COMPONENT
            ]
            invalid = server.invalid_requests.worst
    finally:
        lag.stop()
        logging.getLogger("discord").removeHandler(behind)
        for owner, name, original in patches:
            setattr(owner, name, original)
    prompt_latency = [at - opened[key] for key, at in seen_at.items() if key in opened]
    played = 0
    for r in runners:
        played += min(len(r.session.match.history) if r.session.match is not None else 0, hands)
    clock_played = sum(person_timeouts(r, hands) for r in runners)
    print("clock played:", clock_played, "of", len(windows), "decisions; people looked away",
          sum(p.looks for p in people), "times, brought back by a new message", sum(p.woken for p in people),
          file=sys.stderr)
    latencies = [x for p in people for x in p.latencies]
    worst = sorted(((at - (windows[k][0] - windows[k][1]), k) for k, at in arrived.items() if k in windows))[-2:]
    print("worst turn lost (s, (table, hand, move)):", worst, file=sys.stderr)
    turn_lost = [
        max(0.0, at - (windows[key][0] - windows[key][1])) for key, at in arrived.items() if key in windows
    ]
    return {
        "tables": tables,
        "hands": played,
        "clicks": len(latencies),
        "errors": errors,
        "p50_ms": round(1000 * statistics.median(latencies), 1) if latencies else None,
        "p99_ms": round(1000 * percentile(latencies, 0.99), 1),
        "p99_dm_ms": round(1000 * percentile(dm_latency, 0.99), 1),
        "p50_bot_ms": round(1000 * statistics.median(held), 1) if held else None,
        "p99_bot_ms": round(1000 * percentile(held, 0.99), 1),
        "rss_mb_per_table": round((peak - idle) / tables, 2),
        "late_answers": late_answers,
        "delivered_too_late": delivered_late,
        "p99_turn_lost_ms": round(1000 * percentile(turn_lost, 0.99), 1),
        "max_turn_lost_ms": round(1000 * max(turn_lost, default=0.0), 1),
        "invalid_requests_10min": invalid,
        "clock_played_pct": round(100 * clock_played / len(windows), 2) if windows else 0.0,
        "requests_per_hand": round(len(spent) / played, 1) if played else None,
        "p99_prompt_ms": round(1000 * percentile(prompt_latency, 0.99), 1),
        "p50_prompt_ms": round(1000 * statistics.median(prompt_latency), 1) if prompt_latency else None,
        "loop_lag_p99_ms": round(1000 * percentile(lag.lags, 0.99), 1),
        "gateway_behind": behind.count,
        "standin_cpu_share": cpu.share(),
        "cpu_s_per_hand": round(cpu_seconds / played, 3) if played else None,
        "cores_used": round(cpu_seconds / seconds, 2),
        "seconds": round(seconds, 1),
    }


def person_timeouts(runner: Any, hands: int) -> int:
    """The decisions of a table's people that their clock played in its first ``hands`` hands: the engine logs
    each as ``<seat> timeout``."""
    session = runner.session
    seats = {str(seat) for seat, who in enumerate(session.seating.by_seat) if who.user_id}
    logs = [record.log for record in (session.match.history if session.match is not None else [])][:hands]
    if session.game is not None and len(logs) < hands and not session.game.is_over:
        logs.append(tuple(str(action) for action in session.game.log))
    return sum(move.partition(" ")[0] in seats and move.endswith(" timeout") for log in logs for move in log)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.tables", description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--hands", type=int, default=1)
    parser.add_argument("--no-compare", action="store_true", help="skip the run with storage off")
    parser.add_argument("--no-latency", action="store_true", help="the stand-in answers at once (as before)")
    parser.add_argument(
        "--first-time", action="store_true", help="people the bot never DMed: each DM channel is opened in the run"
    )
    parser.add_argument("--think", type=float, default=0.0, help="each person's mean seconds before answering")
    parser.add_argument("--uvloop", action="store_true", help="run on uvloop's event loop (if installed)")
    parser.add_argument(
        "--render-processes",
        type=int,
        default=None,
        help="the bot's picture_workers: draw pictures in N worker processes (default: as the bot, 1 on 2+ cores)",
    )
    parser.add_argument(
        "--attention", action="store_true",
        help="people look away after each click and notice only new messages meanwhile (clock_played_pct)",
    )
    parser.add_argument("--people", type=int, default=1, choices=(1, 2, 3, 4), help="people at each table")
    parser.add_argument(
        "--ai-delay", type=float, default=0.8, help="seconds between AI discards (the table's pace; 0: at once)"
    )
    args = parser.parse_args(argv)
    if args.render_processes is None:
        from cogs.mahjong.pictures import default_workers

        args.render_processes = default_workers()
    logging.basicConfig(level=logging.WARNING)
    runner: Callable[[Coroutine[Any, Any, dict]], dict] = asyncio.run
    if args.uvloop:
        import uvloop  # type: ignore[import-not-found, unused-ignore]  # optional

        runner = uvloop.run
    with tempfile.TemporaryDirectory() as folder:
        common = {"latency": not args.no_latency, "people_per_table": args.people, "ai_delay": args.ai_delay,
                  "first_time": args.first_time, "think": args.think, "picture_workers": args.render_processes,
                  "attention": args.attention}
        stored = runner(
            run(args.tables, args.hands, storage=True, database=f"{folder}/bench.sqlite3", **common)
        )
        print("with storage (SQLite file, WAL):", json.dumps(stored), file=sys.stderr)
        if not args.no_compare:
            bare = runner(
                run(args.tables, args.hands, storage=False, database=f"{folder}/bare.sqlite3", **common)
            )
            print("storage off:                    ", json.dumps(bare), file=sys.stderr)
            stored["store_p99_extra_ms"] = round(stored["p99_ms"] - bare["p99_ms"], 1)
    stored["think_s"] = args.think
    stored["event_loop"] = "uvloop" if args.uvloop else "asyncio"
    stored["render_processes"] = args.render_processes
    print(json.dumps(stored))
    return 0 if stored["errors"] == 0 and stored["late_answers"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
