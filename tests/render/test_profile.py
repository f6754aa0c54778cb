"""The profile card: what it writes, and that it fits a phone-sized picture whatever the name."""

from __future__ import annotations

import io

from PIL import Image

from cogs import i18n
from cogs.mahjong.ranked import profile_card
from data.records import PlayerFigures
from render.profile import HEIGHT, WIDTH, compose_profile, render_profile


def figures(**kw) -> PlayerFigures:
    numbers = dict(
        user_id=1, name="Mei", rules="taiwan16", points=1200, hands=40, wins=10, self_draws=4, deal_ins=6,
        calls=16, tai_sum=52, best_tai=16, best_hand=412, longest_streak=4, places=(3, 2, 2, 1),
        top_items=(("門清", 6), ("自摸", 4), ("清一色", 1)), rating=1723, rated_matches=8, rank=1, players=5,
    )
    return PlayerFigures(**(numbers | kw))  # type: ignore[arg-type]


def test_the_card_shows_rating_tier_places_and_rates_in_the_readers_language() -> None:
    tr = lambda key, **kw: i18n.t("zh-TW", key, **kw)  # noqa: E731
    canvas = compose_profile(profile_card(figures(), "小美", tr))
    texts = canvas.texts
    assert "小美" in texts and "1723" in texts and "雀豪" in texts
    assert ["一位", "二位", "三位", "四位"] == [t for t in texts if t.endswith("位") and len(t) == 2]
    assert ["38%", "25%", "25%", "12%"] == [t for t in texts if t.endswith("%")][:4]  # the chart's shares
    assert "平均名次 2.12" in texts and "25%" in texts and "40%" in texts  # win and call rates
    assert "16 台 (#412)" in texts and "連4" in texts
    assert any("門清 ×6" in t and "清一色 ×1" in t for t in texts)


def test_a_newcomer_card_draws_without_numbers_to_chart() -> None:
    tr = lambda key, **kw: i18n.t("en", key, **kw)  # noqa: E731
    card = profile_card(
        figures(places=(0, 0, 0, 0), wins=0, hands=1, tai_sum=0, best_tai=None, best_hand=None, rating=None,
                rated_matches=0, rank=None, top_items=()),
        "名前が長いプレイヤー🀄" * 4,
        tr,
    )
    png = render_profile(card)
    assert Image.open(io.BytesIO(png)).size == (WIDTH, HEIGHT)
    texts = compose_profile(card).texts
    assert "Unrated" in texts and "—" in texts and texts[2].endswith("…")  # the long name is shortened
