"""``python -m engine.score``: one JSON object in, one JSON object out; malformed input exits 2 with
one line on stderr and never a traceback."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.score import RequestError, calculate, parse_options

ROOT = Path(__file__).resolve().parents[2]


def run(payload):
    text = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
    proc = subprocess.run(
        [sys.executable, "-m", "engine.score"],
        input=text.encode(),
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def test_cli_scores_a_ping_hu_hand():
    code, out, err = run({"rules": "taiwan16", "concealed": "123456789m456p3455s", "win_tile": "2s"})
    assert code == 0, err
    assert json.loads(out) == {
        "valid": True,
        "total": 3,
        "unit": "tai",
        "items": [{"name": "門清", "tai": 1}, {"name": "平胡", "tai": 2}],
    }


def test_cli_dealer_lian_er_la_er_adds_five():
    code, out, _ = run(
        {
            "concealed": "234m567m345s45s11z",
            "melds": ["chi:123p"],
            "win_tile": "6s",
            "seat_wind": "E",
            "round_wind": "S",
            "dealer": True,
            "dealer_streak": 2,
        }
    )
    assert code == 0
    assert json.loads(out) == {
        "valid": True,
        "total": 5,
        "unit": "tai",
        "items": [{"name": "莊家", "tai": 1}, {"name": "連莊", "tai": 4}],
    }


def test_cli_all_fields():
    code, out, err = run(
        {
            "rules": "taiwan16",
            "concealed": "234m567m45s11p",
            "melds": ["pon:222z", "pon:555z"],
            "flowers": "f2f6",
            "win_tile": "6s",
            "self_drawn": True,
            "seat_wind": "S",
            "round_wind": "E",
            "dealer": False,
            "dealer_streak": 0,
            "last_tile": True,
            "kong_replacement": False,
            "robbing_kong": False,
            "heavenly": False,
            "earthly": False,
        }
    )
    assert code == 0, err
    got = {i["name"]: i["tai"] for i in json.loads(out)["items"]}
    assert got == {"自摸": 1, "風牌": 1, "花牌": 2, "三元牌": 1, "海底撈月": 1}


def test_cli_not_a_winning_hand_is_valid_false_with_a_reason():
    code, out, _ = run({"concealed": "123456789m456p3455s", "win_tile": "9s"})
    assert code == 0
    body = json.loads(out)
    assert body["valid"] is False and body["reason"]


def test_cli_applies_the_minimum_only_when_asked():
    hand = {"concealed": "234m567m345s45s11z", "melds": ["chi:123p"], "win_tile": "6s", "seat_wind": "S"}
    code, out, _ = run(hand)
    assert json.loads(out)["valid"] is True
    for options in ({"min_tai": 3}, {"三台起胡": True}, ["三台起胡"], "min3"):
        code, out, _ = run({**hand, "options": options})
        body = json.loads(out)
        assert code == 0 and body["valid"] is False and "minimum" in body["reason"]


def test_cli_see_wind_see_flower_option():
    hand = {"concealed": "234m567m345s45s11p", "melds": ["pon:444z"], "win_tile": "6s", "flowers": "f1f3"}
    _, out, _ = run({**hand, "options": {"見字見花": True}})
    assert {i["name"]: i["tai"] for i in json.loads(out)["items"]} == {"見風有台": 1, "見花有台": 2}


def test_cli_reports_the_capped_total_only_when_asked():
    hand = {"concealed": "111z222z333z444z5p", "melds": ["pon:999m"], "win_tile": "5p", "dealer": True}
    _, out, _ = run(hand)
    assert "capped_total" not in json.loads(out)
    _, out, _ = run({**hand, "options": {"cap": 16}})
    body = json.loads(out)
    assert body["total"] == 22 and body["capped_total"] == 17


@pytest.mark.parametrize(
    "payload, fragment",
    [
        ("{not json", "JSON"),
        ("[1, 2]", "object"),
        ({"concealed": "123456789m456p3455x", "win_tile": "2s"}, "notation"),
        ({"concealed": "11111m6789m456p345s", "win_tile": "2s"}, "copies"),
        ({"concealed": "123456789m456p345s", "win_tile": "2s"}, "hand size"),
        ({"concealed": "123456789m456p3455s"}, "win_tile"),
        ({"concealed": "123456789m456p3455s", "win_tile": "2s", "rules": "riichi"}, "unknown rules"),
        ({"concealed": "123456789m456p3455s", "win_tile": "2s", "seat_wind": "Q"}, "wind"),
        ({"concealed": "123456789m456p3455s", "win_tile": "2s", "melds": ["pon:123m"]}, "pon"),
        ({"concealed": "123456789m456p3455s", "win_tile": "2s", "self_drawn": "maybe"}, "true or false"),
        ({"concealed": "123456789m456p3455s", "win_tile": "2s", "options": {"nonsense": 1}}, "option"),
        # issue 17: each of these once ended in a traceback or "internal error" (exit 1)
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"dealer_streak": ' + "9" * 5000 + "}", "JSON"),
        ({"flower_win": [], "flowers": "f1f2f3f4f5f6f7f8"}, "flower_win"),
        ({"flower_win": {}}, "flower_win"),
        ({"concealed": "123456789m456p3455s", "win_tile": "2s", "seat_wind": "南西"}, "wind"),
        ({"concealed": "123456789m456p3455s", "win_tile": "2s", "seat_wind": ""}, "wind"),
        ({"concealed": "123456789m456p3455s", "win_tile": "5s", "robbing_kong": True}, "impossible hand"),
        ({"unknown": 1, "concealed": "123456789m456p345s", "win_tile": "2s"}, "hand size"),
    ],
)
def test_cli_malformed_input_exits_2_with_one_line_and_no_traceback(payload, fragment):
    code, out, err = run(payload)
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert fragment.lower() in err.lower()


def test_calculate_is_the_same_engine_function():
    assert calculate({"concealed": "123456789m456p3455s", "win_tile": "2s"})["total"] == 3
    with pytest.raises(RequestError):
        calculate({"concealed": "123456789m456p3455s"})


def test_options_are_parsed_liberally():
    assert parse_options({"min_tai": 3}).min_tai == 3
    assert parse_options({"三台起胡": True}).min_tai == 3
    parsed = parse_options(["見字見花", "三台起胡"])
    assert parsed.see_wind_see_flower and not parsed.self_draw_only
    assert parse_options("see_wind_see_flower, cap16").cap_tai == 16
    assert parse_options(None).min_tai == 0


def test_eight_flowers_are_ba_xian_guo_hai_in_the_calculator():
    """A request holding all eight flowers is the flower win (8), not an ordinary hand (花牌 2 + 花槓 2 ...)."""
    request = {"concealed": "123456789m123p456p1s", "win_tile": "1s", "flowers": "f1f2f3f4f5f6f7f8"}
    got = calculate(request)
    assert got["valid"] and got["items"] == [{"name": "八仙過海", "tai": 8}] and got["total"] == 8
    got = calculate({**request, "flower_bonus_taken": True})
    assert [i["name"] for i in got["items"]] == ["門清", "獨聽"]
