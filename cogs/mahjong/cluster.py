"""Several bot processes on one PostgreSQL database: which tables this process runs, taking over the tables
of a process that died, and clicks that reach their table wherever Discord delivers them.

Discord sends every event without a guild — every click on a DM button, so nearly every move — to shard
0's process only, and a guild's channel clicks to the process holding that guild's shard; a table runs in
exactly one process (its lease, :mod:`data.leases`). So the process that receives a click on a table's
button (``mj:<kind>:<table>:…``) it does not run looks the owner up and hands it the raw interaction
(id, token, data, user, message) over PostgreSQL ``LISTEN/NOTIFY`` (:mod:`data.mailbox`); the owner
builds the ``discord.Interaction`` from it exactly as discord.py does from the gateway and answers it
through the interaction's REST callback — any process may answer an interaction with its token, and the
3 seconds count from the first process's receipt. A NOTIFY costs about a millisecond; nothing is polled.

Entry points the cog calls (a few marked lines in ``__init__.py``, one in ``runner.py``):

* ``await cluster.adopt(saved)`` — claim a stored table and run it here (start-up, takeover);
* ``await cluster.claim(table_id)`` — a table this process just created is its own;
* ``cluster.release(table_id)`` — a table that finished or closed;
* ``cluster.mine(table_id)`` — is this table run here?
* ``await cluster.stop()`` — shutting down: this process's tables go to a live process at once;
* ``cluster.resume_order(effects)`` — a table rebuilt here shows its people their hands first (runner.py).

Clicks are routed before discord.py parses them (:meth:`PgCluster.install` wraps the
``INTERACTION_CREATE`` parser), so the cog never sees a click for a table it does not run. On SQLite one
process owns every table: :class:`SoleProcess` says yes to everything.
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
from data.leases import TTL, Leases
from data.mailbox import Mailbox
from data.postgres import PgDriver
from table import effects as fx
from table import ids
from table.effects import Effect

from ..i18n import t
from .answers import RECEIVED
from .runner import TableRunner

if TYPE_CHECKING:
    from . import Mahjong

log = logging.getLogger(__name__)

SCAN_EVERY = 1.0  # seconds between looks for tables whose owner stopped renewing
HOME_EVERY = 2.0  # seconds between looks for this process's guilds' tables run elsewhere
HAND_BACK_QUIET = 5.5  # seconds between stopping a table handed back and giving its lease to its home
CLICK_WAITS = 1.5  # seconds of its 3 a click for a table being taken over here waits for it
LET_GO_GRACE = 5.0  # a table handed back is this process's to take again only after this long
MAX_HOPS = 3  # a click forwarded this often (owners changing under it) is answered where it is


def table_of(data: dict) -> int | None:
    """The table a raw interaction acts on, from its component's custom id (None: not a table's click).

    >>> table_of({"type": 3, "data": {"custom_id": "mj:a:17:2:0:41:d5m"}})
    17
    >>> table_of({"type": 2, "data": {"name": "mahjong"}}) is None
    True
    """
    if data.get("type") != 3:
        return None
    # the buttons and selects that act on one running table: lobby, action, mode, table and 換牌
    return ids.table_of(str((data.get("data") or {}).get("custom_id", "")))


class SoleProcess:
    """One process owns every table (SQLite, or a PostgreSQL database without other processes)."""

    name = "sole"

    def __init__(self, cog: Mahjong) -> None:
        self.cog = cog

    def mine(self, table_id: int) -> bool:
        return True

    def gone(self, table_id: int) -> str:
        """Why a click finds no table here: the catalogue key of the answer."""
        return "err.table_over"

    async def claim(self, table_id: int) -> bool:
        return True

    def release(self, table_id: int) -> None:
        return None

    async def adopt(self, saved: SavedTable) -> TableRunner | None:
        return run_here(self.cog, saved)

    def start(self, bot: discord.Client) -> None:
        return None

    async def stop(self) -> None:
        return None

    def resume_order(self, effects: list[Effect]) -> list[Effect]:
        """The order a restored table carries out its first effects in: one process restarting keeps
        the session's (the channel told, then the table and the hands)."""
        return effects


