"""Properties of the taiwan13 table over random 13-tile winning hands (four sets + a pair, and
seven pairs): the best reading is always scored, exclusions hold, a 13-台 hand stands alone, and
a hand is a win exactly when it has at least one 台 that counts."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.scoring import WinContext, get_rules, score_win
from engine.scoring.taiwan13 import LIMIT_TAI

from ._util import sets_and_a_pair

RULES = get_rules("taiwan13")
BY_NAME = {i.name: i for i in RULES.items}


@st.composite
def four_sets_and_a_pair(draw):
    return draw(sets_and_a_pair(4, kongs=False))


@st.composite
def seven_pairs(draw):
    kinds = draw(st.lists(st.integers(0, 33), min_size=7, max_size=7, unique=True))
    return [t for t in kinds for _ in (0, 1)], []


@st.composite
def wins(draw):
    concealed, melds = draw(st.one_of(four_sets_and_a_pair(), seven_pairs()))
    win = draw(st.sampled_from(sorted(set(concealed))))
    concealed.remove(win)
    dealer = draw(st.booleans())
    return WinContext(
        concealed=tuple(concealed),
        melds=tuple(melds),
        win_tile=win,
        self_drawn=draw(st.booleans()),
        seat_wind=0 if dealer else draw(st.integers(1, 3)),
        round_wind=draw(st.integers(0, 3)),
        dealer=dealer,
        dealer_streak=draw(st.integers(0, 5)) if dealer else 0,
    )


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(wins())
def test_every_winning_hand_scores_consistently(ctx):
    result = score_win(ctx, "taiwan13")
    names = {i.name for i in result.items}
    assert result.reading is not None
    assert result.total == sum(i.value for i in result.items)
    assert result.valid == (result.countable >= 1)
    for n in names:
        assert not BY_NAME[n].excludes & names, n
    if any(BY_NAME[n].value == LIMIT_TAI for n in names):
        assert all(BY_NAME[n].value == LIMIT_TAI or n == "庄家" for n in names)
    assert ("庄家" in names) == ctx.dealer and result.dealer == int(ctx.dealer)
