"""八仙過海 / 七搶一 / 大花胡 as the player's call (issue 40 item 1): document 000's system declares them
(「系統會立即判定」, the default); the house rule 八仙過海可不胡 (`flower_win_optional`) and taiwan13's
document 001 (「就可以喊胡」) offer them as 胡 / 過 instead. Declined, the hand goes on and the flowers
and 花槓 count as ordinary flowers. See docs/rules/taiwan16.md, "Flower wins"."""

from __future__ import annotations

import pytest

from engine.actions import Action, Kind
from engine.ai import PlannerAI, SimpleAI
from engine.game import Game, Phase
from engine.match import score_outcome
from engine.policy import AutoPlayPolicy
from engine.position import position
from engine.prompt import Ask
from engine.rules import TableOptions
from tests.engine.helpers import act, kinds, pass_all, tile
from tests.engine.test_hardening import hand_sizes, rigged_deal

OPTIONAL = TableOptions(house_rules={"flower_win_optional": True})
READY_36S = "123m456m789m123p45s99s"  # waits on 3s / 6s
DISCARDER = "147m258m369p147s2z3z5z6z7z"  # seat 3, far from ready, discards 7z


def seven_flowers_drawing_the_eighth(options: TableOptions | None = OPTIONAL, rules: str = "taiwan16") -> Game:
    """Seat 0 holds seven flowers and waits on 3s/6s; seat 3 discards, seat 0 draws 竹 (f8) and its
    replacement would be 6s."""
    game = position(
        hands={0: READY_36S, 3: DISCARDER},
        flowers={0: "f1f2f3f4f5f6f7"},
        wall="f8",
        back="6s",
        turn=3,
        options=options,
        rules=rules,
    )
    game.apply(act("3 discard 7z"))
    pass_all(game)
    return game


def test_the_document_declares_eight_immortals_at_once():
    game = seven_flowers_drawing_the_eighth(options=None)
    assert game.is_over and game.outcome.flower_win == "八仙過海" and game.outcome.winner == 0


def test_with_the_switch_eight_immortals_is_a_call_or_pass_for_its_winner():
    game = seven_flowers_drawing_the_eighth()
    assert game.phase is Phase.FLOWER_WIN and game.outcome is None
    assert game.to_act() == [0]
    assert [str(a) for a in game.legal_actions(0)] == ["0 hu", "0 pass"]
    assert all(game.legal_actions(s) == [] for s in (1, 2, 3))
    prompt = game.prompt(0)
    assert prompt.kind is Ask.FLOWER_WIN and prompt.flower_win == "八仙過海" and list(prompt.legal) == game.legal_actions(0)
    assert game.view(None).flower_offer == (0, "八仙過海") and game.view(2).flower_offer == (0, "八仙過海")
    assert game.declarations(0) == []  # nothing else happens while the call is open
    assert hand_sizes(game) == [16, 16, 16, 16]  # the eighth flower is set aside, not yet replaced
    game.check_invariants()


def test_calling_it_wins_eight_immortals():
    game = seven_flowers_drawing_the_eighth()
    game.apply(act("0 hu"))
    assert game.is_over and game.outcome.flower_win == "八仙過海" and game.outcome.winner == 0
    assert [i.name for i in score_outcome(game).items] == ["八仙過海"]
    game.check_invariants()


def test_declined_the_hand_goes_on_and_the_flowers_count_as_ordinary():
    game = seven_flowers_drawing_the_eighth()
    events = game.apply(act("0 pass"))
    assert events[0].kind == "flower_declined" and events[0].detail == "八仙過海"
    # the flower is replaced with 6s, which completes the hand: a self-drawn win (不可過水: taken)
    assert game.is_over and game.outcome.winner == 0 and game.outcome.flower_win is None
    assert game.outcome.self_drawn and game.outcome.win_tile == tile("6s")
    items = {i.name: i.value for i in score_outcome(game).items}
    assert items == {"莊家": 1, "門清自摸": 3, "花牌": 2, "槓上開花": 1, "花槓": 2}  # 正花 2 + 花槓 2
    game.check_invariants()


def test_declined_the_flower_win_is_not_offered_again_and_play_goes_on():
    game = position(
        hands={0: "123m456m789m123p45s9s2z", 3: DISCARDER},  # the replacement 1z does not win
        flowers={0: "f1f2f3f4f5f6f7"},
        wall="f8",
        back="1z",
        turn=3,
        options=OPTIONAL,
    )
    game.apply(act("3 discard 7z"))
    pass_all(game)
    game.apply(act("0 pass"))
    assert game.phase is Phase.TURN and game.turn == 0 and game.drawn[0] == tile("1z")
    assert "discard" in kinds(game, 0) and game.flower_declined == 0 and not game.passed_win[0]
    assert game.win_context(0, tile("1z"), self_drawn=True).flower_win_declined
    game.check_invariants()


