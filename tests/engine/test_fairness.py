"""Provably fair deals (issue 36): every deal of a sealed match follows from its key by HMAC-SHA-256,
nothing an export of a running match holds rebuilds a later wall (the leak a plain seed had), and
``python -m engine.log verify`` tells a fair finished match from one whose key, wall or moves changed."""

from __future__ import annotations

import copy
import hashlib
import hmac
import itertools
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine import fairness
from engine.game import Game
from engine.log import HandMoves, Sealed, check_log, export_match, main, read_log, verify_log
from engine.match import Match
from tests.engine.match_driver import play_match

KEY = bytes(range(100, 132))


def test_hand_seeds_are_hmac_sha256_of_the_key_and_the_hand_number():
    for number in (1, 2, 17):
        digest = hmac.new(KEY, f"hand {number}".encode(), hashlib.sha256).digest()
        assert fairness.hand_seed(KEY, number) == int.from_bytes(digest[:8], "big") >> 1
    assert fairness.commitment(KEY) == hashlib.sha256(KEY).hexdigest()
    match = Match("taiwan16", key=KEY)
    assert match.new_hand().seed == fairness.hand_seed(KEY, 1)
    assert "key" not in repr(match) and KEY.hex() not in repr(match)


def test_the_seat_draw_and_every_wall_follow_from_the_key_alone():
    a, b = Match("hongkong", key=KEY), Match("hongkong", key=KEY, seed=12345)  # a seed beside a key is unused
    assert (a.seat_of_player, a.dealer_dice) == (b.seat_of_player, b.dealer_dice)
    assert a.new_hand().wall.tiles == b.new_hand().wall.tiles
    other = Match("hongkong", key=bytes(32))
    assert other.new_hand().wall.tiles != Match("hongkong", key=KEY).new_hand().wall.tiles


def numbers_in(document: Any) -> set[int]:
    """Every integer a file holds, written as a JSON number or as digits in a string."""
    found: set[int] = set()

    def walk(value: Any) -> None:
        if isinstance(value, bool):
            return
        if isinstance(value, int):
            found.add(value)
        elif isinstance(value, str) and value.isdigit():
            found.add(int(value))
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(document)
    return found


def rebuilds_the_next_wall(document: dict[str, Any], first_moves: list[str], next_wall: list[int]) -> bool:
    """The attack of issue 36: from a mid-match export (its header and hand 1's moves), rebuild hand
    2's wall — from any number in the file taken as the match's seed or as hand 2's own seed."""
    record = document["matches"][0]
    for candidate in numbers_in(document):
        try:
            header = {"version": 1, "rules": record["rules"], "seed": candidate, "rounds": record["rounds"],
                      "options": record["options"]}  # fmt: skip
            _, game = Match.replay(header, [first_moves, []])
            if game is not None and game.wall.tiles == next_wall:
                return True
        except (ValueError, KeyError, IndexError):
            pass
        if Game(record["rules"], seed=candidate).wall.tiles == next_wall:
            return True
    return False


def export_after_one_hand(key: bytes | None, *, sealed: bool) -> tuple[dict[str, Any], list[str], list[int]]:
    played = play_match("taiwan16", 4, max_hands=2, key=key)
    match = played.match
    header = match.header()
    first = list(played.hands[0].moves)
    # the table as a player sees it: hand 1 over, hand 2 being played
    again, _ = Match.replay(header, [first])
    hand2 = again.new_hand()
    document = export_match(header, [first, []], sealed=sealed)
    return json.loads(json.dumps(document)), first, list(hand2.wall.tiles)


