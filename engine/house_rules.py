"""House rules: the taiwan16 variants real tables play, as named switches and presets.

Rule document 000 is the default; every switch's default is the document's value, so a table
that sets nothing plays the document. A host picks a preset (:data:`PRESETS`) and may flip single
switches on top. :class:`HouseRules` is the one value a table carries
(``TableOptions.house_rules``); the scorer reads it as data — item values, exclusions and
conditions named in the item table (``engine/scoring/taiwan16.py``) — and the game reads the
winning forms a switch adds (嚦咕嚦咕). Values are documented in docs/rules/taiwan16.md
("House rules").

    >>> hr = HouseRules.resolve("common", {"river_bottom_tai": 0})
    >>> hr["heavenly_tai"], hr["river_bottom_tai"], hr.preset_name()
    (24, 0, None)
    >>> HouseRules.resolve("document") == HouseRules()
    True
    >>> HouseRules.resolve("house")
    Traceback (most recent call last):
    ...
    ValueError: unknown house-rules preset 'house' (known: common, document, funclub, online)

This module imports nothing from the engine: ``engine.rules`` holds a :class:`HouseRules` in its
:class:`~engine.rules.TableOptions`, and the scoring package builds on ``engine.rules``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

Value = int | bool


@dataclass(frozen=True, slots=True)
class Switch:
    """One house-rule switch: its name, how players write it, the document's value, the values a
    table may choose, the winning form it adds when on (``engine.forms.FORMS``), and whether the
    game rather than the item table reads it."""

    name: str
    label: str
    default: Value
    choices: tuple[Value, ...]
    adds_form: str | None = None
    # the game reads it (a decision point it opens), not the item table: 八仙過海可不胡
    game: bool = False

    def check(self, value: object) -> Value:
        """``value`` if this switch accepts it, else ValueError naming the choices."""
        same_type = isinstance(value, bool) == isinstance(self.default, bool) and isinstance(value, int)
        if not same_type or value not in self.choices:
            shown = ", ".join(_show(c) for c in self.choices)
            raise ValueError(f"house rule {self.name} ({self.label}) must be one of {shown}, got {value!r}")
        return value  # type: ignore[return-value]


def _show(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


# every switch, grouped as the issue lists them; the default is document 000's value
VARIANT_OF = "taiwan16"  # the rule set whose house rules these switches and presets are (document 000/003)

SWITCHES: tuple[Switch, ...] = (
    # limit hands
    Switch("heavenly_tai", "天胡", 16, (16, 24)),
    # what 天胡 / 地胡 add on top, as the 台 of it: 0 nothing, 1 自摸 only, 3 門清自摸 (門清/自摸 as they apply)
    Switch("heavenly_adds", "天胡加計", 0, (0, 1, 3)),
    Switch("heavenly_no_dealer", "天胡不計莊家", False, (False, True)),  # no 莊家 / 連莊 paid
    Switch("heavenly_alone", "天胡不計他台", False, (False, True)),  # 天胡 and nothing else of the hand
    Switch("heavenly_with_single_wait", "天胡計獨聽", False, (False, True)),
    Switch("earthly_tai", "地胡", 8, (8, 16)),
    Switch("earthly_adds", "地胡加計", 0, (0, 1, 3)),
    Switch("earthly_self_drawn_only", "地胡限自摸", False, (False, True)),  # a first-go-round discard win is not 地胡
    Switch("human_tai", "人胡", 0, (0, 8, 16)),  # 0: no such item (the document scores it as 地胡)
    Switch("five_concealed_tai", "五暗刻", 16, (16, 8)),
    Switch("five_concealed_with_pongs", "五暗刻計碰碰胡", False, (False, True)),
    Switch("little_four_winds_tai", "小四喜", 16, (16, 8)),
    Switch("flower_kong_tai", "花槓", 1, (1, 2)),
    # stacking
    Switch("all_honours_worth", "字一色", 16, (16, 8)),
    Switch("all_honours_with_pongs", "字一色計碰碰胡", False, (False, True)),
    Switch("all_honours_with_dragons", "字一色計三元牌", False, (False, True)),
    Switch("all_honours_with_winds", "字一色計風台", False, (False, True)),
    Switch("little_dragons_with_dragons", "小三元計三元牌", False, (False, True)),
    Switch("big_four_winds_with_concealed", "大四喜計暗刻", False, (False, True)),
    Switch("big_four_winds_with_winds", "大四喜計風台", False, (False, True)),
    Switch("little_four_winds_with_concealed", "小四喜計暗刻", False, (False, True)),
    Switch("little_four_winds_with_winds", "小四喜計風台", False, (False, True)),
    Switch("all_claimed_with_single_wait", "全求人計獨聽", False, (False, True)),
    Switch("half_claimed_with_single_wait", "半求人計獨聽", False, (False, True)),
    # extra items (0: not an item, as in the document)
    Switch("river_bottom_tai", "河底撈魚", 0, (0, 1)),
    Switch("half_self_reliant_tai", "半求人", 0, (0, 1)),
    Switch("ready_tai", "聽牌", 0, (0, 1)),
    Switch("heavenly_ready_tai", "天聽", 0, (0, 8, 16)),
    Switch("earthly_ready_tai", "地聽", 0, (0, 8, 4)),  # on: a non-dealer's 天聽 is 地聽, the dealer's stays 天聽
    Switch("heavenly_ready_replaces_miji", "天聽不計Miji", False, (False, True)),  # one 報聽, paid once
    Switch("heavenly_ready_no_concealed", "天聽不計門清", False, (False, True)),
    # who may have 天聽 besides the dealer: a non-dealer only with a ready dealt hand, or nobody
    Switch("heavenly_ready_dealt", "閒家天聽限配牌聽", False, (False, True)),
    Switch("heavenly_ready_dealer_only", "天聽限莊家", False, (False, True)),
    Switch("miji_tai", "Miji", 8, (8, 4)),
    Switch("miji_keeps_concealed", "Miji計門清", False, (False, True)),
    # an extra winning form
    Switch("lugu_tai", "嚦咕嚦咕", 0, (0, 8, 16), adds_form="lugu"),
    Switch("lugu_no_concealed", "嚦咕嚦咕不計門清", False, (False, True)),
    # 平胡 variants
    Switch("ping_hu_honour_pair", "平胡可字眼", False, (False, True)),
    Switch("ping_hu_flowers", "平胡可有花", False, (False, True)),
    Switch("ping_hu_any_wait", "平胡不限聽二洞", False, (False, True)),
    Switch("ping_hu_no_wait_rule", "平胡不限聽牌", False, (False, True)),  # pair wait and 獨聽 too
    Switch("ping_hu_pair_wait", "平胡可聽眼", False, (False, True)),  # a pair wait, never 獨聽
    Switch("ping_hu_open_only", "門清無平胡", False, (False, True)),
    # 槓上開花
    Switch("kong_bloom_kong_only", "槓上開花限槓", False, (False, True)),
    # 八仙過海 / 七搶一 paid at once (8 台, no 底) while the hand goes on
    Switch("flower_win_as_bonus", "八仙過海即收", False, (False, True)),
    # 八仙過海 / 七搶一 offered as 胡 / 過 rather than declared by the system; declined, the hand goes on
    Switch("flower_win_optional", "八仙過海可不胡", False, (False, True), game=True),
)
# a switch's earlier name -> how its value reads now (stored tables and requests keep working)
RENAMED: dict[str, tuple[str, dict[Value, Value]]] = {
    "heavenly_with_self_draw": ("heavenly_adds", {False: 0, True: 3}),  # was: 門清自摸 on top, or nothing
}
BY_NAME: dict[str, Switch] = {s.name: s for s in SWITCHES}

# preset name -> the switches it changes from the document
PRESETS: dict[str, dict[str, Value]] = {
    "document": {},
    # the values most Taiwanese apps and published 台數表 use
    "common": {
        "heavenly_tai": 24,
        "earthly_tai": 16,
        "human_tai": 8,
        "five_concealed_tai": 8,
        "five_concealed_with_pongs": True,
        "little_four_winds_tai": 8,
        "flower_kong_tai": 2,
        "river_bottom_tai": 1,
        "lugu_tai": 8,
    },
}
# families of published tables, each where it differs from `common` (which tables: docs/rules/taiwan16.md,
# "Families of tables", with the file and clause of the source behind every value); resolvable by name
# like PRESETS (the calculator's "preset", /mahjong create's preset)
FAMILIES: dict[str, dict[str, Value]] = {}
FAMILIES["funclub"] = {  # Funclub 口袋麻將's 台數表, as SkyEye-FAST/taiwan-mahjong's POCKET_COMMON profile scores it
    **{k: v for k, v in PRESETS["common"].items() if k != "lugu_tai"},  # no 嚦咕嚦咕 in that table
    "flower_kong_tai": 1,
    "half_self_reliant_tai": 1,
    "ready_tai": 1,
    "heavenly_ready_tai": 16,
    "earthly_ready_tai": 8,
    # its exclusion graph names only these: everything else stacks
    "heavenly_with_single_wait": True,  # 天胡 → 門清自摸, 門清, 自摸, 槓上開花
    "earthly_self_drawn_only": True,  # OpeningWin.EARTHLY requires a self-draw
    "heavenly_ready_no_concealed": True,  # 天聽 → 門清, 聽牌
    "all_honours_with_winds": True,  # 字一色 → 碰碰胡 only
    "all_honours_with_dragons": True,
    "big_four_winds_with_winds": True,  # 大四喜 / 小四喜: no exclusions at all
    "big_four_winds_with_concealed": True,
    "little_four_winds_with_winds": True,
    "little_four_winds_with_concealed": True,
    "all_claimed_with_single_wait": True,  # 全求人 / 半求人 and 獨聽 both count
    "half_claimed_with_single_wait": True,
    "ping_hu_no_wait_rule": True,  # PinfuPolicy.DISCARD_SEQUENCES: no wait condition
}
FAMILIES["online"] = {  # taiwan-mahjong-no-1/taiwan-mahjong's 規格書 3.6 台數表 (src/engine/scoring.ts, its 61 cases)
    **{k: v for k, v in PRESETS["common"].items() if k != "human_tai"},  # no 人胡
    "earthly_adds": 3,
    "half_self_reliant_tai": 1,
    "miji_tai": 4,
    "miji_keeps_concealed": True,  # T06 門清 1、咪幾 4
    "heavenly_ready_tai": 8,
    "heavenly_ready_replaces_miji": True,
    "heavenly_ready_dealer_only": True,  # 天聽：莊家打出第一張牌就報聽
    "lugu_no_concealed": True,
    "ping_hu_any_wait": True,  # 平胡: all chows, no honour, no flower, no self-draw, not 獨聽
    "ping_hu_pair_wait": True,
    "flower_win_as_bonus": True,  # 八仙過海／七搶一（立即收分）
    "heavenly_tai": 24,
    "heavenly_alone": True,  # X09 天胡 24: 固定 24 台，不另計莊家與其他台
    "heavenly_no_dealer": True,
    "earthly_self_drawn_only": True,  # earthly = a non-dealer's self-draw on the first draw
    "little_dragons_with_dragons": True,  # L03 小三元（另計兩組三元牌刻）
    "all_honours_with_pongs": True,  # L07 字一色 16、小四喜 8、碰碰胡 4、三元牌刻 …
    "all_honours_with_dragons": True,
    "all_honours_with_winds": True,  # the 風 block: 圈風刻 / 門風刻 unless 大四喜 or 小四喜
    "big_four_winds_with_concealed": True,  # 暗刻 are counted apart from the 風 block
    "little_four_winds_with_concealed": True,
    "kong_bloom_kong_only": True,  # kongDraw is set by a kong's replacement only
}
# what a named source's table holds that no switch expresses (shown with the preset: /mahjong help)
PRESET_SOURCES: dict[str, tuple[str, str]] = {
    "document": ("rule document 000 (老子有錢 Online)", ""),
    "common": ("the values most published Taiwanese 台數表 agree on", ""),
    "funclub": (
        "Funclub 口袋麻將 (pocket.funclub.com.tw/rule) as SkyEye-FAST/taiwan-mahjong scores it (POCKET_COMMON)",
        "no 滿台 cap (a table option here); no 眼牌 / Miji in its table (this bot keeps document 000's "
        "declarations); a 八仙過海 completed on a replacement that also wins adds that hand's 台 there",
    ),
    "online": (
        "taiwan-mahjong-no-1/taiwan-mahjong (src/engine/scoring.ts DEFAULT_TAI, tests/fixtures/scoring-cases)",
        "豹子 (three equal dice) doubling every payment; seat winds and 正花 counted from the seat that breaks "
        "the wall; a fixed 16-tile reserve (no tile more per kong); 碰過水; 吃 barring both ends of the run; "
        "報聽 only for 天聽 / 咪幾 (here Miji is the 眼牌 button); no 滿台 cap (a table option here)",
    ),
}
DEFAULT_PRESET = "document"
KNOWN_PRESETS: dict[str, dict[str, Value]] = {**PRESETS, **FAMILIES}


# how a switch may be written: its name, its label, or the label in Simplified characters
_SIMPLIFIED = str.maketrans("槓無獨聽莊計過門開風嚦撈魚閒", "杠无独听庄计过门开风呖捞鱼闲")
_SPELLINGS: dict[str, Switch] = {
    **{s.name.lower(): s for s in SWITCHES},
    **{s.label.lower(): s for s in SWITCHES},
    **{s.label.translate(_SIMPLIFIED).lower(): s for s in SWITCHES},
}
_ON_OFF = {"on": True, "true": True, "yes": True, "開": True, "开": True, "off": False, "false": False, "no": False,
           "關": False, "关": False}  # fmt: skip
_ENTRY = re.compile(r"(\S+?)(?:\s*[=:：]\s*|\s+)(\S+)")


def find_switch(word: str) -> Switch | None:
    """The switch written ``word`` — its name (``all_honours_with_winds``), its label (``字一色計風台``)
    or that label in Simplified characters (``字一色计风台``); None for no switch."""
    return _SPELLINGS.get(word.strip().lower())


def parse_value(switch: Switch, text: str) -> Value:
    """``text`` as a value of ``switch`` (on / off / true / false / 開 / 關, or a number); ValueError
    naming the choices for anything else."""
    word = text.strip().lower()
    value: object = _ON_OFF.get(word, int(word) if word.lstrip("-").isdigit() else word)
    return switch.check(value)


def parse_switches(text: str) -> dict[str, Value]:
    """Switches as a host types them, one or more separated by commas: a switch alone is on
    (``字一色計風台``), else it is followed by its value (``天胡 24``, ``miji_tai=4``, ``河底撈魚: off``).

        >>> parse_switches("字一色計風台, 天胡 24 、miji_tai=4")
        {'all_honours_with_winds': True, 'heavenly_tai': 24, 'miji_tai': 4}

    ValueError names an unknown switch or a value a switch does not take."""
    out: dict[str, Value] = {}
    for entry in re.split(r"[,，、;；·\n]+", text):
        entry = entry.strip()
        if not entry:
            continue
        switch = find_switch(entry)
        value: Value | None = None
        if switch is None:
            match = _ENTRY.fullmatch(entry)
            switch = find_switch(match.group(1)) if match else None
            if switch is None or match is None:
                raise ValueError(f"unknown house rule {entry!r}: write a switch's name or label, e.g. 天胡 24")
            value = parse_value(switch, match.group(2))
        elif not isinstance(switch.default, bool):
            shown = ", ".join(_show(c) for c in switch.choices)
            raise ValueError(f"house rule {switch.name} ({switch.label}) needs a value: one of {shown}")
        out[switch.name] = True if value is None else value
    return out


def _known(kind: str, name: object, known: Iterable[str]) -> str:
    return f"unknown {kind} {name!r} (known: {', '.join(sorted(known))})"


def _renamed(changes: Mapping[str, object]) -> dict[str, object]:
    """``changes`` with every switch's earlier name (:data:`RENAMED`) read as today's switch."""
    out: dict[str, object] = {}
    for name, value in changes.items():
        if name in RENAMED:
            new, values = RENAMED[name]
            if not isinstance(value, bool):
                raise ValueError(f"house rule {name} must be one of false, true, got {value!r}")
            name, value = new, values[value]
        out[name] = value
    return out


class HouseRules(Mapping[str, Value]):
    """Every switch's value for one table: a read-only mapping ``name -> value`` that stores only
    what differs from the document, so it is hashable, compares by value and prints small.

    Build it with :meth:`resolve` (a preset plus overrides) or :meth:`from_dict`; an unknown
    switch or a value a switch does not offer raises ValueError listing what is known.
    """

    __slots__ = ("_changes", "_values")

    def __init__(self, changes: Mapping[str, object] | None = None) -> None:
        checked: dict[str, Value] = {}
        for name, value in _renamed(changes or {}).items():
            switch = BY_NAME.get(name)
            if switch is None:
                raise ValueError(_known("house rule", name, BY_NAME))
            checked[name] = switch.check(value)
        self._changes = tuple(sorted((n, v) for n, v in checked.items() if v != BY_NAME[n].default))
        self._values = {s.name: s.default for s in SWITCHES} | dict(self._changes)  # every switch

    @classmethod
    def resolve(cls, preset: str | None = None, overrides: Mapping[str, object] | None = None) -> HouseRules:
        """A preset (default: the document's) with single switches changed on top."""
        name = DEFAULT_PRESET if preset is None else preset
        if name not in KNOWN_PRESETS:
            raise ValueError(_known("house-rules preset", name, KNOWN_PRESETS))
        return cls({**KNOWN_PRESETS[name], **(overrides or {})})

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HouseRules:
        return cls(data)

    def to_dict(self) -> dict[str, Value]:
        """The switches that differ from the document (JSON-safe; ``{}`` for the document)."""
        return dict(self._changes)

    def __getitem__(self, name: str) -> Value:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(BY_NAME)

    def __len__(self) -> int:
        return len(BY_NAME)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, HouseRules):
            return self._changes == other._changes
        return super().__eq__(other)

    def __hash__(self) -> int:
        return hash(self._changes)

    def __repr__(self) -> str:
        return f"HouseRules({dict(self._changes)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (HouseRules, (dict(self._changes),))

    def __deepcopy__(self, memo: dict[int, Any]) -> HouseRules:
        return self  # immutable

    @property
    def is_document(self) -> bool:
        return not self._changes

    def forms(self) -> tuple[str, ...]:
        """Winning forms the switches that are on add (e.g. ``("lugu",)`` for 嚦咕嚦咕)."""
        forms = (BY_NAME[n].adds_form for n, v in self._changes if v)
        return tuple(f for f in forms if f is not None)

    def preset_name(self) -> str | None:
        """The preset these values are exactly, or None for a custom mix."""
        for name, changes in KNOWN_PRESETS.items():
            if HouseRules(changes) == self:
                return name
        return None

    def describe(self) -> list[str]:
        """The variants that are on, as players write them: ``["天胡 24", "河底撈魚 1", "平胡可有花"]``."""
        out = []
        changes = dict(self._changes)
        for name, value in ((s.name, changes[s.name]) for s in SWITCHES if s.name in changes):
            label = BY_NAME[name].label
            out.append(label if isinstance(value, bool) and value else f"{label} {_show(value)}")
        return out

    def summary(self) -> str:
        """One line for the lobby and the score sheet: the preset's name (or "custom") and the
        variants that are on; "" at a document table.

            >>> HouseRules.resolve("common", {"ready_tai": 1}).summary()[:28]
            'custom: 天胡 24 · 地胡 16 · 人胡 8'
        """
        if self.is_document:
            return ""
        return f"{self.preset_name() or 'custom'}: {' · '.join(self.describe())}"
