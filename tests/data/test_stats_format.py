"""Leaderboard, stats and history embeds: every language complete, numbers shown right, phone-sized."""

from __future__ import annotations

import string
from collections.abc import Callable
from dataclasses import replace

import pytest

from cogs import i18n
from cogs.mahjong.stats import (
    figures_embed,
    history_embed,
    leaderboard_embed,
    ledger_lines,
    pages_for,
    rating_board_embed,
    rules_label,
    server_embed,
    tier_label,
)
from data.records import (
    BigHand,
    ItemCount,
    LeaderRow,
    MatchSummary,
    PlayerFigures,
    RatingRow,
    ServerFigures,
    Standing,
)

# the stats part of the one catalogue
STRINGS = {
    lang: {k: v for k, v in strings.items() if k.split(".")[0] in ("lb", "stats", "hist", "tier", "ledger", "server", "ranking")}
    for lang, strings in i18n.STRINGS.items()
}
LANGUAGES = sorted(STRINGS)


def translator(lang: str) -> Callable[..., str]:
    """The catalogue as the cog has it."""
    return lambda key, **kw: i18n.t(lang, key, **kw)


def row(rank: int, name: str, points: int, **kw: int | None) -> LeaderRow:
    numbers = {"matches": 3, "hands": 40, "wins": 10, "self_draws": 4, "deal_ins": 5, "best_tai": 8} | kw
    return LeaderRow(rank=rank, user_id=1000 + rank, name=name, points=points, **numbers)


