"""The score sheet says what a cap changed: 滿台 shows the hand's own total beside what was paid,
and the 24-台 bankroll rule leaves a note, so the point changes can be checked against the items."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.view import ScoreItem
from render import scoresheet
from render.demo import synthetic

NAMES = ("阿明", "Bob", "まーじゃん", "마작")


@pytest.fixture(scope="module")
def result():
    big = (ScoreItem("大四喜", 16), ScoreItem("字一色", 16))
    return replace(synthetic(11).result, items=big, total=32)


def test_without_a_cap_the_total_is_written_once(result):
    texts = scoresheet.compose_score(result, NAMES).texts
    assert "32 台" in texts
    assert not any("滿台" in t or "→" in t for t in texts)
    assert scoresheet.LIMIT_NOTE not in texts


def test_a_manTai_cap_shows_the_hands_total_then_what_was_paid(result):
    capped = replace(result, capped_total=16)
    texts = scoresheet.compose_score(capped, NAMES).texts
    assert "滿台 16 台" in texts and "32 台 →" in texts
    assert "32 台" not in texts  # the uncapped total is not shown as if it were paid


def test_a_cap_that_changed_nothing_is_not_announced(result):
    texts = scoresheet.compose_score(replace(result, capped_total=32), NAMES).texts
    assert "32 台" in texts and not any("滿台" in t for t in texts)


def test_the_24_tai_rule_leaves_a_note(result):
    plain = scoresheet.compose_score(result, NAMES)
    limited = scoresheet.compose_score(replace(result, limited=True), NAMES)
    assert scoresheet.LIMIT_NOTE in limited.texts
    assert limited.im.height > plain.im.height  # the note has a line of its own, nothing overlaps


def test_cap_and_limit_together_on_a_fan_sheet_use_the_sheets_unit(result):
    both = replace(result, unit="fan", capped_total=13, limited=True)
    texts = scoresheet.compose_score(both, NAMES).texts
    assert "滿台 13 番" in texts and "32 番 →" in texts and scoresheet.LIMIT_NOTE in texts


def test_a_long_hand_uses_smaller_tiles_from_the_fixed_steps(result):
    long = replace(result, flowers=(34, 35, 36, 37, 38, 39, 40, 41))
    cv = scoresheet.compose_score(long, NAMES)
    scales = {p.scale for p in cv.placed}
    assert len(scales) == 1 and scales < set(scoresheet.TILE_SCALES[1:])
    right = max(p.x + round(30 * p.scale) for p in cv.placed)
    assert right <= cv.im.width - 24
