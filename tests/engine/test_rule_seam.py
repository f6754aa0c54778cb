"""The rule-set seam: a rule set is a profile (data + hooks), never a fork of the game loop."""

import pytest

from engine.forms import is_seven_pairs, is_thirteen_orphans, is_winning, winning_tiles
from engine.match import Match
from engine.position import position
from engine.rules import DEALER_KEEPS, PROFILES, WINNER_DEALS, RuleProfile, next_dealer
from engine.scoring import UnknownRules, get_settle
from engine.settlement import SettleContext
from engine.tiles import format_tiles, parse_tiles, to_counts
from tests.engine.helpers import act, kinds

SEVEN_PAIRS_13 = RuleProfile(
    id="toy13", hand_size=13, flowers=False, reserve=14, reserve_per_kong=1, win_forms=("seven_pairs",)
)
STANDARD_13 = RuleProfile(id="toy13std", hand_size=13, flowers=False, reserve=14, reserve_per_kong=1)


def counts(text: str) -> list[int]:
    return to_counts(parse_tiles(text))


def test_seven_pairs_is_seven_pairs_of_fourteen_tiles():
    assert is_seven_pairs(counts("1122m3344p5566s77z"))
    assert is_seven_pairs(counts("1111m3344p5566s77z"))  # four of a kind is two pairs
    assert not is_seven_pairs(counts("1122m3344p5566s7z1z"))
    assert not is_seven_pairs(counts("1122m3344p55s"))


def test_thirteen_orphans_is_every_terminal_and_honour_plus_one_pair():
    assert is_thirteen_orphans(counts("19m19p19s12345677z"))
    assert not is_thirteen_orphans(counts("19m19p19s1234567z2m"))
    assert not is_thirteen_orphans(counts("19m19p19s11234567z")[:33] + [0])


def test_winning_tiles_add_the_special_forms_to_the_regular_waits():
    hand = counts("1122m3344p5566s7z")
    assert format_tiles(winning_tiles(hand, ("seven_pairs",))) == "7z"
    assert winning_tiles(hand, ()) == []
    orphans = counts("19m19p19s1234567z")
    assert len(winning_tiles(orphans, ("thirteen_orphans",))) == 13
    assert is_winning(counts("123m456p789s11z222z"), ())


def test_unknown_winning_form_is_refused():
    with pytest.raises(ValueError, match="seven_pears"):
        RuleProfile(
            id="x", hand_size=13, flowers=False, reserve=14, reserve_per_kong=1, win_forms=("seven_pears",)
        )


def test_seven_pairs_profile_wins_by_self_draw_and_the_standard_profile_does_not():
    hand = {0: "1122m3344p5566s77z"}
    game = position(hands=hand, rules=SEVEN_PAIRS_13)
    assert kinds(game, 0) == {"hu"}  # 不可過水: the only legal action
    game.apply(act("0 hu"))
    assert game.is_over and game.outcome.winner == 0 and game.outcome.self_drawn
    plain = position(hands=hand, rules=STANDARD_13)
    assert not plain.is_over and "hu" not in kinds(plain, 0)


def test_seven_pairs_profile_wins_on_a_discard_and_shows_the_wait():
    hands = {0: "123m456m789m1234p7z", 1: "1122m3344p5566s7z"}
    game = position(hands=hands, rules=SEVEN_PAIRS_13)
    assert game.view(1).waits and game.view(1).waits[0][0] == parse_tiles("7z")[0]
    game.apply(act("0 discard 7z"))
    assert game.is_over and game.outcome.winner == 1 and game.outcome.loser == 0
    plain = position(hands=hands, rules=STANDARD_13)
    assert plain.view(1).waits == ()
    plain.apply(act("0 discard 7z"))
    assert not plain.is_over


def test_seven_pairs_ready_hand_may_declare_ting():
    game = position(hands={0: "1122m3344p5566s7z9s"}, rules=SEVEN_PAIRS_13)
    assert act("0 ting 9s") in game.legal_actions(0)
    assert act("0 ting 9s") not in position(
        hands={0: "1122m3344p5566s7z9s"}, rules=STANDARD_13
    ).legal_actions(0)


