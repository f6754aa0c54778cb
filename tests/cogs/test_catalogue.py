"""The string catalogue as data (issue 27): one TOML file per language keyed by message id, every id in
every language with the same placeholders, every command text Discord shows translated, and each
Chinese language written in its own script (issue 23)."""

from __future__ import annotations

import os
import re
import string
import subprocess
import sys
from pathlib import Path

import discord
import pytest
from discord import Locale, app_commands

from cogs import i18n
from cogs.calculator import Calculator
from cogs.mahjong import COGS, GROUP_DESCRIPTION, GROUP_NAME
from engine.house_rules import SWITCHES
from engine.policy import LEVELS
from engine.rules import PROFILES
from engine.scoring import get_rules
from tests.chinese import HALF_WIDTH, SIMPLIFIED_ONLY, TRADITIONAL_ONLY, wrong_script

ROOT = Path(__file__).resolve().parents[2]
CHINESE = ("zh-TW", "zh-CN")
LOCALES = {"zh-TW": Locale.taiwan_chinese, "zh-CN": Locale.chinese}

# Words the rule documents write in their own script: every scoring item of every rule set, every house
# rule, and the settlement words of document 004 that the engine names (买马, kongs). Shown to a Chinese
# reader they are written in the reader's script (render/script.py), like every other word (issue 37).
DOCUMENT_WORDS = sorted(
    {item.name for rules in PROFILES for item in get_rules(rules).items}
    | {s.label for s in SWITCHES}
    | {"买马", "明杠", "暗杠", "抢杠", "庄家买马", "点炮", "搶杠", "杠開"},
    key=len,
    reverse=True,
)
LISTS = {"stats.place_labels"}
ENDONYMS = {"English", "繁體中文", "简体中文"}  # a comma-separated list the code splits, not prose


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_message_id_exists_in_every_language_with_the_same_placeholders():
    english = i18n.STRINGS["en"]
    assert len(english) > 300  # the files were read, not an empty catalogue
    for lang in i18n.SUPPORTED:
        assert set(i18n.STRINGS[lang]) == set(english), (lang, set(english) ^ set(i18n.STRINGS[lang]))
        for key, text in english.items():
            assert _placeholders(i18n.STRINGS[lang][key]) == _placeholders(text), (lang, key)
            assert i18n.STRINGS[lang][key].strip(), (lang, key)


def test_the_catalogue_is_data_files_read_from_any_working_directory(tmp_path):
    for lang in i18n.SUPPORTED:
        assert (ROOT / "cogs" / "i18n" / f"{lang}.toml").is_file()
    code = "from cogs.i18n import t; print(t('zh-CN', 'err.not_your_turn'))"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == i18n.STRINGS["zh-CN"]["err.not_your_turn"] != i18n.STRINGS["en"]["err.not_your_turn"]


def test_the_ai_levels_are_named_in_the_catalogue_in_every_language():
    assert set(i18n.LEVEL_NAMES) == set(LEVELS)
    for level in LEVELS:
        names = i18n.LEVEL_NAMES[level]
        assert names == {lang: i18n.t(lang, f"level.{level}") for lang in i18n.SUPPORTED}
        assert len(set(names.values())) >= 2  # the Chinese is not the English copied


class _Recorder(app_commands.Translator):
    """Asks the catalogue for every text a command's payload carries, and keeps what it was asked."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, str, str | None]] = []
        self.catalogue = i18n.CatalogueTranslator()

    async def translate(self, string: app_commands.locale_str, locale: Locale, context) -> str | None:
        text = await self.catalogue.translate(string, locale, context)
        self.asked.append((string.message, locale.value, text))
        return text


# the /mahjong subcommands, as each cog declares them (cogs/mahjong/__init__.py gathers them in one group)
MAHJONG_COMMANDS = [command for cog in COGS for command in cog.__cog_app_commands__]


async def _asked_texts() -> list[tuple[str, str, str | None]]:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    recorder = _Recorder()
    await tree.set_translator(recorder)
    commands = [*MAHJONG_COMMANDS, *Calculator.__cog_app_commands__]
    assert {c.name for c in commands} >= {"create", "help", "tai", "ai"}
    for command in commands:
        await command.get_translated_payload(tree, recorder)
    for message in (GROUP_NAME, GROUP_DESCRIPTION):
        for locale in LOCALES.values():
            await recorder.translate(message, locale, None)
    return recorder.asked


async def test_every_text_the_commands_show_is_translated_in_both_chinese_languages():
    asked = await _asked_texts()
    seen = {(message, locale) for message, locale, _ in asked}
    assert ("the winning tile, e.g. 2s", "zh-TW") in seen and ("Rule set", "zh-CN") in seen  # /tai and /mahjong
    missing = sorted(
        {(m, locale) for m, locale, text in asked if locale in CHINESE and not text and _has_words(m)}
    )
    assert missing == []


def _has_words(text: str) -> bool:
    """Whether a command text holds English words a Chinese reader needs translated: not "30s", "13",
    "東 E", "八仙過海", nor a language's own name ("English", "繁體中文")."""
    return bool(re.search("[A-Za-z]{2,}", text)) and text not in ENDONYMS


