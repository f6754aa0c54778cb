"""Colours and sizes shared by the hand image, the table image and the score sheet, so the
three pictures read as one set and the PNG palette can be built from one list."""

from __future__ import annotations

Colour = tuple[int, int, int]

FELT: Colour = (22, 84, 62)
FELT_DARK: Colour = (15, 62, 45)
FELT_LIGHT: Colour = (32, 104, 78)
TRAY: Colour = (18, 70, 52)
PANEL: Colour = (12, 44, 34)
PANEL_EDGE: Colour = (58, 128, 98)
TEXT: Colour = (240, 236, 222)
TEXT_DIM: Colour = (160, 190, 174)
GOLD: Colour = (242, 190, 40)
RED: Colour = (224, 64, 56)
WIN: Colour = (110, 220, 130)
LOSS: Colour = (255, 120, 110)
PAPER: Colour = (250, 246, 236)
INK: Colour = (40, 36, 30)
INK_DIM: Colour = (120, 110, 95)
RULE: Colour = (214, 204, 182)

UI_COLOURS: tuple[Colour, ...] = (
    FELT,
    FELT_DARK,
    FELT_LIGHT,
    TRAY,
    PANEL,
    PANEL_EDGE,
    TEXT,
    TEXT_DIM,
    GOLD,
    RED,
    WIN,
    LOSS,
    PAPER,
    INK,
    INK_DIM,
    RULE,
)

WIND_NAMES = "東南西北"