def lines(embed) -> list[str]:
    text = [embed.title or "", embed.description or "", embed.footer.text or ""]
    for field in embed.fields:
        text += [field.name, field.value]
    return [line for block in text for line in block.splitlines()]


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_language_has_the_same_keys_and_placeholders() -> None:
    english = STRINGS["en"]
    assert set(LANGUAGES) == {"en", "zh-TW", "zh-CN"}
    for lang in LANGUAGES:
        assert set(STRINGS[lang]) == set(english), lang
        for key, text in STRINGS[lang].items():
            assert placeholders(text) == placeholders(english[key]), (lang, key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_leaderboard_page_shows_each_player_compactly(lang: str) -> None:
    rows = [row(r, f"player {r}", 500 - 100 * r) for r in range(11, 21)]
    rows[0] = row(11, "*bold* @everyone", 1234, wins=0, self_draws=0, best_tai=None)
    embed = leaderboard_embed(rows, page=2, pages=3, rules="Taiwan 16", period=None, t=translator(lang))
    text = embed.description
    assert "11. **\\*bold\\* @\u200beveryone**" in text  # markdown and mentions of a name are neutralised
    assert "+1,234" in text and "-1,500" in text and "20." in text
    assert "Taiwan 16" in text and STRINGS[lang]["lb.all_time"] in text
    assert embed.footer.text == STRINGS[lang]["lb.page"].format(page=2, pages=3)
    assert "25%" in text and "40%" in text and "12%" in text  # win 10/40, self-draw 4/10, deal-in 5/40
    assert STRINGS[lang]["lb.best"].format(n=8, unit=i18n.t(lang, "unit.tai")) in text  # no rule set: 台
    assert len(embed) <= 6000 and len(text) <= 4096
    assert max(len(line) for line in lines(embed)) <= 48


def test_leaderboard_medals_for_the_first_three() -> None:
    embed = leaderboard_embed(
        [row(1, "a", 30), row(2, "b", 20), row(3, "c", 10), row(4, "d", 0)],
        page=1,
        pages=1,
        rules=None,
        period="This week",
        t=translator("en"),
    )
    assert [line.split()[0] for line in embed.description.splitlines() if "**" in line] == [
        "🥇",
        "🥈",
        "🥉",
        "4.",
    ]
    assert "*All rules · This week*" in embed.description


@pytest.mark.parametrize("lang", LANGUAGES)
def test_empty_leaderboard_says_so(lang: str) -> None:
    embed = leaderboard_embed([], page=1, pages=pages_for(0), rules=None, period=None, t=translator(lang))
    assert STRINGS[lang]["lb.empty"] in embed.description
    assert embed.footer.text == STRINGS[lang]["lb.page"].format(page=1, pages=1)


def test_pages_for_counts_whole_pages() -> None:
    assert [pages_for(n) for n in (0, 1, 10, 11, 20, 21)] == [1, 1, 1, 2, 2, 3]


def figures(**kw) -> PlayerFigures:
    numbers = dict(
        user_id=1, name="Mei", rules="taiwan16", points=-250, hands=20, wins=5, self_draws=5, deal_ins=1,
        calls=8, tai_sum=21, best_tai=9, best_hand=77, longest_streak=2, places=(1, 2, 0, 1),
        top_items=(("門清", 3), ("自摸", 5)), rating=1612, rated_matches=9, rank=2, players=7,
    )
    return PlayerFigures(**(numbers | kw))  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_stats_embed_lists_every_number(lang: str) -> None:
    embed = figures_embed(figures(), "Mei", translator(lang))
    values = {f.name: f.value for f in embed.fields}
    s = STRINGS[lang]
    assert values[s["stats.rating"]].splitlines() == [
        s["stats.rating_value"].format(rating=1612, tier=s["tier.3"]),
        s["stats.rating_rank"].format(rank=2, players=7),
    ]
    assert values[s["stats.points"]] == "-250"
    assert values[s["stats.places"]] == "1 / 2 / 0 / 1"
    assert values[s["stats.avg_place"]] == "2.25"  # (1 + 2 + 2 + 4) / 4
    assert values[s["stats.win_rate"]] == "25%"
    assert values[s["stats.self_draw_rate"]] == "100%"
    assert values[s["stats.deal_in_rate"]] == "5%"
    assert values[s["stats.call_rate"]] == "40%"
    assert values[s["stats.avg_tai"]] == "4.2 台"
    assert values[s["stats.best"]] == "9 台 (#77)"
    assert values[s["stats.streak"]] == s["stats.streak_value"].format(n=2)
    assert values[s["stats.top_items"]] == "門清 ×3\n自摸 ×5"


def test_a_new_player_is_provisional_then_gets_a_named_tier() -> None:
    t = translator("en")
    assert tier_label(None, 0, t) == "Unrated"
    assert tier_label(1100, 3, t) == "Provisional 3/5"
    assert [tier_label(r, 5, t) for r in (1000, 1400, 2200)] == ["Novice", "Adept", "Celestial"]
    assert tier_label(1850, 9, translator("zh-TW")) == "雀聖" and tier_label(1850, 9, translator("zh-CN")) == "雀圣"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rated_ladder_shows_rating_tier_and_average_place(lang: str) -> None:
    rows = [RatingRow(1, 5, "Ann", "taiwan16", 1720, 30.0, 3.0, 12, 2.0833), RatingRow(2, 6, "Bo", "taiwan16", 1100, 25, 7, 2, None)]
    embed = rating_board_embed(rows, page=1, pages=1, rules="taiwan16", min_matches=5, t=translator(lang))
    text = "\n".join(lines(embed))
    s = STRINGS[lang]
    assert s["lb.rating_player"].format(rank="🥇", name="Ann", rating=1720, tier=s["tier.4"]) in text
    assert i18n.t(lang, "lb.rating_line", matches=12, place="2.08") in text
    assert s["tier.provisional"].format(n=2, of=5) in text and i18n.t(lang, "lb.min", n=5) in text


def test_the_ledger_says_who_pays_whom_in_the_readers_language() -> None:
    names = ["Ann", "Bo", "Cy", "Di"]
    assert ledger_lines(names, [1500, -1200, -300, 0], translator("en")) == [
        "Bo pays Ann **1,200**",
        "Cy pays Ann **300**",
    ]
    assert ledger_lines(names, [0, 0, -50, 0], translator("zh-TW")) == ["Cy 中途離開，扣 **50**"]
    assert ledger_lines(names, [0, 0, 0, 0], translator("zh-CN")) == ["大家打平，不用付钱。"]


def test_the_server_view_lists_items_and_hands() -> None:
    server = ServerFigures(
        "taiwan13", 40, 12, (ItemCount("门清", 9, 30, "Ann"),), (ItemCount("国士无双", 1, 31, "Bo"),),
        (BigHand(31, 13, "Bo"),),
    )
    text = "\n".join(lines(server_embed(server, translator("en"))))
    assert "40 hands · 12 wins" in text and "门清 ×9" in text
    assert "国士无双 ×1 · last Bo (hand #31)" in text and "13 台 · Bo (hand #31)" in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_history_shows_standings_best_first_and_marks_ai(lang: str) -> None:
    match = MatchSummary(
        table_id=42,
        rules="taiwan16",
        rounds=1,
        started_at=1_700_000_000.0,
        finished_at=1_700_003_600.0,
        hands=9,
        standings=(
            Standing("Ann", 1, 1320),
            Standing("Bot", None, 1000),
            Standing("Cy", 3, 900),
            Standing("Di", 4, 780),
        ),
    )
    embed = history_embed([match], translator(lang))
    [field] = embed.fields
    assert field.name == i18n.t(lang, "hist.match", table=42, rules=i18n.STRINGS[lang]["rules.taiwan16"], hands=9)
    rows = field.value.splitlines()
    assert rows[0] == "🥇 Ann · 1,320"
    assert rows[1] == "🥈 " + i18n.t(lang, "lobby.ai_seat", name="Bot") + " · 1,000"  # 🤖 Bot, marked once
    assert rows[3].startswith("4. Di")
    assert "<t:1700003600:R>" in rows[4]


def test_history_of_a_quiet_server_and_of_a_busy_one() -> None:
    assert history_embed([], translator("en")).description == STRINGS["en"]["hist.empty"]
    many = [
        MatchSummary(n, "guangdong", 1, 0.0, float(n), 4, tuple(Standing(f"p{s}", s, 0) for s in range(4)))
        for n in range(40)
    ]
    embed = history_embed(many, translator("en"))
    assert len(embed.fields) == 25 and len(embed) <= 6000


def test_unknown_rules_show_their_id() -> None:
    assert rules_label("riichi", translator("en")) == "riichi"
    assert rules_label("hongkong", translator("zh-CN")) == i18n.STRINGS["zh-CN"]["rules.hongkong"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_best_hand_is_shown_in_its_own_rule_sets_unit(lang: str) -> None:
    t = translator(lang)
    shown = {}
    for rules in ("taiwan16", "hongkong"):
        best = replace(row(1, "Mei", 10, best_tai=7), best_rules=rules)
        shown[rules] = "\n".join(
            lines(leaderboard_embed([best], page=1, pages=1, rules=None, period=None, t=t))
        )
    assert "7 " + i18n.t(lang, "unit.tai") in shown["taiwan16"]
    assert "7 " + i18n.t(lang, "unit.fan") in shown["hongkong"]
