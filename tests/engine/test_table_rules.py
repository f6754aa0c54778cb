"""Issue 11's table rules as the document writes them: 過水 on any declined win, 地胡 in the first
go-round, 代打 (timeouts, away, back), and the typed events and views the table cog reads."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import EventKind, Game, IllegalActionError, InvariantError, Match, Phase
from engine.actions import Action, Kind
from engine.position import position
from engine.rules import TableOptions
from engine.selfplay import MAX_STEPS
from engine.tiles import parse_tiles
from tests.engine.helpers import act, kinds, pass_all, tile

PASSABLE = TableOptions(may_pass_win=True)
S0 = "123m456m789m123p456p1s9s"  # the dealer's hand (17 tiles)
JUNK = "123m456m789m147p258p1s9s"  # a dealer hand far from ready (17 tiles)


# ---------------------------------------------------------------- 過水: any way of declining a win


def test_guo_shui_starts_when_a_win_is_declined_by_calling_pon_on_the_same_discard():
    game = position(hands={0: S0.replace("1s", "5s"), 2: "234m567m345p678p55s99s"}, options=PASSABLE)
    game.apply(act("0 discard 5s"))
    assert {"hu", "pon"} <= kinds(game, 2)
    game.apply(act("2 pon"))
    assert game.passed_win[2]
    assert any(e.kind is EventKind.PASS_WIN and e.seat == 2 for e in game.events)


def test_guo_shui_starts_when_a_win_is_declined_by_calling_kong_on_the_same_discard():
    game = position(
        hands={0: S0.replace("1s", "5s"), 2: "234m567m345p555s67s11z"}, back="7z", options=PASSABLE
    )
    game.apply(act("0 discard 5s"))
    assert {"hu", "kong"} <= kinds(game, 2)
    game.apply(act("2 kong"))
    assert game.passed_win[2] and not game.is_over


def test_guo_shui_starts_when_a_win_is_declined_by_calling_chi_on_the_same_discard():
    game = position(hands={0: S0.replace("1s", "5s"), 1: "234m567m345p678p34s11z"}, options=PASSABLE)
    game.apply(act("0 discard 5s"))
    assert {"hu", "chi"} <= kinds(game, 1)
    game.apply(act("1 chi 345s"))
    assert game.passed_win[1]


def test_guo_shui_starts_when_a_self_drawn_win_is_declined_by_a_concealed_kong():
    game = position(hands={0: "1111m23m789m123p456p11s"}, back="7z", options=PASSABLE)
    assert "hu" in kinds(game, 0)
    game.apply(act("0 ankong 1m"))
    assert game.passed_win[0] and "hu" not in kinds(game, 0)


def test_guo_shui_does_not_start_on_a_table_without_a_win_on_offer():
    game = position(hands={0: S0.replace("1s", "5s"), 2: "234m567m345p678p55s19s"}, options=PASSABLE)
    game.apply(act("0 discard 5s"))
    game.apply(act("2 pon"))
    assert not game.passed_win[2]


# ---------------------------------------------------------------- 地胡: the first go-round


def first_round_game(seat2: str = "147m258m369p147s258s9s") -> Game:
    # dealer 0; seat 1 waits on 9s alone; seat 2 holds a 9s. Live draws: seat 1, 2, 3, then the dealer.
    return position(
        hands={0: JUNK, 1: "234m567m111z222z333z9s", 2: seat2},
        wall="7z3m6p2s",
        first_go=True,
    )


def test_earthly_win_on_the_next_players_first_discard_after_the_winners_own_first_discard():
    game = first_round_game()
    game.apply(act("0 discard 1s"))
    pass_all(game)
    game.apply(act("1 discard 7z"))  # seat 1's own first discard
    pass_all(game)
    game.apply(act("2 discard 9s"))  # seat 2's first discard, still in the first go-round
    out = game.outcome
    assert out is not None and out.winner == 1 and out.loser == 2 and out.earthly


def test_no_earthly_win_once_the_dealer_has_drawn_again():
    game = first_round_game(seat2="147m258m369p147s258s8s")
    game.apply(act("0 discard 1s"))
    pass_all(game)
    game.apply(act("1 discard 7z"))
    pass_all(game)
    game.apply(act("2 discard 3m"))
    pass_all(game)
    game.apply(act("3 discard 6p"))
    pass_all(game)
    assert game.turn == 0 and game.drawn[0] == tile("2s")  # the dealer's second live draw
    game.apply(act("0 discard 9s"))
    out = game.outcome
    assert out is not None and out.winner == 1 and not out.earthly


def test_no_earthly_win_after_any_claim_in_the_first_go_round():
    game = position(
        hands={0: JUNK.replace("1s", "5z"), 1: "234m567m111z222z333z9s", 2: "55z147m258m369p147s8s9s"},
        wall="7z",
        first_go=True,
    )
    game.apply(act("0 discard 5z"))
    game.apply(act("2 pon"))
    game.apply(act("2 discard 9s"))
    out = game.outcome
    assert out is not None and out.winner == 1 and not out.earthly


# ---------------------------------------------------------------- 代打


def own_turn_timeouts(seed: int, seat: int, count: int) -> Game | None:
    """Everyone else plays 代打; ``seat`` times out every decision. Stop after ``count`` own turns."""
    game = Game(seed=seed)
    turns = 0
    while not game.is_over and turns < count:
        s = game.to_act()[0]
        if s == seat:
            if game.phase is Phase.TURN:
                turns += 1
            game.apply(Action(s, Kind.TIMEOUT))
        else:
            game.apply(game.auto_action(s))
    return None if game.is_over else game


def test_a_timeout_in_a_claim_window_is_a_pass_and_not_an_absence():
    game = position(hands={0: S0.replace("1s", "5z"), 2: "55z234m567m345p678p2s8s"})
    game.apply(act("0 discard 5z"))
    assert "pon" in kinds(game, 2)
    game.apply(Action(2, Kind.TIMEOUT))
    assert game.phase is Phase.TURN and game.turn == 1  # passed: seat 1 draws
    assert game.timeouts[2] == 0 and not game.auto[2]


def test_a_timeout_on_a_possible_win_in_a_claim_window_is_a_pass_too():
    game = position(hands={0: S0, 1: "234m567m111z222z333z9s"}, options=PASSABLE)
    game.apply(act("0 discard 9s"))
    assert "hu" in kinds(game, 1)
    game.apply(Action(1, Kind.TIMEOUT))
    assert not game.is_over and game.passed_win[1]


def test_three_own_turns_timed_out_in_a_row_switch_on_auto_play_and_it_stays_until_back():
    for seed in range(40):
        game = own_turn_timeouts(seed, seat=1, count=3)
        if game is not None and not game.is_over:
            break
    else:
        pytest.skip("no hand lasted three turns")
    assert game.auto_seats() == [1]
    assert sum(e.kind is EventKind.AUTO_ON for e in game.events) == 1
    while not game.is_over and 1 not in game.to_act():
        s = game.to_act()[0]
        game.apply(game.auto_action(s))
    if game.is_over:
        pytest.skip("hand ended first")
    game.apply(game.legal_actions(1)[0])  # a real action does not end 代打
    assert game.auto_seats() == [1]
    if not game.is_over:
        game.apply(act("1 back"))
        assert game.auto_seats() == [] and game.events[-1].kind is EventKind.AUTO_OFF


def test_two_own_turns_timed_out_do_not_switch_on_auto_play():
    for seed in range(40):
        game = own_turn_timeouts(seed, seat=2, count=2)
        if game is not None:
            assert game.auto_seats() == [] and game.timeouts[2] == 2
            return
    pytest.skip("no hand lasted two turns")


def test_away_makes_a_seat_auto_played_at_once_and_back_gives_control_back():
    game = Game(seed=4)
    other = (game.turn + 2) % 4  # not the seat to act
    game.apply(Action(other, Kind.AWAY))
    assert game.auto_seats() == [other]
    with pytest.raises(IllegalActionError):
        game.apply(Action(other, Kind.AWAY))
    with pytest.raises(IllegalActionError):
        game.apply(Action((other + 1) % 4, Kind.BACK))
    again = Game.replay(game.header(), [str(a) for a in game.log])
    assert again.auto_seats() == [other] and str(game.log[-1]) == f"{other} away"
    game.apply(Action(other, Kind.BACK))
    assert game.auto_seats() == []


def test_away_and_back_once_the_hand_is_over_are_logged_for_the_next_hand_and_nothing_else_is_taken():
    game = position(hands={0: "123m456m789m123p456p11s"}, first_go=True)
    game.apply(act("0 hu"))
    game.apply(act("1 away"))  # between hands: the next hand starts auto-played (Match carries it)
    assert game.auto_seats() == [1] and str(game.log[-1]) == "1 away"
    with pytest.raises(IllegalActionError):
        game.apply(act("1 away"))
    with pytest.raises(IllegalActionError):
        game.apply(act("2 timeout"))


def test_auto_action_wins_when_the_hand_wins_and_passes_claims():
    game = position(hands={0: "123m456m789m123p456p11s"}, options=PASSABLE)
    assert game.auto_action(0) == act("0 hu")
    claim = position(hands={0: S0.replace("1s", "5z"), 2: "55z234m567m345p678p2s8s"})
    claim.apply(act("0 discard 5z"))
    assert claim.auto_action(2) == act("2 pass")
    with pytest.raises(IllegalActionError):
        claim.auto_action(0)


def test_auto_action_discards_the_drawn_tile_and_never_kongs():
    game = position(hands={0: "1111m56m789m123p456p1s9s"}, drawn="9s")
    assert "ankong" in kinds(game, 0)
    assert game.auto_action(0) == act("0 discard 9s")


def test_auto_play_carries_to_the_next_hand_of_a_match_until_back():
    match = Match(seed=5)
    game = match.new_hand()
    game.apply(act("3 away"))
    while not game.is_over:
        game.apply(game.auto_action(game.to_act()[0]))
    match.finish_hand(game)
    nxt = match.new_hand()
    assert nxt.auto_seats() == [3] and nxt.header()["auto"] == [3]
    nxt.apply(act("3 back"))
    again, current = Match.replay(match.header(), [[str(a) for a in game.log], [str(a) for a in nxt.log]])
    assert current is not None and current.auto_seats() == []


# ---------------------------------------------------------------- typed events, views, invariants


def test_events_are_typed_and_read_as_before():
    game = Game(seed=9)
    assert game.events[0].kind is EventKind.DICE and str(game.events[0]).startswith("dice seat=")
    assert all(isinstance(e.kind, EventKind) for e in game.events)
    assert EventKind.FLOWER == "flower"  # string enum: log words unchanged


def test_view_phase_is_the_phase_enum():
    game = Game(seed=9)
    assert game.view(None).phase is Phase.TURN


def test_broken_invariants_raise_the_engines_invariant_error():
    game = Game(seed=9)
    game.hands[0][parse_tiles("1m")[0]] += 1
    with pytest.raises(InvariantError, match="1m"):
        game.check_invariants()


# ---------------------------------------------------------------- property: 代打 never breaks a hand


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), passable=st.booleans(), min3=st.booleans())
def test_random_timeouts_away_and_back_keep_invariants_and_replay_from_the_header(seed, passable, min3):
    options = TableOptions(may_pass_win=passable, min_tai=3 if min3 else 0)
    game = Game(seed=seed, options=options, auto_seats=[seed % 4] if seed % 3 == 0 else [])
    rng = random.Random(seed)
    for _ in range(MAX_STEPS):
        if game.is_over:
            break
        roll = rng.random()
        if roll < 0.05:  # someone leaves or comes back, whoever is to act
            s = rng.randrange(4)
            game.apply(Action(s, Kind.BACK if game.auto[s] else Kind.AWAY))
        else:
            s = rng.choice(game.to_act())
            if s in game.auto_seats():
                action = game.auto_action(s)
            elif roll < 0.3:
                action = Action(s, Kind.TIMEOUT)
            else:
                action = rng.choice(game.legal_actions(s))
            game.apply(action)
        game.check_invariants()
    assert game.is_over
    again = Game.replay(json.loads(json.dumps(game.header())), [str(a) for a in game.log])
    assert again.outcome == game.outcome and again.auto_seats() == game.auto_seats()
    assert again.view(None) == game.view(None)


def test_refused_actions_say_why_with_a_code():
    game = position(hands={0: S0})

    def code(text: str) -> str:
        with pytest.raises(IllegalActionError) as info:
            game.apply(act(text))
        return info.value.code

    assert code("1 discard 1m") == "not_your_decision"
    assert code("0 discard 5z") == "not_legal"
    assert code("2 back") == "not_away"
    game.apply(act("2 away"))
    assert code("2 away") == "already_away"
    won = position(hands={0: "123m456m789m123p456p11s"})
    won.apply(act("0 hu"))
    with pytest.raises(IllegalActionError) as info:
        won.apply(act("0 discard 1m"))
    assert info.value.code == "hand_over"
