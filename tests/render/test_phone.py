"""The pictures read on a phone (390 px wide): the hand's tiles at least 36 px and the table's
discards at least 16 px for every rule set; claimed tiles lie sideways where their discarder
sits; the claim prompt shows the tile on offer; names are written whole; labels follow the
reader's language."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.meld import Meld, MeldKind
from engine.tiles import parse_tiles
from render import fonts, hand, labels, phone, sprites, table
from render.demo import crowded, synthetic
from render.melds import laid_out

RULES = ("taiwan16", "taiwan13", "hongkong", "guangdong")


@pytest.mark.parametrize("rules", RULES)
def test_hand_tiles_are_at_least_36_px_on_a_phone(rules):
    state = synthetic(7, rules=rules)
    for view in (state.mine, replace(state.mine, drawn=None, phase="claim", offer=(3, 5))):
        cv = hand.compose_hand(view)
        assert phone.tile_width(cv, [2.0]) >= phone.HAND_TILE_MIN


def test_a_full_16_tile_hand_is_two_rows_and_a_13_tile_hand_is_narrower():
    tw, th = sprites.size(2)
    full = synthetic(7)
    seats = list(full.mine.seats)
    seats[0] = replace(seats[0], melds=(), flowers=())
    sixteen = replace(full.mine, seats=tuple(seats), concealed=tuple(parse_tiles("1112345678999m1234p")[:16]))
    cv = hand.compose_hand(sixteen)
    rows = sorted({p.y for p in cv.placed if p.scale == 2})
    assert len(rows) == 2
    assert [sum(1 for p in cv.placed if p.y == y) for y in rows] == [8, 9]  # 8 + 8 and the drawn tile
    hk = synthetic(7, rules="hongkong").mine
    assert hk.hand_size == 13
    assert hand.hand_image(hk).width < hand.hand_image(full.mine).width
    assert hand.geometry(hk).per_row == 7
    seven_wide = 2 * round(8 * 2) + 7 * (tw + 2) - 2 + round(10 * 2) + tw
    assert hand.hand_image(hk).width == seven_wide  # not a 17-tile strip at 13 tiles


def test_a_17_tile_hand_without_a_drawn_tile_stays_two_rows():
    view = replace(synthetic(7).mine, drawn=None, waits=())
    seats = list(view.seats)
    seats[0] = replace(seats[0], melds=(), flowers=())
    view = replace(view, seats=tuple(seats), concealed=tuple(parse_tiles("11123456789m1234p5z6z")[:17]))
    cv = hand.compose_hand(view)
    assert len({p.y for p in cv.placed}) == 2 and len(cv.placed) == 17


@pytest.mark.parametrize("rules", RULES)
def test_table_discards_are_at_least_16_px_on_a_phone(rules):
    view = synthetic(7, rules=rules).public
    cv = table.compose_table(view, synthetic(7).names)
    assert phone.tile_width(cv, table.RIVER_SCALES) >= phone.DISCARD_MIN


def test_a_long_river_keeps_its_tiles_readable_and_off_the_plates():
    view = synthetic(7).public
    seats = tuple(replace(s, discards=tuple(range(24))) for s in view.seats)
    cv = table.compose_table(replace(view, seats=seats, last_discard=None), synthetic(7).names)
    assert phone.tile_width(cv, table.RIVER_SCALES) >= phone.DISCARD_MIN
    lay = table.Layout()
    boxes = [table.plate_box(lay, p) for p in range(4)]
    for placed in cv.placed:
        if placed.scale in table.RIVER_SCALES:
            w, h = sprites.sprite(placed.tile, placed.scale, placed.variant, placed.rotation).size
            for x0, y0, x1, y1 in boxes:
                assert placed.x + w <= x0 or placed.x >= x1 or placed.y + h <= y0 or placed.y >= y1


@pytest.mark.parametrize("rules", RULES)
def test_a_crowded_tables_melds_and_flowers_read_on_a_phone_and_keep_off_the_plates(rules):
    """Four kongs and all eight flowers at every seat (issue 39: 6 px before): two lines of 14 px or more."""
    view = replace(crowded(rules), viewer=None, concealed=(), drawn=None, waits=())
    cv = table.compose_table(view, synthetic(7).names)
    rows = [p for p in cv.placed if p.scale in (*table.ROW_SCALES, *table.ROW_SCALES_TWO)]
    assert sorted(p.tile for p in rows) == sorted(
        [t for s in view.seats for m in s.melds for t, _ in laid_out(m, s.seat, face_down=True)]
        + [t for s in view.seats for t in s.flowers]
    )
    assert phone.tile_width(cv, (*table.ROW_SCALES, *table.ROW_SCALES_TWO)) >= 14
    lay = table.Layout()
    boxes = [table.plate_box(lay, p) for p in range(4)]
    for placed in rows:
        w, h = sprites.sprite(placed.tile, placed.scale, placed.variant, placed.rotation).size
        for x0, y0, x1, y1 in boxes:
            assert placed.x + w <= x0 or placed.x >= x1 or placed.y + h <= y0 or placed.y >= y1


def test_the_bonus_indicator_is_as_large_as_a_discard_on_a_phone():
    view = synthetic(7, rules="hongkong").public
    cv = table.compose_table(view, synthetic(7).names)
    assert view.bonus_indicator in cv.faces
    assert phone.tile_width(cv, [table.INDICATOR_SCALE]) >= phone.DISCARD_MIN


@pytest.mark.parametrize(
    ("source", "at"),
    [(3, 0), (2, 1), (1, 2)],  # 上家: left, 對家: middle, 下家: right (of a pon)
)
def test_the_claimed_tile_lies_sideways_where_its_discarder_sits(source, at):
    meld = Meld.from_str("pon:555z", source=source)
    laid = laid_out(meld, owner=0)
    assert [side for _, side in laid] == [i == at for i in range(3)]


def test_a_chow_shows_which_tile_was_taken_and_a_concealed_kong_none():
    chi = Meld.from_str("chi:345m", claimed="4m", source=3)
    assert laid_out(chi, owner=0) == [(parse_tiles("4m")[0], True), *[(t, False) for t in parse_tiles("35m")]]
    kong = Meld.from_str("kong:1111s", source=2)
    assert [side for _, side in laid_out(kong, owner=0)] == [False, True, False, False]
    ankong = Meld(MeldKind.ANKONG, tuple(parse_tiles("9999s")))
    assert laid_out(ankong, owner=0) == [(sprites.BACK, False)] * 4


def _row_of(cv, pos: int):
    """The row tiles lying behind position ``pos``'s river (read back into the bottom frame)."""
    lay = table.Layout()
    out = []
    for p in cv.placed:
        if p.scale not in (*table.ROW_SCALES, *table.ROW_SCALES_TWO):
            continue
        w, h = sprites.sprite(p.tile, p.scale, p.variant, p.rotation).size
        x, y = p.x + w / 2 - lay.half, p.y + h / 2 - lay.half
        x, y = table._turn((4 - pos) % 4, x, y)
        if y > lay.row_y and abs(x) < lay.row_span(pos):
            out.append(p)
    return out


