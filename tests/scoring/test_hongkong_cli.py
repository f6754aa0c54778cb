"""``python -m engine.score`` with ``"rules": "hongkong"``: 番 items as the document writes them,
``total`` before 爆和, ``points`` after it, the three 番起和 servers and 寶牌."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.score import calculate, parse_options
from engine.scoring import ScoringError

ROOT = Path(__file__).resolve().parents[2]
CHICKEN = {"rules": "hongkong", "concealed": "234m567s999p4m", "melds": ["chi:123p"], "win_tile": "4m"}


def test_cli_scores_a_hongkong_hand_in_fan_with_points():
    payload = json.dumps({**CHICKEN, "self_drawn": True, "seat_wind": "S"}, ensure_ascii=False)
    proc = subprocess.run(
        [sys.executable, "-m", "engine.score"],
        input=payload.encode(),
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    assert json.loads(proc.stdout) == {
        "valid": True,
        "total": 1,
        "unit": "fan",
        "items": [{"name": "雞糊", "fan": 0}, {"name": "自摸", "fan": 1}],
        "points": 2,
    }


def test_total_is_before_bao_he_and_points_after_it():
    out = calculate(
        {"rules": "hongkong", "concealed": "123456789m345m9m", "win_tile": "9m", "self_drawn": True}
    )
    assert out["total"] == 8 and out["points"] == 32


def test_special_hand_points_from_the_fen_zhi_column():
    out = calculate({"rules": "hongkong", "concealed": "19m19p19s1234567z", "win_tile": "5z"})
    assert out["items"] == [{"name": "十三幺", "fan": 9}] and out["points"] == 512


def test_chicken_hand_is_valid_without_a_minimum_option():
    out = calculate({**CHICKEN, "seat_wind": "S"})
    assert out["valid"] and out["total"] == 0 and out["points"] == 1


@pytest.mark.parametrize(("server", "valid"), [("3番起和", False), ("1番起和", False), ("無番起和", True)])
def test_fan_minimum_servers_by_name(server, valid):
    out = calculate({**CHICKEN, "seat_wind": "S", "options": [server]})
    assert out["valid"] is valid
    if not valid:
        assert "below the table minimum" in out["reason"]


def test_server_names_parse_to_minimums():
    assert parse_options({"3番起和": True}).min_tai == 3
    assert parse_options(["1番起和"]).min_tai == 1
    assert parse_options(["無番起和"]).min_tai == 0


def test_bao_pai_field_adds_a_fan_per_copy():
    out = calculate({**CHICKEN, "seat_wind": "S", "翻寶牌": "8p"})  # 8p flipped: 9p is the 寶牌
    assert out["items"] == [{"name": "雞糊", "fan": 0}, {"name": "寶牌", "fan": 3}]
    assert out["total"] == 3 and out["points"] == 8


def test_taiwan16_response_has_no_points_field():
    out = calculate({"concealed": "123456789m456p3455s", "win_tile": "2s"})
    assert "points" not in out


def test_flowers_are_malformed_for_hongkong():
    with pytest.raises(ScoringError):
        calculate({**CHICKEN, "flowers": "f1"})


def test_ren_he_needs_the_dealers_discard_in_the_request():
    hand = {"rules": "hongkong", "concealed": "123p234m567s999p4m", "win_tile": "4m", "earthly": True}
    assert calculate({**hand, "from_dealer": True})["items"] == [{"name": "人和", "fan": 9}]
    assert "人和" not in {i["name"] for i in calculate(hand)["items"]}


def test_calculate_plays_the_sixteen_tile_game_with_hand_size():
    hand = {"rules": "hongkong", "concealed": "123m456m789m123p456p1s", "win_tile": "1s", "flowers": "f1"}
    with pytest.raises(ScoringError, match="wrong hand size"):
        calculate(hand)  # 13 tiles by default
    got = calculate({**hand, "hand_size": 16})
    assert got["items"] == [{"name": "平胡", "fan": 1}, {"name": "門前清", "fan": 1}] and got["points"] == 4
    assert calculate({**hand, "options": {"十六張": True}}) == got == calculate({**hand, "options": {"hand_size": 16}})
