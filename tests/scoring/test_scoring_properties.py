"""Properties of the scoring loop over random winning hands: exclusions hold, totals add up, the
cap and minimum bookkeeping is consistent, and the table is well-formed."""

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.house_rules import KNOWN_PRESETS, HouseRules
from engine.scoring import TableOptions, WinContext, get_rules, score_win
from engine.scoring.core import DEALER, NO_CAP, NO_MIN

from ._util import sets_and_a_pair

RULES = get_rules("taiwan16")
BY_NAME = {i.name: i for i in RULES.items}


@st.composite
def winning_hands(draw):
    concealed, melds = draw(sets_and_a_pair(5))
    win = draw(st.sampled_from(sorted(set(concealed))))
    concealed.remove(win)
    flowers = draw(st.lists(st.integers(34, 41), unique=True, max_size=6))
    dealer = draw(st.booleans())
    self_drawn = draw(st.booleans())
    return WinContext(
        concealed=tuple(concealed),
        melds=tuple(melds),
        flowers=tuple(flowers),
        win_tile=win,
        self_drawn=self_drawn,
        seat_wind=0 if dealer else draw(st.integers(1, 3)),
        round_wind=draw(st.integers(0, 3)),
        dealer=dealer,
        dealer_streak=draw(st.integers(0, 10)) if dealer else 0,
        eye_declared=draw(st.booleans()),
        last_tile=draw(st.booleans()),
        options=TableOptions(see_wind_see_flower=True) if draw(st.booleans()) else TableOptions(),
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(winning_hands())
def test_every_constructed_winning_hand_scores_valid_and_consistent(ctx):
    result = score_win(ctx)
    assert result.valid, result.reason
    names = [i.name for i in result.items]
    assert len(names) == len(set(names))
    assert result.total == sum(i.value for i in result.items)
    assert all(i.value > 0 for i in result.items)
    # no counted item excludes another counted item
    for n in names:
        assert not BY_NAME[n].excludes & set(names), n
    dealer = sum(i.value for i in result.items if DEALER in BY_NAME[i.name].tags)
    assert result.dealer == dealer == ((1 + 2 * min(ctx.dealer_streak, 8)) if ctx.dealer else 0)
    no_min = sum(i.value for i in result.items if NO_MIN in BY_NAME[i.name].tags)
    assert result.countable == result.total - no_min
    assert result.uncapped == sum(
        i.value for i in result.items if NO_CAP in BY_NAME[i.name].tags and DEALER not in BY_NAME[i.name].tags
    )
    assert result.capped_total(16) <= result.total
    assert result.capped_total(16) <= 16 + result.dealer + result.uncapped
    # 見字見花 replaces 風牌/花牌
    if ctx.options.see_wind_see_flower:
        assert not {"風牌", "花牌"} & set(names)
    else:
        assert not {"見風有台", "見花有台"} & set(names)


def test_table_is_well_formed():
    names = {i.name for i in RULES.items}
    for it in RULES.items:
        assert it.excludes <= names and it.name not in it.excludes
        assert it.value > 0 or it.value_from is not None  # 0: an item only a house rule turns on
    order = [i.name for i in RULES.order]
    for it in RULES.items:  # excluders are evaluated before what they exclude
        for x in it.excludes:
            assert order.index(it.name) < order.index(x)


def test_options_can_be_given_as_names():
    from engine.score import parse_options

    ctx = WinContext(concealed=(), win_tile=0, options=parse_options(["見字見花", "三台起胡"]))
    assert ctx.options == TableOptions(see_wind_see_flower=True, min_tai=3, cap_tai=None)


def items_by_the_table(rules, reading, ctx):
    """The table rows read one by one, as each row's own fields say (the definition the evaluation
    loop's per-table rows are made from): which rows play, their conditions, exclusions and worth."""
    house = ctx.options.house_rules
    present = {}
    for it in rules.order:
        if it.option is not None and not getattr(ctx.options, it.option):
            continue
        if it.unless_option is not None and getattr(ctx.options, it.unless_option):
            continue
        if it.value_from is not None and not house[it.value_from]:
            continue
        if not all(c.holds(reading, ctx, house) for c in it.conditions):
            continue
        n = it.count(reading, ctx)
        if n > 0:
            present[it.name] = n
    counted, removed = {}, set()
    for it in rules.order:
        if it.name in present and it.name not in removed:
            counted[it.name] = present[it.name] * it.value_for(house)
            removed |= it.excludes_for(house)
    return [(it.name, counted[it.name]) for it in rules.items if it.name in counted]


PRESETS = sorted(KNOWN_PRESETS)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(winning_hands(), st.sampled_from(PRESETS), st.sampled_from([0, 3]))
def test_a_score_is_the_best_reading_read_row_by_row_whatever_the_house_rules(ctx, preset, min_tai):
    """The evaluation loop reads each table's rows once and keeps them: the same hand scored at
    tables with other house rules and minimums, one after the other, gets each table's items."""
    ctx = replace(
        ctx, options=replace(ctx.options, house_rules=HouseRules.resolve(preset), min_tai=min_tai)
    )
    result = score_win(ctx)
    forms = ctx.options.house_rules.forms()  # special forms the house rules add (嚦咕嚦咕)
    readings = RULES.readings(ctx) + [r for form, read in RULES.form_readings if form in forms for r in read(ctx)]
    by_reading = [items_by_the_table(RULES, r, ctx) for r in readings]

    def rank(items):
        total = sum(v for _, v in items)
        countable = sum(v for n, v in items if NO_MIN not in BY_NAME[n].tags)
        return countable >= min_tai, total, countable

    best = max(by_reading, key=rank)
    assert [(i.name, i.value) for i in result.items] == best
