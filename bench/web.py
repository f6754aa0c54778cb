"""The web table under load: ``python -m bench.web --tables 50 --hands 1``.

Every table has four people and every seat's page open in a simulated browser (an aiohttp client
WebSocket, as the page's own socket): each page answers its prompts after ``--think`` seconds (0.5 by
default, a quick person; 0: at once, every table as fast as the machine goes) — 胡 when offered, else the
drawn tile or its first discard, else 過, so the tables play themselves through the web table's real
server (web/server.py: tokens, the push of every change, latest-wins sends) on real sessions
(table/session.py); only Discord is absent (the DMs are another view of the same pushes). Prints:

* ``p99_update_ms`` — a move (the server has played it) until every open page of its table has the
  screen of the new decision point, p50/p99 over every move of every table (target ≤ 100);
* ``errors`` — refusals (a stale or illegal tap), failed sockets, tables that did not finish (target 0);
* ``leaks`` — sockets, pages, server tasks and client sessions left once the tables end (target 0);
* ``memory_per_page_kb`` — the bot's Python allocations (tracemalloc) for each open page;
* ``cpu_ms_per_move`` — the process's CPU time while the tables play, per move: the server's work and the
  simulated pages' (their JSON parsing) together; unlike the latencies it barely moves with the machine's load.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
import tracemalloc
from collections.abc import Hashable
from typing import Any

import aiohttp

from table import effects as fx
from table import inputs as ins
from table.lobby import TableError, TableSettings, TableState
from table.screens import SEATS
from table.session import TableSession
from table.timing import Timing
from web.server import WebTable
from web.tokens import Grant, Signer
from web.wire import hand_json

TIMING = Timing(ai_delay=0.0, hand_pause=0.0, edit_interval=0.0, timer_scale=100.0)


class BenchTables:
    """Real table sessions, driven the way the bot's runner drives them (a lock per table, ticks after a move)."""

    def __init__(self) -> None:
        self.sessions: dict[int, TableSession] = {}
        self.locks: dict[int, asyncio.Lock] = {}
        self.played: dict[tuple[int, int, int], float] = {}  # (table, hand, decision) opened → when
        self.errors = 0
        self.web: WebTable | None = None

    def open(self, table_id: int, hands: int) -> TableSession:
        state = TableState(table_id, guild_id=1, channel_id=table_id, host_id=table_id * 10, settings=TableSettings())
        session = TableSession(state, TIMING)
        for n in range(4):
            session.handle(ins.Join(table_id * 10 + n, f"p{n}"), 0.0)
        session.handle(ins.OpenSeats(), 0.0)
        session.handle(ins.Start(bytes([table_id % 256]) * 32, hands=hands), time.time())
        session.handle(ins.Dealt(), time.time())
        self.sessions[table_id] = session
        self.locks[table_id] = asyncio.Lock()
        return session

    def seated(self, grant: Grant) -> bool:
        session = self.sessions.get(grant.table)
        if session is None:
            return False
        seats = session.screen(SEATS).seats
        return 0 <= grant.seat < len(seats) and seats[grant.seat].user_id == grant.user

    def stamp(self, table: int) -> Hashable | None:
        session = self.sessions.get(table)
        return None if session is None else session.screen(SEATS)

    def screen(self, grant: Grant, now: float) -> dict[str, Any] | None:
        session = self.sessions[grant.table]  # as the bot's (cogs/mahjong/webtables.py): who sits there, then the screen
        if session.screen(SEATS).seats[grant.seat].user_id != grant.user:
            return None
        return hand_json(session.screen(grant.seat), now=now)

    async def play(self, grant: Grant, code: str, hand: int, move: int) -> str | None:
        session = self.sessions[grant.table]
        async with self.locks[grant.table]:
            try:
                session.handle(ins.Click(grant.user, grant.seat, code, hand, move), time.time())
            except TableError as refused:
                self.errors += 1
                return refused.key
            for _ in range(50):  # what the driver does next at once (settling a hand, the next decision)
                now = time.time()
                if not any(isinstance(e, fx.WakeAt) and e.at <= now for e in session.handle(ins.Tick(), now)):
                    break  # the driver (cogs/mahjong/runner.py) sleeps until a wake-up to come
            seats = session.screen(SEATS)
            self.played[(grant.table, seats.hand_number, seats.decision)] = time.perf_counter()
        assert self.web is not None
        self.web.changed(grant.table)
        return None


