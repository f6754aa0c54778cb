"""Render layer: sprites are distinct and scale exactly, images have the expected shape, the public
table never shows a concealed tile, names never crash the renderer."""

from __future__ import annotations

import io
import threading
from dataclasses import replace

import pytest
from PIL import Image

from engine.meld import Meld, MeldKind
from engine.tiles import parse_tiles
from engine.view import GameView, HandResult, ScoreItem, SeatPublic
from render import encode, fonts, hand, scoresheet, sprites, table
from render.demo import synthetic
from render.melds import laid_out

NAMES = ("阿明", "Bob", "🀄 Ünïcødé ✨ \u200d\u202e", "x" * 200)


@pytest.fixture(scope="module")
def state():
    return synthetic(seed=11)


def test_sprite_sizes_scale_exactly():
    for tile in (0, 9, 18, 27, 33, 41, sprites.BACK):
        one = sprites.sprite(tile, 1)
        two = sprites.sprite(tile, 2)
        assert one.size == sprites.size(1) == (30, 40)
        assert two.size == (2 * one.width, 2 * one.height)


def test_rotated_sprites_swap_width_and_height():
    upright = sprites.sprite(5, 1)
    assert sprites.sprite(5, 1, rotation=90).size == (upright.height, upright.width)
    assert sprites.sprite(5, 1, rotation=180).size == upright.size


def test_all_42_kinds_and_the_back_are_distinct():
    images = [sprites.sprite(t, 1).tobytes() for t in range(42)] + [sprites.sprite(sprites.BACK, 1).tobytes()]
    assert len(set(images)) == 43


def test_highlights_differ_from_the_plain_tile():
    plain = sprites.sprite(4, 1).tobytes()
    assert sprites.sprite(4, 1, sprites.DRAWN).tobytes() != plain
    assert sprites.sprite(4, 1, sprites.LAST).tobytes() != plain
    assert sprites.sprite(4, 1, sprites.DRAWN).tobytes() != sprites.sprite(4, 1, sprites.LAST).tobytes()


def test_sprites_are_cached():
    assert sprites.sprite(12, 2) is sprites.sprite(12, 2)


def test_unknown_tile_or_variant_is_refused():
    with pytest.raises(ValueError):
        sprites.sprite(42, 1)
    with pytest.raises(ValueError):
        sprites.sprite(0, 1, "sparkly")


def test_hand_image_shows_the_hand_the_drawn_tile_and_the_waits(state):
    cv = hand.compose_hand(state.mine)
    me = state.mine.seats[state.mine.viewer]
    faces = cv.faces
    drawn = [p for p in cv.placed if p.variant == sprites.DRAWN]
    assert [p.tile for p in drawn] == [state.mine.drawn]
    # concealed (sorted), drawn, open melds as they lie (the claimed tile where its source says),
    # flowers, waits; the 暗槓 as four backs
    open_melds = [t for m in me.melds if m.kind is not MeldKind.ANKONG for t, _ in laid_out(m, me.seat)]
    expected = list(state.mine.concealed) + [state.mine.drawn] + open_melds + list(me.flowers)
    expected += [t for t, _ in state.mine.waits]
    assert faces == expected
    assert sum(1 for p in cv.placed if p.tile == sprites.BACK) == 4
    assert cv.im.mode == "RGB"


def test_hand_image_width_is_stable_for_a_16_tile_hand(state):
    short = replace(state.mine, drawn=None, waits=())
    assert hand.hand_image(short).width == hand.hand_image(state.mine).width


def test_hand_image_needs_a_players_view(state):
    with pytest.raises(ValueError):
        hand.hand_image(state.public)


def test_hand_png_is_a_palette_png(state):
    data = hand.render_hand(state.mine)
    im = Image.open(io.BytesIO(data))
    assert im.format == "PNG" and im.mode == "P"
    assert im.size == hand.hand_image(state.mine).size


def test_table_shows_discards_melds_and_flowers_face_up(state):
    cv = table.compose_table(state.public, NAMES)
    shown = sorted(cv.faces)
    expected = []
    for seat in state.public.seats:
        expected += seat.discards + seat.flowers
        expected += [t for m in seat.melds if m.kind is not MeldKind.ANKONG for t in m.tiles]
    assert shown == sorted(expected)
    backs = sum(1 for p in cv.placed if p.tile == sprites.BACK)
    ankong = sum(len(m.tiles) for s in state.public.seats for m in s.melds if m.kind is MeldKind.ANKONG)
    assert backs == 4 + ankong  # each hand is one back beside its count, each 暗槓 four backs
    for seat in state.public.seats:
        assert f"×{seat.concealed_count}" in cv.texts


def test_table_shows_the_face_up_bonus_indicator_only_at_a_table_that_flips_one(state):
    without = table.compose_table(state.public, NAMES)
    assert "翻寶牌" not in without.texts
    flipped = table.compose_table(replace(state.public, bonus_indicator=33), NAMES)  # 中 face up
    assert "翻寶牌" in flipped.texts
    assert sorted(flipped.faces) == sorted([*without.faces, 33])


def test_a_declarers_hand_image_shows_the_other_hands_below_only_when_the_view_holds_them(state):
    mine = state.mine
    own = hand.compose_hand(mine)
    others = {s: tuple(parse_tiles("123456789m1234p5z")) for s in range(4) if s != mine.viewer}
    declarer = hand.compose_hand(replace(mine, others=others))
    extra = sorted(declarer.faces)
    for t in own.faces:
        extra.remove(t)
    assert extra == sorted(t for tiles in others.values() for t in tiles)
    assert declarer.im.height > own.im.height
    winds = [f"{'東南西北'[mine.seats[s].wind]}家" for s in ((mine.viewer + k) % 4 for k in (1, 2, 3))]
    assert [w for w in declarer.texts if w in winds] == winds  # 下家, 對家, 上家 in turn order


