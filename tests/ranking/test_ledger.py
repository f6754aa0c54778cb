"""The settlement ledger: the fewest integer transfers that settle a match's standings, zero-sum."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ranking.ledger import Transfer, minimum_transfers, settle


def after(balances: list[int], transfers: list[Transfer]) -> list[int]:
    """Balances once every transfer is paid (the table, None, absorbs what leaves or enters it)."""
    left = list(balances)
    for t in transfers:
        if t.payer is not None:
            left[t.payer] += t.amount
        if t.payee is not None:
            left[t.payee] -= t.amount
    return left


def partitions(items: list[int]):
    """Every set partition of ``items`` (Bell(4) = 15 for four players)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for smaller in partitions(rest):
        for i in range(len(smaller)):
            yield [*smaller[:i], [first, *smaller[i]], *smaller[i + 1 :]]
        yield [[first], *smaller]


def fewest_by_brute_force(balances: list[int]) -> int:
    """n - (most blocks of a partition of the non-zero players into zero-sum blocks), found by trying
    every partition: independent of the subset search the ledger uses."""
    players = [s for s, b in enumerate(balances) if b]
    best = max(
        sum(1 for block in p if sum(balances[s] for s in block) == 0)
        for p in partitions(players)
        if all(sum(balances[s] for s in block) == 0 for block in p)
    ) if players else 0
    return len(players) - best


def zero_sum(draw, n: int = 4) -> list[int]:
    values = [draw(st.integers(-50_000, 50_000)) for _ in range(n - 1)]
    return [*values, -sum(values)]


standings = st.composite(zero_sum)()
# standings where pairs cancel often, so the split into groups matters
paired = st.lists(st.sampled_from([-300, -100, 100, 300, 0]), min_size=3, max_size=3).map(lambda v: [*v, -sum(v)])


@settings(max_examples=400)
@given(st.one_of(standings, paired))
def test_the_ledger_settles_every_zero_sum_standing_with_the_fewest_transfers(balances: list[int]) -> None:
    transfers = settle(balances)
    assert after(balances, transfers) == [0, 0, 0, 0]
    assert all(type(t.amount) is int and t.amount > 0 for t in transfers)
    assert all(t.payer is not None and t.payee is not None and t.payer != t.payee for t in transfers)
    assert len(transfers) == minimum_transfers(balances) == fewest_by_brute_force(balances)
    assert len(transfers) <= max(0, sum(1 for b in balances if b) - 1)


@given(st.lists(st.integers(-10_000, 10_000), min_size=4, max_size=4))
def test_points_that_leave_the_table_are_paid_to_the_table(balances: list[int]) -> None:
    transfers = settle(balances)
    assert after(balances, transfers) == [0, 0, 0, 0]
    to_table = [t for t in transfers if t.payee is None or t.payer is None]
    assert len(to_table) == (1 if sum(balances) else 0)
    if sum(balances):
        assert to_table[0].amount == abs(sum(balances))


def test_two_pairs_settle_in_two_transfers_not_three() -> None:
    assert [str(t) for t in settle([1200, 300, -1200, -300])] == ["2 pays 0 1200", "3 pays 1 300"]


def test_one_winner_is_paid_by_each_loser() -> None:
    assert [(t.payer, t.payee, t.amount) for t in settle([900, -300, -300, -300])] == [
        (1, 0, 300),
        (2, 0, 300),
        (3, 0, 300),
    ]


def test_an_even_table_pays_nothing() -> None:
    assert settle([0, 0, 0, 0]) == [] and minimum_transfers([0, 0, 0, 0]) == 0


def test_taiwan13_leaver_pays_the_table_the_50_points_that_leave_it() -> None:
    assert settle([0, 0, -50, 0]) == [Transfer(2, None, 50)]


def test_the_brute_force_knows_the_partitions_of_four() -> None:
    assert sum(1 for _ in partitions([0, 1, 2, 3])) == 15
    assert fewest_by_brute_force([100, -100, 50, -50]) == 2 and fewest_by_brute_force([30, -10, -10, -10]) == 3
