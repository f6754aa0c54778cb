"""Which process answers an interaction several processes heard (data/claims.py): the first claim wins,
every later one learns the winner, the claims of dead tokens are forgotten, and a process sees which others
hear shard 0 too."""

from __future__ import annotations

import asyncio

from data import Store
from data.claims import Claims


async def test_the_first_claim_of_an_interaction_answers_it_and_the_others_learn_who(pg_target: str) -> None:
    store = await Store.open(pg_target)
    try:
        pool = store.driver.pool  # type: ignore[attr-defined]
        zero, standby = Claims(pool, "zero"), Claims(pool, "standby")
        heard = 1323802873334595584
        winners = await asyncio.gather(zero.claim(heard), standby.claim(heard))  # both heard it at once
        assert winners[0] == winners[1] and winners[0] in ("zero", "standby"), "one answers, both know which"
        assert await zero.claim(heard) == winners[0] and await standby.claim(heard) == winners[0]
        assert await zero.owner_of(heard) == winners[0] and await zero.owner_of(heard + 1) is None
        assert await standby.claim(heard + 1) == "standby"
        assert await zero.hearers() == {"standby"}, "standby claimed lately: it hears shard 0"
        assert await standby.hearers() == ({"zero"} if winners[0] == "zero" else set())
        await zero.purge(older_than=3600.0)
        assert await zero.owner_of(heard) == winners[0], "a claim younger than its token is kept"
        await zero.purge(older_than=0.0)
        assert await zero.owner_of(heard) is None and await zero.hearers() == set(), "a dead token's claim goes"
    finally:
        await store.close()
