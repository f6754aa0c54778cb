"""``Game.prompt(seat)``: each seat's decision point as one value, in every rule set, with hands in
notation; and over random self-play, the prompt lists exactly the legal actions and asks what the
phase asks."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Action, Kind
from engine.game import Game, Phase
from engine.position import position
from engine.prompt import Ask, Timer
from engine.rules import TableOptions
from tests.engine.helpers import act, pass_all, tile

RULE_SETS = ("taiwan16", "taiwan13", "hongkong", "guangdong")

# seat 0 to move (it discards 9s), seat 2 holds 99s for a 碰: 16 and 13 tiles in hand
TURN_HANDS = {
    16: {0: "123m456m789m123p456p1s9s", 2: "555z666z777z44z99s5s8p1m"},
    13: {0: "123m456m789m111p1s9s", 2: "555z666z77z99s5s8p1m"},
}
# seat 0 adds 9s to its 碰 of 999s; seat 2 is ready on 6s/9s (a 搶槓 of the 9s)
ROB_HANDS = {
    16: {0: "9s456m789m123p456p1s", 2: "234m567m111z222z55z78s"},
    13: {0: "9s456m789m123p1s", 2: "234m567m111z55z78s"},
}


def size(rules: str) -> int:
    return Game(rules).profile.hand_size


@pytest.mark.parametrize("rules", RULE_SETS)
def test_own_turn_asks_for_a_discard_on_the_turn_clock(rules):
    game = position(rules=rules, hands=TURN_HANDS[size(rules)])
    p = game.prompt(0)
    assert p.kind is Ask.DISCARD and p.phase is Phase.TURN and p.timer is Timer.TURN
    assert list(p.legal) == game.legal_actions(0) and p.owes and p.self_draw
    assert act("0 discard 9s") in p.legal
    assert p.claim_tile is None and p.discarder is None


@pytest.mark.parametrize("rules", RULE_SETS)
def test_a_discard_asks_the_others_to_claim_on_the_claim_clock(rules):
    game = position(rules=rules, hands=TURN_HANDS[size(rules)])
    game.apply(act("0 discard 9s"))
    p = game.prompt(2)
    assert p.kind is Ask.CLAIM and p.timer is Timer.CLAIM and not p.self_draw
    assert {a.kind for a in p.legal} >= {Kind.PON, Kind.PASS}
    assert (p.claim_tile, p.discarder) == (tile("9s"), 0)
    # the discarder owes nothing, yet sees whose tile is on offer (its table line says so)
    mine = game.prompt(0)
    assert not mine.legal and mine.kind in (Ask.NONE, Ask.DECLARE)
    assert (mine.claim_tile, mine.discarder) == (tile("9s"), 0) and mine.timer is Timer.CLAIM


@pytest.mark.parametrize("rules", RULE_SETS)
def test_an_added_kong_asks_the_waiting_seat_to_rob_it(rules):
    game = position(
        rules=rules,
        hands=ROB_HANDS[size(rules)],
        melds={0: ["pon:999s"]},
        options=TableOptions(may_pass_win=True),
    )
    game.apply(act("0 addkong 9s"))
    assert game.phase is Phase.ROB_KONG
    p = game.prompt(2)
    assert p.kind is Ask.ROB_KONG and p.timer is Timer.CLAIM
    assert {a.kind for a in p.legal} == {Kind.WIN, Kind.PASS}
    assert (p.claim_tile, p.discarder) == (tile("9s"), 0)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_exchange_asks_every_seat_on_the_turn_clock(rules):
    game = Game(rules, seed=0, options=TableOptions(exchange=True))
    assert game.phase is Phase.EXCHANGE
    for seat in range(4):
        p = game.prompt(seat)
        assert p.kind is Ask.EXCHANGE and p.timer is Timer.TURN
        assert p.legal[0] == Action(seat, Kind.EXCHANGE) and list(p.legal) == game.legal_actions(seat)
        assert p.declarations == ()  # 眼牌 is not declared during 換牌
    game.apply(Action(1, Kind.EXCHANGE))
    assert game.prompt(1).kind is Ask.NONE  # chosen: waits for the others


def test_eye_declaration_is_offered_to_a_seat_that_owes_nothing_in_taiwan16():
    game = position(rules="taiwan16", hands=TURN_HANDS[16])
    p = game.prompt(1)
    assert p.kind is Ask.DECLARE and not p.legal and p.miji  # no discard yet: the Miji window
    assert [a.kind for a in p.declarations] == [Kind.MIJI]
    assert game.prompt(0).declarations == (Action(0, Kind.MIJI),)  # on its own turn too


def test_eye_declaration_outside_the_miji_window_is_eye():
    game = position(rules="taiwan16", hands=TURN_HANDS[16], melds={3: ["pon:111z"]})  # a 碰 closed it
    p = game.prompt(1)
    assert p.kind is Ask.DECLARE and not p.miji and [a.kind for a in p.declarations] == [Kind.EYE]
    game.apply(Action(1, Kind.EYE))
    assert game.prompt(1).kind is Ask.NONE and game.prompt(1).declarations == ()  # once per hand


@pytest.mark.parametrize("rules", ("taiwan13", "hongkong", "guangdong"))
def test_no_eye_declaration_where_the_rule_set_has_none(rules):
    game = position(rules=rules, hands=TURN_HANDS[13])
    p = game.prompt(1)
    assert p.kind is Ask.NONE and p.declarations == () and not p.miji
    assert game.prompt(0).declarations == ()


def test_ready_seat_shows_its_waits_in_taiwan16():
    game = position(rules="taiwan16", hands={0: "123m456m789m123p456p5z9s"})
    assert not game.prompt(0).ready and any(a.kind is Kind.READY for a in game.prompt(0).legal)
    game.apply(act("0 ting 9s"))
    p = game.prompt(0)
    assert p.ready and p.waits == (tile("5z"),)


@pytest.mark.parametrize("rules", ("taiwan13", "hongkong", "guangdong"))
def test_no_ready_declaration_in_the_prompt_where_the_rule_set_has_none(rules):
    game = position(rules=rules, hands={0: "123m456m789m123p5z9s"})
    p = game.prompt(0)
    assert not p.ready and p.waits == () and all(a.kind is not Kind.READY for a in p.legal)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_away_seat_is_marked_auto_and_keeps_its_decision(rules):
    game = position(rules=rules, hands=TURN_HANDS[size(rules)])
    game.apply(Action(0, Kind.AWAY))
    p = game.prompt(0)
    assert p.auto and p.kind is Ask.DISCARD and list(p.legal) == game.legal_actions(0)
    assert not game.prompt(1).auto


@pytest.mark.parametrize("rules", RULE_SETS)
def test_a_hand_that_is_over_asks_nothing_and_runs_no_clock(rules):
    game = position(rules=rules, hands=TURN_HANDS[size(rules)])
    game.apply(act("0 discard 9s"))
    pass_all(game)
    while not game.is_over:
        seat = game.to_act()[0]
        game.apply(game.auto_action(seat))
    for seat in range(4):
        p = game.prompt(seat)
        assert p.kind is Ask.NONE and p.phase is Phase.OVER and p.timer is None
        assert p.legal == () and p.declarations == () and p.claim_tile is None


def test_prompt_actions_apply_as_they_are():
    """The prompt hands out the very actions legal_actions lists (Game.apply's fast path)."""
    game = position(rules="taiwan16", hands=TURN_HANDS[16])
    p = game.prompt(0)
    discard = next(a for a in p.legal if a.kind is Kind.DISCARD)
    game.apply(discard)
    assert game.rivers[0][-1] == discard.tile


ASKED = {Phase.TURN: Ask.DISCARD, Phase.CLAIM: Ask.CLAIM, Phase.ROB_KONG: Ask.ROB_KONG, Phase.EXCHANGE: Ask.EXCHANGE}
TIMERS = {Phase.TURN: Timer.TURN, Phase.EXCHANGE: Timer.TURN, Phase.CLAIM: Timer.CLAIM, Phase.ROB_KONG: Timer.CLAIM}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(RULE_SETS),
    seed=st.integers(0, 10**6),
    exchange=st.booleans(),
    choices=st.randoms(use_true_random=False),
)
def test_prompt_lists_the_legal_actions_and_asks_what_the_phase_asks(rules, seed, exchange, choices):
    options = TableOptions(exchange=exchange, may_pass_win=True)
    game = Game(rules, seed=seed, options=options)
    rng = random.Random(choices.random())
    for _ in range(400):
        view = game.view(None)
        for seat in range(4):
            p = game.prompt(seat)
            legal = game.legal_actions(seat)
            assert list(p.legal) == legal and p.seat == seat and p.phase is game.phase
            assert p.declarations == tuple(game.declarations(seat))
            assert p.kind is (ASKED[game.phase] if legal else Ask.DECLARE if p.declarations else Ask.NONE)
            assert p.owes == (seat in game.to_act())
            assert p.timer is TIMERS.get(game.phase)
            offer = None if p.claim_tile is None else (p.discarder, p.claim_tile)
            assert offer == view.offer
            assert p.ready == game.view(seat).seats[seat].ready and p.auto == (seat in game.auto_seats())
        if game.is_over:
            break
        seat = game.to_act()[0]
        game.apply(rng.choice(game.prompt(seat).legal))
