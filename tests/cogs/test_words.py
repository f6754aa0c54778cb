"""Words of issue 23: English plurals, zh-CN without Traditional, 條 for zh-TW's bamboo suit."""

from __future__ import annotations

import re

from cogs.i18n import STRINGS, t, tile_label
from cogs.mahjong import texts
from engine.game import Game
from engine.tiles import tile_from_str

NAMES = ["A", "B", "C", "D"]


def test_english_counts_are_singular_for_one():
    assert t("en", "lobby.rounds", n=1) == "1 round" and t("en", "lobby.rounds", n=4) == "4 rounds"
    assert t("en", "lb.counts", matches=1, hands=1, best="8 台").startswith("1 match · 1 hand ·")
    assert t("en", "lb.counts", matches=2, hands=0, best="-").startswith("2 matches · 0 hands ·")


def test_no_english_string_writes_a_bare_plural_or_round_s():
    for key, text in STRINGS["en"].items():
        assert "(s)" not in text, key
        for field, word in re.findall(r"\{(\w+)\} (matches|hands|rounds|tiles|wins|points)\b", text):
            if field in ("name", "winner", "payer", "rules", "table"):  # a name, not a count
                continue
            raise AssertionError(f"{key}: '{{{field}}} {word}' says '1 {word}'")


def test_zh_cn_table_text_writes_the_round_wind_in_simplified():
    game = Game(seed=3)
    text = texts.table_text(game.view(None), NAMES, "zh-CN", "")
    assert "东风圈" in text and "東" not in text
    assert "東風圈" in texts.table_text(game.view(None), NAMES, "zh-TW", "")


def test_zh_tw_calls_the_bamboo_suit_tiao_and_zh_cn_writes_it_simplified():
    assert tile_label("zh-TW", tile_from_str("3s")) == "三條"
    assert tile_label("zh-CN", tile_from_str("3s")) == "三条"
    assert tile_label("zh-CN", tile_from_str("6m")) == "六万"


def test_zh_cn_payment_lines_write_the_horse_tile_and_the_streak_in_simplified_with_full_width_brackets():
    from engine.view import ScoreItem
    from tests.chinese import HALF_WIDTH, wrong_script

    from .test_texts import win

    horses = (ScoreItem("庄家买马 六萬", 20, 1), ScoreItem("庄家买马 八索", -20, 2))
    lines = texts.result_text(win(extras=horses), 7, NAMES, [100, 260, -300, -60], "zh-CN").splitlines()
    assert "· 庄家买马 六万（B）：+20" in lines and "· 庄家买马 八条（C）：-20" in lines
    assert "· 莊家買馬 八條（C）：-20" in texts.result_text(win(extras=horses), 7, NAMES, [0] * 4, "zh-TW")  # one script
    assert "· 庄家买马 6 Crak (B): +20" in texts.result_text(win(extras=horses), 7, NAMES, [0] * 4, "en")
    game = Game(seed=3, dealer_streak=2)  # the dealer has kept the deal twice (連2)
    table = texts.table_text(game.view(None), NAMES, "zh-CN", "")
    assert "连2" in table and not wrong_script("zh-CN", table.replace("小明", ""))
    assert "連2" in texts.table_text(game.view(None), NAMES, "zh-TW", "")
    for line in lines:
        assert not HALF_WIDTH.search(line), line