def test_an_unanswered_call_is_taken_by_the_system():
    game = seven_flowers_drawing_the_eighth()
    game.apply(Action(0, Kind.TIMEOUT))
    assert game.is_over and game.outcome.flower_win == "八仙過海"


@pytest.mark.parametrize("policy", [SimpleAI(), PlannerAI(), AutoPlayPolicy()], ids=["easy", "strong", "auto"])
def test_every_ai_and_dai_da_call_the_flower_win(policy):
    game = seven_flowers_drawing_the_eighth()
    choice = policy.choose(game.view(0), game.legal_actions(0))
    assert choice.kind is Kind.WIN
    assert game.auto_action(0).kind is Kind.WIN


def test_seven_rob_one_declined_the_single_flowers_holder_pays_nothing():
    game = position(
        hands={0: "123m456m789m123p45s9s2z", 3: DISCARDER},
        flowers={0: "f1f2f3f4f5f6", 2: "f8"},
        wall="f7",
        back="1z",
        turn=3,
        options=OPTIONAL,
    )
    game.apply(act("3 discard 7z"))
    pass_all(game)
    assert game.phase is Phase.FLOWER_WIN and game.to_act() == [0] and game.prompt(0).flower_win == "七搶一"
    game.apply(act("0 pass"))
    assert game.phase is Phase.TURN and game.turn == 0 and game.outcome is None


def test_the_flower_bonus_house_rule_wins_over_the_call():
    options = TableOptions(house_rules={"flower_win_optional": True, "flower_win_as_bonus": True})
    game = seven_flowers_drawing_the_eighth(options)
    assert game.flower_bonuses == [(0, None, "八仙過海")] and game.phase is not Phase.FLOWER_WIN


def test_eight_immortals_in_the_deal_declined_the_dealer_plays_first(monkeypatch):
    rigged_deal(monkeypatch, {(0, 0): "f1f2f3f4", (1, 0): "f5f6f7f8"})
    game = Game("taiwan16", seed=1, dealer=0, options=OPTIONAL)
    assert game.phase is Phase.FLOWER_WIN and game.to_act() == [0]
    assert hand_sizes(game) == [17, 16, 16, 16]
    game.check_invariants()
    game.apply(act("0 pass"))
    assert game.phase is Phase.TURN and game.turn == 0 and "discard" in kinds(game, 0)
    assert len(game.flowers[0]) == 8 and game.outcome is None and [str(a) for a in game.log] == ["0 pass"]


def test_eight_immortals_in_the_exchange_declined_the_dealer_plays_first(monkeypatch):
    rigged_deal(monkeypatch, {(0, 0): "f1f2f3f4", (1, 0): "f5f6f71m"})
    options = TableOptions(exchange=True, house_rules={"flower_win_optional": True})
    game = Game("taiwan16", seed=1, dealer=0, options=options)
    game.apply(Action(0, Kind.EXCHANGE, None, (game.hand(0)[0],)))
    for seat in (1, 2, 3):
        game.apply(Action(seat, Kind.EXCHANGE))
    assert game.phase is Phase.FLOWER_WIN and game.to_act() == [0]
    game.apply(act("0 pass"))
    assert game.phase is Phase.TURN and game.turn == 0 and "discard" in kinds(game, 0)
    game.check_invariants()


def test_taiwan13_da_hua_hu_is_the_players_call_by_default():
    game = position(
        hands={0: "123m456m789m45s99s", 3: "147m258m369p2z3z5z7z6z"},
        flowers={0: "f1f2f3f4f5f6f7"},
        wall="f8",
        back="1z",
        turn=3,
        rules="taiwan13",
    )
    game.apply(act("3 discard 7z"))
    pass_all(game)
    assert game.phase is Phase.FLOWER_WIN and game.prompt(0).flower_win == "大花胡"
    game.apply(act("0 pass"))
    assert game.phase is Phase.TURN and game.turn == 0 and game.outcome is None


def test_a_review_values_the_flower_win_at_its_own_tai():
    from engine.review import judge

    game = seven_flowers_drawing_the_eighth()
    done, best, agreed = judge(PlannerAI(), game.view(0), game.legal_actions(0), Action(0, Kind.PASS))
    assert best.action.kind is Kind.WIN and best.tai == 8 and best.value > done.value and not agreed