def test_the_table_turns_one_tile_of_each_claimed_meld_sideways_for_its_seat():
    view = synthetic(7).public
    turned = 0
    for bottom in (0, 2):
        cv = table.compose_table(view, synthetic(7).names, bottom=bottom)
        for seat in view.seats:
            pos = (seat.seat - bottom) % 4
            row = _row_of(cv, pos)
            laid = [t for m in seat.melds for t, _ in laid_out(m, seat.seat)] + list(seat.flowers)
            assert sorted(p.tile for p in row) == sorted(laid)  # the seat's melds lie in its own row
            claimed = [
                m.claimed for m in seat.melds if m.source is not None and m.kind is not MeldKind.ANKONG
            ]
            sideways = [p.tile for p in row if p.rotation == (90 * pos + 90) % 360]
            assert sorted(sideways) == sorted(claimed)
            turned += len(sideways)
    assert turned == 2 * 4  # the demo's four claimed melds, seen from two seats


def test_the_hand_turns_the_claimed_tile_of_each_own_meld():
    mine = synthetic(7).mine
    me = mine.seats[mine.viewer]
    cv = hand.compose_hand(mine)
    turned = [p.tile for p in cv.placed if p.rotation == 90]
    assert turned == [m.claimed for m in me.melds if m.kind is not MeldKind.ANKONG]
    chi = next(m for m in me.melds if m.kind is MeldKind.CHI)
    assert any(w == labels.label(None, "from", meld="吃", rel="上家") for w in cv.texts) == (chi.source == 3)


def test_the_claim_prompt_shows_the_tile_on_offer_and_who_let_it_go():
    mine = synthetic(7).mine
    offered = replace(mine, phase="claim", drawn=None, turn=3, offer=(3, 5))  # 上家 let 六萬 go
    cv = hand.compose_hand(offered, locale="en")
    assert [p.tile for p in cv.placed if p.variant == sprites.LAST] == [5]
    west = labels.wind("en", offered.seats[3].wind)
    assert f"{west} (left) discarded" in cv.texts
    own = hand.compose_hand(replace(offered, offer=(0, 5)))  # one's own discard is not offered
    assert [p for p in own.placed if p.variant == sprites.LAST] == []
    robbing = hand.compose_hand(replace(offered, phase="rob_kong"), locale="zh-TW")
    assert "上家（西家）加槓".replace("西", labels.wind("zh-TW", offered.seats[3].wind)) in robbing.texts


