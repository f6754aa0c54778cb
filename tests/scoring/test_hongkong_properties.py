"""Properties of the hongkong 番 table over random 13-tile winning hands: 雞糊 names exactly the
hands with no other 牌型, a special hand is paid at its one row, 爆和 caps the rest, and points are
2^番 paid."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.scoring import TableOptions, WinContext, evaluate, get_rules, score_win
from engine.scoring.core import standard_readings
from engine.scoring.hongkong import BAO_HE, FIRST_GO, ORDINARY, SPECIALS, fan_paid, points

from ._util import sets_and_a_pair

RULES = get_rules("hongkong")
BY_NAME = {i.name: i for i in RULES.items}
PATTERNS = set(ORDINARY[1:]) | set(SPECIALS) | set(FIRST_GO)  # every 牌型 but 雞糊


@st.composite
def winning_hands(draw):
    concealed, melds = draw(sets_and_a_pair(4))
    win = draw(st.sampled_from(sorted(set(concealed))))
    concealed.remove(win)
    how = draw(st.sampled_from(["discard", "self", "rob", "last", "kong"]))
    return WinContext(
        concealed=tuple(concealed),
        melds=tuple(melds),
        win_tile=win,
        self_drawn=how in ("self", "last", "kong"),
        robbing_kong=how == "rob",
        last_tile=how == "last",
        kong_replacement=how == "kong",
        seat_wind=draw(st.integers(0, 3)),
        round_wind=draw(st.integers(0, 3)),
        bonus_indicators=tuple(draw(st.lists(st.integers(0, 33), max_size=1))),
        options=TableOptions(),
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(winning_hands())
def test_every_winning_hand_is_named_capped_and_paid_consistently(ctx):
    result = score_win(ctx, "hongkong")
    assert result.valid, result.reason
    names = {i.name for i in result.items}
    assert result.total == sum(i.value for i in result.items)
    for n in names:
        assert not BY_NAME[n].excludes & names, n
    # 雞糊 exactly when no other 牌型 applies
    assert ("雞糊" in names) == (not names & PATTERNS)
    specials = names & set(SPECIALS)
    assert len(specials) <= 1
    if specials:
        # beyond 爆和: the special row alone (搶杠 is a 0-番 marker), paid at its value
        assert names - {"搶杠"} == specials
        assert fan_paid(result) == result.total > BAO_HE
    else:
        assert fan_paid(result) == min(result.total, BAO_HE)
    assert points(result) == 2 ** fan_paid(result)
    bonus = sum(i.value for i in result.items if i.name == "寶牌")
    assert result.countable == result.total - bonus


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(winning_hands())
def test_the_scored_reading_pays_at_least_any_other_reading(ctx):
    best = points(score_win(ctx, "hongkong"))
    for reading in standard_readings(ctx):
        scored = evaluate(RULES, reading, ctx)
        total = sum(v for _, v in scored)
        beyond = sum(v for it, v in scored if it.name in SPECIALS or it.name in FIRST_GO)
        assert best >= 2 ** (min(total - beyond, BAO_HE) + beyond)