def choose(screen: dict[str, Any]) -> str | None:
    codes = [a["code"] for a in screen["actions"]]
    if not codes:
        return None
    if "w" in codes:
        return "w"
    drawn = f"d{screen['drawn']}" if screen["drawn"] else None
    if drawn in codes:
        return drawn
    discards = [c for c in codes if c.startswith("d")]
    return discards[0] if discards else ("s" if "s" in codes else codes[0])


async def page(
    client: aiohttp.ClientSession, url: str, seen: dict[tuple[int, int, int], list[float]], errors: list[str], think: float
) -> None:
    """One open page: takes each screen as it comes and answers its prompt (once a decision point, as
    play.js does: a screen of the same point pushed again is not answered again); ends when the table ends."""
    sent: tuple[int, int] | None = None
    try:
        async with client.ws_connect(url) as socket:
            async for message in socket:
                data = json.loads(message.data)
                if data["type"] == "closed":
                    break
                if data["type"] == "refused":
                    errors.append(data["text"])
                    sent = None
                    continue
                if data["type"] != "screen":
                    continue
                point = (data["hand"], data["decision"])
                seen.setdefault((data["table"], *point), []).append(time.perf_counter())
                if data["showing"] == "prompt" and sent != point:
                    code = choose(data)
                    if code is not None:
                        if think:
                            await asyncio.sleep(think)  # a person's tap, not a machine's
                        sent = point
                        await socket.send_str(json.dumps({"code": code, "hand": data["hand"], "move": data["decision"]}))
    except aiohttp.ClientError as error:
        errors.append(repr(error))


async def run(tables: int, hands: int, think: float = 0.0) -> dict[str, Any]:
    bench = BenchTables()
    signer = Signer(b"bench-secret-bench-secret-bench!")
    web = WebTable(bench, signer, base="http://127.0.0.1:0")
    bench.web = web
    await web.start("127.0.0.1", 0)
    base = f"http://127.0.0.1:{web.port}"
    tasks_before = len(asyncio.all_tasks())
    seen: dict[tuple[int, int, int], list[float]] = {}
    errors: list[str] = []
    tracemalloc.start()
    connector = aiohttp.TCPConnector(limit=0)
    client = aiohttp.ClientSession(connector=connector)
    sessions = [bench.open(n + 1, hands) for n in range(tables)]
    mem_before = tracemalloc.get_traced_memory()[0]
    pages = []
    for session in sessions:
        for seat, who in enumerate(session.screen(SEATS).seats):
            token = signer.make(Grant(session.table_id, seat, who.user_id or 0, int(time.time()) + 3600))
            pages.append(asyncio.create_task(page(client, f"{base}/ws/{token}", seen, errors, think)))
    while web.open_pages() < len(pages):
        await asyncio.sleep(0.01)
    memory = (tracemalloc.get_traced_memory()[0] - mem_before) / len(pages)
    tracemalloc.stop()  # tracing every allocation slows the whole process: not while the updates are timed
    started, cpu = time.perf_counter(), time.process_time()
    done = False
    while time.perf_counter() - started < 300:
        if all(s.game is not None and s.game.is_over and s.screen(SEATS).hand_number >= hands for s in sessions):
            done = True
            break
        await asyncio.sleep(0.05)
    cpu = time.process_time() - cpu
    for session in sessions:  # the tables end: their pages get the last screen and are closed
        web.ended(session.table_id)
    await asyncio.wait_for(asyncio.gather(*pages), 30)
    await client.close()
    latencies = []
    for key, opened in bench.played.items():
        times = seen.get(key, [])
        if len(times) >= 4:
            latencies.append((sorted(times)[3] - opened) * 1000)
        else:
            errors.append(f"{key}: {len(times)} of 4 pages had it")
    latencies.sort()
    leaks = web.open_pages() + len(web.pages) + max(0, len(asyncio.all_tasks()) - tasks_before) + (0 if client.closed else 1)
    await web.stop()

    def pct(p: float) -> float:
        return round(latencies[min(len(latencies) - 1, int(p * len(latencies)))], 2) if latencies else float("nan")

    return {
        "tables": tables, "pages": len(pages), "moves": len(latencies), "finished": done,
        "p50_update_ms": pct(0.5), "p99_update_ms": pct(0.99),
        "errors": len(errors) + bench.errors + (0 if done else 1), "leaks": leaks,
        "memory_per_page_kb": round(memory / 1024, 1),
        "cpu_ms_per_move": round(cpu * 1000 / max(1, len(latencies)), 2),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--hands", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.5, help="seconds a page takes to answer (0: at once)")
    args = parser.parse_args(argv)
    result = asyncio.run(run(args.tables, args.hands, args.think))
    for key, value in result.items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
