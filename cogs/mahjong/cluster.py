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

Entry points the tables call (a few marked lines in ``tables.py``, one in ``runner.py``):

* ``await cluster.adopt(saved)`` — claim a stored table and run it here (start-up, takeover);
* ``await cluster.claim(table_id)`` — a table this process just created is its own;
* ``cluster.release(table_id)`` — a table that finished or closed;
* ``cluster.mine(table_id)`` — is this table run here?
* ``await cluster.stop()`` — shutting down: this process's tables go to a live process at once;
* ``cluster.hands_first`` — a table rebuilt here shows its people their hands, then plays on (runner.py).

The cluster reaches the tables only through the ``TableRegistry`` (registry.py): it looks them up, has a
stored table rebuilt here (``registry.open_stored``), and stops one another process runs now
(``registry.drop``, ``registry.hand_back``). Of the tables cog it uses only the process's services (the
store, the request budget, background tasks).

DM play has no single point of failure when another process runs a standby session of shard 0
(``--shard0-standby``): Discord sends each DM click to every session of shard 0 (devserver/gateway.py
quotes its docs), so both processes hear it, and the one that stores the interaction's id first
(:mod:`data.claims`) answers it — the table's owner first: the others give it ``HEARD_HANDICAP`` to
claim it while another process is seen claiming shard 0's clicks (a loaded owner's event loop lags by more
than a few milliseconds, and a click a non-owner claims is lost if that process dies before forwarding
it), and only ``HANDICAP`` when none is (no standby: the owner cannot hear it). So a click is forwarded
only when its owner did not hear it. When shard 0's process dies, the standby
session goes on hearing every DM click; its tables are taken over as any dead process's are.

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

from data import StoreError
from data.claims import Claims
from data.leases import TTL, Leases
from data.mailbox import Mailbox
from data.postgres import PgDriver
from table import ids

from ..i18n import t
from .answers import RECEIVED
from .ownership import LeasedTables, SoleProcess

if TYPE_CHECKING:
    from .registry import TableRegistry
    from .services import Services

log = logging.getLogger(__name__)

CLICK_WAITS = 1.5  # seconds of its 3 a click for a table being taken over here waits for it
MAX_HOPS = 3  # a click forwarded this often (owners changing under it) is answered where it is
HANDICAP = 0.03  # seconds a process that does not run a click's table waits before claiming it (data.claims)
HEARD_HANDICAP = 0.5  # the same while another process is seen to claim shard 0's clicks: it hears them too
PURGE_EVERY = 60.0  # seconds between forgetting the claims of interactions whose token is dead


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


__all__ = ["PgCluster", "SoleProcess", "open_cluster", "table_of"]


