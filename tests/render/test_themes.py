"""Themes (issue 39 item 7): every theme draws every picture at the sizes a phone needs, felt is the picture
of before, ocean and sakura are decorated and not a colour swap of felt, and the contrast theme's suits stay
apart for colour-blind players, measured on the drawn tiles under simulated protanopia, deuteranopia and
tritanopia."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

import pytest

from render import dm, encode, hand, phone, scoresheet, sprites, table
from render.demo import crowded, hand_screen, synthetic
from render.replay import compose_step, render_animation, render_step
from render.theme import CONTRAST, FELT, FELT_SKIN, THEMES, get_theme
from table.lobby import THEMES as SETTING_NAMES

RULES = ("taiwan16", "taiwan13", "hongkong", "guangdong")
NAMES = tuple(THEMES)


def _public(view):
    return replace(view, viewer=None, concealed=(), drawn=None, waits=())


# ---------------------------------------------------------------------- colour vision

# Machado, Oliveira & Fernandes (2009), severity 1.0, on linear RGB
CVD = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def _linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _gamma(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)


def simulate(rgb, kind: str):
    lin = [_linear(v) for v in rgb]
    return tuple(_gamma(sum(row[j] * lin[j] for j in range(3))) for row in CVD[kind])


def lab(rgb):
    r, g, b = (_linear(v) for v in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def suit_inks(skin, suit: str) -> list[tuple[int, int, int]]:
    """The ink pixels of a suit's 1-9 as drawn (scale 2): every opaque pixel of the face far from the face's
    own colour, the body and the edge excluded (the face's rows and columns inside its border)."""
    base = {"m": 0, "p": 9, "s": 18}[suit]
    inks = []
    for n in range(9):
        im = sprites.sprite(base + n, 2, skin=skin).convert("RGB")
        w, h = im.size
        px = im.load()
        for y in range(round(h * 0.1), round(h * 0.8), 2):
            for x in range(round(w * 0.12), round(w * 0.88), 2):
                c = px[x, y]
                if math.dist(lab(c), lab(skin.face)) > 45:
                    inks.append(c)
    return inks


def _mean(colours):
    return tuple(sum(c[i] for c in colours) / len(colours) for i in range(3))


def worst_suit_distance(skin) -> tuple[float, str]:
    """The smallest ΔE (CIELAB) between two suits' inks over the colour visions: each suit's ink pixels are
    simulated, then their mean compared (a suit drawn in several inks averages them: it is its overall hue)."""
    inks = {s: suit_inks(skin, s) for s in "mps"}
    worst = (math.inf, "")
    for kind in CVD:
        means = {s: lab(_mean([simulate(c, kind) for c in inks[s][::7]])) for s in inks}
        for a, b in itertools.combinations("mps", 2):
            worst = min(worst, (math.dist(means[a], means[b]), f"{kind} {a}/{b}"))
    return worst


def test_the_contrast_suits_stay_apart_under_every_colour_blindness():
    distance, where = worst_suit_distance(CONTRAST.tiles)
    assert distance >= 40, where  # measured 54.8 (tritanopia, 筒/索); felt's suits 3.3


def test_the_measure_tells_felts_mixed_suits_apart_from_contrasts():
    """Felt's suits each mix red, green and blue: under some colour vision two suits average to near the same
    ink. The measure sees it, so its pass for contrast is not a pass by construction."""
    felt, _ = worst_suit_distance(FELT_SKIN)
    assert felt < 25
    assert worst_suit_distance(CONTRAST.tiles)[0] > 2 * felt


def test_a_contrast_suit_is_one_ink_and_its_edge_says_it_too():
    for suit, ink in CONTRAST.tiles.suits:
        drawn = suit_inks(CONTRAST.tiles, suit)
        near = sum(math.dist(lab(c), lab(ink)) < 30 for c in drawn) / len(drawn)
        assert near > 0.6, suit  # antialiasing aside, the marks are the ink
        im = sprites.sprite({"m": 4, "p": 13, "s": 22}[suit], 2, skin=CONTRAST.tiles).convert("RGB")
        edge = im.getpixel((im.width // 2, im.height - 4))
        assert math.dist(lab(edge), lab(ink)) < 20, suit


# ---------------------------------------------------------------------- every picture, every theme


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("name", NAMES)
def test_every_theme_draws_every_picture_at_a_phones_sizes(rules, name):
    state = synthetic(7, rules=rules)
    full = dm.compose_dm(hand_screen(crowded(rules, own_melds=2, river=30), state.names), name)
    assert full.theme is THEMES[name]
    assert phone.tile_width(full, dm.HAND_SCALES) >= 30
    assert phone.tile_width(full, [dm.RIVER_SCALE]) >= 14
    assert full.im.height <= dm.MAX_ASPECT * full.im.width
    busy = table.compose_table(_public(crowded(rules)), state.names, theme=name)
    assert phone.tile_width(busy, table.ROW_SCALES + table.ROW_SCALES_TWO) >= 14
    assert phone.tile_width(busy, table.RIVER_SCALES) >= phone.DISCARD_MIN
    assert phone.tile_width(hand.compose_hand(state.mine, theme=name), [2.0]) >= phone.HAND_TILE_MIN
    pngs = [
        dm.render_dm(hand_screen(state.mine, state.names), name),
        hand.render_hand(state.claim, theme=name),
        table.render_table(state.public, state.names, theme=name),
        scoresheet.render_score(state.result, state.names, state.public, theme=name),
        render_step(state.mine, state.names, "step", theme=name),
        render_animation([(state.mine, "a"), (state.public, "b")], state.names, theme=name),
    ]
    assert all(p[:4] in (b"\x89PNG", b"GIF8") for p in pngs)


@pytest.mark.parametrize("name", NAMES)
def test_a_theme_changes_colours_only_never_where_a_tile_lies(name):
    state = synthetic(7)
    screen = hand_screen(crowded(own_melds=2, river=30), state.names)
    for felt, themed in (
        (dm.compose_dm(screen), dm.compose_dm(screen, name)),
        (table.compose_table(state.public, state.names), table.compose_table(state.public, state.names, theme=name)),
        (hand.compose_hand(state.mine), hand.compose_hand(state.mine, theme=name)),
        (compose_step(state.mine, state.names, "x"), compose_step(state.mine, state.names, "x", theme=name)),
    ):
        assert themed.placed == felt.placed and themed.texts == felt.texts
        assert themed.im.size == felt.im.size


def test_felt_is_the_default_and_a_name_not_known_draws_felt():
    state = synthetic(7)
    screen = hand_screen(state.mine, state.names)
    before = dm.render_dm(screen)
    assert dm.render_dm(screen, "felt") == before == dm.render_dm(screen, "neon")
    assert table.render_table(state.public, state.names) == table.render_table(state.public, state.names, theme="felt")
    assert get_theme(None) is FELT and get_theme("neon") is FELT and get_theme(CONTRAST) is CONTRAST
    assert sprites.sprite(5, 1) is sprites.sprite(5, 1, skin=FELT.tiles)


def test_the_themes_a_setting_names_are_the_themes_drawn():
    from data.prefs import THEMES as PREF_NAMES  # /mahjong settings theme, stored per person

    assert tuple(THEMES) == SETTING_NAMES == PREF_NAMES


def test_the_themes_look_different_from_each_other():
    state = synthetic(7)
    pictures = {n: table.table_image(state.public, state.names, theme=n) for n in NAMES}
    for a, b in itertools.combinations(NAMES, 2):
        assert pictures[a].tobytes() != pictures[b].tobytes(), (a, b)
    backs = {n: sprites.sprite(sprites.BACK, 1, skin=THEMES[n].tiles).tobytes() for n in NAMES}
    assert len(set(backs.values())) == len(NAMES)  # each theme's tiles are backed in its own colour


@pytest.mark.parametrize("name", ["ocean", "sakura"])
def test_ocean_and_sakura_are_decorated_not_a_flat_cloth(name):
    theme = THEMES[name]
    cloth = theme.backdrop(480, 480)
    assert len(cloth.getcolors(1 << 20) or ()) > 200  # gradient and motifs; felt's is one colour
    assert len(FELT.backdrop(480, 480).getcolors(1 << 20) or ()) == 1
    assert theme.backdrop(480, 480) is cloth  # drawn once per size


def test_each_theme_has_its_own_palette_holding_its_colours():
    for name in NAMES:
        theme = THEMES[name]
        pal = encode.palette(theme).getpalette()[: 256 * 3]
        colours = [tuple(pal[i : i + 3]) for i in range(0, len(pal), 3)]
        for ui in (theme.felt, theme.panel, theme.text, theme.gold):
            assert min(math.dist(ui, c) for c in colours) < 12, (name, ui)
    assert encode.palette(FELT) is encode.palette()
