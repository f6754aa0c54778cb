"""One TableOptions for game, scorer and settlement; headers that replay a hand or a match alone."""

import json

import pytest

from engine.game import Game
from engine.match import Match, score_outcome
from engine.policy import SimpleAI
from engine.position import position
from engine.rules import TableOptions
from engine.selfplay import play_hand
from tests.engine.helpers import act

AI = [SimpleAI() for _ in range(4)]


def state(game: Game) -> tuple:
    """What a player could notice: tiles everywhere, the wall position, whose move, what is legal."""
    return (
        game.hands,
        game.melds,
        game.flowers,
        game.rivers,
        game.wall.front,
        game.wall.back,
        game.phase,
        game.to_act(),
        [game.legal_actions(s) for s in range(4)],
        game.outcome,
        game.view(None),
    )


def through_json(header: dict) -> dict:
    return json.loads(json.dumps(header))


def replays_alike(options: TableOptions, seeds: range) -> None:
    for seed in seeds:
        game = Game(seed=seed, dealer=seed % 4, options=options, scores=(seed, -seed, 0, 0))
        play_hand(game, AI, check=False)
        again = Game.replay(through_json(game.header()), [str(a) for a in game.log])
        assert state(again) == state(game), seed


def test_header_alone_replays_two_hundred_hands_at_a_three_tai_table():
    replays_alike(TableOptions(min_tai=3), range(200))


def test_header_alone_replays_hands_with_every_option_changed():
    options = TableOptions(
        self_draw_only=True,
        may_pass_win=True,
        min_tai=2,
        see_wind_see_flower=True,
        cap_tai=None,
        bankroll_tai=None,
        base=100,
        tai=50,
        turn_seconds=8,
        claim_seconds=5,
    )
    replays_alike(options, range(200, 300))


def test_header_holds_everything_that_decides_play():
    game = Game(seed=5, dealer=2, round_wind=1, dealer_streak=3, hand_number=7, scores=(10, -10, 0, 0))
    header = game.header()
    assert header["version"] == 1
    assert {
        k: header[k] for k in ("rules", "seed", "dealer", "round_wind", "dealer_streak", "hand_number")
    } == {
        "rules": "taiwan16",
        "seed": 5,
        "dealer": 2,
        "round_wind": 1,
        "dealer_streak": 3,
        "hand_number": 7,
    }
    assert header["options"] == TableOptions().to_dict() and header["scores"] == [10, -10, 0, 0]
    assert header["auto"] == []
    again = Game.replay(through_json(header), [])
    assert [s.score for s in again.view(None).seats] == [10, -10, 0, 0]


def test_replay_refuses_an_unknown_header_version():
    header = Game(seed=1).header()
    with pytest.raises(ValueError, match="version"):
        Game.replay({**header, "version": 99}, [])


def test_table_options_round_trip_and_refuse_unknown_or_bad_values():
    opts = TableOptions(min_tai=3, cap_tai=None, turn_seconds=5)
    assert TableOptions.from_dict(through_json(opts.to_dict())) == opts
    with pytest.raises(ValueError, match="min_tia, zimo"):
        TableOptions.from_dict({"min_tia": 3, "zimo": True})
    for bad in ({"min_tai": -1}, {"cap_tai": "16"}, {"may_pass_win": 1}, {"turn_seconds": 2}, {"tai": True}):
        with pytest.raises(ValueError):
            TableOptions(**bad)


def test_defaults_follow_the_document_cap_sixteen_and_the_24_tai_rule():
    opts = TableOptions()
    assert (opts.cap_tai, opts.bankroll_tai, opts.base, opts.tai, opts.min_tai) == (16, 24, 300, 100, 0)
    assert 4 <= opts.turn_seconds and opts.claim_seconds > 0


