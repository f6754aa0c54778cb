"""The words of a table at play: status line, hand results with settlements beside the hand, and a
眼牌 declarer's named view of the other hands — in every language the catalogue has."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cogs import i18n
from cogs.mahjong import texts
from engine.game import Game
from engine.tiles import parse_tiles
from engine.view import HandResult, ScoreItem

NAMES = ("Ann", "Bo", "Cy", "Di")
LANGUAGES = sorted(i18n.STRINGS)


def win(**kw) -> HandResult:
    base = HandResult(
        winner=1,
        loser=2,
        self_drawn=False,
        win_tile=4,
        concealed=(),
        melds=(),
        flowers=(),
        items=(ScoreItem("平和", 1),),
        total=3,
        unit="multiplier",
        deltas=(0, 60, -60, 0),
    )
    return replace(base, **kw)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_results_text_names_the_winner_every_seats_change_and_each_settlement_beside_the_hand(lang):
    horses = (ScoreItem("庄家买马 5m", 20, 1), ScoreItem("明杠 ×1", 30, 3))
    text = texts.result_text(win(extras=horses), 7, NAMES, [100, 260, -300, -60], lang)
    lines = text.splitlines()
    assert "Bo" in lines[0] and "7" in lines[0] and i18n.t(lang, "unit.multiplier") in lines[0]
    bo, di = ("(Bo)", "(Di)") if lang == "en" else ("（Bo）", "（Di）")  # full-width in Chinese
    horse, kong = i18n.item_name(lang, "庄家买马 5m"), i18n.item_name(lang, "明杠 ×1")  # 莊家買馬 in zh-TW
    assert [line for line in lines if horse in line] == [lines[1]] and bo in lines[1]
    assert kong in lines[2] and di in lines[2] and "+30" in lines[2]
    assert len(lines) == 1 + 2 + 4
    assert "+60" in lines[4] and "260" in lines[4] and "-60" in lines[5]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_draw_games_text_has_no_winner_and_no_settlement_lines(lang):
    text = texts.result_text(win(winner=None, loser=None, deltas=(0, 0, 0, 0)), 2, NAMES, [0, 0, 0, 0], lang)
    lines = text.splitlines()
    assert lines[0] == i18n.t(lang, "play.hand_draw", n=2)
    assert len(lines) == 5


def test_the_table_status_names_the_discarder_and_the_tile_during_a_claim_window():
    game = Game(seed=7)  # the dealer's first discard, 1m, can be claimed
    seat = game.to_act()[0]
    game.apply(next(a for a in game.legal_actions(seat) if a.kind.value == "discard"))
    p = game.prompt(seat)
    assert p.claim_tile == parse_tiles("1m")[0] and p.discarder == seat
    text = texts.table_text(game.view(None), NAMES, "en", "in 8 s", notes=["a", "b", "c", "d"])
    assert NAMES[seat] in text and i18n.tile_label("en", p.claim_tile) in text
    assert "in 8 s" in text
    assert text.endswith("b\nc\nd")  # the last three notes only


def test_only_a_declarers_view_lists_the_other_hands_by_name():
    view = Game(seed=4).view(0)
    assert texts.others_text(view, NAMES, "en") == ""
    declared = replace(view, others={1: tuple(parse_tiles("123m")), 3: tuple(parse_tiles("55z"))})
    lines = texts.others_text(declared, NAMES, "en").splitlines()
    assert lines[0] == i18n.t("en", "play.dm_others")
    assert "Bo" in lines[1] and "123m" in lines[1] and "Di" in lines[2] and "55z" in lines[2]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_win_is_announced_with_hu_the_tile_and_the_value(lang):
    result = win()
    head = texts.result_text(result, 3, NAMES, [0, 0, 0, 0], lang).splitlines()[0]
    assert "胡" in head and i18n.tile_label(lang, result.win_tile) in head and str(result.total) in head
    moment = texts.win_moment(result, NAMES, lang)
    assert moment.startswith("🀄 **胡") and NAMES[result.winner] in moment
    assert i18n.tile_label(lang, result.win_tile) in moment


def test_a_draw_game_has_no_hu_moment():
    assert texts.win_moment(win(winner=None, loser=None, deltas=(0, 0, 0, 0)), NAMES, "en") == ""
    assert texts.win_moment(None, NAMES, "en") == ""


def test_the_prompt_line_of_a_turn_says_ready_or_not_and_what_ready_costs_in_its_mode():
    from engine.position import position

    game = position(hands={0: "123m456m789m123p456p5z9s"})
    line = texts.prompt_line(game.prompt(0), NAMES, "en", " · soon")
    assert line == i18n.t("en", "play.dm_turn", deadline=" · soon")
    picking = texts.prompt_line(game.prompt(0), NAMES, "en", "", mode="ready")
    free = i18n.t("en", "play.ready_cost", pays=i18n.t("en", "play.ready_free"))
    assert picking.splitlines() == [i18n.t("en", "play.dm_ready_pick", deadline=""), free]
    ready = replace(game.prompt(0), ready=True)  # a later turn of the same seat, 聽 declared
    assert texts.prompt_line(ready, NAMES, "en", "") == i18n.t("en", "play.dm_turn_ready", deadline="")


@pytest.mark.parametrize("lang", ["en", "zh-TW", "zh-CN"])
def test_the_ready_confirmation_names_what_this_table_pays_for_ready(lang):
    """Issue 37: document 000 pays nothing for 聽 (the default table), a house rule pays 聽牌 1 台, and a
    聽 with the first discard pays 天聽 where the table plays it: the confirmation says which."""
    from engine.house_rules import HouseRules
    from engine.position import position
    from engine.rules import TableOptions

    hand = {0: "123m456m789m123p456p5z9s"}
    plain = texts.prompt_line(position(hands=hand).prompt(0), NAMES, lang, "", mode="ready")
    assert i18n.t(lang, "play.ready_free") in plain and "聽牌 1" not in plain and "听牌 1" not in plain
    house = TableOptions(house_rules=HouseRules({"ready_tai": 1, "heavenly_ready_tai": 8}))
    later = position(hands=hand, options=house).prompt(0)
    assert later.ready_items and [i.name for i in later.ready_items] == ["聽牌"]
    shown = texts.prompt_line(later, NAMES, lang, "", mode="ready")
    word = {"zh-CN": "听牌"}.get(lang, "聽牌")
    assert f"{word} 1 " + i18n.t(lang, "unit.tai") in shown and i18n.t(lang, "play.ready_free") not in shown
    first = position(hands=hand, options=house, first_go=True).prompt(0)
    assert [(i.name, i.value) for i in first.ready_items] == [("天聽", 8)]
    assert "8 " + i18n.t(lang, "unit.tai") in texts.prompt_line(first, NAMES, lang, "", mode="ready")


def test_the_prompt_line_of_a_claim_and_a_rob_names_the_discarder_and_the_tile():
    from engine.position import position
    from engine.rules import TableOptions

    game = position(hands={0: "123m456m789m123p456p1s9s", 2: "555z666z777z44z99s5s8p1m"})
    game.apply(next(a for a in game.prompt(0).legal if str(a) == "0 discard 9s"))
    line = texts.prompt_line(game.prompt(2), NAMES, "en", "")
    assert line == i18n.t("en", "play.dm_claim", name="Ann", tile=i18n.tile_label("en", parse_tiles("9s")[0]), deadline="")
    robbing = position(
        hands={0: "9s456m789m123p456p1s", 2: "234m567m111z222z55z78s"},
        melds={0: ["pon:999s"]},
        options=TableOptions(may_pass_win=True),
    )
    robbing.apply(next(a for a in robbing.prompt(0).legal if a.kind.value == "addkong"))
    line = texts.prompt_line(robbing.prompt(2), NAMES, "zh-TW", "")
    assert line == i18n.t("zh-TW", "play.dm_rob", name="Ann", tile=i18n.tile_label("zh-TW", parse_tiles("9s")[0]), deadline="")
    with pytest.raises(ValueError):
        texts.prompt_line(robbing.prompt(1), NAMES, "en", "")  # seat 1 is asked nothing


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_flower_win_on_offer_is_named_in_the_winners_prompt_and_the_table_status(lang):
    from engine.position import position
    from engine.rules import TableOptions

    game = position(
        hands={0: "123m456m789m123p45s99s", 3: "147m258m369p147s2z3z5z6z7z"},
        flowers={0: "f1f2f3f4f5f6f7"},
        wall="f8",
        back="6s",
        turn=3,
        options=TableOptions(house_rules={"flower_win_optional": True}),
    )
    game.apply(next(a for a in game.legal_actions(3) if str(a) == "3 discard 7z"))
    line = texts.prompt_line(game.prompt(0), NAMES, lang, "")
    assert line == i18n.t(lang, "play.dm_flower_win", win="八仙過海", deadline="") and "八仙過海" in line
    status = texts.table_text(game.view(None), NAMES, lang, "")
    assert i18n.t(lang, "play.status_flower", name="Ann", win="八仙過海", deadline="") in status
