"""The 台數 calculator under bad input (issue 17): every reproducer of the fuzz campaign, then the
contracts as properties over arbitrary JSON — ``calculate`` answers or raises one of its three
typed errors; ``python -m engine.score`` prints one JSON line (exit 0) or one error line (exit 2);
no impossible hand is ever scored."""

from __future__ import annotations

import io
import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.score import RequestError, build_context, calculate, main
from engine.scoring import ScoringError
from engine.tiles import NotationError, format_tiles

TYPED_ERRORS = (RequestError, NotationError, ScoringError)  # what cogs/calculator.py catches


def run_main(text: str) -> tuple[int, str, str]:
    stdin, stdout, stderr = io.StringIO(text), io.StringIO(), io.StringIO()
    code = main(stdin, stdout, stderr)
    return code, stdout.getvalue(), stderr.getvalue()


def assert_cli_contract(text: str) -> int:
    code, out, err = run_main(text)
    if code == 0:
        assert out.endswith("\n") and len(out.splitlines()) == 1
        body = json.loads(out)
        assert isinstance(body["valid"], bool)
        assert all(line.startswith("warning: ") for line in err.splitlines())
    else:
        assert code == 2, err
        assert out == ""
        assert len(err.splitlines()) == 1 and err.startswith("error: ")
        assert "Traceback" not in err and "internal error" not in err
    return code


def deep(depth: int) -> str:
    return "[" * depth + "]" * depth


# ---------------------------------------------------------------- reproducers

PING_HU = {"concealed": "123456789m456p3455s", "win_tile": "2s"}
EIGHT = "f1f2f3f4f5f6f7f8"


@pytest.mark.parametrize(
    "request_",
    [
        {"flower_win": [], "flowers": EIGHT},  # TypeError: unhashable list
        {"flower_win": {}, "flowers": EIGHT},
        {"flower_win": []},
        {"flower_win": {"a": 1}},
        {**PING_HU, "flower_win": 7},
    ],
)
def test_flower_win_of_the_wrong_type_is_a_request_error(request_):
    with pytest.raises(RequestError, match="flower_win"):
        calculate(request_)
    assert assert_cli_contract(json.dumps(request_)) == 2


def test_flower_win_by_name_still_scores():
    assert calculate({"flower_win": "八仙過海", "flowers": EIGHT})["items"] == [
        {"name": "八仙過海", "tai": 8}
    ]
    assert calculate({"flower_win": "seven_rob_one", "flowers": "f1f2f3f4f5f6f7"})["valid"] is True


@pytest.mark.parametrize(
    "text",
    [
        deep(100_000),  # RecursionError while decoding
        '{"concealed": ' + deep(995) + "}",
        '{"dealer_streak": ' + "9" * 5000 + "}",  # ValueError: too many digits to read
        '{"concealed": "123456789m456p3455s", "win_tile": "2s", "options": {"min": ' + "1" * 4400 + "}}",
        "\ud800",
        "",
    ],
)
def test_pathological_json_is_one_error_line_and_exit_2(text):
    assert assert_cli_contract(text) == 2


@pytest.mark.parametrize(
    "field",
    ["concealed", "melds", "flowers", "win_tile", "options", "seat_wind", "rules", "preset", "house_rules"],
)
def test_a_field_nested_995_deep_is_a_typed_error(field):
    value: list = []
    for _ in range(995):
        value = [value]
    with pytest.raises(TYPED_ERRORS):
        calculate({**PING_HU, field: value})


@pytest.mark.parametrize("field", ["dealer_streak", "options", "house_rules"])
def test_integers_too_long_to_print_are_a_request_error(field):
    huge = 10**5000
    value = (
        huge
        if field == "dealer_streak"
        else {"min_tai": huge}
        if field == "options"
        else {"heavenly_tai": huge}
    )
    with pytest.raises(RequestError, match="reasonable size|number or true/false"):
        calculate({**PING_HU, field: value})


def test_a_house_rule_nested_deep_is_one_error_line():
    text = (
        '{"concealed": "123456789m456p3455s", "win_tile": "2s", "house_rules": {"heavenly_tai": '
        + deep(900)
        + "}}"
    )
    assert assert_cli_contract(text) == 2
    with pytest.raises(RequestError, match="heavenly_tai"):
        calculate({**PING_HU, "house_rules": {"heavenly_tai": json.loads(deep(900))}})


def test_robbing_a_kong_while_holding_the_tile_is_an_impossible_hand():
    # the winner holds two more 5s, but the robbed 碰 already needs three of them
    with pytest.raises(ScoringError, match="impossible hand"):
        calculate({"concealed": "123456789m456p3455s", "win_tile": "5s", "robbing_kong": True})
    assert assert_cli_contract(json.dumps({**PING_HU, "win_tile": "5s", "robbing_kong": True})) == 2