class PgCluster(SoleProcess):
    """This process's part of a bot split over several processes sharing one PostgreSQL database."""

    def __init__(
        self, cog: Mahjong, leases: Leases, name: str, shards: tuple[int, ...] | None = None, count: int | None = None
    ) -> None:
        super().__init__(cog)
        self.leases = leases
        self.name = name
        self.shards = frozenset(shards or ())
        self.shard_count = count  # None: unsharded, no guild is more at home here than anywhere
        self.mailbox: Mailbox | None = None
        self.owned: set[int] = set()
        self.held_until = time.monotonic() + leases.ttl  # past this without a renewal: stop running tables
        self._tasks: list[asyncio.Task[None]] = []
        self._parse: Callable[[Any], None] | None = None
        self.on_forwarded: Callable[[float], None] | None = None  # seconds a forwarded click took (bench)
        self.restoring: set[int] = set()  # claimed, being rebuilt from the store
        self.leaving: set[int] = set()  # being handed back to their guild's process
        self._taking = asyncio.Lock()  # one takeover at a time: a table is claimed and rebuilt once
        self.stopping = False
        self._look = asyncio.Event()  # a click found a table whose lease ran out: look now, not at the next scan
        # the bench's timeline of a takeover: (table, claimed at, replayed at), wall seconds
        self.on_taken: Callable[[int, float, float], None] | None = None
        # the one-process request budget (the cog's), shared among the live processes (_share_the_token)
        self.full_rate, self.full_capacity = cog.budget.rate, cog.budget.capacity
        self.full_opens = cog.dm_opens.limit

    @classmethod
    async def open(
        cls, cog: Mahjong, url: str, name: str, *, ttl: float = TTL, shards: tuple[int, ...] | None = None,
        count: int | None = None,
    ) -> PgCluster:
        driver = cog.store.driver
        assert isinstance(driver, PgDriver)
        cluster = cls(cog, Leases(driver.pool, name, path=driver.path, ttl=ttl), name, shards, count)
        cluster.mailbox = await Mailbox.open(url, name=name, on_message=cluster._received)
        return cluster

    # ------------------------------------------------------------------ ownership

    def mine(self, table_id: int) -> bool:
        return table_id in self.owned

    def gone(self, table_id: int) -> str:
        """A table handed back or being taken over here is moving (press again), not over."""
        return "err.table_moving" if table_id in self.leaving or table_id in self.restoring else "err.table_over"

    async def claim(self, table_id: int) -> bool:
        if await self.leases.claim(table_id):
            self.owned.add(table_id)
            return True
        return False

    def release(self, table_id: int) -> None:
        if table_id in self.owned:
            self.owned.discard(table_id)
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
        runner = run_here(self.cog, saved)
        if runner is None:
            self.release(saved.table.id)
        return runner

    def start(self, bot: discord.Client) -> None:
        """Route clicks from now on, renew the leases and watch for tables to take over. SIGTERM (what
        supervisors send) is a clean shutdown (bot.serve), which hands the tables over (:meth:`stop`)."""
        self.install(bot)
        self.cog.background(self._share_the_token())  # before the first request of this process's tables
        self._tasks = [
            asyncio.create_task(self._renewing(), name="cluster-renew"),
            asyncio.create_task(self._scanning(), name="cluster-takeover"),
        ]

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
        tables, self.owned = set(self.owned), set()
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
                await self.mailbox.send(peer, {"yours": sorted(given)})
        except (StoreError, ValueError) as error:
            log.info("cluster: could not hand tables to %s: %s", peer, error)
            return set()
        return given

    async def _renewing(self) -> None:
        while True:
            await asyncio.sleep(self.leases.ttl / 4)
            held = self.owned | self.leaving  # a table handed back stays ours until its lease is given
            started = time.monotonic()
            try:
                kept = await self.leases.renew(held)
            except StoreError as error:
                log.warning("could not renew the table leases: %s", error)
                if time.monotonic() > self.held_until - self.leases.ttl / 4:
                    self._drop(set(self.owned), "its lease could not be renewed in time")
                continue
            if started > self.held_until - self.leases.ttl / 2:  # the loop or the database kept it waiting
                since = started - (self.held_until - self.leases.ttl)
                log.warning("the leases were renewed %.1f s after the last time (meant: %.1f s)", since, self.leases.ttl / 4)
            self.held_until = started + self.leases.ttl
            lost = (held - kept) & self.owned
            if lost:
                self._drop(lost, "another process took it over")
            await self._listen_again()  # after the renewal, which nothing may hold up
            await self._share_the_token()

    async def _share_the_token(self) -> None:
        """Discord's global limit (50 requests a second) is the bot token's, whichever process sends: each
        live process paces its requests at its share of the one-process budget (a dead one's share goes
        to the others at the next renewal)."""
        try:
            processes = await self.leases.processes()
        except StoreError:
            return
        budget, opens = self.cog.budget, self.cog.dm_opens
        budget.rate = self.full_rate / processes
        budget.capacity = max(budget.reserve + 1.0, self.full_capacity / processes)
        budget.tokens = min(budget.tokens, budget.capacity)
        opens.limit = max(1, self.full_opens // processes)

    async def _listen_again(self) -> None:
        """A mailbox whose connection ended hears no forwarded click: open it afresh (the others see this
        process as gone, and answer "press again", until it listens again)."""
        if self.mailbox is None or not self.mailbox.closed:
            return
        try:
            self.mailbox = await Mailbox.open(self.mailbox.url, name=self.name, on_message=self._received)
            log.warning("the mailbox listens again")
        except StoreError as error:
            log.warning("the mailbox cannot listen: %s", error)

    def _drop(self, tables: set[int], why: str) -> None:
        """Stop running tables another process may run now, storing nothing more (it stores their moves)."""
        for table_id in tables:
            self.owned.discard(table_id)
            runner = self.cog.by_id.get(table_id)
            if runner is None:
                continue
            log.warning("table %s: no longer run here: %s", table_id, why)
            runner.session.close()
            runner.journal._queue.clear()  # noqa: SLF001 - the new owner writes from the stored moves on
            self.cog.table_finished(runner)
            self.cog.background(runner.close())

    def resume_order(self, effects: list[Effect]) -> list[Effect]:
        """A table rebuilt here (taken over, or at start-up) plays again when its people see their prompts:
        the hand (its table post, then each person's DM) goes before the channel's "resumes at hand"
        word. Taken over by the hundred, each table's requests wait their turn under Discord's global
        limit, and the word would put a hundred posts before the first prompt."""
        return sorted(effects, key=lambda effect: not isinstance(effect, fx.Deal))

    def home(self, guild_id: int) -> bool:
        """The guild's events come to this process: its commands, modals and channel clicks arrive here."""
        return self.shard_count is not None and (guild_id >> 22) % self.shard_count in self.shards

    async def _scanning(self) -> None:
        last_home = time.monotonic()
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._look.wait(), SCAN_EVERY)
            self._look.clear()
            try:
                await self.take_over(await self.leases.expired(grace=LET_GO_GRACE))
                if time.monotonic() - last_home >= HOME_EVERY:
                    last_home = time.monotonic()
                    await self._call_home()
            except StoreError as error:
                log.info("could not look for tables to take over: %s", error)

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
            runner = self.cog.by_id.get(table_id)
            if table_id not in self.owned or (runner is not None and self.home(runner.state.guild_id)):
                continue
            self.owned.discard(table_id)  # first: table_finished then releases nothing
            self.leaving.add(table_id)  # its clicks meanwhile: "press again in a few seconds"
            if runner is not None:
                await runner.close()  # its pending writes are stored
                self.cog.table_finished(runner)
            given.append(table_id)
        if not given:
            return
        # Discord counts a channel's edits per 5 s whoever sends them, and the home process cannot know
        # what this one spent: it takes over once the windows this process used have passed
        await asyncio.sleep(HAND_BACK_QUIET)
        sent = await self._hand_to(home, given) if home is not None else set()
        await self._quietly(self.leases.let_go(set(given) - sent))
        self.leaving -= set(given)
        log.info("handed %d tables back to their guild's process", len(given))

    async def take_over(self, tables: list[int]) -> int:
        """Claim the tables whose owner stopped renewing (or handed them here), replay them from their
        stored moves and play on: the deadlines re-armed, the channel told, each person's hand sent
        afresh, old buttons working.

        One takeover runs at a time and claims its tables in one statement, then reads only those from
        the store: a hundred clicks on a dead process's tables make one takeover, not a hundred reads of
        every table. Each table plays on as soon as it is rebuilt, and the loop answers clicks between
        two rebuilds (a replay is CPU work on the event loop)."""
        async with self._taking:
            fresh = [t for t in dict.fromkeys(tables) if t not in self.owned and t not in self.cog.by_id]
            claimed = await self.leases.claim_many(fresh) if fresh else set()
            if not claimed:
                return 0
            started, claimed_at = time.monotonic(), time.time()
            self.restoring |= claimed  # a click meanwhile waits for its table (_settled)
            taken = 0
            try:
                for saved in await self.cog.store.unfinished_tables(only=claimed):
                    table_id = saved.table.id
                    if table_id in self.cog.by_id:
                        continue
                    self.owned.add(table_id)
                    if run_here(self.cog, saved) is not None:
                        taken += 1
                        if self.on_taken is not None:
                            self.on_taken(table_id, claimed_at, time.time())
                    else:
                        self.release(table_id)
                    self.restoring.discard(table_id)
                    await asyncio.sleep(0)
            finally:
                self.restoring -= claimed
            for table_id in claimed - self.owned:  # finished meanwhile, or not readable: nobody's
                await self._quietly(self.leases.release(table_id))
        log.warning("took over %d tables in %.2f s: %s", taken, time.monotonic() - started, sorted(claimed))
        return taken

    # ------------------------------------------------------------------ clicks

    def install(self, bot: discord.Client) -> None:
        """Route every INTERACTION_CREATE through :meth:`_interaction_create` before discord.py parses it."""
        parsers = bot._connection.parsers  # noqa: SLF001 - the gateway reads this very dict
        self._parse = parsers["INTERACTION_CREATE"]
        parsers["INTERACTION_CREATE"] = self._interaction_create

    def _interaction_create(self, data: dict) -> None:
        table = table_of(data)
        assert self._parse is not None
        if table is None or (table in self.owned and table not in self.restoring):
            self._parse(data)
            return
        self.cog.background(self._route(data, table, time.time(), 0))

    async def _route(self, data: dict, table: int, received_at: float, hops: int) -> None:
        """A click on a table not run here: to its owner's mailbox; here when nobody runs it (the cog then
        answers "this table is over") or after taking over a table whose owner died; a polite "press
        again" while the table moves between processes."""
        try:
            lease = await self.leases.owner_of(table)
            if lease is None:
                pass  # nobody runs it: finished, closed, or unknown
            elif lease.owner == self.name:
                if table in self.leaving:  # being handed back to its guild's process
                    await self._moving(data, received_at)
                    return
            elif lease.expired and lease.listening:  # let go by a live process, about to be taken
                await self._moving(data, received_at)
                return
            elif lease.expired:  # its owner died: the takeover looks now rather than at the next scan
                self._look.set()
                if not await self._settled(table, received_at, taken=True):
                    await self._moving(data, received_at)
                    return
            elif not lease.listening:  # its owner died a moment ago; the lease runs out within its ttl
                await self._moving(data, received_at)
                return
            elif hops < MAX_HOPS and self.mailbox is not None:
                await self.mailbox.send(lease.owner, {"interaction": data, "at": received_at, "hops": hops + 1})
                return
        except (StoreError, ValueError) as error:
            log.warning("table %s: a click could not be forwarded (%s)", table, error)
            await self._moving(data, received_at)  # nothing was done: the person presses again
            return
        if not await self._settled(table, received_at):
            await self._moving(data, received_at)
            return
        self._deliver(data, received_at)

    async def _settled(self, table: int, received_at: float, *, taken: bool = False) -> bool:
        """A table being taken over here is rebuilt in moments: its click waits for it (for at most
        ``CLICK_WAITS`` of its 3 s, counted from its receipt); False if it is still not ready (or, with
        ``taken``, not yet this process's) by then."""
        while table in self.restoring or (taken and table not in self.cog.by_id):
            if time.time() - received_at > CLICK_WAITS:
                return False
            await asyncio.sleep(0.05)
        return True

    def _received(self, message: dict) -> None:
        """A click another process forwarded: answered here if the table is run here, else passed on."""
        if isinstance(message.get("hand_back"), list):
            home = message.get("to")
            self.cog.background(self._hand_back([int(t) for t in message["hand_back"]], str(home) if home else None))
            return
        if isinstance(message.get("yours"), list):  # handed here: rebuilt at once (unless stopping too)
            if not self.stopping:
                self.cog.background(self._quietly(self.take_over([int(t) for t in message["yours"]])))
            return
        data, received_at, hops = message.get("interaction"), float(message.get("at", 0.0)), int(message.get("hops", 1))
        if not isinstance(data, dict):
            log.error("cluster: a forwarded message without an interaction was dropped")
            return
        table = table_of(data)
        if table is not None and (table not in self.owned or table in self.restoring) and hops < MAX_HOPS:
            self.cog.background(self._route(data, table, received_at, hops))
            return
        if self.on_forwarded is not None:
            self.on_forwarded(max(0.0, time.time() - received_at))
        self._deliver(data, received_at)

    def _deliver(self, data: dict, received_at: float) -> None:
        """What discord.py's parser does with a component interaction, its 3 s counted from ``received_at``."""
        table = table_of(data)
        if table is not None and table not in self.cog.by_id:
            log.info("a click for table %s, not run here (%s)", table, "owned" if table in self.owned else "not owned")
        state = self.cog.bot._connection  # noqa: SLF001

        def dispatch() -> None:
            interaction = discord.Interaction(data=data, state=state)  # type: ignore[arg-type]
            interaction.extras[RECEIVED] = time.monotonic() - max(0.0, time.time() - received_at)
            inner = data.get("data") or {}
            if data.get("type") == 3:
                state._view_store.dispatch_view(inner["component_type"], inner["custom_id"], interaction)  # noqa: SLF001
            state.dispatch("interaction", interaction)

        gate = getattr(self.cog.bot, "gate", None)  # bot.py's (cogs/shutdown.py): none taken once shutting down
        if gate is None:
            dispatch()
        else:
            gate.run(data, dispatch)

    async def _moving(self, data: dict, received_at: float) -> None:
        """The table's process is gone and its lease not yet run out: a polite word instead of silence (the
        person presses again; the move they pressed was not made)."""
        interaction = discord.Interaction(data=data, state=self.cog.bot._connection)  # type: ignore[arg-type]  # noqa: SLF001
        try:
            await interaction.response.send_message(t(interaction.locale, "err.table_moving"), ephemeral=True)
        except discord.HTTPException as error:
            log.info("could not answer interaction %s: %s", interaction.id, error)

    async def _quietly(self, work: Any) -> None:
        try:
            await work
        except StoreError as error:
            log.info("cluster: %s", error)


