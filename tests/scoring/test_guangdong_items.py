"""The 牌型倍率 table of document 004: every row with a hand in notation, one 牌型 per hand (不计番数),
海底 on top, and which 牌型 must be self-drawn (必须自摸) versus which a discarder pays for."""

import json
from io import StringIO

import pytest

from engine.score import calculate, main
from engine.scoring import score_win
from engine.scoring.core import REFUSED
from engine.scoring.guangdong import DISCARD_PAYS, HAND_TYPES, ITEMS, RULES
from tests.scoring._util import ctx


def score(concealed, win, melds=(), **flags):
    return score_win(ctx(concealed, win, melds, **flags), "guangdong")


def items(concealed, win, melds=(), **flags):
    result = score(concealed, win, melds, **flags)
    assert result.valid, result.reason
    return {i.name: i.value for i in result.items}


# (hand, winning tile, melds, the one 牌型 it counts, 倍)
ROWS = [
    ("123m456p789s1155z", "5z", (), "普通自摸胡", 2),
    ("111m999p1155z", "5z", ["pon:222s"], "碰碰胡", 4),
    ("1133m2244p6688s7z", "7z", (), "七小对", 6),
    ("11123456789m23m", "4m", (), "清一色", 8),
    ("111m99p11z", "1z", ["pon:999s", "pon:555z"], "风幺九", 10),
    ("1111m3344p6688s7z", "7z", (), "豪华七小对", 10),
    ("222m444p666s8889s", "9s", (), "坎坎胡", 10),
    ("111z222z333z4445z", "5z", (), "字一色", 20),
    ("1111m3333p6688s7z", "7z", (), "超豪华七小对", 20),
    ("111m999m111p99s11s", "9s", (), "全幺九", 20),
    ("1111m3333p6666s7z", "7z", (), "超超豪华七小对", 40),
    ("5z", "5z", ["ankong:1111m", "kong:2222p", "addkong:3333s", "kong:4444z"], "十八罗汉", 36),
    ("19m19p19s1234567z", "1m", (), "十三幺", 20),
]


@pytest.mark.parametrize(("hand", "win", "melds", "name", "value"), ROWS, ids=[r[3] for r in ROWS])
def test_every_multiplier_row_counts_alone_when_self_drawn(hand, win, melds, name, value):
    assert items(hand, win, melds, self_drawn=True) == {name: value}


def test_the_table_lists_every_row_of_the_document_with_its_multiplier():
    table = {i.name: i.value for i in ITEMS}
    assert table == {
        "普通自摸胡": 2,
        "碰碰胡": 4,
        "七小对": 6,
        "清一色": 8,
        "风幺九": 10,
        "豪华七小对": 10,
        "坎坎胡": 10,
        "字一色": 20,
        "超豪华七小对": 20,
        "全幺九": 20,
        "超超豪华七小对": 40,
        "十八罗汉": 36,
        "十三幺": 20,
        "天胡": 20,
        "地胡": 20,
        "海底": 1,
    }
    assert RULES.unit == "multiplier" and len(HAND_TYPES) == 15


def test_heavenly_win_is_twenty_for_the_dealers_first_self_draw():
    assert items("123m456p789s1155z", "5z", self_drawn=True, dealer=True, heavenly=True) == {"天胡": 20}


def test_earthly_win_is_twenty_on_the_dealers_first_discard_even_for_an_ordinary_hand():
    result = score("123m456p789s1155z", "5z", earthly=True, from_dealer=True)
    assert result.valid and {i.name: i.value for i in result.items} == {"地胡": 20}


def test_earthly_needs_the_dealers_discard():
    result = score("123m456p789s1155z", "5z", earthly=True, from_dealer=False)
    assert not result.valid and result.code == REFUSED


def test_sea_bottom_adds_one_to_a_self_drawn_win_on_the_last_tile():
    assert items("123m456p789s1155z", "5z", self_drawn=True, last_tile=True) == {"普通自摸胡": 2, "海底": 1}
    result = score("111z222z333z4445z", "5z", last_tile=True)  # 字一色 on the last discard: no 海底
    assert {i.name for i in result.items} == {"字一色"} and result.total == 20


