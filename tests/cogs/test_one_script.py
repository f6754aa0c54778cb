"""One script per language (issue 37): a zh-CN reader meets no Traditional character and a zh-TW reader no
Simplified one, document words included (the lobby's switches, house rules, statistics, score sheets); an
English reader reads English where the bot has the words (the round, the exchange button, the score
sheet's tag, /tai's items with their meaning, one way of writing a score)."""

from __future__ import annotations

from functools import partial

import pytest

from cogs import i18n
from cogs.calculator import result_embed
from cogs.mahjong import stats, texts
from cogs.mahjong.prompts import lobby_embed
from data.records import MatchSummary, PlayerFigures
from engine.house_rules import HouseRules
from engine.rules import TableOptions
from render import scoresheet
from render.labels import label
from table.lobby import TableSettings, TableState
from table.screens import lobby_screen
from tests.chinese import wrong_script

CHINESE = ("zh-TW", "zh-CN")
EVERY_SWITCH = TableOptions(
    self_draw_only=True,
    may_pass_win=True,
    min_tai=3,
    see_wind_see_flower=True,
    exchange=True,
    house_rules=HouseRules.resolve("common", {"ready_tai": 1}),
)


def lobby_text(options: TableOptions, lang: str) -> str:
    state = TableState(1, 2, 3, 4, TableSettings(options=options))
    embed = lobby_embed(lobby_screen(state), lang, "host")
    return "\n".join(f"{f.name} {f.value}" for f in embed.fields) + (embed.description or "")


@pytest.mark.parametrize("lang", CHINESE)
def test_the_lobby_writes_every_switch_and_house_rule_in_the_readers_script(lang):
    shown = lobby_text(EVERY_SWITCH, lang)
    assert i18n.t(lang, "lobby.flag_may_pass_win") in shown and i18n.t(lang, "lobby.flag_see_wind_see_flower") in shown
    assert not wrong_script(lang, shown), (wrong_script(lang, shown), shown)
    assert ": " not in shown.split("\n", 2)[-1]  # no ASCII colon among the full-width ones (家規 常見：…)


def test_an_english_lobby_says_the_switches_in_english_beside_the_documents_words():
    shown = lobby_text(EVERY_SWITCH, "en")
    assert "可過水 (a win may be passed)" in shown and "House rules custom: " in shown
    hongkong16 = TableState(1, 2, 3, 4, TableSettings("hongkong", options=TableOptions(hand_size=16)))
    assert "16 tiles" in " ".join(f.value for f in lobby_embed(lobby_screen(hongkong16), "en", "host").fields)
    assert "16 张" in " ".join(f.value for f in lobby_embed(lobby_screen(hongkong16), "zh-CN", "host").fields)


@pytest.mark.parametrize("lang", CHINESE)
def test_statistics_name_the_items_in_the_readers_script(lang):
    figures = PlayerFigures(
        1, "Ann", "taiwan16", 6600, 10, 3, 1, 2, 2, 12, 8, 5, 2, (1, 0, 0, 0), (("莊家", 3), ("門清", 2), ("風牌", 1))
    )
    embed = stats.figures_embed(figures, "Ann", partial(i18n.t, lang))
    shown = "\n".join(f"{f.name} {f.value}" for f in embed.fields)
    assert not wrong_script(lang, shown), shown
    assert ("庄家 ×3" if lang == "zh-CN" else "莊家 ×3") in shown


def test_history_marks_ai_seats_once_and_writes_scores_one_way():
    match = MatchSummary(7, "taiwan16", 1, 0.0, 1796169224.0, 4, (("Ann", 11, 6600), ("AI 2", None, -3700)))
    for lang in ("en", "zh-TW"):
        shown = stats.history_embed([match], partial(i18n.t, lang)).fields[0].value
        assert "🤖 AI 2 · -3,700" in shown and "6,600" in shown
        assert "(AI)" not in shown and "電腦" not in shown


def test_text_scores_are_written_as_the_pictures_write_them():
    line = i18n.t("en", "play.delta_line", name="Ann", delta=6600, score=-3700)
    assert line == "Ann: +6,600 → -3,700"
    assert i18n.t("zh-TW", "play.standing_line", rank=1, name="Ann", score=6600).endswith("6,600")


def test_english_readers_read_english_where_the_bot_has_the_words():
    assert "換牌" not in i18n.t("en", "btn.keep")
    assert label("en", "sheet.tag_tsumo").strip() == "Self-draw"  # the text beside the sheet says self-draw
    assert i18n.t("en", "ledger.pays").strip("💰 ")  # the ledger's field is named
    from engine.game import Game
    from tests.cogs.test_texts import NAMES  # noqa: F401 - the table text's round, in English

    view = Game(seed=1).view(None)
    assert texts.table_text(view, ["a", "b", "c", "d"], "en", "").startswith("**East round · hand")


def test_english_readers_get_the_meaning_of_each_tai_item():
    result = {"valid": True, "unit": "tai", "total": 2, "items": [{"name": "門清", "tai": 1}, {"name": "自摸", "tai": 1}]}
    shown = result_embed("123m", "2s", result, "en").description or ""
    assert "門清 (concealed hand) — 1 台" in shown and "自摸 (self-draw)" in shown
    zh = result_embed("123m", "2s", result, "zh-CN").description or ""
    assert "门清 — 1" in zh and not wrong_script("zh-CN", zh)
    assert set(i18n.GLOSSES) >= {i.name for r in ("taiwan16", "taiwan13", "hongkong", "guangdong") for i in _items(r)}


def _items(rules: str):
    from engine.scoring import get_rules

    return get_rules(rules).items


def test_the_first_feed_of_a_hand_does_not_speak_of_a_last_turn():
    from cogs.mahjong.feed import feed_text
    from engine.events import Event, EventKind
    from table.screens import feed_moves

    events = [Event(EventKind.DRAW, 1, 5, private=True), Event(EventKind.DISCARD, 1, 5)]
    assert feed_text(feed_moves(events, 0), 0, ["a", "b", "c", "d"], "en").startswith(i18n.t("en", "feed.title_first"))
    assert feed_text(feed_moves(events, 0), 1, ["a", "b", "c", "d"], "en").startswith(i18n.t("en", "feed.title"))


@pytest.mark.parametrize("lang", CHINESE)
def test_the_score_sheet_writes_item_names_in_the_readers_script(lang):
    from tests.render.test_tile_words import synthetic

    base = synthetic(11)
    from dataclasses import replace

    from engine.view import ScoreItem

    result = replace(base.result, items=(ScoreItem("莊家", 1), ScoreItem("门清", 1)), total=2, unit="tai")
    drawn = scoresheet.compose_score(result, base.names, locale=lang).texts
    items = [t for t in drawn if t in ("莊家", "庄家", "门清", "門清")]
    assert items and not wrong_script(lang, "".join(items)), items
