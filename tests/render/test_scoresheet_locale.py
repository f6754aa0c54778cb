"""The score sheet's own words follow the channel's language (issue 23): zh-CN readers get no
Traditional characters outside the 台/番 item names, English readers English; no locale keeps the
sheet as it was."""

from __future__ import annotations

from engine.scoring.core import ScoreItem
from engine.view import HandResult
from render.scoresheet import compose_score

NAMES = ["A", "B", "C", "D"]
TRADITIONAL = set("莊無槍風計規滿")


def result(**kw):
    base = dict(
        winner=1, loser=2, self_drawn=False, win_tile=4, concealed=(0, 1, 2), melds=(), flowers=(),
        items=(ScoreItem("門清", 1),), total=1, unit="tai", deltas=(0, 400, -400, 0),
    )
    return HandResult(**(base | kw))


def test_a_zh_cn_sheet_writes_its_own_words_in_simplified():
    for r in (result(), result(winner=None, loser=None, deltas=(0, 0, 0, 0), items=(), total=0)):
        texts = compose_score(r, NAMES, house_rules="common", locale="zh-CN").texts
        own = [x for x in texts if x not in {i.name for i in r.items}]
        assert not TRADITIONAL & set("".join(own)), own
    assert "B 胡 C 放枪" in compose_score(result(), NAMES, locale="zh-CN").texts


def test_an_english_sheet_and_the_default_sheet():
    english = compose_score(result(), NAMES, locale="en").texts
    assert "B wins off C" in english and "Total" in english and "門清" in english
    assert "B 胡 C 放槍" in compose_score(result(), NAMES).texts
