"""The real bot in a process of its own, logged into a stand-in that runs in another process: several bot
processes against one stand-in and one PostgreSQL database (``bench.cluster``, the two-process e2e tests).

    bot = BotProcess(server, database=url, shards=(0,), shard_count=2, name="zero")
    await bot.start()          # spawns ``python -m devserver.process …`` and waits for its on_ready
    bot.kill()                 # SIGKILL, as a crash would: nothing is stored or released on the way out
    bot.terminate()            # SIGTERM, not waited for: a clean shutdown hands its tables to the others
    await bot.stop()           # SIGTERM: a clean shutdown (the tables store what they hold)
    bot.errors, bot.forwarded  # the ERROR lines it logged; seconds each click forwarded to it took
    bot.taken                  # table → (claimed, replayed) wall seconds of the first time it took each over

A real process, not a second bot in the test's own process: only a separate process can be SIGKILLed
with its database connections, its leases and its half-done writes, which is what a takeover must survive.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import re
import signal
import sys
from pathlib import Path

from data.identify import HOLD as IDENTIFY_HOLD

READY = "devserver-process ready"
FORWARDED = "devserver-process forwarded"
LOG_RECORD = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} [A-Z]+ ")  # a record's start (the format below)
TAKEN = "devserver-process taken"  # a table taken over: its id, when it was claimed and replayed (wall s)
ROOT = Path(__file__).resolve().parents[1]


class BotProcess:
    def __init__(
        self,
        api_url: str,
        gateway_url: str,
        token: str,
        *,
        database: str,
        shards: tuple[int, ...] | None,
        shard_count: int | None,
        name: str,
        seed: int = 1,
        lease_seconds: float = 8.0,
        edit_interval: float = 1.0,
        identify_hold: float | None = None,  # seconds a turn to IDENTIFY is held (None: the bot's 5.5)
        shard0_standby: bool = False,
        picture_workers: int = 0,  # the bot's picture_workers (bot.py: 1 on 2+ cores); 0 draws in threads
    ) -> None:
        self.args = [
            "--api", api_url, "--gateway", gateway_url, "--token", token, "--db", database, "--name", name,
            "--seed", str(seed), "--lease-seconds", str(lease_seconds), "--edit-interval", str(edit_interval),
        ]  # fmt: skip
        if identify_hold is not None:
            self.args += ["--identify-hold", str(identify_hold)]
        if shard_count is not None:  # else every shard of the count the stand-in recommends
            self.args += ["--shard-count", str(shard_count), "--shards", ",".join(map(str, shards or ()))]
        if shard0_standby:  # a second session of shard 0 (bot.py --shard0-standby)
            self.args.append("--shard0-standby")
        if picture_workers:
            self.args += ["--picture-workers", str(picture_workers)]
        self.name = name
        self.errors: list[str] = []
        self.log: list[str] = []  # everything it logged (MAHJONG_LOG=INFO for more than warnings)
        self.forwarded: list[float] = []
        self.taken: dict[int, tuple[float, float]] = {}
        self.process: asyncio.subprocess.Process | None = None
        self._readers: list[asyncio.Task[None]] = []
        self._ready = asyncio.Event()

    async def start(self, timeout: float = 60.0) -> BotProcess:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "devserver.process", *self.args,
            cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert self.process.stdout is not None and self.process.stderr is not None
        self._readers = [
            asyncio.create_task(self._read_stdout(self.process.stdout)),
            asyncio.create_task(self._read_stderr(self.process.stderr)),
        ]
        ended = asyncio.create_task(self.process.wait())
        ready = asyncio.create_task(self._ready.wait())
        done, _ = await asyncio.wait({ended, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        for task in (ended, ready):
            if task not in done:
                task.cancel()
        if ready not in done:
            self.kill()
            raise RuntimeError(f"bot process {self.name} did not get ready: {self.errors[-5:]}")
        return self

    async def _read_stdout(self, stream: asyncio.StreamReader) -> None:
        async for raw in stream:
            line = raw.decode(errors="replace").strip()
            if line.startswith(READY):
                self._ready.set()
            elif line.startswith(FORWARDED):
                self.forwarded.append(float(line.split()[-1]))
            elif line.startswith(TAKEN):
                table, claimed, replayed = line.split()[-3:]
                self.taken.setdefault(int(table), (float(claimed), float(replayed)))  # its first takeover here

    async def _read_stderr(self, stream: asyncio.StreamReader) -> None:
        """Each ERROR record is one entry of ``errors``, its traceback with it (one error, not two, and the
        report shows where it came from); a traceback no record introduced is an entry of its own."""
        joining = False  # this line may belong to the last error: its traceback, up to the next record
        async for raw in stream:
            line = raw.decode(errors="replace").rstrip()
            self.log.append(line)
            if " ERROR " in line:
                self.errors.append(line)
                joining = True
            elif line.startswith("Traceback") and not joining:
                self.errors.append(line)
                joining = True
            elif joining and not LOG_RECORD.match(line):
                self.errors[-1] += "\n" + line
            else:
                joining = False

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.returncode is None

    def kill(self) -> None:
        if self.alive:
            assert self.process is not None
            self.process.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        """SIGTERM without waiting: a clean shutdown, which hands this process's tables to the others."""
        if self.alive:
            assert self.process is not None
            self.process.send_signal(signal.SIGTERM)

    async def stop(self, timeout: float = 30.0) -> int | None:
        """A clean shutdown (SIGTERM), SIGKILL if it takes longer than ``timeout``; the exit code."""
        if self.process is None:
            return None
        if self.alive:
            self.process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.process.wait(), timeout)
        except TimeoutError:
            self.kill()
            await self.process.wait()
        for reader in self._readers:
            with contextlib.suppress(asyncio.CancelledError):
                await reader
        return self.process.returncode


