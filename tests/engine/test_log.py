"""The match log (docs/log-format.md): export -> check round-trips for every rule set and every kind
of event, a reader without the engine can follow every hand from the events alone, and a corrupted
or hand-edited log is refused at the first move that no longer fits, with its number and why."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.game import Game
from engine.log import FORMAT, VERSION, LogError, NotALog, check_log, export_match, read_log
from engine.rules import get_profile
from engine.tiles import parse_tiles, tile_from_str, to_counts
from tests.engine.match_driver import play_match

ROOT = Path(__file__).resolve().parents[2]
RULES = ("taiwan16", "taiwan13", "hongkong", "guangdong")

# seeds of the driver whose matches hold the rare events (found once by playing seeds in order)
FLOWER_WIN = ("taiwan16", 102)  # 七搶一
ROBBED_KONG = (("taiwan16", 149), ("hongkong", 199), ("guangdong", 119))


def options(rules: str, seed: int):
    base = get_profile(rules).options
    if rules == "taiwan16":
        return replace(base, exchange=seed % 2 == 0, may_pass_win=seed % 3 == 0)
    if rules == "hongkong":
        return replace(base, may_pass_win=True)
    return base


@cache
def exported(rules: str, seed: int, leave: bool = False) -> str:
    played = play_match(
        rules, seed, options=options(rules, seed), max_hands=8, leave_in_hand=3 if leave else None
    )
    seats = [{"name": f"P{s}", "ai": "easy"} for s in range(4)]
    return json.dumps(export_match(played.match.header(), played.hands, seats=seats), ensure_ascii=False)


def log_of(rules: str, seed: int, leave: bool = False) -> dict:
    return json.loads(exported(rules, seed, leave))


def all_logs() -> list[dict]:
    logs = [log_of(r, s) for r in RULES for s in range(3)]
    logs += [log_of(r, 1, leave=True) for r in RULES]
    logs.append(log_of(*FLOWER_WIN))
    logs += [log_of(*x) for x in ROBBED_KONG]
    return logs


def hands_of(log: dict) -> list[dict]:
    return [h for m in log["matches"] for h in m["hands"]]


@pytest.mark.parametrize("rules", RULES)
def test_export_then_check_round_trips_for_every_rule_set(rules):
    for seed in range(3):
        log = log_of(rules, seed)
        summary = check_log(read_log(json.dumps(log)))
        assert summary.hands == len(log["matches"][0]["hands"]) >= 1
        assert summary.moves == sum(len(h["moves"]) for h in hands_of(log))


def test_a_log_holds_every_kind_of_event_and_each_checks():
    seen = set()
    for log in all_logs():
        check_log(log)
        for hand in hands_of(log):
            for e in hand["events"]:
                seen.add(e["type"])
                if e["type"] == "win":
                    seen.add(
                        "win:"
                        + ("flower" if e["flower_win"] else "robbing" if e["robbing_kong"] else "plain")
                    )
                if e["type"] == "discard":
                    seen.add("tsumogiri" if e["tsumogiri"] else "tedashi")
            seen.add("end:" + hand["end"])
    wanted = {
        "dice", "deal", "draw", "flower", "discard", "tsumogiri", "tedashi", "ready", "chi", "pon", "kong",
        "ankong", "addkong", "kong_stands", "pass_win", "pass_win_lifted", "auto_on", "auto_off", "timeout",
        "exchange", "exchange_draw", "exchanged", "eye", "win", "draw_game", "abandon",
        "win:plain", "win:flower", "win:robbing", "end:win", "end:draw_game", "end:abandon",
    }  # fmt: skip
    assert wanted <= seen, sorted(wanted - seen)


def test_a_reader_without_the_engine_follows_every_hand_from_the_events():
    """Every seat's concealed tiles, rebuilt from the events alone, are the engine's at the hand's
    end, and a discard marked 摸切 is the tile that seat has just drawn."""
    for log in all_logs():
        for match in log["matches"]:
            for hand in match["hands"]:
                held = [[0] * 34 for _ in range(4)]
                just_drew: list[int | None] = [None] * 4
                for e in hand["events"]:
                    kind, seat = e["type"], e.get("seat")
                    if kind == "deal":
                        held = [to_counts(parse_tiles(h))[:34] for h in e["hands"]]
                        dealer = hand["dealer"]
                        just_drew = [None] * 4
                        just_drew[dealer] = tile_from_str(e["opener"]) if e["opener"] else None
                    elif kind == "draw":
                        held[seat][tile_from_str(e["tile"])] += 1
                        just_drew[seat] = tile_from_str(e["tile"])
                    elif kind == "exchange":
                        for t in parse_tiles(e["tiles"]):
                            held[seat][t] -= 1
                    elif kind == "exchange_draw":
                        got = parse_tiles(e["tiles"])
                        for t in got:
                            held[seat][t] += 1
                        if seat == dealer and (just_drew[seat] is None or not held[seat][just_drew[seat]]):
                            just_drew[seat] = got[-1]
                    elif kind == "discard":
                        tile = tile_from_str(e["tile"])
                        assert e["tsumogiri"] == (just_drew[seat] == tile)
                        held[seat][tile] -= 1
                        just_drew[seat] = None
                    elif kind in ("chi", "pon", "kong", "ankong", "addkong"):
                        tiles = parse_tiles(e["meld"].split(":")[1])
                        if kind == "addkong":
                            tiles = [tile_from_str(e["tile"])]
                        elif kind != "ankong":
                            tiles.remove(tile_from_str(e["tile"]))
                        for t in tiles:
                            held[seat][t] -= 1
                        just_drew[seat] = None
                    elif kind == "win" and not e["self_drawn"] and not e["flower_win"]:
                        held[seat][tile_from_str(e["tile"])] += 1
                header = {
                    "version": 1,
                    "rules": match["rules"],
                    "options": match["options"],
                    "seed": int(hand["seed"]),
                    "dealer": hand["dealer"],
                    "round_wind": hand["round_wind"],
                    "dealer_streak": hand["dealer_streak"],
                    "hand_number": hand["number"],
                    "scores": hand["scores_before"],
                    "auto": hand["auto_before"],
                }
                game = Game.replay(header, hand["moves"])
                assert held == [g[:34] for g in game.hands]


def test_selfplay_exports_a_log_that_checks_and_render_reads(tmp_path):
    out = tmp_path / "games.json"
    run = subprocess.run(
        [sys.executable, "-m", "engine.selfplay", "--rules", "taiwan13", "--hands", "12", "--seed", "5", "--export", str(out)],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    log = read_log(out.read_text(encoding="utf-8"))
    assert (log["format"], log["version"]) == (FORMAT, VERSION)
    assert sum(len(m["hands"]) for m in log["matches"]) == 12
    assert all(m["rules"] == "taiwan13" for m in log["matches"])
    assert check_log(log).hands == 12


# ---------------------------------------------------------------------- refusals


def first_move(hand: dict, kind: str) -> tuple[int, str]:
    return next((k, m) for k, m in enumerate(hand["moves"], 1) if m.split()[1] == kind)


def refused(log: dict) -> LogError:
    with pytest.raises(LogError) as caught:
        check_log(log)
    return caught.value


def test_a_discard_of_a_tile_not_held_is_refused_with_its_move_number():
    log = log_of("taiwan16", 0)
    hand = log["matches"][0]["hands"][1]
    k, move = first_move(hand, "discard")
    seat = int(move.split()[0])
    game_hand = next(e for e in hand["events"] if e["type"] == "deal")["hands"][seat]
    absent = next(
        t for t in ("1m", "9m", "1p", "9p", "1s", "9s", "1z", "7z") if t not in game_hand and t[0] + "m" != t
    )
    hand["moves"][k - 1] = f"{seat} discard {absent}"
    error = refused(log)
    assert (error.hand, error.move) == (2, k)
    assert str(error).startswith(f"hand 2, move {k}: {seat} discard {absent} is not legal")
    assert "does not hold" in error.reason or "may only play" in error.reason


def test_a_move_out_of_turn_is_refused_naming_whose_decision_it_is():
    log = log_of("guangdong", 1)
    hand = log["matches"][0]["hands"][0]
    k, move = first_move(hand, "discard")
    seat, _, tile = move.split()
    hand["moves"][k - 1] = f"{(int(seat) + 1) % 4} discard {tile}"
    error = refused(log)
    assert error.move == k and "not seat" in error.reason and "decision" in error.reason


def test_text_that_is_not_a_move_is_refused():
    log = log_of("hongkong", 2)
    log["matches"][0]["hands"][0]["moves"][4] = "0 throw 5m"
    error = refused(log)
    assert (error.hand, error.move) == (1, 5) and "is not a move" in error.reason


def test_an_edited_event_is_refused_at_the_move_that_made_it():
    log = log_of("taiwan13", 0)
    hand = log["matches"][0]["hands"][0]
    event = next(e for e in hand["events"] if e["type"] == "draw")
    event["tile"] = "9z" if event["tile"] != "9z" else "1m"
    error = refused(log)
    assert error.move == event["move"] and "the log says" in error.reason


def test_an_edited_payment_or_item_is_refused():
    log = log_of("taiwan16", 0)
    hand = next(h for h in log["matches"][0]["hands"] if h["end"] == "win")
    hand["result"]["deltas"][0] += 100
    error = refused(log)
    assert "deltas" in error.reason and error.move == len(hand["moves"])
    log = log_of("taiwan16", 0)
    hand = next(h for h in log["matches"][0]["hands"] if h["result"]["items"])
    hand["result"]["items"][0][1] += 1
    assert "items" in refused(log).reason


def test_a_cut_or_lengthened_hand_is_refused():
    log = log_of("taiwan16", 1)
    hand = log["matches"][0]["hands"][0]
    cut = copy.deepcopy(log)
    cut["matches"][0]["hands"][0]["moves"].pop()
    cut["matches"][0]["hands"][0]["events"] = [e for e in hand["events"] if e["move"] < len(hand["moves"])]
    assert "the moves end before the hand does" in refused(cut).reason
    longer = copy.deepcopy(log)
    longer["matches"][0]["hands"][0]["moves"].append("0 discard 1m")
    error = refused(longer)
    assert error.move == len(hand["moves"]) + 1 and "after the hand ended" in error.reason


def test_an_edited_wall_or_final_score_is_refused():
    log = log_of("guangdong", 0)
    wall = log["matches"][0]["hands"][0]["wall"]
    wall[0], wall[-1] = wall[-1], wall[0] if wall[0] != wall[-1] else "1m"
    assert refused(log).move == 0
    log = log_of("guangdong", 0)
    log["matches"][0]["final_scores"][2] += 1
    assert "final_scores" in refused(log).reason


@pytest.mark.parametrize(
    "text",
    ["", "not json at all", "[1, 2]", '{"format": "tenhou.net/6"}', '{"format": "mahjong-log", "version": 99, "matches": []}',
     '{"format": "mahjong-log", "version": 1, "matches": {}}'],
)  # fmt: skip
def test_a_document_that_is_not_a_log_is_told_apart(text):
    with pytest.raises(NotALog):
        read_log(text)


# ---------------------------------------------------------------------- the command line


def check_cli(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "engine.log", "check", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_check_exits_0_for_a_good_log_1_for_a_bad_move_2_for_not_a_log(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(exported("hongkong", 0), encoding="utf-8")
    ok = check_cli(good)
    assert ok.returncode == 0 and ok.stdout.startswith("ok:"), ok.stderr

    log = log_of("hongkong", 0)
    hand = log["matches"][0]["hands"][0]
    k, move = first_move(hand, "discard")
    hand["moves"][k - 1] = move.split()[0] + " hu"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(log), encoding="utf-8")
    refusal = check_cli(bad)
    assert refusal.returncode == 1
    assert refusal.stdout.startswith(f"refused: hand 1, move {k}: ") and len(refusal.stdout.splitlines()) == 1
    assert refusal.stderr == ""  # the verdict once, not a second copy on stderr

    for name, content in (("text.json", "hello"), ("list.json", "[]"), ("empty.json", "")):
        path = tmp_path / name
        path.write_text(content, encoding="utf-8")
        run = check_cli(path)
        assert run.returncode == 2 and run.stdout == ""
        assert len(run.stderr.strip().splitlines()) == 1
    missing = check_cli(tmp_path / "nowhere.json")
    assert missing.returncode == 2 and len(missing.stderr.strip().splitlines()) == 1


def test_seeds_are_text_integers_read_too_and_a_log_saved_with_a_bom_still_reads():
    text = exported("taiwan16", 2)
    log = read_log(b"\xef\xbb\xbf" + text.encode())
    match = log["matches"][0]
    assert isinstance(match["seed"], str) and all(isinstance(h["seed"], str) for h in match["hands"])
    assert check_log(log).hands == len(match["hands"])
    for m in log["matches"]:  # seeds written as JSON integers read the same
        m["seed"] = int(m["seed"])
        for h in m["hands"]:
            h["seed"] = int(h["seed"])
    assert check_log(log).hands == len(match["hands"])


# ---------------------------------------------------------------------- fuzzing the check

JSON_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 200), st.text(max_size=6), st.lists(st.integers(0, 3), max_size=3)
)
MOVE_TEXT = st.one_of(
    st.text(max_size=12),
    st.builds(
        lambda seat, kind, tile: f"{seat} {kind}" + (f" {tile}" if tile else ""),
        st.integers(-1, 4),
        st.sampled_from(["discard", "ting", "chi", "pon", "kong", "ankong", "addkong", "hu", "pass", "timeout",
                         "away", "back", "exchange", "eye", "miji", "draw"]),
        st.sampled_from(["", "1m", "5p", "9s", "7z", "f1", "123m", "345s", "0m", "5m7p9s"]),
    ),
)  # fmt: skip


@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_any_edit_is_accepted_or_refused_at_or_after_the_edited_move_never_a_crash(data):
    """Whatever is changed in a log, the check answers: it passes (an edit that changes nothing the
    engine checks, e.g. two 過 swapped) or names a move no earlier than the edit."""
    log = log_of(data.draw(st.sampled_from(RULES)), 0)
    hands = log["matches"][0]["hands"]
    h = data.draw(st.integers(0, len(hands) - 1))
    hand = hands[h]
    where = data.draw(st.sampled_from(["move", "event", "drop_event", "result", "header"]))
    edited = 0
    if where == "move":
        k = data.draw(st.integers(0, len(hand["moves"]) - 1)) if hand["moves"] else 0
        if hand["moves"]:
            hand["moves"][k] = data.draw(MOVE_TEXT)
        edited = k + 1
    elif where in ("event", "drop_event"):
        j = data.draw(st.integers(0, len(hand["events"]) - 1))
        edited = hand["events"][j]["move"]
        if where == "drop_event":
            del hand["events"][j]
        else:
            field = data.draw(st.sampled_from(sorted(hand["events"][j])))
            hand["events"][j][field] = data.draw(JSON_VALUES)
            if field == "move":
                edited = 0  # the event now claims another move: any move may be the first to differ
    elif where == "result":
        field = data.draw(st.sampled_from(sorted(hand["result"])))
        hand["result"][field] = data.draw(JSON_VALUES)
        edited = len(hand["moves"])
    else:
        field = data.draw(st.sampled_from(["seed", "dealer", "wall", "dice", "scores_before", "number"]))
        hand[field] = data.draw(JSON_VALUES)
    try:
        check_log(log)
    except LogError as error:
        assert error.hand is None or error.hand >= h + 1
        if error.hand == h + 1 and error.move is not None:
            assert error.move >= edited or where == "header"