def test_table_of_a_players_view_still_hides_that_players_hand(state):
    cv = table.compose_table(state.mine, NAMES)  # a private view passed by mistake
    assert state.mine.drawn not in cv.faces or state.mine.drawn in [
        t for s in state.mine.seats for t in s.discards + s.flowers
    ]
    public = table.compose_table(state.public, NAMES)
    assert sorted(cv.faces) == sorted(public.faces)


def _hidden_only(view: GameView) -> GameView:
    seats = tuple(replace(s, melds=(), flowers=(), discards=(), concealed_count=16) for s in view.seats)
    return replace(view, seats=seats, last_discard=None)


def _ivory_pixels(im: Image.Image) -> int:
    """Pixels of the tile-face ivory (faces only: backs are jade, the felt is green)."""
    r, g, b = (
        ch.point(lambda v, lo=lo: 255 if v >= lo else 0)
        for ch, lo in zip(im.split(), (245, 240, 222), strict=True)
    )
    from PIL import ImageChops

    mask = ImageChops.multiply(ImageChops.multiply(r, g), b)
    return sum(mask.histogram()[255:])


def test_public_table_with_only_concealed_tiles_shows_no_tile_face(state):
    view = _hidden_only(state.public)
    cv = table.compose_table(view, NAMES)
    assert cv.faces == []
    assert sum(1 for p in cv.placed if p.tile == sprites.BACK) == 4  # one beside each count
    assert cv.texts.count("×16") == 4
    assert _ivory_pixels(cv.im) == 0
    # the same check sees faces when there are some
    assert _ivory_pixels(table.table_image(state.public, NAMES)) > 200


def test_ankong_stays_face_down_on_the_table_until_the_reveal(state):
    ankong = Meld(MeldKind.ANKONG, (33, 33, 33, 33))
    seats = list(_hidden_only(state.public).seats)
    seats[2] = replace(seats[2], melds=(ankong,), concealed_count=13)
    view = replace(state.public, seats=tuple(seats))
    assert 33 not in table.compose_table(view, NAMES).faces
    revealed = replace(view, phase="over", revealed={2: tuple(parse_tiles("123m456p789s1z"))})
    faces = table.compose_table(revealed, NAMES).faces
    assert faces.count(33) == 4 and faces.count(27) == 1


def test_table_image_is_square_and_bottom_seat_is_configurable(state):
    a = table.compose_table(state.public, NAMES, bottom=0)
    b = table.compose_table(state.public, NAMES, bottom=2)
    assert a.im.width == a.im.height
    assert a.im.size == b.im.size
    for cv, bottom in ((a, 0), (b, 2)):  # exactly the bottom seat's river is upright, in order
        upright = [p.tile for p in cv.placed if p.rotation == 0 and p.scale == table.RIVER_SCALE]
        assert upright == list(state.public.seats[bottom].discards)
        across = [p.tile for p in cv.placed if p.rotation == 180 and p.scale == table.RIVER_SCALE]
        assert across == list(state.public.seats[(bottom + 2) % 4].discards)


def test_last_discard_is_highlighted(state):
    cv = table.compose_table(state.public, NAMES)
    last = [p for p in cv.placed if p.variant == sprites.LAST]
    assert [p.tile for p in last] == [state.public.last_discard[1]]


def test_table_needs_four_names(state):
    with pytest.raises(ValueError):
        table.table_image(state.public, NAMES[:3])


def test_score_sheet_for_a_win_and_a_draw(state):
    cv = scoresheet.compose_score(state.result, NAMES, state.public)
    assert state.result.win_tile in cv.faces
    assert [p.tile for p in cv.placed if p.variant == sprites.DRAWN] == [state.result.win_tile]
    draw = HandResult(None, None, False, None, (), (), (), (), 0, "tai", (0, 0, 0, 0))
    draw_cv = scoresheet.compose_score(draw, NAMES)
    assert draw_cv.placed == []
    assert draw_cv.im.height < cv.im.height
    many = replace(state.result, items=tuple(ScoreItem(f"項目{i}", i) for i in range(14)), unit="fan")
    assert scoresheet.score_image(many, NAMES).width == scoresheet.WIDTH


def test_any_name_renders():
    names = ("", "\n\t", "😀" * 30, "Ωμέγα Привет عربي 漢字かなカナ한국어")
    for text in names:
        assert fonts.text_width(text, 16) >= 0
        assert fonts.text_width(fonts.fit(text, 16, 100), 16) <= 100 + fonts.text_width("…", 16)
    view = synthetic(3).public
    assert table.render_table(view, names)[:8] == b"\x89PNG\r\n\x1a\n"


def test_characters_outside_every_font_become_a_question_mark():
    runs = fonts.runs("中\U000f0000x", 16)  # a private-use character no font has
    assert "".join(r.text for r in runs) == "中?x"


def test_rendering_from_threads_gives_identical_pictures(state):
    expected = table.render_table(state.public, NAMES)
    results: list[bytes] = []

    def work() -> None:
        results.append(table.render_table(state.public, NAMES))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [expected] * 4


def test_palette_covers_the_ui():
    assert encode.palette().mode == "P"


def test_sizes_stay_within_the_budget(state):
    assert len(hand.render_hand(state.mine)) <= 60 * 1024
    assert len(table.render_table(state.public, NAMES)) <= 300 * 1024


def test_views_are_not_modified(state):
    before = (state.public, state.mine)
    table.render_table(state.public, NAMES)
    hand.render_hand(state.mine)
    assert (state.public, state.mine) == before
    assert isinstance(state.public.seats[0], SeatPublic)
