"""/mahjong help (issue 23): how to play, the rule set's special rules and every 台/番 item of the
engine's own table with what it means, in the reader's language, within Discord's limits."""

from __future__ import annotations

import pytest

from cogs import i18n
from cogs.i18n import item_name
from cogs.mahjong.help import (
    DESCRIPTION_LIMIT,
    EMBED_LIMIT,
    FIELD_LIMIT,
    OPTION_TEXT_LIMIT,
    SELECT_OPTIONS,
    HelpPageSelect,
    help_embed,
    help_pages,
    item_lines,
)
from engine.rules import PROFILES
from engine.scoring import get_rules

LANGUAGES = ("en", "zh-TW", "zh-CN")


@pytest.mark.parametrize("rules", list(PROFILES))
@pytest.mark.parametrize("loc", LANGUAGES)
def test_help_lists_every_item_of_the_rule_set_within_embed_limits(rules, loc):
    embed = help_embed(rules, loc)
    assert len(embed) <= EMBED_LIMIT and all(len(f.value) <= FIELD_LIMIT for f in embed.fields)
    shown = " · ".join(f.value for f in embed.fields[2:])
    assert all(line in shown for line in item_lines(rules, loc))
    assert len(item_lines(rules)) == len(get_rules(rules).items)


@pytest.mark.parametrize("rules", list(PROFILES))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_scoring_item_has_a_meaning_in_every_language(rules, lang):
    meanings = {key.split(".", 2)[2] for key in i18n.STRINGS[lang] if key.startswith(f"item.{rules}.")}
    assert meanings == {item.name for item in get_rules(rules).items}
    for item in get_rules(rules).items:
        assert len(i18n.t(lang, f"item.{rules}.{item.name}")) >= 4, (rules, item.name)


@pytest.mark.parametrize("rules", list(PROFILES))
def test_meanings_are_written_in_each_language_not_copied(rules):
    for item in get_rules(rules).items:
        en, tw, cn = (i18n.t(lang, f"item.{rules}.{item.name}") for lang in LANGUAGES)
        assert en != tw and any("a" <= c <= "z" for c in en), item.name
        assert not any("a" <= c <= "z" for c in tw.replace("Miji", "")), item.name  # Chinese, not English


@pytest.mark.parametrize("rules", list(PROFILES))
@pytest.mark.parametrize("loc", LANGUAGES)
def test_every_help_page_fits_discords_limits_and_every_item_is_explained_once(rules, loc):
    pages = help_pages(rules, loc)
    assert 2 <= len(pages) <= SELECT_OPTIONS
    for page in pages:
        assert len(page) <= EMBED_LIMIT and len(page.fields) <= 25
        assert len(page.description or "") <= DESCRIPTION_LIMIT and len(page.title or "") <= 256
        assert all(len(f.value) <= FIELD_LIMIT and len(f.name) <= 256 for f in page.fields)
        assert len(page.footer.text or "") <= 2048
    explained = "\n".join(p.description or "" for p in pages[1:])
    for item in get_rules(rules).items:
        line = f"**{item_name(loc, item.name)}** "
        assert explained.count(line) == 1, item.name
        assert i18n.t(loc, f"item.{rules}.{item.name}") in explained
    # in the documents' order, as the overview lists them
    places = [explained.index(f"**{item_name(loc, item.name)}** ") for item in get_rules(rules).items]
    assert places == sorted(places)


@pytest.mark.parametrize("rules", list(PROFILES))
@pytest.mark.parametrize("loc", LANGUAGES)
def test_the_page_select_offers_every_page_within_select_limits(rules, loc):
    select = HelpPageSelect.make(rules, loc, page=1).item
    pages = help_pages(rules, loc)
    assert [o.value for o in select.options] == [str(n) for n in range(len(pages))]
    assert [o.default for o in select.options].index(True) == 1
    assert len(select.custom_id) <= 100 and len(select.placeholder or "") <= 150
    assert all(len(o.label) <= OPTION_TEXT_LIMIT and len(o.description or "") <= OPTION_TEXT_LIMIT for o in select.options)
    first_item = get_rules(rules).items[0].name
    assert (select.options[1].description or "").startswith(item_name(loc, first_item))


def test_help_speaks_the_readers_language():
    assert help_embed("hongkong", "en").fields[0].name == "How to play here"
    assert help_embed("hongkong", "zh-TW").fields[0].name == "怎麼玩"
    zh_cn = help_embed("hongkong", "zh-CN")
    assert zh_cn.fields[0].name == "怎么玩" and "3番起和" in zh_cn.fields[1].value
    assert "門清 1台" in item_lines("taiwan16") and "七小对 6倍" in item_lines("guangdong")
    tw = "\n".join(p.description or "" for p in help_pages("taiwan16", "zh-TW")[1:])
    assert "**門清** 1台 — 沒有吃、碰、明槓" in tw
    en = "\n".join(p.description or "" for p in help_pages("taiwan16", "en")[1:])
    assert "**門清** 1台 — No chow, pon or exposed kong" in en


@pytest.mark.parametrize("loc", LANGUAGES)
def test_taiwan16_help_explains_every_house_rule_switch_and_preset_once(loc):
    from engine.house_rules import KNOWN_PRESETS, SWITCHES

    house = "\n".join(p.description or "" for p in help_pages("taiwan16", loc)[1:])
    for sw in SWITCHES:
        line = next(x for x in house.splitlines() if x.startswith(f"`{sw.name}` "))
        assert sw.label in line and i18n.t(loc, f"house.{sw.name}") in line
        assert house.count(f"`{sw.name}` ") == 1
    for name in KNOWN_PRESETS:
        assert f"**{name}** — {i18n.t(loc, f'house.preset.{name}')}" in house
    assert i18n.t(loc, "help.house_intro") in house
    assert "`heavenly_tai` 天胡 (16 / 24)" in house
    other = "\n".join(p.description or "" for p in help_pages("hongkong", loc)[1:])
    assert "heavenly_tai" not in other  # house rules are taiwan16's variants


def test_house_rule_meanings_are_written_in_each_language_not_copied():
    from engine.house_rules import KNOWN_PRESETS, SWITCHES

    keys = [f"house.{s.name}" for s in SWITCHES] + [f"house.preset.{p}" for p in KNOWN_PRESETS]
    assert {k for k in i18n.STRINGS["en"] if k.startswith("house.")} == set(keys)
    for key in keys:
        en, tw, cn = (i18n.t(lang, key) for lang in LANGUAGES)
        assert en != tw and en != cn and any("a" <= c <= "z" for c in en), key  # (tw and cn may be alike)
