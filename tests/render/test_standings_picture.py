"""A tournament's standings picture (issue 42): every row's rank, name, points, duplicate score and
placements, the tie-break at its foot, readable on a phone (390 px: names and figures at 16 px, the small
words at 13 px), a large field listed to 64 rows and counted after."""

from __future__ import annotations

import io

from PIL import Image

from render.phone import on_screen
from render.standings import MOST_ROWS, StandingRow, compose_standings, render_standings

TIE = "Ranked by duplicate score, then points, the sum of placements, first places."
ROWS = [
    StandingRow(1, "alice", 3200, 1450.0, (1, 1)),
    StandingRow(2, "王小明", 1200, 800.5, (1, 3)),
    StandingRow(3, "bob the very long named player of the league", 400, -100.0, (2, 2)),
    StandingRow(4, "carol", -4800, -2150.5, (4, 4)),
]


def test_every_row_shows_rank_name_points_duplicate_score_and_placements_with_the_tie_break():
    cv = compose_standings(ROWS, "Night · final standings", TIE, locale="en")
    texts = cv.texts
    for figure in ("+3,200", "+1450.0", "王小明", "+800.5", "-100.0", "-4,800", "-2150.5", "1 · 3", "4 · 4"):
        assert figure in texts
    assert [str(n) for n in (1, 2, 3, 4)] == [t for t in texts if t in "1234" and len(t) == 1][:4]
    assert any(t.startswith("bob the very long") and t.endswith("…") for t in texts)  # cut to its column
    foot = texts[texts.index(next(t for t in texts if t.startswith("Ranked"))):]
    assert " ".join(foot) == TIE  # the tie-break, stated whole (wrapped to two lines at most)
    assert "Duplicate" in texts and "Points" in texts


def test_without_duplicate_walls_there_is_no_duplicate_column():
    rows = [StandingRow(r.rank, r.name, r.points, None, r.places) for r in ROWS]
    texts = compose_standings(rows, "Quick · final standings", "Ranked by points.", locale="en").texts
    assert "Duplicate" not in texts and "+1450.0" not in texts and "+3,200" in texts


def test_the_picture_reads_on_a_phone():
    cv = compose_standings(ROWS, "Night · final standings", TIE, locale="zh-TW")
    assert cv.im.width == 720
    sizes = {w.text: w.size for w in cv.written}
    assert on_screen(sizes["王小明"], cv.im.width) >= 16 and on_screen(sizes["+3,200"], cv.im.width) >= 16
    assert min(on_screen(w.size, cv.im.width) for w in cv.written) >= 13
    png = Image.open(io.BytesIO(render_standings(ROWS, "Night", TIE, "en")))
    assert png.format == "PNG" and png.width == 720


def test_a_large_field_is_listed_to_its_limit_and_counted_after():
    rows = [StandingRow(n, f"p{n}", 0, 0.0, (2,)) for n in range(1, MOST_ROWS + 11)]
    cv = compose_standings(rows, "Big", TIE, locale="en")
    assert f"p{MOST_ROWS}" in cv.texts and f"p{MOST_ROWS + 1}" not in cv.texts and "… and 10 more" in cv.texts