async def test_option_names_in_chinese_are_valid_and_distinct_within_each_command():
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    translator = i18n.CatalogueTranslator()
    payloads = [await c.get_translated_payload(tree, translator) for c in MAHJONG_COMMANDS]
    payloads += [await c.get_translated_payload(tree, translator) for c in Calculator.__cog_app_commands__]
    options = [p.get("options", []) for p in payloads]
    options += [child.get("options", []) for p in payloads for child in p.get("options", []) if child.get("type") == 1]
    for group in options:
        for lang in CHINESE:
            names = [(o.get("name_localizations") or {}).get(lang, o["name"]) for o in group]
            assert len(names) == len(set(names)), (lang, names)
            assert all(re.fullmatch(r"[-_\w]{1,32}", n) and n == n.lower() for n in names), names


async def test_command_translations_are_in_their_own_script():
    for message, locale, text in await _asked_texts():
        if locale not in CHINESE or text is None:
            continue
        assert not wrong_script(locale, text), (locale, message, text)


@pytest.mark.parametrize("lang", CHINESE)
def test_each_chinese_catalogue_writes_only_its_own_script(lang):
    """Every string of a Chinese catalogue, document words included (issue 37: 庄家 and 明杠 in zh-TW)."""
    for key, text in i18n.STRINGS[lang].items():
        found = wrong_script(lang, text)
        assert not found, (lang, key, found, text)


@pytest.mark.parametrize("lang", CHINESE)
def test_every_document_word_is_shown_in_the_readers_script(lang):
    """Item names, house rules and settlement words as the documents write them, through render/script.py."""
    for word in DOCUMENT_WORDS:
        shown = i18n.item_name(lang, word)
        assert not wrong_script(lang, shown), (lang, word, shown)
    assert i18n.item_name("en", "莊家") == "莊家"  # English readers see the document's own word


def test_the_script_lists_only_hold_characters_of_one_script():
    assert len(TRADITIONAL_ONLY) > 3000 and len(SIMPLIFIED_ONLY) > 3000  # OpenCC's tables were read
    assert not set(TRADITIONAL_ONLY) & set(SIMPLIFIED_ONLY)
    assert {"萬", "莊", "槓", "買"} <= TRADITIONAL_ONLY and {"万", "庄", "杠", "买"} <= SIMPLIFIED_ONLY
    assert "台" not in TRADITIONAL_ONLY | SIMPLIFIED_ONLY and "秘" not in SIMPLIFIED_ONLY  # both write them
    assert "萬" in i18n.tile_label("zh-TW", 0) and "万" in i18n.tile_label("zh-CN", 0)


def _prose(text: str) -> str:
    """What a reader reads as sentences: without code spans, placeholders, mentions and bold marks."""
    return re.sub(r"`[^`]*`|\{[^}]*\}|<[^>]*>|\*\*", " ", text)


@pytest.mark.parametrize("lang", CHINESE)
def test_chinese_text_uses_full_width_punctuation(lang):
    for key, text in i18n.STRINGS[lang].items():
        if key in LISTS:
            continue
        assert not HALF_WIDTH.findall(_prose(text)), (lang, key, text)
    assert HALF_WIDTH.search("你好,世界") and not HALF_WIDTH.search("你好，世界")
