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
