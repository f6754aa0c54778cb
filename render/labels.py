"""The words drawn on the pictures, in the reader's language (en, zh-TW, zh-CN).

The render layer sits below the cogs and cannot use their catalogue (``cogs.i18n`` imports
discord), so the few words a picture holds live here. A locale is what the cog already keeps per
person (``"en"``, ``"zh-TW"``, ``"zh-CN"``, or a Discord locale that starts with one of them);
``None`` keeps the pictures as they were before labels followed the reader (Traditional
Chinese). 台/番 item names are never translated: they stay as the rule documents write them.

    >>> label("en", "round", wind=wind("en", 1), n=6, left=12)
    'South round · hand 6 · 12 left'
    >>> label("zh-CN", "round", wind=wind("zh-CN", 1), n=6, left=12)
    '南风圈 第6局 · 剩 12 张'
"""

from __future__ import annotations

from engine.tiles import tile_name

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


def relative(locale: object, seat: int, reader: int) -> str:
    """Where ``seat`` sits seen from ``reader``: 下家 / 對家 / 上家 (right / across / left)."""
    return label(locale, f"rel.{(seat - reader) % 4}")


def all_labels() -> str:
    """Every character a label can hold, for the font subset and for warm-up."""
    return "".join(sorted({c for forms in _LABELS.values() for text in forms for c in text}))