class PgCluster(LeasedTables):
    """This process's part of a bot split over several processes sharing one PostgreSQL database: the
    leases (ownership.py), and the clicks that reach a table wherever Discord delivers them."""

    def __init__(
        self,
        registry: TableRegistry,
        cog: Services,
        leases: Leases,
        name: str,
        shards: tuple[int, ...] | None = None,
        count: int | None = None,
    ) -> None:
        super().__init__(registry, cog, leases, name, shards, count)
        self._parse: Callable[[Any], None] | None = None
        self.claims: Claims | None = None  # sharded: shard 0's sessions may be several (a standby)
        self._purged = time.monotonic()
        self.hearers: set[str] | None = None  # the others that claimed shard 0's clicks lately (None: not known yet)
        self.on_forwarded: Callable[[float], None] | None = None  # seconds a forwarded click took (bench)

    @classmethod
    async def open(
        cls, registry: TableRegistry, cog: Services, url: str, name: str, *, ttl: float = TTL,
        shards: tuple[int, ...] | None = None, count: int | None = None,
    ) -> PgCluster:
        driver = cog.store.driver
        assert isinstance(driver, PgDriver)
        await driver.fence(name)  # a hand's write from here is refused once another process holds its lease
        cluster = cls(registry, cog, Leases(driver.pool, name, path=driver.path, ttl=ttl), name, shards, count)
        cluster.mailbox = await Mailbox.open(url, name=name, on_message=cluster._received)
        if count is not None:
            cluster.claims = Claims(driver.pool, name, path=driver.path)
        return cluster

    def start(self, bot: discord.Client) -> None:
        """Route clicks from now on, renew the leases and watch for tables to take over. SIGTERM (what
        supervisors send) is a clean shutdown (bot.serve), which hands the tables over (:meth:`stop`)."""
        self.install(bot)
        self.cog.background(self._share_the_token())  # before the first request of this process's tables
        self._tasks = [
            asyncio.create_task(self._renewing(), name="cluster-renew"),
            asyncio.create_task(self._scanning(), name="cluster-takeover"),
        ]

    async def _listen_again(self) -> None:
        """A mailbox whose connection ended hears no forwarded click: open it afresh (the others see this
        process as gone, and answer "press again", until it listens again)."""
        if self.claims is not None:
            with contextlib.suppress(StoreError):
                self.hearers = await self.claims.hearers()
            if time.monotonic() - self._purged > PURGE_EVERY:
                self._purged = time.monotonic()
                await self._quietly(self.claims.purge())
        if self.mailbox is None or not self.mailbox.closed:
            return
        try:
            self.mailbox = await Mailbox.open(self.mailbox.url, name=self.name, on_message=self._received)
            log.warning("the mailbox listens again")
        except StoreError as error:
            log.warning("the mailbox cannot listen: %s", error)

    # ------------------------------------------------------------------ clicks

    def install(self, bot: discord.Client) -> None:
        """Route every INTERACTION_CREATE through :meth:`_interaction_create` before discord.py parses it."""
        parsers = bot._connection.parsers  # noqa: SLF001 - the gateway reads this very dict
        self._parse = parsers["INTERACTION_CREATE"]
        parsers["INTERACTION_CREATE"] = self._interaction_create

    def _interaction_create(self, data: dict) -> None:
        if self.claims is not None and self._on_shard_0(data):  # other sessions of shard 0 may hear it too
            self.cog.background(self._claimed(data, time.time()))
            return
        self._arrived(data)

    def _on_shard_0(self, data: dict) -> bool:
        """The interaction came on a session of shard 0 (a DM, or a guild of shard 0's)."""
        guild = data.get("guild_id")
        return guild is None or self.shard_count is None or (int(guild) >> 22) % self.shard_count == 0

    async def _claimed(self, data: dict, received_at: float) -> None:
        """Answered here only if this process is the first to claim it; the table's owner claims at once,
        the others after ``HANDICAP`` (and a guild's commands are shard 0's own process's first)."""
        assert self.claims is not None
        table = table_of(data)
        if table is not None and table in self.registry.leased:
            pass  # its owner: at once
        elif table is not None or 0 not in self.shards:  # another's table, or a standby's command
            await asyncio.sleep(HANDICAP if self.hearers == set() else HEARD_HANDICAP)
        try:
            winner = await self.claims.claim(int(data["id"]))
        except (StoreError, KeyError, ValueError) as error:
            winner = self.name if 0 in self.shards else ""  # without the database: shard 0's own process
            log.warning("interaction %s could not be claimed (%s)", data.get("id"), error)
        if winner == self.name:
            self._arrived(data, received_at)
        elif self.hearers is not None:
            self.hearers.add(winner)

    def _arrived(self, data: dict, received_at: float | None = None) -> None:
        """An interaction this process answers: parsed here, or routed to its table's owner."""
        table = table_of(data)
        assert self._parse is not None
        if table is None or (table in self.registry.leased and table not in self.registry.restoring):
            self._parse(data)
            return
        self.cog.background(self._route(data, table, received_at or time.time(), 0))

    async def _route(self, data: dict, table: int, received_at: float, hops: int) -> None:
        """A click on a table not run here: to its owner's mailbox; here when nobody runs it (the cog then
        answers "this table is over") or after taking over a table whose owner died; a polite "press
        again" while the table moves between processes."""
        try:
            lease = await self.leases.owner_of(table)
            if lease is None:
                pass  # nobody runs it: finished, closed, or unknown
            elif lease.owner == self.name:
                if table in self.registry.leaving:  # being handed back to its guild's process
                    await self._moving(data, received_at)
                    return
                # handed here (a clean shutdown, or home again): the lease is this process's from the moment
                # the giver wrote it, and the table only from when its "yours" is heard and it is rebuilt —
                # a click between the two waits for it, rather than finding no table here
                if not await self._settled(table, received_at, taken=True):
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
        while table in self.registry.restoring or (taken and table not in self.registry):
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
        if table is not None and (table not in self.registry.leased or table in self.registry.restoring) and hops < MAX_HOPS:
            self.cog.background(self._route(data, table, received_at, hops))
            return
        if self.on_forwarded is not None:
            self.on_forwarded(max(0.0, time.time() - received_at))
        self._deliver(data, received_at)

    def _deliver(self, data: dict, received_at: float) -> None:
        """What discord.py's parser does with a component interaction, its 3 s counted from ``received_at``."""
        table = table_of(data)
        if table is not None and table not in self.registry:
            log.info("a click for table %s, not run here (%s)", table, "owned" if table in self.registry.leased else "not owned")
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

async def open_cluster(registry: TableRegistry, cog: Services) -> SoleProcess:
    """PgCluster on a PostgreSQL store (several processes may share it), SoleProcess on SQLite."""
    config = getattr(cog.bot, "config", None)
    url = str(getattr(config, "database", ""))
    if not isinstance(cog.store.driver, PgDriver) or not url.startswith(("postgresql://", "postgres://")):
        return SoleProcess(registry, cog)
    name = getattr(config, "process_name", None) or "mahjong"
    ttl = float(getattr(config, "lease_seconds", TTL))
    shards, count = getattr(config, "shards", None), getattr(config, "shard_count", None)
    return await PgCluster.open(registry, cog, url, name, ttl=ttl, shards=shards, count=count)