def test_rotation_dealer_keeps_versus_winner_deals():
    assert next_dealer(DEALER_KEEPS, 1, 3) == 2
    assert next_dealer(DEALER_KEEPS, 1, 1) == 1 and next_dealer(DEALER_KEEPS, 1, None) == 1
    assert next_dealer(WINNER_DEALS, 1, 3) == 3
    assert next_dealer(WINNER_DEALS, 1, None) == 1


def test_match_settles_through_the_rule_sets_settle_hook():
    settle = get_settle("taiwan16")
    match = Match(seed=1)
    assert match.settle is settle
    with pytest.raises(UnknownRules):
        get_settle("nosuchrules")
    assert "taiwan16" in PROFILES


def test_settle_context_counts_kongs_per_seat():
    from engine.meld import parse_melds

    ctx = SettleContext(
        winner=0, dealer=0, melds=((), tuple(parse_melds(["kong:1111m", "pon:222m"])), (), ())
    )
    assert ctx.kong_counts() == (0, 1, 0, 0) and ctx.self_drawn


@pytest.fixture
def toy13(monkeypatch):
    from engine import rules, scoring

    from . import toy_rules

    monkeypatch.setitem(rules.PROFILES, "toy13", toy_rules.PROFILE)
    monkeypatch.setitem(scoring.RULE_MODULES, "toy13", "tests.engine.toy_rules")
    return toy_rules


def test_a_registered_rule_set_plays_whole_matches_through_the_seams(toy13):
    from engine.policy import SimpleAI
    from engine.selfplay import play_hand

    match = Match("toy13", seed=3, rounds=1)
    results = []
    while not match.is_over and len(results) < 200:
        game = match.new_hand()
        assert all(sum(game.hands[s]) == (14 if s == game.dealer else 13) for s in range(4))
        play_hand(game, [SimpleAI() for _ in range(4)])
        dealer = match.dealer
        result = match.finish_hand(game)
        results.append(result)
        assert sum(result.deltas) == 0 and result.unit == "fan"
        if result.winner is not None:
            assert match.dealer == result.winner  # winner_deals
            assert result.deltas[result.winner] == 300 * result.total * (1 if result.loser is not None else 3)
        else:
            assert match.dealer == dealer
    assert any(r.winner is not None for r in results)
    again, current = Match.replay(match.header(), [list(h.log) for h in match.history])
    assert current is None and again.scores == match.scores


def test_a_seven_pairs_win_scores_through_the_rule_sets_readings(toy13):
    game = position(hands={0: "123m456m789m1234p7z", 1: "1122m3344p5566s7z"}, rules=toy13.PROFILE)
    game.apply(act("0 discard 7z"))
    result = Match("toy13", seed=1).finish_hand(game)
    assert result.winner == 1 and [i.name for i in result.items] == ["胡", "七對"]
    assert result.deltas == (-900, 900, 0, 0)


def test_a_rule_sets_settle_draw_hook_pays_at_a_draw_game(toy13):
    game = position(hands={0: "123m456m789m1234p7z"}, melds={2: ["kong:1111z"]}, rules=toy13.PROFILE, live=0)
    game.apply(act("0 discard 7z"))
    while not game.is_over:
        game.apply(game.auto_action(game.to_act()[0]))
    assert game.outcome.winner is None
    assert Match("toy13", seed=1).finish_hand(game).deltas == (-300, -300, 900, -300)


def test_taiwan16_draw_games_pay_nothing():
    game = position(hands={0: "123m456m789m123p456p1s9s"}, melds={2: ["kong:1111z"]}, live=0)
    game.apply(act("0 discard 9s"))
    while not game.is_over:
        game.apply(game.auto_action(game.to_act()[0]))
    assert game.outcome.winner is None and Match(seed=1).finish_hand(game).deltas == (0, 0, 0, 0)
