"""The bot token's global request limit shared among live processes by the tables they run
(cogs/mahjong/tokenshare.py): the shares of one snapshot sum to one, and an idle process keeps enough to
open a table."""

from __future__ import annotations

import asyncio
import math

from hypothesis import given
from hypothesis import strategies as st

from cogs.mahjong.live import PICTURE, POST, PROMPT, EditBudget
from cogs.mahjong.tokenshare import BASE, token_share


def test_a_process_that_runs_every_table_has_nearly_all_the_token_and_an_idle_one_enough_to_start() -> None:
    loads = {"shard0": 0, "owner": 100}
    assert token_share("owner", loads) > 0.95
    assert token_share("shard0", loads) == round(BASE / (100 + 2 * BASE), 3)
    assert token_share("alone", {}) == 1.0  # the first look, before its mailbox listens


def test_evenly_loaded_processes_share_evenly() -> None:
    assert token_share("a", {"a": 40, "b": 40}) == token_share("b", {"a": 40, "b": 40}) == 0.5


@given(st.dictionaries(st.sampled_from("abcdef"), st.integers(0, 500), min_size=1))
def test_the_shares_of_one_snapshot_make_the_whole_token_to_its_rounding(loads: dict[str, int]) -> None:
    total = sum(token_share(name, loads) for name in loads)
    assert math.isclose(total, 1.0, abs_tol=0.003 * len(loads))


async def test_a_scaled_budget_scales_its_burst_and_reserve_so_the_processes_together_burst_as_one() -> None:
    """Two processes' bursts at the reserve's floor (5 tokens each beside 10 for one) let 429s past
    Discord's 50 a second after a hand-back; scaled, they add up to one process's, and prompts still go
    before pictures in each."""
    loads = {"idle": 0, "busy": 100}
    budgets = {name: EditBudget(per_second=35, capacity=10, reserve=4) for name in loads}
    for name, budget in budgets.items():
        budget.scale(token_share(name, loads))
    assert math.isclose(sum(b.rate for b in budgets.values()), 35, rel_tol=0.01)
    assert sum(b.capacity for b in budgets.values()) <= 10 + 1  # the idle one keeps one token to open a table
    idle, busy = budgets["idle"], budgets["busy"]
    for rank in (PROMPT, POST, PICTURE):
        await asyncio.wait_for(idle.ready(rank), 1)  # its one token serves any request
    busy.tokens = busy.reserve  # the reserve left: a prompt goes, a picture waits
    await asyncio.wait_for(busy.ready(PROMPT), 1)
    assert busy.tokens < busy.floor(PICTURE) + 1
    busy.scale(1.0)  # the other process died: the whole budget again
    assert (busy.rate, busy.capacity, busy.reserve) == (35, 10, 4)
