"""Test harness: point discord.py at a DevServer, run a bot on it, and collect everything that went wrong."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable, Iterator
from typing import Any

import discord
import yarl
from discord.ext import commands

from .server import DevServer


@contextlib.contextmanager
def pointed_at(server: DevServer) -> Iterator[None]:
    """discord.py's REST base and gateway URL aim at the server for the duration, then are restored."""
    route = discord.http.Route
    ws_class = discord.gateway.DiscordWebSocket
    old_base, old_gateway = route.BASE, ws_class.DEFAULT_GATEWAY
    route.BASE = server.api_url
    ws_class.DEFAULT_GATEWAY = yarl.URL(server.gateway_url)
    try:
        yield
    finally:
        route.BASE = old_base
        ws_class.DEFAULT_GATEWAY = old_gateway


class ErrorLog(logging.Handler):
    """Collects ERROR records from every logger: discord's on_error, tree.on_error, View.on_error, the bot's."""

    def __init__(self, notify: Callable[[], object] = lambda: None) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []
        self._notify = notify
        self._loop: asyncio.AbstractEventLoop | None = None

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        if threading.get_ident() == getattr(loop, "_thread_id", None):
            self._notify()  # wake waiters (wait_for_error) in the loop's own thread
        else:
            loop.call_soon_threadsafe(self._notify)

    def take(self, contains: str = "") -> list[logging.LogRecord]:
        """Remove and return the records a test expected (matching text in message or exception)."""
        taken = [r for r in self.records if contains in _describe(r)]
        self.records = [r for r in self.records if r not in taken]
        return taken

    def __enter__(self) -> ErrorLog:
        with contextlib.suppress(RuntimeError):
            self._loop = asyncio.get_running_loop()
        logging.getLogger().addHandler(self)
        return self

    def __exit__(self, *exc: object) -> None:
        logging.getLogger().removeHandler(self)


def _describe(record: logging.LogRecord) -> str:
    text = f"[{record.name}] {record.getMessage()}"
    if record.exc_info and record.exc_info[1] is not None:
        text += f"\n    {type(record.exc_info[1]).__name__}: {record.exc_info[1]}"
    return text


def make_bot(**kwargs: Any) -> commands.Bot:
    """A commands.Bot set up the way the stand-in needs: tiny guild_ready_timeout, no member chunking."""
    options: dict[str, Any] = {
        "command_prefix": commands.when_mentioned,
        "intents": discord.Intents.default(),
        "guild_ready_timeout": 0.05,
        "chunk_guilds_at_startup": False,
        "member_cache_flags": discord.MemberCacheFlags.none(),
    }
    options.update(kwargs)
    return commands.Bot(**options)


class Harness:
    """Runs bots against one DevServer; problems() lists what must fail the test."""

    def __init__(self, server: DevServer) -> None:
        self.server = server
        self.errors = ErrorLog(server.recorder.bump)
        self._bots: list[tuple[commands.Bot, asyncio.Task[None]]] = []
        self._stack = contextlib.ExitStack()

    async def __aenter__(self) -> Harness:
        self._stack.enter_context(self.errors)
        await self.server.start()
        self._stack.enter_context(pointed_at(self.server))
        return self

    async def __aexit__(self, *exc: object) -> None:
        try:
            await self.stop_bots()
            await self.server.close()
        finally:
            self._stack.close()

    async def start(self, bot: commands.Bot, timeout: float = 5.0) -> commands.Bot:
        """Log the bot in and wait for on_ready (guild cached, setup_hook done, e.g. commands synced)."""
        if bot._connection.guild_ready_timeout > 1:
            raise ValueError("construct the bot with a small guild_ready_timeout (e.g. make_bot())")
        task = asyncio.create_task(
            bot.start(self.server.config.token), name=f"devserver-bot-{len(self._bots)}"
        )
        self._bots.append((bot, task))
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ready
            if task in done:
                task.result()  # re-raise why login or connect failed
            raise TimeoutError(f"bot not ready after {timeout}s; requests so far: {self.server.recorder.log}")
        return bot

    async def stop(self, bot: commands.Bot) -> None:
        """Take one bot offline (as a crash or a deploy would) and wait until the server sees it gone.

        Start a new bot instance with start() afterwards: same server, same messages, fresh process state.
        """
        for entry in list(self._bots):
            if entry[0] is bot:
                await self._stop(*entry)
                self._bots.remove(entry)
        await self.server.wait_until_disconnected()

    async def _stop(self, bot: commands.Bot, task: asyncio.Task[None]) -> None:
        if not bot.is_closed():
            await bot.close()
        try:
            await asyncio.wait_for(task, 5)
        except Exception as error:  # noqa: BLE001 - the failure goes to the report, not lost
            self.errors.records.append(
                logging.LogRecord(
                    "devserver", logging.ERROR, __file__, 0, f"bot task ended with {error!r}", None, None
                )
            )

    async def stop_bots(self) -> None:
        for bot, task in reversed(self._bots):
            await self._stop(bot, task)
        self._bots.clear()

    async def wait_for_error(self, contains: str, timeout: float | None = None) -> logging.LogRecord:
        """The first ERROR record whose text contains `contains` (for tests that expect the bot to fail)."""
        return await self.server.recorder.wait_until(
            lambda: next((r for r in self.errors.records if contains in _describe(r)), None),
            self.server.timeout(timeout),
            lambda: (
                f"an error log containing {contains!r}; errors so far: {[_describe(r) for r in self.errors.records]}"
            ),
        )

    def problems(self) -> list[str]:
        """Unexpected violations and logged errors; empty means the run was clean."""
        out = [
            f"Discord rule broken: {v.rule} ({v.code}) {v.detail} [{v.route}]" for v in self.server.violations
        ]
        out += [f"error logged: {_describe(r)}" for r in self.errors.records]
        invalid = self.server.invalid_requests
        if invalid.banned:
            out.append(f"Discord would ban this IP: {invalid.worst} 401/403/429 answers within 10 minutes")
        return out

    def invalid_requests(self) -> str:
        """The 401/403/429 figure Discord bans an IP at (10,000 per 10 minutes), for reports."""
        invalid = self.server.invalid_requests
        return f"{invalid.total} 401/403/429 answers; at most {invalid.worst} within 10 minutes (ban at 10000)"
