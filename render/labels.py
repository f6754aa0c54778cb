"""The words drawn on the pictures, in the reader's language (en, zh-TW, zh-CN).

The render layer sits below the cogs and cannot use their catalogue (``cogs.i18n`` imports
discord), so the few words a picture holds live here. A locale is what the cog already keeps per
person (``"en"``, ``"zh-TW"``, ``"zh-CN"``, or a Discord locale that starts with one of them);
``None`` keeps the pictures as they were before labels followed the reader (Traditional
Chinese). 台/番 item names are never translated, but drawn in the reader's script (render/script.py).

    >>> label("en", "round", wind=wind("en", 1), n=6, left=12)
    'South round · hand 6 · 12 left'
    >>> label("zh-CN", "round", wind=wind("zh-CN", 1), n=6, left=12)
    '南风圈 第6局 · 剩 12 张'
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.tiles import tile_name

from .script import in_script

LOCALES = ("en", "zh-TW", "zh-CN")
DEFAULT = "zh-TW"  # no locale given: the pictures as they always were

# key: (en, zh-TW, zh-CN)
_LABELS: dict[str, tuple[str, str, str]] = {
    # the hand image's header
    "seat": ("{wind} seat", "{wind}家", "{wind}家"),
    "others": ("{wind}", "{wind}家", "{wind}家"),  # 眼牌: whose hand a row below one's own is
    "dealer": ("Dealer", "莊", "庄"),
    "streak": ("Dealer ×{n}", "莊 連{n}", "庄 连{n}"),
    "ready": ("Ready", "聽", "听"),
    "round": (
        "{wind} round · hand {n} · {left} left",
        "{wind}風圈 第{n}局 · 剩 {left} 張",
        "{wind}风圈 第{n}局 · 剩 {left} 张",
    ),
    # the tile on offer in a claim prompt
    "offer.discard": ("{who} discarded", "{who}打出", "{who}打出"),
    "offer.kong": ("{who} adds a kong", "{who}加槓", "{who}加杠"),
    "who": ("{wind} ({rel})", "{rel}（{wind}家）", "{rel}（{wind}家）"),
    # where a seat sits, seen from the reader
    "rel.1": ("right", "下家", "下家"),
    "rel.2": ("across", "對家", "对家"),
    "rel.3": ("left", "上家", "上家"),
    # melds, flowers, waits
    "chi": ("Chi", "吃", "吃"),
    "pon": ("Pon", "碰", "碰"),
    "kong": ("Kong", "明槓", "明杠"),
    "addkong": ("Added kong", "加槓", "加杠"),
    "ankong": ("Closed kong", "暗槓", "暗杠"),
    "from": ("{meld} from {rel}", "{meld} {rel}", "{meld} {rel}"),
    "flowers": ("Flowers", "花", "花"),
    "waits": ("Waits", "聽", "听"),
    "unseen": ("{n} left", "{n} 張", "{n} 张"),
    # the table image
    "table.round": ("{wind} round", "{wind}風圈", "{wind}风圈"),
    "table.hand": ("Hand {n}", "第 {n} 局", "第 {n} 局"),
    "table.left": ("{n} tiles left", "剩 {n} 張", "剩 {n} 张"),
    "table.over": ("Hand over", "本局結束", "本局结束"),
    "table.indicator": ("Indicator", "翻寶牌", "翻宝牌"),
    "table.auto": ("Auto", "代打", "代打"),
    "table.turn": ("▶ Turn", "▶ 輪到", "▶ 轮到"),
    "table.win": ("Won", "胡", "胡"),  # a settled hand: the winner's plate, and the middle beside the tile
    "table.tsumo": ("Self-drawn", "自摸", "自摸"),
    "table.dealt": ("Dealt in", "放槍", "放枪"),
    # the score sheet (render/scoresheet.py); 台/番 item names stay as the documents write them
    "sheet.draw": ("Draw", "流局", "流局"),
    "sheet.no_winner": ("Nobody won", "荒莊 · 無人胡牌", "荒庄 · 无人和牌"),
    "sheet.tsumo": ("{who} self-draws", "{who} 自摸", "{who} 自摸"),
    "sheet.ron": ("{who} wins off {loser}", "{who} 胡 {loser} 放槍", "{who} 胡 {loser} 放枪"),
    "sheet.where": ("{wind} round · hand {n}", "{wind}風圈 第{n}局", "{wind}风圈 第{n}局"),
    "sheet.total": ("Total", "合計", "合计"),
    "sheet.cap": ("滿台", "滿台", "满台"),
    "sheet.limit": ("24台 limit: each pays at most 底 + 24 台", "24台 上限：每家最多付 底 + 24 台", "24台 上限：每家最多付 底 + 24 台"),
    "sheet.points": ("pts", "分", "分"),
    "sheet.house": ("House rules {rules}", "家規 {rules}", "家规 {rules}"),
    "sheet.tag_tsumo": ("Self-draw ", "自摸 ", "自摸 "),  # as the text beside it says it
    "sheet.tag_win": ("Won ", "胡 ", "胡 "),
    "sheet.tag_dealt": ("Dealt in ", "放槍 ", "放枪 "),
    # the match summary (render/summary.py)
    "summary.title": ("Match over", "牌局結束", "牌局结束"),
    "summary.hands": ("{n} hands", "共 {n} 局", "共 {n} 局"),
    "summary.hand1": ("1 hand", "共 1 局", "共 1 局"),
    "summary.wins": ("Wins {wins} (自摸 {tsumo}) · dealt in {dealt}", "胡 {wins}（自摸 {tsumo}）· 放槍 {dealt}",
                     "胡 {wins}（自摸 {tsumo}）· 放枪 {dealt}"),
    "summary.best": ("Best: {value} {unit}, hand {n}", "最大：{value} {unit}（第 {n} 局）", "最大：{value} {unit}（第 {n} 局）"),
    "summary.no_win": ("No win", "沒有胡牌", "没有和牌"),
    # a tournament's standings (render/standings.py)
    "standings.player": ("Player", "選手", "选手"),
    "standings.points": ("Points", "得分", "得分"),
    "standings.duplicate": ("Duplicate", "復式分", "复式分"),
    "standings.places": ("Places", "名次", "名次"),
    "standings.more": ("… and {n} more", "…另有 {n} 人", "…另有 {n} 人"),
    "place.1": ("1st", "第一", "第一"),
    "place.2": ("2nd", "第二", "第二"),
    "place.3": ("3rd", "第三", "第三"),
    "place.4": ("4th", "第四", "第四"),
}

_WINDS = (("East", "South", "West", "North"), "東南西北", "东南西北")
_EN_TILES = tuple(
    [f"{n} {suit}" for suit in ("Crak", "Dot", "Bam") for n in range(1, 10)]
    + ["East", "South", "West", "North", "White", "Green", "Red"]
)
_SIMPLIFIED = str.maketrans({"萬": "万", "東": "东", "發": "发", "蘭": "兰", "風": "风", "索": "条"})


def locale_of(value: object) -> str:
    """The picture locale for what the cog holds: a catalogue locale, a Discord locale (or its
    value), or None (the pictures' original Traditional Chinese)."""
    if value is None:
        return DEFAULT
    text = str(getattr(value, "value", value))
    if text.startswith("zh"):
        return "zh-CN" if text in ("zh-CN", "zh-SG", "zh-Hans") else "zh-TW"
    return "en"


def label(locale: object, key: str, **values: object) -> str:
    """The label ``key`` in ``locale``'s language."""
    template = _LABELS[key][LOCALES.index(locale_of(locale))]
    return template.format(**values) if values else template


def wind(locale: object, w: int) -> str:
    """A wind's name: 東 / 东 / East."""
    return _WINDS[LOCALES.index(locale_of(locale))][w]


def wind_mark(locale: object, w: int) -> str:
    """A wind in one character, for the plates and the middle of the table: 東 / 东 / E."""
    return ("ESWN", "東南西北", "东南西北")[LOCALES.index(locale_of(locale))][w]


def tile_word(locale: object, tile: int) -> str:
    """A tile in words: 五萬 / 五万 / 5 Crak (三條 in zh-TW, 三条 in zh-CN)."""
    lang = locale_of(locale)
    if lang == "en" and tile < len(_EN_TILES):
        return _EN_TILES[tile]
    name = tile_name(tile)
    if lang == "zh-CN":
        return name.translate(_SIMPLIFIED)
    return name.replace("索", "條")  # the bamboo suit as Taiwanese players say it


# a tile named as the engine names it (五萬, 八索, 東 …), standing as its own word: after a space or at
# the start, and not followed by another ideograph (so 中 in 中馬 or a name is left alone)
_ENGINE_NAMES = {tile_name(t): t for t in range(42)}
_ENGINE_TILE = re.compile(
    "(?<!\\S)(" + "|".join(sorted(map(re.escape, _ENGINE_NAMES), key=len, reverse=True)) + ")(?![\u4e00-\u9fff])"
)


def replace_tile_names(text: str, word: Callable[[int], str]) -> str:
    """``text`` made by the engine with each tile name standing as a word replaced by ``word(tile)``
    (the one place that finds the engine's tile names in its lines; cogs.i18n.tile_words uses it too)."""
    return _ENGINE_TILE.sub(lambda m: word(_ENGINE_NAMES[m.group(1)]), text)


def tile_words(locale: object, text: str) -> str:
    """``text`` made by the engine (a replay step, a 买马 line) with its tile names in the reader's
    words: 八索 → 八條 (zh-TW), 五萬 → 五万 (zh-CN), 五萬 → 5 Crak (en); the rest in the reader's script.

        >>> tile_words("zh-TW", "B 打 八索（摸切）"), tile_words("zh-CN", "庄家买马 五萬")
        ('B 打 八條（摸切）', '庄家买马 五万')
        >>> tile_words("zh-TW", "庄家买马 五萬")  # and in the reader's script (render/script.py)
        '莊家買馬 五萬'

    """
    return in_script(locale_of(locale), replace_tile_names(text, lambda tile: tile_word(locale, tile)))


def relative(locale: object, seat: int, reader: int) -> str:
    """Where ``seat`` sits seen from ``reader``: 下家 / 對家 / 上家 (right / across / left)."""
    return label(locale, f"rel.{(seat - reader) % 4}")


def all_labels() -> str:
    """Every character a label can hold, for the font subset and for warm-up."""
    return "".join(sorted({c for forms in _LABELS.values() for text in forms for c in text}))