async def _serve(args: argparse.Namespace) -> int:
    import discord
    import yarl

    import bot as entry
    from cogs.mahjong.cluster import PgCluster
    from table.timing import Timing

    discord.http.Route.BASE = args.api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(args.gateway)
    timing = Timing(ai_delay=0.0, hand_pause=0.0, edit_interval=args.edit_interval, timer_scale=1.0)
    config = entry.Config(
        token=args.token, database=args.db, timing=timing, seed=args.seed, lease_seconds=args.lease_seconds,
        identify_hold=args.identify_hold,
        shard0_standby=args.shard0_standby, picture_workers=args.picture_workers,
    ).sharded(args.shards, args.shard_count, args.name)
    bot = entry.build_bot(config, guild_ready_timeout=0.05, member_cache_flags=discord.MemberCacheFlags.none())

    async def ready() -> None:
        await bot.wait_until_ready()
        await bot.warming  # the render caches are full: the first clicks are not slowed by filling them
        cluster = bot.get_cog("Mahjong").cluster  # type: ignore[union-attr]
        if isinstance(cluster, PgCluster):
            cluster.on_forwarded = lambda seconds: print(FORWARDED, f"{seconds:.6f}", flush=True)
            cluster.on_taken = lambda table, claimed, replayed: print(
                TAKEN, table, f"{claimed:.3f}", f"{replayed:.3f}", flush=True
            )
        print(READY, args.name, flush=True)

    announce = asyncio.create_task(ready())
    try:
        await entry.serve(bot, args.token)  # as bot.py runs it: SIGINT and SIGTERM are a clean shutdown
    finally:
        announce.cancel()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m devserver.process", description=__doc__.splitlines()[0])
    for flag in ("--api", "--gateway", "--token", "--db", "--name"):
        parser.add_argument(flag, required=True)
    parser.add_argument("--shards")
    parser.add_argument("--shard-count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lease-seconds", type=float, default=8.0)
    parser.add_argument("--edit-interval", type=float, default=1.0)
    parser.add_argument("--identify-hold", type=float, default=IDENTIFY_HOLD)
    parser.add_argument("--shard0-standby", action="store_true")
    parser.add_argument("--picture-workers", type=int, default=0)
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=getattr(logging, os.environ.get("MAHJONG_LOG", "WARNING")),
        format=f"%(asctime)s %(levelname)s [{args.name}] %(name)s: %(message)s",
    )
    return asyncio.run(_serve(args))


if __name__ == "__main__":
    sys.exit(main())
