"""A refused win names its reason with a stable code, so messages can be translated (issue 6)."""

from engine.rules import TableOptions
from engine.scoring import REASON_CODES

from ._util import score


def test_a_valid_win_has_no_code():
    assert score("123456789m456p3455s", "2s").code == ""


def test_a_hand_that_does_not_win_is_coded_not_winning():
    result = score("123456789m456p3455s", "9s")
    assert not result.valid and result.code == "not_winning"


def test_a_discard_win_at_a_self_draw_only_table_is_coded_refused():
    result = score("123456789m456p3455s", "2s", options=TableOptions(self_draw_only=True))
    assert not result.valid and result.code == "refused"


def test_a_win_under_the_three_tai_minimum_is_coded_below_minimum():
    result = score("123456789m456p3455s", "2s", options=TableOptions(min_tai=4))
    assert not result.valid and result.code == "below_minimum"


def test_a_flower_win_without_the_flowers_is_coded():
    result = score("", None, flowers="f1f2f3", flower_win="八仙過海", self_drawn=True)
    assert not result.valid and result.code == "flower_win_invalid"
    assert set(REASON_CODES) == {"not_winning", "refused", "below_minimum", "flower_win_invalid"}
