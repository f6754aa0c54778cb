"""/mahjong help (issue 23): how to play, the rule set's special rules and every 台/番 item of the
engine's own table, in the reader's language, within Discord's embed limits."""

from __future__ import annotations

import pytest

from cogs.mahjong.help import help_embed, item_lines
from engine.rules import PROFILES
from engine.scoring import get_rules


@pytest.mark.parametrize("rules", list(PROFILES))
@pytest.mark.parametrize("loc", ["en", "zh-TW", "zh-CN"])
def test_help_lists_every_item_of_the_rule_set_within_embed_limits(rules, loc):
    embed = help_embed(rules, loc)
    assert len(embed) <= 6000 and all(len(f.value) <= 1024 for f in embed.fields)
    shown = " · ".join(f.value for f in embed.fields[2:])
    assert all(line in shown for line in item_lines(rules))
    assert len(item_lines(rules)) == len(get_rules(rules).items)


def test_help_speaks_the_readers_language():
    assert help_embed("hongkong", "en").fields[0].name == "How to play here"
    assert help_embed("hongkong", "zh-TW").fields[0].name == "怎麼玩"
    zh_cn = help_embed("hongkong", "zh-CN")
    assert zh_cn.fields[0].name == "怎么玩" and "3番起和" in zh_cn.fields[1].value
    assert "門清 1台" in item_lines("taiwan16") and "七小对 6倍" in item_lines("guangdong")