def test_a_running_matchs_export_no_longer_rebuilds_the_next_wall():
    # the leak as it was: an export carrying the match's plain seed rebuilds the coming hand's wall
    leaked, first, wall = export_after_one_hand(None, sealed=False)
    assert rebuilds_the_next_wall(leaked, first, wall)
    # a table's match now: sealed while it runs, dealt from a key the export does not hold
    sealed, first, wall = export_after_one_hand(KEY, sealed=True)
    record = sealed["matches"][0]
    assert record["sealed"] is True and record["commitment"] == fairness.commitment(KEY)
    assert "key" not in record and "seed" not in record
    assert all("seed" not in h and "wall" not in h for h in record["hands"]) and len(record["hands"]) == 1
    assert KEY.hex() not in json.dumps(sealed)
    assert not rebuilds_the_next_wall(sealed, first, wall)
    with pytest.raises(Sealed):
        check_log(sealed)


@cache
def finished_log() -> str:
    played = play_match("taiwan16", 7, max_hands=3, key=KEY)
    return json.dumps(export_match(played.match.header(), played.hands))


def run(tmp_path: Path, document: Any, command: str = "verify") -> tuple[int, str]:
    path = tmp_path / "log.json"
    path.write_text(document if isinstance(document, str) else json.dumps(document), encoding="utf-8")
    return main([command, str(path)]), str(path)


def test_verify_accepts_the_finished_match_and_refuses_a_changed_key_wall_seed_or_move(tmp_path, capsys):
    document = json.loads(finished_log())
    assert verify_log(document).hands == 3
    assert run(tmp_path, document)[0] == 0
    assert capsys.readouterr().out.startswith("fair: 1 match(es), 3 hands")

    changed = copy.deepcopy(document)
    changed["matches"][0]["key"] = bytes(32).hex()  # another key: it does not hash to the commitment
    assert run(tmp_path, changed)[0] == 1
    assert "commitment" in capsys.readouterr().out

    changed["matches"][0]["commitment"] = fairness.commitment(bytes(32))  # both replaced, consistently
    assert run(tmp_path, changed)[0] == 1
    assert "seat_draw is [1, 0, 3, 2], but the match's key gives" in capsys.readouterr().out

    walled = copy.deepcopy(document)
    wall = walled["matches"][0]["hands"][1]["wall"]
    wall[10], wall[11] = wall[11], wall[10]
    if wall[10] == wall[11]:
        wall[10], wall[20] = wall[20], wall[10]
    assert run(tmp_path, walled)[0] == 1
    out = capsys.readouterr().out
    assert out.startswith("not fair: hand 2, the deal: wall is"), out

    moved = copy.deepcopy(document)
    hand = moved["matches"][0]["hands"][2]
    k = next(i for i, m in enumerate(hand["moves"]) if " discard " in m)
    seat, _, tile = hand["moves"][k].split()
    hand["moves"][k] = f"{seat} discard {'9p' if tile != '9p' else '8p'}"
    assert run(tmp_path, moved)[0] == 1
    assert capsys.readouterr().out.startswith(f"not fair: hand 3, move {k + 1}")


def test_verify_says_a_sealed_log_or_one_dealt_from_a_plain_seed_cannot_be_verified(tmp_path, capsys):
    sealed, _, _ = export_after_one_hand(KEY, sealed=True)
    assert run(tmp_path, sealed) == (2, str(tmp_path / "log.json"))
    assert "sealed" in capsys.readouterr().err
    assert run(tmp_path, sealed, "check")[0] == 2
    seeded = play_match("guangdong", 2, max_hands=2)
    document = export_match(seeded.match.header(), seeded.hands)
    assert run(tmp_path, document, "check")[0] == 0
    assert run(tmp_path, document)[0] == 2
    assert "plain seed" in capsys.readouterr().err
    assert run(tmp_path, "not json")[0] == 2


def test_a_version_1_log_from_before_keys_still_reads_and_checks():
    played = play_match("taiwan13", 3, max_hands=2)
    document = export_match(played.match.header(), [HandMoves(h.moves) for h in played.hands])
    document["version"] = 1
    del document["matches"][0]["sealed"]
    old = read_log(json.dumps(document))
    assert check_log(old).hands == 2


