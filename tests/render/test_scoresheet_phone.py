"""The score sheet read on a phone (issue 23): at a 390-px display every word on it is at least 10 px
and the items, names and totals 12 px, and a name is written whole when a smaller size can hold it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.view import ScoreItem
from render import phone, scoresheet
from render.demo import synthetic

LOCALES = (None, "en", "zh-CN")


def _sheet(seed: int, locale: object, names=None):
    state = synthetic(seed)
    return scoresheet.compose_score(state.result, names or state.names, state.public, locale=locale)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_word_on_the_score_sheet_is_readable_at_phone_width(locale):
    cv = _sheet(11, locale)
    width = cv.im.size[0]
    sizes = {w.text: phone.on_screen(w.size, width) for w in cv.written}
    assert min(sizes.values()) >= 10.0, sorted(sizes.items(), key=lambda kv: kv[1])[:3]
    items = [i.name for i in synthetic(11).result.items]
    assert all(sizes[name] >= 12.0 for name in items if name in sizes)


def test_a_long_name_with_its_tag_is_written_whole_in_a_smaller_size():
    state = synthetic(11)
    names = list(state.names)
    names[state.result.winner] = "小明 Ming 🀄"
    cv = scoresheet.compose_score(state.result, names, state.public, locale="en")
    assert any(w.text.endswith("小明 Ming 🀄") for w in cv.written)
    long = replace(state.result, items=(*state.result.items, ScoreItem("門清", 1)))
    assert scoresheet.compose_score(long, names, state.public).im.size[0] == scoresheet.WIDTH
