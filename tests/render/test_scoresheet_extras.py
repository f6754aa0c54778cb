"""Lines settled beside the hand (guangdong's kongs and 买马) are on the score sheet after the total,
each with the seat it is about and the points it moved; the total stays the hand's own."""

from __future__ import annotations

from dataclasses import replace

from engine.view import ScoreItem
from render import scoresheet
from render.demo import synthetic

NAMES = ("阿明", "Bob", "まーじゃん", "마작")


def test_kong_and_horse_lines_follow_the_total_with_their_seat_and_points():
    base = synthetic(11).result
    extras = (ScoreItem("暗杠 ×1", 6, 1), ScoreItem("庄家买马 五萬", -2, 2), ScoreItem("庄家买马 東", 0, 3))
    result = replace(base, items=(ScoreItem("七小对", 6),), total=6, unit="multiplier", extras=extras)
    texts = scoresheet.compose_score(result, NAMES).texts
    assert "6 倍" in texts  # the item and the total, in the sheet's unit
    # the sheet's default words are Traditional, the documents' words too (render/script.py)
    assert "暗槓 ×1 · Bob" in texts and "+6 分" in texts
    assert "莊家買馬 五萬 · まーじゃん" in texts and "-2 分" in texts
    assert "莊家買馬 東 · 마작" in texts and "0 分" in texts
    plain = scoresheet.compose_score(replace(result, extras=()), NAMES)
    assert plain.im.height < scoresheet.compose_score(result, NAMES).im.height
