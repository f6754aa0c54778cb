"""The 台数 calculator with ``"rules": "taiwan13"``: the same input shape as taiwan16, unit "tai",
item names as document 001 writes them, ``total`` the hand's 台, the 1-台 minimum built in."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.score import calculate
from engine.scoring import ScoringError

ROOT = Path(__file__).resolve().parents[2]


def test_calculate_scores_a_taiwan13_hand():
    got = calculate(
        {"rules": "taiwan13", "concealed": "123m456m789m234p5s", "win_tile": "5s", "self_drawn": True}
    )
    assert got == {
        "valid": True,
        "total": 6,
        "unit": "tai",
        "items": [
            {"name": "门清", "tai": 1},
            {"name": "自摸", "tai": 1},
            {"name": "平胡", "tai": 2},
            {"name": "一条龙", "tai": 2},
        ],
    }


def test_calculate_takes_the_same_fields_as_taiwan16():
    request = {
        "rules": "taiwan13",
        "concealed": "234m567m45s99p",
        "melds": ["pon:111z"],
        "flowers": "f1f5",
        "win_tile": "6s",
        "seat_wind": "E",
        "round_wind": "E",
        "dealer": True,
        "dealer_streak": 2,
    }
    got = calculate(request)
    assert got["valid"] and {i["name"]: i["tai"] for i in got["items"]} == {"庄家": 1, "风牌": 2}
    assert got["total"] == 3  # flowers are worth nothing in this table; 连庄 adds nothing


def test_calculate_refuses_a_hand_without_tai():
    got = calculate(
        {"rules": "taiwan13", "concealed": "234m567m45s11z", "melds": ["pon:222p"], "win_tile": "6s"}
    )
    assert got["valid"] is False and "minimum" in got["reason"]


def test_calculate_applies_a_higher_table_minimum():
    request = {
        "rules": "taiwan13",
        "concealed": "222p234m567m45s11z",
        "win_tile": "6s",
        "options": {"min_tai": 3},
    }
    assert calculate(request)["valid"] is False
    assert calculate({**request, "options": {"min_tai": 1}})["valid"] is True


def test_calculate_scores_da_hua_hu():
    got = calculate({"rules": "taiwan13", "flowers": "f1f2f3f4f5f6f7f8", "flower_win": "大花胡"})
    assert got == {"valid": True, "total": 13, "unit": "tai", "items": [{"name": "大花胡", "tai": 13}]}


def test_calculate_rejects_a_sixteen_tile_hand_for_taiwan13():
    with pytest.raises(ScoringError, match="expected 13"):
        calculate({"rules": "taiwan13", "concealed": "123456789m456p3455s", "win_tile": "2s"})


def test_command_line_prints_the_document_names():
    payload = {"rules": "taiwan13", "concealed": "19m19p19s1234567z", "win_tile": "9m"}
    proc = subprocess.run(
        [sys.executable, "-m", "engine.score"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    assert json.loads(proc.stdout) == {
        "valid": True,
        "total": 13,
        "unit": "tai",
        "items": [{"name": "国士无双", "tai": 13}],
    }


def test_calculate_counts_zhuang_jia_toward_the_minimum():
    request = {"rules": "taiwan13", "concealed": "234m567m45s11z", "melds": ["pon:222p"], "win_tile": "6s"}
    got = calculate({**request, "dealer": True})
    assert got["valid"] is True and got["items"] == [{"name": "庄家", "tai": 1}] and got["total"] == 1


def test_calculate_scores_eight_flowers_as_da_hua_hu_without_a_flag():
    """只要某一家拿到全部八张的花牌…称为大花胡: not an ordinary hand with flowers."""
    request = {"rules": "taiwan13", "concealed": "123m456m789m123p1s", "win_tile": "1s", "flowers": "f1f2f3f4f5f6f7f8"}
    got = calculate(request)
    assert got["valid"] and got["items"] == [{"name": "大花胡", "tai": 13}] and got["total"] == 13