def test_only_the_largest_hand_type_counts():
    # 清一色 七小对: 8, not 6 + 8
    assert items("1133557799m228m", "8m", self_drawn=True) == {"清一色": 8}
    # 字一色 of seven pairs with two four-alikes: 超豪华七小对 and 字一色 are both 20, 字一色 comes first
    assert items("1111z2222z33z55z7z", "7z", self_drawn=True) == {"字一色": 20}
    # 全幺九 as all triplets without melds is 坎坎胡 10 too: 20 wins
    assert items("111m999m111p99s11s", "9s", self_drawn=True) == {"全幺九": 20}


def test_pon_pon_hu_needs_a_pon_and_kan_kan_hu_has_no_meld():
    assert items("222m444p666s8889s", "9s", self_drawn=True) == {"坎坎胡": 10}
    assert items("444p666s8889s", "9s", ["pon:222m"], self_drawn=True) == {"碰碰胡": 4}
    assert items("444p666s8889s", "9s", ["ankong:2222m"], self_drawn=True) == {"碰碰胡": 4}


@pytest.mark.parametrize(
    ("hand", "win", "melds", "name"),
    [r[:4] for r in ROWS if r[3] not in DISCARD_PAYS],
    ids=[r[3] for r in ROWS if r[3] not in DISCARD_PAYS],
)
def test_hand_types_that_must_be_self_drawn_cannot_win_on_a_discard(hand, win, melds, name):
    assert name in ("普通自摸胡", "碰碰胡", "七小对", "清一色", "风幺九", "豪华七小对", "坎坎胡")
    result = score(hand, win, melds)
    assert not result.valid and result.code == REFUSED and "必须自摸" in result.reason


@pytest.mark.parametrize(
    ("hand", "win", "melds", "name"),
    [r[:4] for r in ROWS if r[3] in DISCARD_PAYS],
    ids=[r[3] for r in ROWS if r[3] in DISCARD_PAYS],
)
def test_big_hands_may_win_on_a_discard(hand, win, melds, name):
    assert name in DISCARD_PAYS
    result = score(hand, win, melds)
    assert result.valid and [i.name for i in result.items] == [name]


def test_robbing_a_kong_counts_as_a_self_draw_for_every_hand():
    assert items("123m456p789s1155z", "5z", robbing_kong=True) == {"普通自摸胡": 2}
    assert items("1133m2244p6688s7z", "7z", robbing_kong=True) == {"七小对": 6}


def test_kong_replacement_win_is_an_ordinary_self_draw():
    assert items("123m456p1155z", "5z", ["kong:9999s"], self_drawn=True, kong_replacement=True) == {
        "普通自摸胡": 2
    }


def test_a_hand_that_is_not_complete_is_not_a_win():
    assert not score("123m456p789s1156z", "7z", self_drawn=True).valid


def test_score_cli_accepts_guangdong_and_reports_the_multiplier():
    out = calculate(
        {"rules": "guangdong", "concealed": "1133m2244p6688s7z", "win_tile": "7z", "self_drawn": True}
    )
    assert out == {
        "valid": True,
        "total": 6,
        "unit": "multiplier",
        "items": [{"name": "七小对", "multiplier": 6}],
    }
    refused = calculate({"rules": "guangdong", "concealed": "1133m2244p6688s7z", "win_tile": "7z"})
    assert refused["valid"] is False and "必须自摸" in refused["reason"]
    earthly = calculate(
        {
            "rules": "guangdong",
            "concealed": "123m456p789s1155z",
            "win_tile": "5z",
            "earthly": True,
            "from_dealer": True,
        }
    )
    assert earthly["total"] == 20 and earthly["items"] == [{"name": "地胡", "multiplier": 20}]


def test_score_cli_main_prints_one_json_line():
    stdout = StringIO()
    request = {
        "rules": "guangdong",
        "concealed": "111z222z333z4445z",
        "win_tile": "5z",
        "last_tile": True,
        "self_drawn": True,
    }
    assert main(StringIO(json.dumps(request)), stdout, StringIO()) == 0
    assert json.loads(stdout.getvalue()) == {
        "valid": True,
        "total": 21,
        "unit": "multiplier",
        "items": [{"name": "字一色", "multiplier": 20}, {"name": "海底", "multiplier": 1}],
    }