def run_here(cog: Mahjong, saved: SavedTable) -> TableRunner | None:
    """Rebuild a stored table and play it on; one that cannot be rebuilt is closed, its reason kept."""
    try:
        if saved.problem is not None:
            raise ValueError(saved.problem)
        runner = TableRunner.restore(cog, saved)
    except Exception as error:  # a bug, a newer version's rows, a corrupt row: never a stuck table
        log.warning("table %s could not be restored", saved.table.id, exc_info=True)
        locale = str(saved.table.options.get("locale", "en"))
        cog.background(cog._restore_failed(saved.table.id, saved.table.channel_id, error, locale))  # noqa: SLF001
        return None
    cog._register(runner)  # noqa: SLF001
    cog.background(cog._resume(runner))  # noqa: SLF001
    return runner


async def open_cluster(cog: Mahjong) -> SoleProcess:
    """PgCluster on a PostgreSQL store (several processes may share it), SoleProcess on SQLite."""
    config = getattr(cog.bot, "config", None)
    url = str(getattr(config, "database", ""))
    if not isinstance(cog.store.driver, PgDriver) or not url.startswith(("postgresql://", "postgres://")):
        return SoleProcess(cog)
    name = getattr(config, "process_name", None) or "mahjong"
    ttl = float(getattr(config, "lease_seconds", TTL))
    shards, count = getattr(config, "shards", None), getattr(config, "shard_count", None)
    return await PgCluster.open(cog, url, name, ttl=ttl, shards=shards, count=count)
