"""The pictures' words for tiles (issue 23): zh-TW calls the bamboo suit 條 as Taiwanese players say
it, zh-CN writes 条 and every tile in Simplified, English says "Bam"; wherever a picture names a tile
(meld labels, the replay step's line, guangdong's 买马 lines) and in every label's Chinese, each
script stays its own, with full-width punctuation."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from engine.meld import Meld, MeldKind
from engine.tiles import parse_tiles
from engine.view import ScoreItem
from render import hand, labels, scoresheet
from render.demo import synthetic
from render.replay import compose_step
from tests.chinese import HALF_WIDTH, wrong_script

BAMBOO = parse_tiles("123456789s")


def test_every_bamboo_tile_is_tiao_in_zh_tw_and_simplified_in_zh_cn():
    for tile in BAMBOO:
        assert labels.tile_word("zh-TW", tile).endswith("條") and labels.tile_word(None, tile).endswith("條")
        assert labels.tile_word("zh-CN", tile).endswith("条")
        assert labels.tile_word("en", tile).endswith(" Bam")
    for tile in range(42):
        assert "索" not in labels.tile_word("zh-TW", tile)
        assert not wrong_script("zh-CN", labels.tile_word("zh-CN", tile)), tile
        assert not wrong_script("zh-TW", labels.tile_word("zh-TW", tile)), tile


def test_engine_lines_get_the_readers_tile_words_and_nothing_else_changes():
    assert labels.tile_words("zh-TW", "第 3 手 · 阿明 打 八索（摸切）") == "第 3 手 · 阿明 打 八條（摸切）"
    assert labels.tile_words("zh-CN", "庄家买马 五萬") == "庄家买马 五万"
    assert labels.tile_words("en", "庄家买马 東") == "庄家买马 East"
    # a tile's name inside a word (九索哥, 中馬) is not a tile; the line is in the reader's script
    assert labels.tile_words("zh-CN", "九索哥 碰 中 · 中馬") == "九索哥 碰 中 · 中马"
    assert labels.tile_words("zh-TW", "庄家买马 五萬") == "莊家買馬 五萬"


def test_the_hand_picture_names_a_concealed_bamboo_kong_in_each_language():
    mine = synthetic(1).mine
    me = mine.seats[mine.viewer]
    kong = Meld(MeldKind.ANKONG, tuple(parse_tiles("9999s")))
    seats = tuple(replace(s, melds=(*s.melds[:-1], kong)) if s is me else s for s in mine.seats)
    mine = replace(mine, seats=seats)
    words = {loc: hand.compose_hand(mine, locale=loc).texts for loc in ("zh-TW", "zh-CN", "en")}
    assert "暗槓 九條" in words["zh-TW"] and not [t for t in words["zh-TW"] if "索" in t]
    assert "暗杠 九条" in words["zh-CN"] and not wrong_script("zh-CN", "".join(words["zh-CN"]))
    assert "Closed kong 9 Bam" in words["en"]


@pytest.mark.parametrize(("lang", "words"), [("en", "3 Bam"), ("zh-TW", "三條"), ("zh-CN", "三条")])
def test_a_replay_step_names_its_tiles_in_the_readers_words_in_its_line_and_its_picture(lang, words):
    """Issue 37: the engine wrote 第 31 手 · AI 3 打 六索 for every reader, over an all-Chinese picture
    saying 六條: the line is now made in the reader's language and the picture drawn in it too."""
    from cogs.i18n.steps import step_line

    state = synthetic(1)
    line = step_line(lang, 5, [{"type": "discard", "seat": 0, "tile": "3s", "tsumogiri": True}], state.names)
    assert words in line and "索" not in line and ("5" in line)
    cv = compose_step(state.public, state.names, line, locale=lang)
    assert cv.texts[-1] == line
    drawn = "".join(cv.texts[:-1])
    for name in state.names:  # the players' names are drawn as written
        drawn = drawn.replace(name, "")
    if lang == "en":  # the table's own labels are English too
        assert not re.search("[\u4e00-\u9fff]", drawn), cv.texts
    else:
        assert not wrong_script(lang, drawn)


@pytest.mark.parametrize(("locale", "horse"), [(None, "莊家買馬 五萬"), ("zh-CN", "庄家买马 五万"), ("en", "庄家买马 5 Crak")])
def test_the_score_sheets_horse_lines_name_the_tile_in_the_readers_words(locale, horse):
    base = synthetic(11).result
    extras = (ScoreItem("庄家买马 五萬", -2, 2),)
    result = replace(base, items=(ScoreItem("七小对", 6),), total=6, unit="multiplier", extras=extras)
    texts = scoresheet.compose_score(result, synthetic(11).names, locale=locale).texts
    assert any(t.startswith(horse + " · ") for t in texts), texts


@pytest.mark.parametrize("lang", ["zh-TW", "zh-CN"])
def test_every_picture_label_is_in_its_own_script_with_full_width_punctuation(lang):
    column = labels.LOCALES.index(lang)
    for key, forms in labels._LABELS.items():
        text = forms[column]
        assert not wrong_script(lang, text), (lang, key, text)
        assert not HALF_WIDTH.search(text.replace("{", " ").replace("}", " ")), (lang, key, text)