def test_the_last_discard_is_framed_thick_enough_to_see_on_a_phone():
    last = sprites.sprite(4, table.RIVER_SCALE, sprites.LAST).convert("RGB")
    plain = sprites.sprite(4, table.RIVER_SCALE).convert("RGB")
    h = last.height

    def orange(px):
        r, g, b = px
        return r > 200 and 50 < g < 160 and b < 100

    frame = 0
    while orange(last.getpixel((frame, h // 2))):
        frame += 1
    assert phone.on_screen(frame, table.Layout().size) >= 1.5  # a frame, not a hairline, at 390 px
    assert not orange(plain.getpixel((1, h // 2)))


def _plate_lines(cv, name):
    """The strings a plate wrote for ``name``: one line, or two that join to it."""
    texts = cv.texts
    if name in texts:
        return [name]
    for i in range(len(texts) - 1):
        if (texts[i] + texts[i + 1]).replace(" ", "") == name.replace(" ", ""):
            return texts[i : i + 2]
    return None


NAMES = [
    "阿明 麻將王",
    "张伟 麻将",
    "まーじゃん 마작",
    "Zoë 🀄🔥",
    "小明 Ming 🀄",
    "Tanaka 田中 🐉",
    "👍🏽🇹🇼👨‍👩‍👧 family",
    "Ωμέγα Привет",
    "Alexandria Montgomery",
    "麻将王很长的名字一二三四",
]


@pytest.mark.parametrize("shift", range(4))
def test_every_plate_writes_sample_names_whole(shift):
    view = synthetic(5).public
    for i in range(0, len(NAMES), 4):
        names = (NAMES[i:] + NAMES)[:4]
        names = tuple(names[(k + shift) % 4] for k in range(4))
        cv = table.compose_table(view, names)
        for name in names:
            lines = _plate_lines(cv, name)
            assert lines is not None, f"{name!r} not written whole"
            assert not any(line.endswith("…") for line in lines)


def test_wrap_breaks_at_spaces_then_between_characters():
    assert fonts.wrap("Alexandria Montgomery", 20, 140) == ("Alexandria", "Montgomery")
    assert fonts.wrap("Zoë", 20, 200, 1) == ("Zoë",)
    lines = fonts.wrap("麻将王很长的名字一二三四", 20, 130)
    assert lines is not None and len(lines) == 2 and "".join(lines) == "麻将王很长的名字一二三四"
    assert fonts.wrap("x" * 80, 20, 100) is None
    two = fonts.text_width("👨‍👩‍👧" * 2, 20)
    assert fonts.wrap("👨‍👩‍👧" * 3, 20, two) == ("👨‍👩‍👧👨‍👩‍👧", "👨‍👩‍👧")  # never inside a sequence


TRADITIONAL_ONLY = set("張聽槓風莊連對輪結寶萬東發條")


@pytest.mark.parametrize("rules", RULES)
def test_hand_labels_follow_the_readers_language(rules):
    state = synthetic(7, rules=rules)
    mine = replace(state.mine, phase="claim", drawn=None, offer=(3, 5))
    names = set(state.names)
    en = hand.compose_hand(mine, locale="en").texts
    assert "Ready" in en and "Waits" in en and any(t.endswith(" left") for t in en)
    assert not [t for t in en if any(ord(c) > 0x2E80 for c in t)]  # no Chinese in English labels
    cn = hand.compose_hand(mine, locale="zh-CN").texts
    assert "听" in cn and not [t for t in cn if TRADITIONAL_ONLY & set(t)]
    tw = hand.compose_hand(mine, locale="zh-TW").texts
    assert "聽" in tw
    assert hand.compose_hand(mine).texts == tw  # no locale: Traditional, as the pictures always were
    table_en = table.compose_table(state.public, state.names, locale="en").texts
    assert not [t for t in table_en if t not in names and any(ord(c) > 0x2E80 for c in t)]
    table_cn = table.compose_table(state.public, state.names, locale="zh-CN").texts
    assert not [t for t in table_cn if t not in names and TRADITIONAL_ONLY & set(t)]


def test_locale_of_reads_what_the_cog_holds():
    assert labels.locale_of(None) == "zh-TW"
    assert [labels.locale_of(x) for x in ("en", "en-US", "fr", "zh-TW", "zh-CN")] == [
        "en",
        "en",
        "en",
        "zh-TW",
        "zh-CN",
    ]

    class Locale:  # a discord.Locale-like enum member
        value = "zh-CN"

    assert labels.locale_of(Locale()) == "zh-CN"


def test_every_label_character_is_in_the_label_font():
    chars = fonts.ui_chars()
    assert [c for c in labels.all_labels() if c not in chars and not c.isspace()] == []


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from("aZ 麻將王张まー마작Ω👍🏽🇹🇼🀄x"), max_size=40))
def test_a_plate_name_always_fits_its_plate_in_two_lines_and_is_whole_unless_marked(name):
    room = table.Layout().name_room
    lines, size = table.name_lines(name, room)
    assert 1 <= len(lines) <= 2 and size in table.NAME_SIZES
    assert all(fonts.text_width(line, size) <= room for line in lines)
    if not lines[-1].endswith("…"):
        assert "".join(lines).replace(" ", "") == "".join(fonts.clusters(name)).replace(" ", "")


def test_the_tile_counts_and_scores_on_the_table_plates_read_on_a_phone():
    """Each seat's ``×n`` (its hidden tiles) and its score: at least 11 px on a 390-px display."""
    state = synthetic(7)
    cv = table.compose_table(state.public, state.names)
    width = cv.im.size[0]
    counts = {f"×{seat.concealed_count}" for seat in state.public.seats}
    sizes = [phone.on_screen(w.size, width) for w in cv.written if w.text in counts]
    assert len(sizes) == 4 and min(sizes) >= 11.0, sizes
