"""``python -m engine.score`` with ``"preset"`` and ``"house_rules"``: switches override the preset;
unknown names exit 2 with one line listing the known ones."""

import pytest

from engine.score import RequestError, calculate

from .test_score_cli import run

FIVE_CONCEALED = {"concealed": "111m222m333m444p555p6s", "win_tile": "6s", "self_drawn": True}


def names(body: dict) -> dict[str, int]:
    return {i["name"]: i["tai"] for i in body["items"]}


def test_no_preset_is_the_document():
    assert names(calculate(FIVE_CONCEALED)) == {"門清自摸": 3, "獨聽": 1, "五暗刻": 16}
    assert calculate({**FIVE_CONCEALED, "preset": "document"}) == calculate(FIVE_CONCEALED)


def test_common_preset_changes_the_values():
    assert names(calculate({**FIVE_CONCEALED, "preset": "common"})) == {
        "門清自摸": 3,
        "獨聽": 1,
        "碰碰胡": 4,
        "五暗刻": 8,
    }


def test_switches_override_the_preset():
    body = calculate({**FIVE_CONCEALED, "preset": "common", "house_rules": {"five_concealed_tai": 16}})
    assert names(body)["五暗刻"] == 16 and names(body)["碰碰胡"] == 4


def test_house_only_facts_are_request_fields():
    request = {"concealed": "234m567m345s45s11z", "win_tile": "6s", "melds": ["chi:123p"], "seat_wind": "S"}
    assert names(calculate({**request, "last_discard": True})) == {}
    assert names(calculate({**request, "last_discard": True, "house_rules": {"river_bottom_tai": 1}})) == {
        "河底撈魚": 1
    }


@pytest.mark.parametrize(
    "extra, fragment",
    [
        ({"preset": "comon"}, "known: common, document"),
        ({"preset": 3}, "preset must be a preset name"),
        ({"house_rules": {"heavenly": 24}}, "known: all_claimed_with_single_wait, all_honours_with_dragons"),
        ({"house_rules": {"heavenly_tai": 20}}, "must be one of 16, 24"),
        ({"house_rules": ["lugu_tai"]}, "house_rules must be an object"),
    ],
)
def test_unknown_preset_or_switch_is_a_clear_error(extra, fragment):
    with pytest.raises(RequestError, match=fragment):
        calculate({**FIVE_CONCEALED, **extra})


def test_cli_unknown_preset_exits_2_listing_the_presets():
    code, out, err = run({**FIVE_CONCEALED, "preset": "app"})
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "common, document" in err


def test_cli_scores_with_a_preset():
    code, out, err = run({**FIVE_CONCEALED, "preset": "common"})
    assert code == 0, err
    assert '{"name": "五暗刻", "tai": 8}' in out
