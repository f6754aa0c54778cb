"""The match summary picture (issue 23): every name, placement, total and best hand is drawn, in
the table's language, on a width a phone shows readably."""

from __future__ import annotations

from engine.match import HandRecord, Match
from engine.scoring.core import ScoreItem
from engine.summary import match_summary
from engine.view import HandResult
from render.summary import WIDTH, compose_summary

NAMES = ["小明 Ming 🀄", "AI 1", "AI 2", "Alexandria"]


def test_the_summary_draws_each_seat_with_place_total_and_best_hand():
    match = Match("taiwan16", seed=1)
    result = HandResult(1, 2, False, 4, (), (), (), (ScoreItem("門清", 1),), 5, "tai", (0, 800, -800, 0))
    match.history.append(HandRecord(1, 0, 0, 0, result, (), 0))
    match.scores = [0, 800, -800, 0]
    cv = compose_summary(match_summary(match), NAMES, 1, "tai", "en")
    texts = cv.texts
    assert cv.im.size[0] == WIDTH
    assert all(name in texts for name in NAMES)
    assert "+800" in texts and "-800" in texts and "1 hand" in texts
    assert "Best: 5 台, hand 1" in texts and texts.count("No win") == 3
    assert [p.tile for p in cv.placed] == [4]  # the winning tile of the best hand
    zh = compose_summary(match_summary(match), NAMES, 1, "tai", "zh-CN").texts
    assert "牌局结束" in zh and "最大：5 台（第 1 局）" in zh and "没有和牌" in zh
