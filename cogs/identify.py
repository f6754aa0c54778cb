"""Session starts within Discord's limits (issue 41; API docs, Gateway → Identifying, Sharding → Max Concurrency).

discord.py calls ``before_identify_hook`` before each IDENTIFY; by default it sleeps 5 s before every one
but a process's first. That paces one process's own shards, not several processes started at once, which
Discord counts together: it starts ``max_concurrency`` sessions per 5 s for the application, one per bucket
``shard_id % max_concurrency``, and refuses the rest with op 9 (each refusal one of the day's 1,000
IDENTIFYs spent, and a retry that may collide again). :class:`Identifies` is the hook instead:

- it reads ``max_concurrency`` and what is left of the day's session starts from ``GET /gateway/bot``
  once, when the bot runs shards (an unsharded connection is shard 0, bucket 0, and asks nothing);
- it waits for the bucket's turn (data/identify.py): a PostgreSQL advisory lock held 5.5 s from each
  IDENTIFY, shared by every process on the database, or a lock of its own without a shared database;
  a retry after op 9 takes a turn like any other, so it waits the window out;
- it says in the log when the day's IDENTIFYs run low, and when the shard count given is below the one
  Discord recommends.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from data.identify import HOLD, IdentifyTurns
from data.postgres import PgDriver

if TYPE_CHECKING:
    from bot import MahjongBot

log = logging.getLogger(__name__)

LOW_STARTS = 0.1  # warn when less than this share of the day's IDENTIFYs is left


class Identifies:
    def __init__(self, bot: MahjongBot, hold: float = HOLD) -> None:
        self.bot = bot
        self.hold = hold
        self.turns: IdentifyTurns | None = None  # opened at the first IDENTIFY (the store is open by then)
        self.max_concurrency: int | None = None  # None: not asked yet

    async def before(self, shard_id: int | None, *, initial: bool) -> None:
        """Return when this shard may IDENTIFY (see the module's docstring)."""
        if self.turns is None:
            driver = getattr(getattr(self.bot, "store", None), "driver", None)
            pool = driver.pool if isinstance(driver, PgDriver) else None
            self.turns = IdentifyTurns(pool, hold=self.hold)
        concurrency = await self._concurrency() if isinstance(self.bot, discord.AutoShardedClient) else 1
        bucket = (shard_id or 0) % concurrency
        waited = await self.turns.take(bucket)
        if waited >= 1.0:
            log.info("shard %s identifies after %.1f s waiting its turn (bucket %d)", shard_id, waited, bucket)

    async def _concurrency(self) -> int:
        if self.max_concurrency is not None:
            return self.max_concurrency
        try:
            shards, _, limits = await self.bot.http.get_bot_gateway()
        except (discord.HTTPException, discord.GatewayNotFound) as error:
            log.info("GET /gateway/bot failed (%s): identifying one shard at a time", error)
            self.max_concurrency = 1
            return 1
        self.max_concurrency = max(1, int(limits.get("max_concurrency", 1)))
        self._report(shards, dict(limits))
        return self.max_concurrency

    def _report(self, recommended: int, limits: dict[str, Any]) -> None:
        total, remaining = int(limits.get("total", 0)), int(limits.get("remaining", 0))
        if total and remaining < total * LOW_STARTS:
            log.warning(
                "only %d of the day's %d session starts are left (they reset in %.0f min); past them Discord "
                "resets the bot's token: look for a process that restarts in a loop",
                remaining, total, int(limits.get("reset_after", 0)) / 60000,
            )  # fmt: skip
        given = self.bot.config.shard_count
        if given is not None and given < recommended:
            log.warning(
                "Discord recommends %d shards and this bot runs %d: past 2,500 servers a shard is refused (close "
                "code 4011); give every process --shard-count %d", recommended, given, recommended,
            )  # fmt: skip

    async def close(self) -> None:
        if self.turns is not None:
            await self.turns.close()
