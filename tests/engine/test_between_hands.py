"""代打 switched between two hands: "Take back control" (or leaving) after a hand ended decides the next
hand, is logged with the finished hand, and a replay of the stored logs arrives at the same seats."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action, Kind
from engine.game import Game, IllegalActionError
from engine.log import HandMoves, LogError, check_log, export_match, game_header, hand_steps, verify_log
from engine.match import Match
from engine.replay import WIN, frame_at, frame_marks
from engine.review import review_match
from tests.engine.match_driver import play_match

NAMES = ("East", "South", "West", "North")


def play_out(game: Game) -> None:
    while not game.is_over:
        seat = game.to_act()[0]
        game.apply(game.auto_action(seat))


def test_back_after_the_hand_ended_starts_the_next_hand_in_control_and_replays():
    match = Match("taiwan16", seed=3, rounds=1)
    game = match.new_hand()
    game.apply(Action(2, Kind.AWAY))
    play_out(game)
    match.finish_hand(game)
    assert match.auto_seats == {2}
    match.between_hands(Action(2, Kind.BACK))  # pressed while the score sheet shows
    assert match.history[-1].log[-1] == "2 back"
    nxt = match.new_hand()
    assert nxt.auto_seats() == []
    nxt.apply(Action(2, Kind.AWAY))  # and the seat may leave later in the match: only legal if back
    again, pending = Match.replay(match.header(), [r.log for r in match.history] + [[str(a) for a in nxt.log]])
    assert pending is not None and pending.auto_seats() == [2] and again.auto_seats == match.auto_seats


def test_back_as_the_hand_ends_before_it_is_settled_is_taken_by_the_finished_hand():
    match = Match("taiwan16", seed=5, rounds=1)
    game = match.new_hand()
    game.apply(Action(1, Kind.AWAY))
    play_out(game)
    game.apply(Action(1, Kind.BACK))  # the click arrived between the last move and the settlement
    match.finish_hand(game)
    assert match.auto_seats == set() and match.new_hand().auto_seats() == []


def test_a_finished_hand_takes_no_move_but_away_and_back():
    game = Game("taiwan16", seed=2)
    play_out(game)
    with pytest.raises(IllegalActionError) as refused:
        game.apply(Action(0, Kind.TIMEOUT))
    assert refused.value.code == "hand_over"
    with pytest.raises(IllegalActionError):
        game.apply(Action(0, Kind.BACK))  # not away: nothing to take back
    match = Match("taiwan16", seed=2)
    with pytest.raises(ValueError):
        match.between_hands(Action(0, Kind.AWAY))  # no hand has ended yet


def test_a_taiwan13_match_ended_by_a_leave_takes_no_second_leave():
    match = Match("taiwan13", seed=4, rounds=1)
    game = match.new_hand()
    match.abandon(game, 1)
    with pytest.raises(ValueError):
        match.abandon(game, 2)
    assert match.scores == [0, -50, 0, 0]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31), st.lists(st.tuples(st.integers(0, 6), st.integers(0, 3), st.booleans()), max_size=8))
def test_random_away_and_back_between_and_within_hands_replay_to_the_same_match(seed, switches):
    """Switches at random moments (mid-hand, before and after settlement) replay to the same state."""
    match = Match("taiwan16", seed=seed, rounds=1)
    pending = list(switches)
    game: Game | None = match.new_hand()
    hands = 0
    while not match.is_over and hands < 6:
        assert game is not None
        steps = 0
        while not game.is_over:
            if pending and pending[0][0] == steps % 7:
                _, seat, away = pending.pop(0)
                action = Action(seat, Kind.AWAY if away else Kind.BACK)
                if game.is_legal(action):
                    game.apply(action)
            game.apply(game.auto_action(game.to_act()[0]))
            steps += 1
        match.finish_hand(game)
        for _, seat, away in pending[:2]:  # between hands
            if (seat in match.auto_seats) != away:
                match.between_hands(Action(seat, Kind.AWAY if away else Kind.BACK))
        del pending[:2]
        hands += 1
        game = None if match.is_over else match.new_hand()
    logs = [r.log for r in match.history] + ([[str(a) for a in game.log]] if game is not None else [])
    again, left = Match.replay(match.header(), logs)
    assert again.scores == match.scores and again.auto_seats == match.auto_seats
    assert [r.log for r in again.history] == [r.log for r in match.history]
    if game is not None:
        assert left is not None and left.auto_seats() == game.auto_seats()


def _run(seed: int, switches: list[tuple[int, int, bool]], restarts: set[int]) -> Match:
    """A match auto-played with 代打 switches at given steps (mid-hand and between hands); at each step in
    ``restarts`` the match is rebuilt from its header and stored logs, as the bot does after a restart."""
    match = Match("taiwan16", seed=seed, rounds=1)
    game: Game | None = match.new_hand()
    plan = {step: (seat, away) for step, seat, away in switches}
    step = 0
    while not match.is_over and len(match.history) < 4:
        if step in restarts:
            logs = [list(r.log) for r in match.history] + ([[str(a) for a in game.log]] if game else [])
            match, game = Match.replay(match.header(), logs)
        if step in plan:
            seat, away = plan[step]
            action = Action(seat, Kind.AWAY if away else Kind.BACK)
            if game is not None and game.is_legal(action):
                game.apply(action)
            elif game is None and (seat in match.auto_seats) != away:
                match.between_hands(action)
        if game is None:
            game = match.new_hand()
        else:  # a hand is settled as it ends, as the table does (a replay of its log does the same)
            game.apply(game.auto_action(game.to_act()[0]))
            if game.is_over:
                match.finish_hand(game)
                game = None
        step += 1
    return match


@settings(max_examples=20, deadline=None)
@given(
    st.integers(0, 2**31),
    st.lists(st.tuples(st.integers(0, 400), st.integers(0, 3), st.booleans()), max_size=10),
    st.sets(st.integers(0, 400), max_size=6),
)
def test_restarts_at_random_moments_replay_to_the_same_match_as_the_live_table(seed, switches, restarts):
    live = _run(seed, switches, set())
    restarted = _run(seed, switches, restarts)
    assert [r.log for r in restarted.history] == [r.log for r in live.history]
    assert restarted.scores == live.scores and restarted.auto_seats == live.auto_seats


def test_a_hand_won_by_flowers_in_the_deal_replays_and_the_match_goes_on():
    """七搶一 in the deal ends a hand before anyone moves: its log is empty, and the replay settles
    it and deals the next hand (seed 102's second hand)."""
    match = Match("taiwan16", seed=102, rounds=1)
    for _ in range(3):
        game = match.new_hand()
        while not game.is_over:
            game.apply(game.auto_action(game.to_act()[0]))
        match.finish_hand(game)
    assert match.history[1].log == () and match.history[1].result.winner is not None
    again, left = Match.replay(match.header(), [r.log for r in match.history])
    assert left is None and again.scores == match.scores
    assert [r.result for r in again.history] == [r.result for r in match.history]


# ---------------------------------------------------------------------- every surface reads them


@pytest.mark.parametrize("rules", ["taiwan16", "taiwan13", "hongkong", "guangdong"])
def test_every_hand_with_switches_between_hands_replays_exports_verifies_and_reviews(rules):
    """Take-backs and leaves between two hands are stored at the end of the settled hand's moves (as a
    table stores them): every such hand still exports, checks and verifies as a match log, replays
    (its end the last frame), and is reviewed, and the next hand starts with the seats they say."""
    switched = 0
    for seed in (0,):
        played = play_match(rules, seed, key=bytes([seed]) * 32, between=0.9, max_hands=6)
        match = played.match
        log = export_match(match.header(), played.hands)
        record = log["matches"][0]
        assert verify_log(log).hands == len(record["hands"]) == len(played.hands)  # verify checks too
        for n, (stored, game, hand) in enumerate(zip(played.hands, played.games, record["hands"], strict=True)):
            assert hand["moves"] == list(stored.moves)
            steps = list(hand_steps(Game.replay(game.header(), []), stored.moves))
            after = [s for s in steps if s.between]
            switched += bool(after)
            assert all(s.move is not None and s.move.split()[1] in ("away", "back") for s in after)
            if n + 1 < len(played.games):  # the next hand starts with the seats they leave
                assert record["hands"][n + 1]["auto_before"] == [s for s in range(4) if steps[-1].game.auto[s]]
            if stored.left is None:  # the stored moves replay, the hand's end the last frame
                marks = frame_marks(game.header(), stored.moves)
                last = frame_at(game_header(record, hand), hand["moves"], len(marks) - 1)
                assert last.number == len(stored.moves) - len(after) and WIN in last.marks
        finished = sum(h.left is None for h in played.hands)
        review = review_match(match.header(), [h.moves for h in played.hands], seat=seed, only=finished)
        assert [h.result for h in review.hands] == [match.history[finished - 1].result]
    assert switched >= 2, "the driver made too few switches between hands to prove anything"


def test_a_switch_after_the_last_hand_is_refused_live_and_changes_nothing_where_an_older_table_stored_one():
    played = play_match("taiwan13", 3, max_hands=99)  # over in four hands
    match = played.match
    assert match.is_over
    with pytest.raises(ValueError, match="the match is over"):
        match.between_hands(Action(0, Kind.AWAY))
    last = played.games[-1]
    stored = [h.moves for h in played.hands]
    stored[-1] = [*stored[-1], "0 back" if last.auto[0] else "0 away"]  # as a table stored it before
    again, pending = Match.replay(match.header(), stored)
    assert pending is None and again.is_over and again.scores == match.scores
    log = export_match(match.header(), [HandMoves(m) for m in stored])
    assert check_log(log).hands == len(stored) and log["matches"][0]["final_scores"] == match.scores


def test_a_move_other_than_away_or_back_after_a_hand_ended_is_refused_with_its_number():
    played = play_match("hongkong", 2, max_hands=1)
    moves = list(played.hands[0].moves)
    game = played.games[0]
    with pytest.raises(LogError) as refused:
        list(hand_steps(Game.replay(game.header(), []), [*moves, "0 away", "1 discard 1m"]))
    assert refused.value.move == len(moves) + 2 and "after the hand ended" in refused.value.reason