def test_game_does_not_import_the_match_module():
    import ast
    from pathlib import Path

    import engine.game

    tree = ast.parse(Path(engine.game.__file__).read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "match" not in imported and "engine.match" not in imported
    assert "scoring" in imported  # 三台起胡 asks the scorer directly


def test_three_tai_minimum_is_decided_inside_the_game_through_the_scorer():
    # 門清 + 平胡 = 3 countable 台 on a discard; a closed wait is 門清 + 獨聽 = 2 台 and is not offered
    three = position(
        hands={0: "123m456m789m123p456p1s9s", 1: "123456789m456p11s78s"}, options=TableOptions(min_tai=3)
    )
    three.apply(act("0 discard 9s"))
    assert three.is_over and three.outcome.winner == 1
    two = position(
        hands={0: "123m456m789m123p456p1s8s", 1: "123456789m456p11s79s"}, options=TableOptions(min_tai=3)
    )
    two.apply(act("0 discard 8s"))
    assert not two.is_over
    anywhere = position(hands={0: "123m456m789m123p456p1s8s", 1: "123456789m456p11s79s"})
    anywhere.apply(act("0 discard 8s"))
    assert anywhere.is_over and anywhere.outcome.winner == 1


# ---------------------------------------------------------------- settlement reads the options


def big_win(options: TableOptions):
    """Seat 1 (not the dealer) wins 大四喜 + 字一色 on seat 0's discard: far above 16 and 24 台."""
    game = position(hands={0: "123m456m789m123p456p1s6z", 1: "111z222z333z444z555z6z"}, dealer=2)
    game.apply(act("0 discard 6z"))
    assert game.is_over and game.outcome.winner == 1
    return score_outcome(game), Match(seed=1, options=options).finish_hand(game)


def test_cap_and_bankroll_off_the_loser_pays_every_tai():
    scored, result = big_win(TableOptions(cap_tai=None, bankroll_tai=None))
    assert scored.total > 24 + 1
    assert result.deltas[0] == -(300 + scored.total * 100)
    assert result.capped_total is None and not result.limited


def test_cap_on_limits_the_hand_to_sixteen_tai_and_the_sheet_says_so():
    scored, result = big_win(TableOptions(cap_tai=16, bankroll_tai=None))
    capped = scored.capped_total(16)
    assert capped < scored.total
    assert result.deltas[0] == -(300 + capped * 100)
    assert result.total == scored.total and result.capped_total == capped and not result.limited


def test_bankroll_on_a_loser_pays_at_most_base_plus_24_tai():
    scored, result = big_win(TableOptions(cap_tai=None, bankroll_tai=24))
    assert result.deltas[0] == -(300 + 24 * 100) and result.limited
    assert result.unit == scored.unit == "tai"


# ---------------------------------------------------------------- match header and replay


def play_recorded(match: Match, stop_after_hands: int, stop_after_actions: int):
    logs: list[list[str]] = []
    game = None
    while not match.is_over and len(logs) < stop_after_hands:
        game = match.new_hand()
        logs.append([])
        steps = 0
        while not game.is_over:
            if len(logs) == stop_after_hands and steps == stop_after_actions:
                return logs, game
            seat = game.to_act()[0]
            action = AI[seat].choose(game.view(seat), game.legal_actions(seat))
            game.apply(action)
            logs[-1].append(str(action))
            steps += 1
        match.finish_hand(game)
        game = None
    return logs, game


def test_match_replays_from_its_json_header_and_hand_logs_to_the_same_scores_and_table():
    options = TableOptions(min_tai=3, may_pass_win=True)
    match = Match(seed=12, rounds=1, options=options)
    logs, game = play_recorded(match, stop_after_hands=3, stop_after_actions=9)
    assert game is not None and len(match.history) == 2
    again, current = Match.replay(through_json(match.header()), through_json(logs))
    assert again.scores == match.scores and again.history == match.history
    assert (again.dealer, again.dealer_streak, again.round_wind) == (
        match.dealer,
        match.dealer_streak,
        match.round_wind,
    )
    assert current is not None and state(current) == state(game)


def test_a_whole_match_replays_and_returns_no_game_in_progress():
    match = Match(seed=3, rounds=1)
    logs, game = play_recorded(match, stop_after_hands=1000, stop_after_actions=-1)
    assert match.is_over and game is None
    again, current = Match.replay(through_json(match.header()), logs)
    assert current is None and again.is_over and again.scores == match.scores
    assert again.history == match.history


def test_match_header_is_versioned():
    header = Match(seed=1).header()
    assert header == {
        "version": 1,
        "rules": "taiwan16",
        "seed": 1,
        "rounds": 1,
        "options": TableOptions().to_dict(),
    }
    with pytest.raises(ValueError):
        Match.replay({**header, "version": 99}, [])
    key = bytes(range(32))
    sealed = Match(key=key).header()
    assert sealed == {
        "version": 2,
        "key": key.hex(),
        "rules": "taiwan16",
        "rounds": 1,
        "options": TableOptions().to_dict(),
    }
    with pytest.raises(ValueError):  # a version-2 header is dealt from its key: a seed is not enough
        Match.replay({**header, "version": 2}, [])