def dealt(rules: str, seed: int, **match) -> tuple[Any, list[tuple]]:
    """A match played by the driver, and each hand's wall as it was dealt (买马 takes tiles off it later)."""
    walls: dict[int, tuple] = {}
    played = play_match(rules, seed, on_step=lambda g: walls.setdefault(id(g), tuple(g.wall.tiles)), **match)
    return played, [walls[id(g)] for g in played.games]


def positions(played, walls) -> dict[tuple[int, int], tuple]:
    """Each hand's dealer and wall by the position it was dealt at: (changes of dealer so far, repeats) —
    a hand's repeat count is 0 exactly when the deal changed hands before it."""
    found, changes = {}, 0
    for number, (game, wall) in enumerate(zip(played.games, walls, strict=True)):
        if number and game.dealer_streak == 0:
            changes += 1
        found[(changes, game.dealer_streak)] = (game.seed, game.dealer, wall)
    return found


@pytest.mark.parametrize("rules", ["taiwan16", "taiwan13", "hongkong", "guangdong"])
def test_duplicate_tables_sharing_a_key_are_dealt_the_same_wall_at_every_position_both_reach(rules):
    """Issue 42: a tournament round's tables play the same walls seat for seat; a table whose dealer kept
    the deal longer plays a repeat the others never see, and then meets them again at the next position.
    Where the deal passes to the next seat the dealer corresponds too; in guangdong the winner deals next,
    so the n-th change of dealer may give the deal to different seats: the same seed then deals from
    another dealer's side, and only the tables whose dealer sits in the same seat there hold the same tiles."""
    runs = [dealt(rules, seed, key=KEY, duplicate=True, max_hands=8) for seed in range(1, 7)]
    assert len({(t.match.seat_of_player, t.match.first_dealer) for t, _ in runs}) == 1
    walls = [positions(t, w) for t, w in runs]
    shared = 0
    for a, b in itertools.combinations(walls, 2):
        for where in a.keys() & b.keys():
            assert a[where][0] == b[where][0], where  # the same seed: the same shuffle and dice
            if rules != "guangdong":  # the same dealer, so the same wall seat for seat
                assert a[where][1:] == b[where][1:], where
            shared += 1
    assert shared > len(runs)  # more positions than the first hand are compared
    assert len({tuple(w) for w in walls}) > 1, "some table's dealer kept the deal where another's passed it"
    for _, dealt_walls in runs:  # no table is dealt one wall twice
        assert len(set(dealt_walls)) == len(dealt_walls)


def test_a_duplicate_match_exports_how_it_deals_and_verifies():
    played = play_match("taiwan16", 3, key=KEY, duplicate=True, max_hands=3)
    document = export_match(played.match.header(), played.hands)
    assert document["matches"][0]["deal"] == "position"
    assert verify_log(document).hands == 3
    plain = copy.deepcopy(document)
    del plain["matches"][0]["deal"]  # read as dealt by number: the first hand's seed already differs
    with pytest.raises(Exception, match="hand 1, the deal: seed is .* but the match's key deals"):
        verify_log(plain)
    with pytest.raises(ValueError, match="key"):
        Match("taiwan16", seed=1, duplicate=True)


def test_a_match_of_at_most_some_hands_ends_after_them_and_its_header_and_log_say_so():
    """A tournament round of "1 hand": the match is over after it whatever the round wind, and a replay
    from its header (or its exported log) ends there too."""
    import random

    from engine.policy import make_policy
    from engine.selfplay import play_hand

    match = Match("taiwan16", key=bytes(range(32)), duplicate=True, hands=1)
    game = match.new_hand()
    play_hand(game, [make_policy("easy", random.Random(s)) for s in range(4)], check=False)
    match.finish_hand(game)
    assert match.is_over
    header = match.header()
    assert header["hands"] == 1 and Match.from_header(header).hands == 1
    document = export_match(header, [[str(a) for a in game.log]])
    record = document["matches"][0]
    assert record["hand_limit"] == 1 and record["complete"] and record["deal"] == "position"
    assert verify_log(document).hands == 1
