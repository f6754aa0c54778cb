"""The bot token's global request limit shared among live processes by the tables they run
(cogs/mahjong/tokenshare.py): the shares of one snapshot sum to one, an idle process keeps enough to open
a table, and a rise waits one renewal unless a process left."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from cogs.mahjong.tokenshare import BASE, TokenShare, token_share


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


def test_tables_moving_here_raise_the_share_one_renewal_late_but_a_loss_lowers_it_at_once() -> None:
    share = TokenShare()
    idle = share.update("a", {"a": 0, "b": 100})
    assert idle < 0.1
    assert share.update("a", {"a": 100, "b": 0}) == idle  # b may not have read the move yet
    raised = share.update("a", {"a": 100, "b": 0})
    assert raised > 0.9
    assert share.update("a", {"a": 0, "b": 100}) == idle  # handed home: lowered the same renewal


def test_a_process_that_left_frees_its_share_at_once() -> None:
    share = TokenShare()
    assert share.update("a", {"a": 50, "b": 50}) == 0.5
    assert share.update("a", {"a": 50}) == 1.0  # b died: nobody sends at its share any more
    assert share.update("a", {"a": 50, "c": 0}) < 1.0  # a new process: lowered at once
