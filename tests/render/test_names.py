"""Player names render as written, in every script a table is likely to see: each character is
drawn with a real glyph of the font that draws it (never the font's .notdef box, never ``?``),
emoji sequences and flags stay whole, and the table and score sheet write each name as given."""

from __future__ import annotations

import unicodedata
from dataclasses import replace

import pytest

from render import demo, fonts, scoresheet, table
from render.demo import synthetic

SCRIPT_NAMES = {
    "traditional Chinese": "麻將王",
    "simplified Chinese": "张伟麻将",  # 张 and 伟 exist only in simplified
    "Japanese": "まーじゃん",
    "Korean": "마작",
    "Latin": "Zoë",
    "emoji": "🀄🔥",
    "emoji sequences": "👍🏽🇹🇼👨‍👩‍👧1️⃣❤️",
    "mixed": "Tanaka 田中 🐉",
}


def _notdef_glyphs(text: str, size: int) -> list[str]:
    """The characters of ``text`` that come out as their font's .notdef box or as ``?``."""
    bad = []
    for run in fonts.runs(text, size):
        with fonts.LOCK:
            notdef = run.font.getmask(fonts.NOTDEF_PROBE)
            notdef_key = (notdef.size, bytes(notdef))
            for ch in run.text:
                if unicodedata.category(ch) == "Cf" or 0xFE00 <= ord(ch) <= 0xFE0F or ch == " ":
                    continue  # joiners and selectors have no glyph of their own
                mask = run.font.getmask(ch)
                if (mask.size, bytes(mask)) == notdef_key:
                    bad.append(ch)
    if "?" not in text:
        bad += ["?"] * sum(r.text.count("?") for r in fonts.runs(text, size))
    return bad


def test_the_pip_installed_name_faces_are_found():
    files = [f.path.name for f in fonts.name_faces()]
    assert "NotoSansCJK-Regular.ttc" in files  # noto-cjk-sans-otc
    assert "NotoEmoji[wght].ttf" in files  # manimgx-fonts


@pytest.mark.parametrize("script", SCRIPT_NAMES)
@pytest.mark.parametrize("size", [15, 20, 34])
def test_a_name_in_each_script_draws_with_real_glyphs(script, size):
    name = SCRIPT_NAMES[script]
    assert _notdef_glyphs(name, size) == []
    assert "".join(r.text for r in fonts.runs(name, size)) == name


def test_the_notdef_check_sees_a_missing_glyph():
    assert _notdef_glyphs("中\U000f0000", 20) == ["?"]


def test_emoji_are_drawn_with_the_emoji_face():
    for run in fonts.runs("Zoë 🀄🔥", 20):
        expected = "Noto Emoji" if run.text == "🀄🔥" else "Noto Sans CJK TC"
        assert run.font.getname()[0] == expected


def test_emoji_sequences_and_flags_are_one_character_each():
    assert fonts.clusters("👍🏽🇹🇼👨‍👩‍👧1️⃣é") == ["👍🏽", "🇹🇼", "👨‍👩‍👧", "1️⃣", "é"]
    assert fonts.clusters("🇹🇼🇯🇵🇰") == ["🇹🇼", "🇯🇵", "🇰"]


def test_shortening_never_cuts_through_a_sequence():
    for name in ("🇹🇼" * 20, "👨‍👩‍👧" * 20, "Zoë" * 20):
        short = fonts.fit(name, 16, 80)
        assert short.endswith("…") and len(short) < len(name)
        kept = fonts.clusters(short[:-1])
        assert set(kept) <= set(fonts.clusters(name))
        assert fonts.text_width(short, 16) <= 80


def test_invisible_format_characters_are_dropped_not_replaced():
    text = "".join(r.text for r in fonts.runs("a\u202eb\u200bc\u200d", 16))
    assert text == "abc"


def test_labels_keep_the_bold_subset_and_names_get_the_same_weight():
    (label,) = fonts.runs("南風圈 第6局", 20)
    assert label.font is fonts.ui_font(20) and label.stroke == 0
    (name,) = fonts.runs("まーじゃん", 20)
    assert name.font.getname()[0] == "Noto Sans CJK TC" and name.stroke > 0  # faux bold


def _shortened(text: str, name: str) -> bool:
    return text.endswith("…") and name.startswith(text[:-1]) and len(text) > 1


def _four(names: list[str]) -> list[tuple[str, ...]]:
    padded = names + names[: (-len(names)) % 4]
    return [tuple(padded[i : i + 4]) for i in range(0, len(padded), 4)]


@pytest.mark.parametrize("names", _four(list(SCRIPT_NAMES.values())))
def test_the_table_writes_each_name_as_given_with_real_glyphs(names):
    cv = table.compose_table(synthetic(5).public, names)
    for name in names:  # as given, or shortened to fit its plate
        (written,) = [w for w in cv.written if w.text == name or _shortened(w.text, name)]
        assert _notdef_glyphs(written.text, written.size) == []


@pytest.mark.parametrize("names", _four(list(SCRIPT_NAMES.values())))
def test_the_score_sheet_writes_each_name_with_real_glyphs(names):
    state = synthetic(5)
    cv = scoresheet.compose_score(state.result, names, state.public)
    for name in names:  # the point-change cell: "胡 name", "放槍 name" or the name, maybe shortened
        labels = [tag + name for tag in ("", "胡 ", "自摸 ", "放槍 ")]
        cell = [w for w in cv.written if any(w.text == x or _shortened(w.text, x) for x in labels)]
        assert cell, f"{name!r} is not on the sheet"
        for w in cell:
            assert _notdef_glyphs(w.text, w.size) == []
    winner, loser = names[state.result.winner], names[state.result.loser]
    assert f"{winner} 胡 {loser} 放槍" in cv.texts


def test_the_demo_names_show_every_script():
    text = "".join(demo.NAMES)
    kinds = {unicodedata.name(c, "").split()[0] for c in text}
    assert {"CJK", "HIRAGANA", "HANGUL", "LATIN"} <= kinds
    assert "張" not in text and "张" in text  # a simplified-only character
    assert any(ord(c) >= 0x1F000 for c in text)  # emoji
    assert any(not c.isascii() for c in text if unicodedata.name(c, "").startswith("LATIN"))
    for name in demo.NAMES:
        assert _notdef_glyphs(name, 20) == []


def test_a_long_name_is_drawn_whole_on_two_lines_and_only_a_very_long_one_shortened():
    names = ("x" * 32, "麻将王很长的名字一二三四五六七八九十", "まーじゃん", "🀄" * 32)
    cv = table.compose_table(replace(synthetic(5).public), names)
    room = table.Layout().name_room
    for name in names[:3]:  # Discord's longest display name in Latin, a long Chinese one, a short one
        lines, size = table.name_lines(name, room)
        assert "".join(lines) == name and len(lines) <= 2
        assert all(line in cv.texts for line in lines)
    lines, size = table.name_lines(names[3], room)  # 32 emoji: more than two lines hold
    assert len(lines) == 2 and lines[1].endswith("…") and lines[0] + lines[1][:-1] in names[3]
    for w in cv.written:
        if w.text in lines:
            assert fonts.text_width(w.text, w.size) <= room
            assert _notdef_glyphs(w.text, w.size) == []
