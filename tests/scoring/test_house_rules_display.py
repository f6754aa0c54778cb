"""Where players see the house rules: the lobby embed, the score sheet and /mahjong create's preset."""

import pytest

from engine.house_rules import HouseRules
from engine.rules import TableOptions
from engine.view import HandResult, ScoreItem
from render import scoresheet

NAMES = ("A", "B", "C", "D")
WIN = HandResult(0, 1, False, 0, (), (), (), (ScoreItem("河底撈魚", 1),), 1, "tai", (400, -400, 0, 0))


def lobby_settings(options: TableOptions) -> str:
    from cogs.mahjong.prompts import lobby_embed
    from table.lobby import TableSettings, TableState
    from table.screens import lobby_screen

    state = TableState(1, 2, 3, 4, TableSettings(options=options))
    embed = lobby_embed(lobby_screen(state), "en", "host")
    return next(f.value for f in embed.fields if f.name == "Settings")


def test_summary_names_the_preset_and_its_variants():
    assert HouseRules().summary() == ""
    common = HouseRules.resolve("common").summary()
    assert common.startswith("common: ") and "天胡 24" in common and "嚦咕嚦咕 8" in common
    assert HouseRules({"ping_hu_flowers": True}).summary() == "custom: 平胡可有花"


def test_lobby_shows_the_house_rules_only_when_they_differ_from_the_document():
    assert "House rules" not in lobby_settings(TableOptions())
    shown = lobby_settings(TableOptions(house_rules=HouseRules.resolve("common")))
    assert "House rules common: " in shown and "地胡 16" in shown


def test_score_sheet_names_the_house_rules_on_its_last_line():
    plain = scoresheet.compose_score(WIN, NAMES)
    summary = HouseRules.resolve("common").summary()
    marked = scoresheet.compose_score(WIN, NAMES, house_rules=summary)
    assert not any(t.startswith("家規") for t in plain.texts)
    assert marked.texts[-1].startswith("家規 common: 天胡 24")
    assert marked.im.height > plain.im.height


def test_create_offers_every_preset():
    from cogs.mahjong.options import PRESET_CHOICES
    from engine.house_rules import FAMILIES

    offered = [c.value for c in PRESET_CHOICES]
    assert offered[:2] == ["document", "common"] and set(FAMILIES) <= set(offered)  # the families too


def test_switches_as_a_host_types_them_by_name_label_or_simplified_label():
    from engine.house_rules import parse_switches

    assert parse_switches("字一色計風台, 天胡 24、miji_tai=4；河底撈魚: 1") == {
        "all_honours_with_winds": True, "heavenly_tai": 24, "miji_tai": 4, "river_bottom_tai": 1
    }
    assert parse_switches("字一色计风台，八仙過海可不胡 on, 平胡可聽眼 off") == {
        "all_honours_with_winds": True, "flower_win_optional": True, "ping_hu_pair_wait": False
    }
    assert parse_switches("  ") == {}


@pytest.mark.parametrize(
    ("text", "fragment"),
    [("天胡", "needs a value: one of 16, 24"), ("天胡 20", "must be one of 16, 24"), ("nope", "unknown house rule 'nope'"),
     ("字一色計風台 7", "must be one of false, true")],
)
def test_a_switch_typed_wrong_is_refused_by_name(text, fragment):
    from engine.house_rules import parse_switches

    with pytest.raises(ValueError, match=fragment):
        parse_switches(text)