def test_robbing_a_kong_of_a_tile_in_a_meld_is_an_impossible_hand():
    request = {"concealed": "123456789m456p3s", "melds": ["chi:345s"], "win_tile": "3s", "robbing_kong": True}
    with pytest.raises(ScoringError, match="impossible hand"):
        calculate(request)


def test_robbing_a_kong_of_a_tile_the_hand_does_not_hold_still_scores():
    body = calculate({**PING_HU, "robbing_kong": True})  # 2s: no other 2s anywhere in the hand
    assert body["valid"] is True and {"name": "搶摃", "tai": 1} in body["items"]


@pytest.mark.parametrize("wind", ["", "南西", "東南", "ES", "EAST WIND", " ", "Ｅ", "ſ", 4, -1, True, None])
def test_seat_wind_must_be_exactly_one_wind(wind):
    with pytest.raises(RequestError, match="seat_wind"):
        calculate({**PING_HU, "seat_wind": wind})


@pytest.mark.parametrize(
    "wind, index",
    [
        ("E", 0),
        ("s", 1),
        (" W ", 2),
        ("north", 3),
        ("East", 0),
        ("SOUTH", 1),
        ("東", 0),
        ("西", 2),
        ("北", 3),
        (1, 1),
    ],
)
def test_every_wind_spelling_accepted_before_is_still_accepted(wind, index):
    _, ctx, _ = build_context({**PING_HU, "seat_wind": wind, "round_wind": wind})
    assert ctx.seat_wind == index and ctx.round_wind == index


def test_a_refused_request_prints_no_warning_before_its_error_line():
    short = {"concealed": "123456789m456p345s", "win_tile": "2s"}  # refused by the scorer: hand size
    code, out, err = run_main(json.dumps({"nonsense": 1, **short}))
    assert code == 2 and err.splitlines() == [err.strip()] and err.startswith("error: ")
    code, out, err = run_main(json.dumps({"nonsense": 1, **PING_HU}))
    assert code == 0 and err == "warning: ignoring unknown field 'nonsense'\n"


# ---------------------------------------------------------------- strategies

JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
JSON = st.recursive(
    JSON_LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
TILE_TEXT = st.sampled_from(["1m", "5m", "9m", "2p", "5s", "2s", "1z", "7z", "f1", "0m", "8z", "5", ""])
WINDS = st.sampled_from(["E", "S", "W", "N", "東", "南", "east", "", "南西", "Q", 0, 3, 4])


def _set_tiles(kind: str, first: int) -> list[int]:
    return [first, first + 1, first + 2] if kind == "chi" else [first] * 3


@st.composite
def winning_requests(draw) -> dict:
    """A request built from five sets and a pair that fit in one tile set (so usually a winning
    hand), with some sets declared as melds and flags drawn at random: 搶槓 included, often on a
    tile the hand holds more of."""
    room = [4] * 34
    sets = []
    for _ in range(5):
        chis = [t for t in range(27) if t % 9 <= 6 and min(room[t : t + 3]) >= 1]
        if draw(st.booleans()) and chis:
            sets.append(("chi", draw(st.sampled_from(chis))))
        else:
            sets.append(("pon", draw(st.sampled_from([t for t in range(34) if room[t] >= 3]))))
        for t in _set_tiles(*sets[-1]):
            room[t] -= 1
    pair = draw(st.sampled_from([t for t in range(34) if room[t] >= 2]))
    n_melds = draw(st.integers(0, 5))
    melds = []
    for kind, first in sets[:n_melds]:
        if kind == "chi":
            melds.append("chi:" + format_tiles(_set_tiles(kind, first)))
        else:
            mk = draw(
                st.sampled_from(["pon", "kong", "addkong", "ankong"]) if room[first] else st.just("pon")
            )
            room[first] -= mk != "pon"
            melds.append(f"{mk}:" + format_tiles([first] * (3 if mk == "pon" else 4)))
    concealed = [t for kind, first in sets[n_melds:] for t in _set_tiles(kind, first)] + [pair, pair]
    win = concealed.pop(draw(st.integers(0, len(concealed) - 1)))
    flowers = draw(st.lists(st.sampled_from(["f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8"]), unique=True))
    request = {
        "concealed": format_tiles(concealed),
        "win_tile": format_tiles([win]),
        "melds": melds,
        "flowers": "".join(flowers),
        "seat_wind": draw(st.one_of(st.sampled_from(["E", "S", "W", "N"]), WINDS)),
        "round_wind": draw(st.sampled_from(["E", "S", "W", "N"])),
    }
    for flag in ("self_drawn", "dealer", "last_tile", "kong_replacement", "heavenly", "earthly"):
        if draw(st.integers(0, 7)) == 0:
            request[flag] = True
    if draw(st.integers(0, 2)) == 0:
        request["robbing_kong"] = True
    return request


FIELDS = {
    "rules": st.one_of(st.just("taiwan16"), JSON),
    "concealed": st.one_of(st.lists(TILE_TEXT, max_size=17).map("".join), JSON),
    "win_tile": st.one_of(TILE_TEXT, JSON),
    "melds": st.one_of(
        st.lists(st.sampled_from(["pon:555z", "chi:123m", "kong:1111p", "chi:f1f2f3", "x"])), JSON
    ),
    "flowers": st.one_of(st.sampled_from(["", "f1", "f1f1", EIGHT, "f1f2f3f4f5f6f7", "1m"]), JSON),
    "seat_wind": st.one_of(WINDS, JSON),
    "dealer_streak": st.one_of(st.integers(-2, 10), JSON),
    "flower_win": st.one_of(st.sampled_from(["八仙過海", "七搶一", "eight_immortals", None]), JSON),
    "options": st.one_of(st.sampled_from([{"min_tai": 3}, ["見字見花"], "cap16", {"nonsense": 1}]), JSON),
    "robbing_kong": st.one_of(st.booleans(), JSON),
    "self_drawn": st.one_of(st.booleans(), JSON),
    "zimo": st.one_of(st.booleans(), JSON),
    "preset": st.one_of(st.sampled_from(["common", "document", "nope"]), JSON),
    "house_rules": st.one_of(
        st.dictionaries(
            st.sampled_from(["heavenly_tai", "river_bottom_tai", "miji_keeps_concealed", "x"]), JSON
        ),
        st.just({"heavenly_tai": 24, "river_bottom_tai": 1}),
        JSON,
    ),
    "bonus_indicators": st.one_of(st.lists(TILE_TEXT, max_size=3).map("".join), JSON),
    "from_dealer": st.one_of(st.booleans(), JSON),
    "last_discard": st.one_of(st.booleans(), JSON),
    "human": st.one_of(st.booleans(), JSON),
    "heavenly_ready": st.one_of(st.booleans(), JSON),
    "after_flower": st.one_of(st.booleans(), JSON),
}
ARBITRARY_REQUESTS = st.one_of(
    winning_requests(),
    st.fixed_dictionaries({}, optional=FIELDS),
    st.builds(
        lambda w, extra: {**w, **extra}, winning_requests(), st.fixed_dictionaries({}, optional=FIELDS)
    ),
    st.dictionaries(st.text(max_size=10), JSON, max_size=6),
    JSON,
)


def can_exist(request: dict) -> bool:
    """Independent of the scorer: no kind of tile more than four times on the table (the robbed
    kong's three included), no flower twice, the hand 16 tiles plus the winning tile."""
    _, ctx, _ = build_context(request)
    counts = Counter(ctx.concealed)
    for meld in ctx.melds:
        counts.update(meld.tiles)
    if ctx.win_tile is not None:
        counts[ctx.win_tile] += 1
        if ctx.robbing_kong:
            counts[ctx.win_tile] += 3
    # a flower win (flagged, or all eight flowers: issue 28) is scored whatever the tiles, as a flagged one always was
    flower_win = ctx.flower_win is not None or len(set(ctx.flowers)) == 8
    sized = flower_win or len(ctx.concealed) + 3 * len(ctx.melds) == 16
    return max(counts.values(), default=0) <= 4 and len(set(ctx.flowers)) == len(ctx.flowers) and sized


# ---------------------------------------------------------------- properties


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ARBITRARY_REQUESTS)
def test_calculate_answers_or_raises_a_typed_error_and_never_scores_an_impossible_hand(request_):
    try:
        body = calculate(request_)
    except TYPED_ERRORS:
        return
    assert set(body) >= {"valid"}
    if body["valid"]:
        assert can_exist(request_)
        assert body["total"] == sum(i["tai"] for i in body["items"])


@settings(max_examples=150, deadline=None)
@given(winning_requests())
def test_robbing_kong_is_refused_exactly_when_the_hand_holds_another_copy(request_):
    plain = {k: v for k, v in request_.items() if k != "robbing_kong"}
    try:
        calculate(plain)
    except TYPED_ERRORS:
        return  # impossible or malformed for another reason
    if plain.get("self_drawn") or plain.get("kong_replacement"):
        return  # 搶槓 on a self-draw is refused for that reason
    robbing = {**plain, "robbing_kong": True}
    _, ctx, _ = build_context(plain)
    others = ctx.concealed.count(ctx.win_tile) + sum(m.tiles.count(ctx.win_tile) for m in ctx.melds)
    if others:
        with pytest.raises(ScoringError, match="impossible hand"):
            calculate(robbing)
    else:
        calculate(robbing)  # never over-refused


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(ARBITRARY_REQUESTS.map(lambda r: json.dumps(r, ensure_ascii=False)), st.text(max_size=40)))
def test_cli_prints_one_json_line_or_one_error_line(text):
    assert_cli_contract(text)
