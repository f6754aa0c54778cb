"""Leaderboard, stats and history embeds: every language complete, numbers shown right, phone-sized."""

from __future__ import annotations

import string
from collections.abc import Callable
from dataclasses import replace

import pytest

from cogs import i18n
from cogs.mahjong.stats import (
    history_embed,
    leaderboard_embed,
    pages_for,
    rules_label,
    stats_embed,
)
from data.records import LeaderRow, MatchSummary, PlayerStats, Standing

# the stats part of the one catalogue
STRINGS = {
    lang: {k: v for k, v in strings.items() if k.split(".")[0] in ("lb", "stats", "hist")}
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


@pytest.mark.parametrize("lang", LANGUAGES)
def test_stats_embed_lists_every_number(lang: str) -> None:
    base = row(2, "Mei", -250, hands=20, wins=5, self_draws=5, deal_ins=1, best_tai=None)
    stats = PlayerStats(**{f: getattr(base, f) for f in LeaderRow.__dataclass_fields__}, players=7)
    embed = stats_embed(stats, "Mei", translator(lang))
    values = {f.name: f.value for f in embed.fields}
    s = STRINGS[lang]
    assert values[s["stats.rank"]] == s["stats.rank_value"].format(rank=2, players=7)
    assert values[s["stats.points"]] == "-250"
    assert values[s["stats.win_rate"]] == "25%"
    assert values[s["stats.self_draw_rate"]] == "100%"
    assert values[s["stats.deal_in_rate"]] == "5%"
    assert values[s["stats.best"]] == s["lb.none"]
    assert len(embed.fields) == 8 and all(f.inline for f in embed.fields)


def test_stats_embed_for_someone_who_never_played() -> None:
    embed = stats_embed(None, "Newcomer", translator("zh-TW"))
    assert embed.description == "Newcomer 在本伺服器還沒有打完一局。" and not embed.fields


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
    assert field.name == STRINGS[lang]["hist.match"].format(
        table=42, rules=i18n.STRINGS[lang]["rules.taiwan16"], hands=9
    )
    rows = field.value.splitlines()
    assert rows[0] == "🥇 Ann · 1,320"
    assert rows[1] == f"🥈 Bot {STRINGS[lang]['hist.ai']} · 1,000"
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
