"""Properties of guangdong settlement over random tables: zero-sum whatever the kongs, the horses and
the way the hand was won; each horse line is exactly what it moved for the dealer; a robbed player
alone pays the robbing win."""

from hypothesis import given
from hypothesis import strategies as st

from engine.meld import parse_melds
from engine.scoring import score_win
from engine.scoring.guangdong import settle
from engine.settlement import SettleContext
from tests.scoring._util import ctx

KONGS = ["ankong:1111m", "kong:2222m", "addkong:3333m", "ankong:4444z"]
ORDINARY_SELF = score_win(ctx("123m456p789s1155z", "5z", self_drawn=True), "guangdong")
ORDINARY_ROB = score_win(ctx("123m456p789s1155z", "5z", robbing_kong=True), "guangdong")
ARHATS = score_win(ctx("5z", "5z", ["kong:1111m", "kong:2222p", "addkong:3333s", "kong:4444z"]), "guangdong")

seat = st.integers(0, 3)
table = st.lists(st.lists(st.sampled_from(KONGS), max_size=2, unique=True), min_size=4, max_size=4)
horses = st.lists(st.integers(0, 33), min_size=0, max_size=4)


@given(seat, seat, seat, st.sampled_from(["self", "rob", "discard"]), table, horses)
def test_settlement_is_zero_sum_and_horse_lines_add_up(winner, dealer, other, how, kongs, horse_tiles):
    discarder = None if how == "self" or other == winner else other
    if how != "self" and discarder is None:
        discarder = (winner + 1) % 4
    result = {"self": ORDINARY_SELF, "rob": ORDINARY_ROB, "discard": ARHATS}[how]
    melds = tuple(tuple(parse_melds(m)) for m in kongs)
    context = SettleContext(
        winner=winner,
        dealer=dealer,
        discarder=None if how == "self" else discarder,
        robbing_kong=how == "rob",
        melds=melds,
        horses=tuple(horse_tiles),
    )
    s = settle(result, context)
    assert sum(s.deltas) == 0
    horse_lines = [i for i in s.extras if i.name.startswith("庄家买马")]
    assert len(horse_lines) == len(horse_tiles)
    moved = [0, 0, 0, 0]
    for p in s.payments:
        if p.reason == "买马":
            moved[p.payer] -= p.amount
            moved[p.payee] += p.amount
    assert moved[dealer] == sum(i.value for i in horse_lines)
    if how == "rob":
        win = [p for p in s.payments if p.reason == "抢杠"]
        assert [(p.payer, p.payee, p.amount) for p in win] == [(discarder, winner, 6)]
