"""吃 碰 槓 on a discard and 行動限制 1-9 of the taiwan16 rules, with hands in notation.

Seat 0 is to move in every position below; seat 1 is its 下家 (may 吃), seat 3 its 上家.
"""

import pytest

from engine.actions import Kind
from engine.game import IllegalActionError, Phase
from engine.meld import MeldKind
from engine.position import position
from engine.rules import TableOptions
from tests.engine.helpers import act, chi_options, kinds, tile

S0 = "123m456m789m123p456p1s9s"  # 17 tiles: discards 9s or 1s


def test_chi_only_from_previous_player():
    game = position(hands={0: S0, 1: "111z222z333z44z5s78s99p", 2: "555z666z777z44z78s99p1s"})
    game.apply(act("0 discard 9s"))
    assert chi_options(game, 1) == ["789s"]
    assert game.legal_actions(2) == []  # 78s but not the 下家
    with pytest.raises(IllegalActionError):
        game.apply(act("2 chi 789s"))


def test_chi_offers_a_choice_when_several_chows_fit():
    game = position(hands={0: "123m456m789m123p456p1s5s", 1: "111z222z333z44z3467s1m"})
    game.apply(act("0 discard 5s"))
    assert chi_options(game, 1) == ["345s", "456s", "567s"]
    game.apply(act("1 chi 456s"))
    meld = game.melds[1][-1]
    assert meld.kind is MeldKind.CHI and str(meld) == "chi:456s" and meld.source == 0
    assert game.turn == 1 and game.phase is Phase.TURN


def test_pon_from_any_seat_and_claimer_must_discard():
    game = position(hands={0: S0, 2: "555z666z777z44z99s5s8p1m"})
    game.apply(act("0 discard 9s"))
    assert {"pon", "pass"} <= kinds(game, 2)
    game.apply(act("2 pon"))  # the tile on the table is implied
    assert str(game.melds[2][-1]) == "pon:999s"
    assert game.turn == 2
    assert kinds(game, 2) <= {"discard", "ting"}  # no draw after a pon


def test_exposed_kong_from_a_non_previous_player_draws_from_the_back():
    game = position(hands={0: S0, 2: "555z666z777z44z999s8p1m"}, back="3z")
    game.apply(act("0 discard 9s"))
    assert "kong" in kinds(game, 2)
    before = game.wall.remaining
    game.apply(act("2 kong 9s"))
    assert str(game.melds[2][-1]) == "kong:9999s"
    assert game.wall.remaining == before - 1
    assert game.drawn[2] == tile("3z")  # the replacement came from the back of the wall
    assert game.kongs == 1


def test_rule6_previous_players_discard_may_not_be_exposed_konged_but_may_be_poned():
    game = position(hands={0: S0, 1: "555z666z777z44z999s8p1m"})
    game.apply(act("0 discard 9s"))
    assert "kong" not in kinds(game, 1)
    assert "pon" in kinds(game, 1)


def test_rule1_no_kong_straight_after_chi_or_pon():
    # seat 1 holds 3333s and a pon-able 9s: after the pon it may not kong
    game = position(hands={0: S0, 1: "3333s222z333z4z99s5s8s2m"}, melds={})
    game.apply(act("0 discard 9s"))
    game.apply(act("1 pon 9s"))
    assert "ankong" not in kinds(game, 1)
    assert "addkong" not in kinds(game, 1)


def test_rule4_may_not_discard_the_claimed_tile_after_chi_or_pon():
    game = position(hands={0: S0, 1: "111z222z333z4z99s78s2m3m"})
    game.apply(act("0 discard 9s"))
    game.apply(act("1 pon 9s"))
    discards = {str(a).split()[-1] for a in game.legal_actions(1) if a.kind is Kind.DISCARD}
    assert "9s" not in discards and "8s" in discards
    with pytest.raises(IllegalActionError):
        game.apply(act("1 discard 9s"))


def test_rule4_after_chi_the_claimed_tile_may_not_be_discarded():
    game = position(hands={0: S0, 1: "111z222z333z44z8s7s5p1m2m"})
    game.apply(act("0 discard 9s"))
    game.apply(act("1 chi 789s"))
    discards = {str(a).split()[-1] for a in game.legal_actions(1) if a.kind is Kind.DISCARD}
    assert "9s" not in discards and "5p" in discards


def test_rule5_last_round_no_claims_but_win_and_concealed_kong_allowed():
    game = position(hands={0: S0, 1: "111z222z333z44z5s78s99p", 2: "555z666z777z4z999s9p1m2m"}, live=3)
    events = game.apply(act("0 discard 9s"))
    assert [e.kind for e in events] == ["discard", "draw"]  # no claim window: seat 1 drew at once
    assert game.turn == 1 and game.phase is Phase.TURN
    # a concealed kong in the last round
    game2 = position(hands={0: "1111m56m789m123p456p1s9s"}, live=2)
    assert "ankong" in kinds(game2, 0)


def test_rule5_a_win_on_a_last_round_discard_is_allowed():
    opts = TableOptions(may_pass_win=True)
    game = position(hands={0: S0, 1: "234m567m111z222z333z9s"}, live=2, options=opts)
    game.apply(act("0 discard 9s"))
    assert "hu" in kinds(game, 1)


def test_rule7_pon_beats_chi_whoever_answers_first():
    game = position(hands={0: S0, 1: "111z222z333z44z5s78s99p", 2: "555z666z777z4z99s1p2p3m4m"})
    game.apply(act("0 discard 9s"))
    game.apply(act("1 chi 789s"))
    assert game.phase is Phase.CLAIM  # seat 2 could still pon
    game.apply(act("2 pon 9s"))
    assert game.turn == 2 and str(game.melds[2][-1]) == "pon:999s"
    assert game.melds[1] == []


def test_rule7_win_beats_pon():
    opts = TableOptions(may_pass_win=True)
    game = position(hands={0: S0, 1: "234m567m111z222z333z9s", 2: "555z666z777z4z99s1p2p3m4m"}, options=opts)
    game.apply(act("0 discard 9s"))
    game.apply(act("2 pon 9s"))
    assert game.phase is Phase.CLAIM
    game.apply(act("1 hu"))
    assert game.outcome.winner == 1 and game.outcome.loser == 0


def test_rule8_two_wins_on_one_discard_nearest_in_turn_order_wins():
    game = position(hands={0: S0, 2: "234m567m111z222z333z9s", 3: "345p678p444z555z666z9s"})
    game.apply(act("0 discard 9s"))  # default table: wins are automatic
    assert game.is_over
    assert game.outcome.winner == 2 and game.outcome.loser == 0


def test_rule9_claim_of_own_last_discard_kind_is_refused():
    game = position(hands={0: S0, 1: "111z222z333z44z5s78s99p", 2: "555z666z777z4z9s1p2p3p3m4m"}, wall="1z")
    game.last_own_discard[1] = tile("9s")  # seat 1 discarded 9s on its previous turn
    game.apply(act("0 discard 9s"))
    assert "chi" not in kinds(game, 1) and "pon" not in kinds(game, 1)


def test_illegal_action_leaves_the_state_unchanged():
    game = position(hands={0: S0})
    snapshot = ([list(h) for h in game.hands], game.wall.front, game.wall.back, game.turn)
    for bad in ["0 discard 5z", "1 discard 1m", "0 pon 9s", "2 hu"]:
        with pytest.raises(IllegalActionError):
            game.apply(act(bad))
    assert ([list(h) for h in game.hands], game.wall.front, game.wall.back, game.turn) == snapshot
    assert game.log == []
