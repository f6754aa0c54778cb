"""Which tables this process runs when several processes share one PostgreSQL database: each table's
lease (:mod:`data.leases`) renewed, tables whose owner died taken over, a guild's tables handed back to
the process its events reach, and every table handed to a live peer on a clean shutdown. The clicks'
side, forwarding each to its table's owner, is :mod:`cogs.mahjong.cluster`'s.

The tables are reached only through the ``TableRegistry`` (registry.py); of the tables cog only the
process's services are used (the store, the request budget, background tasks).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from data import SavedTable, StoreError
from data.leases import Leases
from data.mailbox import Mailbox

from .runner import TableRunner
from .tokenshare import token_share

if TYPE_CHECKING:
    from .registry import TableRegistry
    from .services import Services

log = logging.getLogger(__name__)

SCAN_EVERY = 1.0  # seconds between looks for tables whose owner stopped renewing
HOME_EVERY = 2.0  # seconds between looks for this process's guilds' tables run elsewhere
HAND_BACK_QUIET = 5.5  # seconds between stopping a table handed back and giving its lease to its home
LET_GO_GRACE = 5.0  # a table handed back is this process's to take again only after this long
# seconds an owner must be seen not listening (its mailbox connection gone) before its tables are taken
# without waiting out their leases: a SIGKILLed process's connections close at once, and a live process
# whose mailbox connection broke opens it again after its next renewal (every ttl / 4 = 2 s). Taking a
# live process's table is safe (the fence, migration 0015): it only moves the table.
SILENT_FOR = 2.0


class SoleProcess:
    """One process owns every table (SQLite, or a PostgreSQL database without other processes)."""

    name = "sole"
    hands_first = False  # a restored table posts its table message, then each person's hand, then plays on

    def __init__(self, registry: TableRegistry, cog: Services) -> None:
        self.registry = registry
        self.cog = cog  # the process's services: the store, the request budget, background tasks

    def mine(self, table_id: int) -> bool:
        return True

    def gone(self, table_id: int) -> str:
        """Why a click finds no table here: the catalogue key of the answer."""
        return "err.table_over"

    async def claim(self, table_id: int) -> bool:
        return True

    def release(self, table_id: int) -> None:
        return None

    def lost(self, table_id: int) -> None:
        """A write of the table was refused: another process holds its lease (journal.py). Stop running
        it now, before another click is answered here; its clicks go to the new owner from now on."""
        self.registry.leased.discard(table_id)
        self.registry.drop(table_id, "another process holds its lease and stores its moves")

    async def adopt(self, saved: SavedTable) -> TableRunner | None:
        return self.registry.open_stored(saved)

    def start(self, bot: discord.Client) -> None:
        return None

    async def stop(self) -> None:
        return None


class LeasedTables(SoleProcess):
    """The tables this process holds a lease on, among processes sharing one PostgreSQL database."""

    # taken over by the hundred, every table's table post (its picture drawn last of all, behind the hands)
    # went before its person's prompt, and its clock waited for its posts, so the last table played again
    # after 300 posts under the global limit (20-27 s at 100 tables): a table rebuilt here sends each
    # person's hand and plays on; its table post and "resumes at hand" follow (runner.resume)
    hands_first = True

    def __init__(
        self,
        registry: TableRegistry,
        cog: Services,
        leases: Leases,
        name: str,
        shards: tuple[int, ...] | None = None,
        count: int | None = None,
    ) -> None:
        super().__init__(registry, cog)
        self.leases = leases
        self.name = name
        self.shards = frozenset(shards or ())
        self.shard_count = count  # None: unsharded, no guild is more at home here than anywhere
        self.mailbox: Mailbox | None = None
        self.held_until = time.monotonic() + leases.ttl  # past this without a renewal: stop running tables
        self._tasks: list[asyncio.Task[None]] = []
        self._taking = asyncio.Lock()  # one takeover at a time: a table is claimed and rebuilt once
        self.stopping = False
        self._look = asyncio.Event()  # a click found a table whose lease ran out: look now, not at the next scan
        self._silent_since: dict[str, float] = {}  # owner → when it was first seen not listening (monotonic)
        # the bench's timeline of a takeover: (table, claimed at, replayed at), wall seconds
        self.on_taken: Callable[[int, float, float], None] | None = None
        # the DM opens a process alone may make, shared among the live processes (_share_the_token; the
        # request budget scales itself: EditBudget.scale)
        self.full_opens = cog.dm_opens.limit

    # ------------------------------------------------------------------ ownership

    def mine(self, table_id: int) -> bool:
        return table_id in self.registry.leased

    def gone(self, table_id: int) -> str:
        """A table handed back or being taken over here is moving (press again), not over."""
        return "err.table_moving" if self.registry.moving(table_id) else "err.table_over"

    async def claim(self, table_id: int) -> bool:
        if await self.leases.claim(table_id):
            self.registry.leased.add(table_id)
            return True
        return False

    def release(self, table_id: int) -> None:
        if table_id in self.registry.leased:
            self.registry.leased.discard(table_id)
            self.cog.background(self._quietly(self.leases.release(table_id)))

    async def adopt(self, saved: SavedTable) -> TableRunner | None:
        """Run a stored table here if no live process does (at start-up: only tables free or expired)."""
        try:
            claimed = await self.claim(saved.table.id)
        except StoreError as error:
            log.warning("table %s: could not claim it: %s", saved.table.id, error)
            return None
        if not claimed:
            return None
        runner = self.registry.open_stored(saved)
        if runner is None:
            self.release(saved.table.id)
        return runner

    async def stop(self) -> None:
        """Shutting down (the tables have stored what they hold): a clean shutdown is no crash. Every
        table goes to a live process at once, told through its mailbox, which rebuilds them then rather
        than after the lease's expiry; with no process to take them, the leases run out now, for the next
        process to start."""
        self.stopping = True  # tables handed here from now on are not taken (their leases run out)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        tables = set(self.registry.leased)
        self.registry.leased.clear()
        if tables:
            given = await self._give(tables)
            if tables - given:
                await self._quietly(self.leases.let_go(tables - given))
        if self.mailbox is not None:
            await self._quietly(self.mailbox.close())

    async def _give(self, tables: set[int]) -> set[int]:
        """Hand the tables to the live peers, shared out in turn: theirs now, each told which."""
        try:
            peers = await self.leases.peers()
        except StoreError:
            return set()
        given: set[int] = set()
        for index, peer in enumerate(peers):
            share = sorted(tables)[index :: len(peers)]
            given |= await self._hand_to(peer, share)
        if given:
            log.warning("handed %d tables to %s on shutting down", len(given), ", ".join(peers))
        return given

    async def _hand_to(self, peer: str, tables: list[int]) -> set[int]:
        """The leases become ``peer``'s, then it hears so and rebuilds the tables at once (if the message
        is lost, the leases run out in its name and a scan takes them)."""
        try:
            given = await self.leases.hand_over(tables, peer)
            if self.mailbox is not None and given:
                await self._share_the_token()  # lowered before the peer raises its own (tokenshare.py)
                await self.mailbox.send(peer, {"yours": sorted(given)})
        except (StoreError, ValueError) as error:
            log.info("cluster: could not hand tables to %s: %s", peer, error)
            return set()
        return given

    async def _renewing(self) -> None:
        while True:
            await asyncio.sleep(self.leases.ttl / 4)
            held = self.registry.leased | self.registry.leaving  # a table handed back stays ours until its lease is given
            started = time.monotonic()
            try:
                kept = await self.leases.renew(held)
            except StoreError as error:
                log.warning("could not renew the table leases: %s", error)
                if time.monotonic() > self.held_until - self.leases.ttl / 4:
                    self._drop(set(self.registry.leased), "its lease could not be renewed in time")
                continue
            if started > self.held_until - self.leases.ttl / 2:  # the loop or the database kept it waiting
                since = started - (self.held_until - self.leases.ttl)
                log.warning("the leases were renewed %.1f s after the last time (meant: %.1f s)", since, self.leases.ttl / 4)
            self.held_until = started + self.leases.ttl
            lost = (held - kept) & self.registry.leased
            if lost:
                self._drop(lost, "another process took it over")
            await self._listen_again()  # after the renewal, which nothing may hold up
            await self._share_the_token()

    async def _share_the_token(self) -> None:
        """Discord's global limit (50 requests a second) is the bot token's, whichever process sends: each
        live process paces its requests at its share of the one-process budget, by the tables it runs
        (tokenshare.py; a dead one's share goes to the others at the next renewal)."""
        try:
            tables = await self.leases.tables_by_process()
        except StoreError:
            return
        share = token_share(self.leases.owner, tables)
        self.cog.budget.scale(share)
        self.cog.dm_opens.limit = max(1, int(self.full_opens * share))

    async def _listen_again(self) -> None:
        """After each renewal: a mailbox that stopped listening listens again (cluster.py)."""
        return None

    def _drop(self, tables: set[int], why: str) -> None:
        """Stop running tables another process may run now, storing nothing more (it stores their moves)."""
        for table_id in tables:
            self.registry.leased.discard(table_id)
            self.registry.drop(table_id, why)

    def home(self, guild_id: int) -> bool:
        """The guild's events come to this process: its commands, modals and channel clicks arrive here."""
        return self.shard_count is not None and (guild_id >> 22) % self.shard_count in self.shards

    async def _scanning(self) -> None:
        last_home = time.monotonic()
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(SCAN_EVERY):  # not wait_for: a cancel meeting a look is kept
                    await self._look.wait()
            self._look.clear()
            try:
                await self.take_over(await self.leases.expired(grace=LET_GO_GRACE))
                await self._take_silent()
                if time.monotonic() - last_home >= HOME_EVERY:
                    last_home = time.monotonic()
                    await self._call_home()
            except StoreError as error:
                log.info("could not look for tables to take over: %s", error)

    async def _take_silent(self) -> None:
        """The tables of a process not listening for ``SILENT_FOR`` seconds: taken before their leases
        run out (a SIGKILLed owner's would otherwise wait out the lease, the slowest step of a takeover)."""
        silent = await self.leases.silent()
        now = time.monotonic()
        self._silent_since = {owner: self._silent_since.get(owner, now) for _, owner in silent}
        gone = [table for table, owner in silent if now - self._silent_since[owner] >= SILENT_FOR]
        if gone:
            await self.take_over(gone, silent=True)

    async def _call_home(self) -> None:
        """Ask for this process's guilds' tables back from the processes that took them over while it was
        away: a guild's slash commands, forms and seats are kept where its events arrive."""
        if self.mailbox is None or self.shard_count is None:
            return
        wanted: dict[str, list[int]] = {}
        for table, guild, owner in await self.leases.held_elsewhere():
            if self.home(guild):
                wanted.setdefault(owner, []).append(table)
        for owner, tables in wanted.items():
            try:
                await self.mailbox.send(owner, {"hand_back": tables[:500], "to": self.name})
            except ValueError as error:
                log.info("could not ask %s for tables back: %s", owner, error)

    async def _hand_back(self, tables: list[int], home: str | None) -> None:
        """Another process runs these tables' guild: stop running them here, everything stored, and give
        their leases to it, which rebuilds them from the stored moves as it hears so (or, with no home
        named, let them run out for it to take)."""
        given = []
        for table_id in tables:
            runner = self.registry.get(table_id)
            if table_id not in self.registry.leased or (runner is not None and self.home(runner.state.guild_id)):
                continue
            self.registry.leased.discard(table_id)  # first: table_finished then releases nothing
            self.registry.leaving.add(table_id)  # its clicks meanwhile: "press again in a few seconds"
            await self.registry.hand_back(table_id)  # its pending writes are stored
            given.append(table_id)
        if not given:
            return
        # Discord counts a channel's edits per 5 s whoever sends them, and the home process cannot know
        # what this one spent: it takes over once the windows this process used have passed
        await asyncio.sleep(HAND_BACK_QUIET)
        sent = await self._hand_to(home, given) if home is not None else set()
        await self._quietly(self.leases.let_go(set(given) - sent))
        self.registry.leaving -= set(given)
        log.info("handed %d tables back to their guild's process", len(given))

    async def take_over(self, tables: list[int], *, silent: bool = False) -> int:
        """Claim the tables whose owner stopped renewing (or handed them here), replay them from their
        stored moves and play on: the deadlines re-armed, the channel told, each person's hand sent
        afresh, old buttons working.

        One takeover runs at a time and claims its tables in one statement, then reads only those from
        the store: a hundred clicks on a dead process's tables make one takeover, not a hundred reads of
        every table. Each table plays on as soon as it is rebuilt, and the loop answers clicks between
        two rebuilds (a replay is CPU work on the event loop). ``silent``: tables of an owner seen not listening
        for a while, claimed before their leases run out (``_take_silent``)."""
        async with self._taking:
            fresh = [t for t in dict.fromkeys(tables) if t not in self.registry.leased and t not in self.registry]
            claimed = await self.leases.claim_many(fresh, silent=silent) if fresh else set()
            if not claimed:
                return 0
            started, claimed_at = time.monotonic(), time.time()
            # the dead process's share of the bot token's request rate is this one's from now (not from the
            # next renewal, which a loaded loop delays): the takeover's hundred prompts go at the full rate
            await self._share_the_token()
            self.registry.restoring |= claimed  # a click meanwhile waits for its table (_settled)
            taken = 0
            try:
                for saved in await self.cog.store.unfinished_tables(only=claimed):
                    table_id = saved.table.id
                    if table_id in self.registry:
                        continue
                    self.registry.leased.add(table_id)
                    if self.registry.open_stored(saved) is not None:
                        taken += 1
                        if self.on_taken is not None:
                            self.on_taken(table_id, claimed_at, time.time())
                    else:
                        self.release(table_id)
                    self.registry.restoring.discard(table_id)
                    await asyncio.sleep(0)
            finally:
                self.registry.restoring -= claimed
            for table_id in claimed - self.registry.leased:  # finished meanwhile, or not readable: nobody's
                await self._quietly(self.leases.release(table_id))
        log.warning("took over %d tables in %.2f s: %s", taken, time.monotonic() - started, sorted(claimed))
        return taken

    async def _quietly(self, work: Any) -> None:
        try:
            await work
        except StoreError as error:
            log.info("cluster: %s", error)
