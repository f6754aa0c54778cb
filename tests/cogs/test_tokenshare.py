"""The bot token's global request limit shared among live processes by the tables they run
(cogs/mahjong/tokenshare.py): the shares of one snapshot sum to one, and an idle process keeps enough to
open a table."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

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
