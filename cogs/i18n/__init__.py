"""Every string the bot shows, read from one data file per language (``en.toml``, ``zh-TW.toml``,
``zh-CN.toml`` beside this module, keyed by message id), and the translator Discord asks for command
names and descriptions. Other Discord languages fall back to English.

    >>> t("zh-TW", "err.not_your_turn")
    '還沒輪到你。'
    >>> t("fr", "err.not_your_turn")
    'It is not your turn.'
    >>> tile_label("zh-CN", 4)
    '五万'

台 item names are the rule documents' words, never translated, but shown in the reader's script
(:func:`item_name`: 莊家 to zh-TW, 庄家 to zh-CN), with an English meaning beside them for English readers
(:func:`item_label`). The files are read
with the package (``importlib.resources``), so the bot finds them from any working directory.
"""

from __future__ import annotations

import re
import string
import tomllib
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

from discord import Locale, app_commands

from engine.policy import LEVELS
from engine.tiles import tile_name
from render.labels import replace_tile_names
from render.script import in_script

SUPPORTED = ("en", "zh-TW", "zh-CN")
DEFAULT = "en"
COMMAND_TABLE = "command"  # the one table keyed by English text (what ``locale_str`` carries), not by id


def _flatten(table: dict[str, Any], prefix: str = "") -> dict[str, str]:
    """``{"err": {"stale": …}}`` → ``{"err.stale": …}``: TOML tables are the ids' dotted parts."""
    flat: dict[str, str] = {}
    for name, value in table.items():
        if isinstance(value, dict):
            flat.update(_flatten(value, f"{prefix}{name}."))
        else:
            flat[prefix + name] = value
    return flat


GLOSS_TABLE = "gloss"  # English only: a scoring item's meaning in a few words, keyed by the item's name


def _load(lang: str) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """(message id → text, English command text → text, item → gloss) for one language."""
    data = tomllib.loads(resources.files(__name__).joinpath(f"{lang}.toml").read_text(encoding="utf-8"))
    commands = data.pop(COMMAND_TABLE, {})
    glosses = data.pop(GLOSS_TABLE, {})
    return _flatten(data), commands, glosses


_LOADED = {lang: _load(lang) for lang in SUPPORTED}
STRINGS: dict[str, dict[str, str]] = {lang: strings for lang, (strings, _, _) in _LOADED.items()}
GLOSSES: dict[str, str] = _LOADED[DEFAULT][2]

# the AI levels a host picks from, by level id (the engine names levels; their words live here)
LEVEL_NAMES: dict[str, dict[str, str]] = {level: {lang: STRINGS[lang][f"level.{level}"] for lang in SUPPORTED} for level in LEVELS}

# tile labels on buttons: what a player reads at a glance in their language
_EN_SUITS = ("Crak", "Dot", "Bam")
_EN_HONOURS = ("East", "South", "West", "North", "White", "Green", "Red")
_SIMPLIFIED = str.maketrans({"萬": "万", "東": "东", "發": "发", "蘭": "兰", "風": "风", "索": "条"})


def locale_of(value: Locale | str | None) -> str:
    """The catalogue locale for a Discord locale: zh-TW, zh-CN, else English."""
    text = str(value.value if isinstance(value, Locale) else value or "")
    if text == "zh-TW":
        return "zh-TW"
    if text == "zh-CN":
        return "zh-CN"
    return DEFAULT


class _Plurals(string.Formatter):
    """``{n:match|matches}``: the word for a count, so English says "1 match" and "2 matches"."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" in format_spec:
            one, _, many = format_spec.partition("|")
            return one if value == 1 else many
        return super().format_field(value, format_spec)


_PLURALS = _Plurals()


class CommandMentions:
    """The synced commands' ids, so that a message naming ``/mahjong create`` writes the mention
    ``</mahjong create:ID>`` instead: Discord shows a mention clickable and in the reader's own command
    names (``/麻將 開桌``), where plain text says the English name a Chinese client does not show.

    Ids are Discord's, one set per application, known once the bot has synced or fetched its commands
    at start (bot.py); until then (or when that failed) messages keep the plain ``/mahjong create``.
    This is the catalogue's one piece of process-wide state: a process runs one application.

        >>> mentions = CommandMentions()
        >>> mentions.write("Open one with `/mahjong create`.")
        'Open one with `/mahjong create`.'
        >>> mentions.learn({"mahjong": 11}, {"mahjong": ["create", "join"]})
        >>> mentions.write("Open one with `/mahjong create`, or /mahjong join.")
        'Open one with </mahjong create:11>, or </mahjong join:11>.'
        >>> mentions.write("`/mahjong export 7`")  # a command with its options stays code to type
        '`/mahjong export 7`'
    """

    def __init__(self) -> None:
        self._paths: dict[str, int] = {}
        self._pattern: re.Pattern[str] | None = None

    def learn(self, ids: Mapping[str, int], subcommands: Mapping[str, Sequence[str]] | None = None) -> None:
        """Top-level command name → id, and each one's subcommands (a subcommand's mention carries its
        top-level command's id)."""
        paths: dict[str, int] = {}
        for name, command_id in ids.items():
            paths[name] = command_id
            for sub in (subcommands or {}).get(name, ()):
                paths[f"{name} {sub}"] = command_id
        self._paths = paths
        if not paths:
            self._pattern = None
            return
        names = "|".join(re.escape(p) for p in sorted(paths, key=len, reverse=True))
        self._pattern = re.compile(f"`/({names})`|(?<![`\\w/])/({names})(?![\\w`])")

    def forget(self) -> None:
        self.learn({})

    def write(self, text: str) -> str:
        """``text`` with every command it names as a mention (unchanged while no ids are known)."""
        if self._pattern is None or "/" not in text:
            return text
        return self._pattern.sub(lambda m: f"</{m.group(1) or m.group(2)}:{self._paths[m.group(1) or m.group(2)]}>", text)


COMMANDS = CommandMentions()
# strings shown where Discord renders no mention (an embed's footer): they keep the plain command names
PLAIN_KEYS = frozenset({"lobby.footer"})


def t(locale: str | Locale | None, key: str, **values: Any) -> str:
    """The string ``key`` in the reader's language (English when a string is missing there), the
    commands it names written as mentions once their ids are known (:class:`CommandMentions`)."""
    lang = locale_of(locale)
    template = STRINGS[lang].get(key) or STRINGS[DEFAULT][key]
    if key not in PLAIN_KEYS:  # the catalogue's words only: a value (a player's name) is never a command
        template = COMMANDS.write(template)
    if not values:
        return template
    return _PLURALS.format(template, **values) if "|" in template else template.format(**values)


def tile_label(locale: str | Locale | None, tile: int) -> str:
    """A tile on a button: 五萬 / 五万 / 5 Crak (三條 / 三条 / 3 Bam)."""
    lang = locale_of(locale)
    if lang == "en":
        if tile < 27:
            return f"{tile % 9 + 1} {_EN_SUITS[tile // 9]}"
        if tile < 34:
            return _EN_HONOURS[tile - 27]
        return f"Flower {tile - 33}"
    name = tile_name(tile)
    if lang == "zh-CN":
        return name.translate(_SIMPLIFIED)
    return name.replace("索", "條")  # Taiwanese players say 條 for the bamboo suit


def run_label(locale: str | Locale | None, first: int) -> str:
    """A chow in words, as players say it: 三四五條 / 三四五条 / 3-4-5 Bam (``first`` its lowest tile)."""
    lang = locale_of(locale)
    suit, rank = divmod(first, 9)
    if lang == "en":
        return f"{rank + 1}-{rank + 2}-{rank + 3} {_EN_SUITS[suit]}"
    words = tile_label(lang, first + 2)  # 五索: the numeral and the suit as this language writes them
    return "".join(tile_label(lang, first + i)[0] for i in range(2)) + words


def tile_words(locale: str | Locale | None, text: str) -> str:
    """A line the engine wrote (a 买马 line: 庄家买马 五萬) with its tiles in the reader's words, as
    the buttons write them, in the reader's script: 庄家买马 五万 (zh-CN), 庄家买马 5 Crak (en);
    莊家買馬 八條 (zh-TW)."""
    lang = locale_of(locale)
    return in_script(lang, replace_tile_names(text, lambda tile: tile_label(lang, tile)))


def item_label(locale: str | Locale | None, name: str) -> str:
    """A scoring item for a reader to understand: the document's name in the reader's script, and for
    English readers its meaning beside it (門清 (concealed hand)); a house-rule line as it is."""
    lang = locale_of(locale)
    gloss = GLOSSES.get(name) if lang == DEFAULT else None
    return f"{name} ({gloss})" if gloss else item_name(lang, name)


def item_name(locale: str | Locale | None, name: str) -> str:
    """A scoring item (or house rule) as the rule document names it, in the reader's script: 莊家 for
    zh-TW, 庄家 for zh-CN, as written for English (render/script.py)."""
    return in_script(locale_of(locale), name)


# ---------------------------------------------------------------- command names and descriptions

# English command text → {lang: text}; the AI levels' choice names come from their catalogue ids
COMMAND_TEXT: dict[str, dict[str, str]] = {}
for _lang, (_, _commands, _) in _LOADED.items():
    for _english, _text in _commands.items():
        COMMAND_TEXT.setdefault(_english, {})[_lang] = _text
for _names in LEVEL_NAMES.values():
    COMMAND_TEXT[_names[DEFAULT]] = {lang: _names[lang] for lang in SUPPORTED if lang != DEFAULT}


class CatalogueTranslator(app_commands.Translator):
    """Command names and descriptions in zh-TW and zh-CN; Discord shows English elsewhere."""

    async def translate(
        self, string: app_commands.locale_str, locale: Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        lang = locale_of(locale)
        if lang == DEFAULT:
            return None
        text = COMMAND_TEXT.get(string.message, {}).get(lang)
        if text is None:  # choice names are catalogue strings (rule sets, levels)
            key = _ENGLISH_KEYS.get(string.message)
            text = STRINGS[lang].get(key) if key else None
        return text


_ENGLISH_KEYS = {text: key for key, text in STRINGS[DEFAULT].items() if "{" not in text}
