"""taiwan13 played by the one game loop (document 001): a profile, never a fork. 13 tiles with
flowers, 七对子 and 国士无双 as winning forms, no win without a 台, 明杠 of any discard, 杠上开花
after a 明杠, no 聽 declaration, 大花胡 instead of 八仙過海/七搶一, and the deal passing unless the
dealer wins."""

import random

from engine.game import Game
from engine.match import Match, score_outcome
from engine.policy import make_policy
from engine.position import position
from engine.rules import DEALER_WINS_KEEPS, PROFILES, next_dealer
from engine.scoring import get_settle
from engine.scoring.taiwan13 import POINTS_PER_TAI
from engine.selfplay import play_hand, run
from engine.settlement import SettleContext
from tests.engine.helpers import act, kinds, pass_all

RULES = "taiwan13"
MID_HAND = {2: "19m19p19s", 3: "258m"}  # nine discards made: past 地胡's window


def names(game):
    return {i.name for i in score_outcome(game).items}


def test_profile_is_thirteen_tiles_with_flowers_and_the_special_forms():
    profile = PROFILES[RULES]
    assert (profile.hand_size, profile.flowers, profile.wall_size) == (13, True, 144)
    assert profile.win_forms == ("seven_different_pairs", "thirteen_orphans")
    # claim window 3-5 s, a quick table's turn 10-15 s; no 滿台 and no 24-台 rule in document 001
    opts = profile.options
    assert (opts.claim_seconds, opts.turn_seconds, opts.cap_tai, opts.bankroll_tai) == (5, 15, None, None)
    assert (opts.base, opts.tai) == (0, POINTS_PER_TAI)  # the stakes a table shows: no 底, 20 a 台
    game = Game(RULES, seed=5, dealer=2)
    held = [sum(game.hands[s]) + 3 * len(game.melds[s]) for s in range(4)]
    assert held == [13, 13, 14, 13]  # 庄家开始拿十四张，其余拿十三张


def test_seven_pairs_wins_by_self_draw():
    game = position(hands={0: "1122m3344p5566s77z"}, drawn="7z", rules=RULES)
    assert kinds(game, 0) == {"hu"}
    game.apply(act("0 hu"))
    assert game.outcome.winner == 0 and names(game) == {"庄家", "门清", "自摸", "七对子"}  # seat 0 deals


def test_seven_pairs_with_four_alike_is_not_a_win():
    game = position(hands={0: "1111m3344p5566s77z"}, drawn="7z", rules=RULES)
    assert "hu" not in kinds(game, 0)


def test_seven_pairs_wait_is_shown_only_with_different_pairs():
    game = position(hands={1: "1122m3344p5566s7z", 2: "9999m6677p8899s1z"}, rules=RULES)
    assert [t for t, _ in game.view(1).waits] == [33]  # 7z
    assert game.view(2).waits == ()


def test_thirteen_orphans_wins_on_a_discard():
    hands = {0: "123m456m789m1234p7z", 1: "19m19p19s1234566z"}
    game = position(hands=hands, rivers={2: "5m5p5s", 3: "258p258s"}, rules=RULES)
    game.apply(act("0 discard 7z"))
    assert game.is_over and game.outcome.winner == 1 and game.outcome.loser == 0
    assert names(game) == {"国士无双"}


def test_no_hu_offered_without_a_tai():
    hands = {0: "123m456m789m1234p6s", 1: "234m567m45s11z"}
    game = position(hands=hands, melds={1: ["pon:222p"]}, rules=RULES)
    game.apply(act("0 discard 6s"))
    assert not game.is_over and "hu" not in kinds(game, 1)


def test_hu_with_one_tai_is_taken():
    game = position(hands={0: "123m456m789m1234p6s", 1: "222p234m567m45s11z"}, rivers=MID_HAND, rules=RULES)
    game.apply(act("0 discard 6s"))  # 门清: one 台
    assert game.is_over and game.outcome.winner == 1 and names(game) == {"门清"}


def test_di_hu_within_the_first_eight_discards():
    # 在起牌后海底八张牌内，且在四家不碰牌吃牌的情况下胡牌: seat 1 has discarded once already
    hands = {0: "123m456m789m1234p6s", 1: "222p234m567m45s11z"}
    game = position(hands=hands, rivers={1: "9p", 2: "1s", 3: "9s", 0: "1m"}, rules=RULES)
    game.apply(act("0 discard 6s"))  # the fifth discard of the hand
    assert game.outcome.earthly and names(game) == {"地胡"}


def test_di_hu_not_after_eight_discards():
    hands = {0: "123m456m789m1234p6s", 1: "222p234m567m45s11z"}
    game = position(hands=hands, rivers={1: "9p", 2: "1s9s", 3: "9m1p", 0: "1m7p8p"}, rules=RULES)
    game.apply(act("0 discard 6s"))  # the ninth
    assert not game.outcome.earthly and names(game) == {"门清"}


def test_ming_gang_of_the_previous_players_discard():
    game = position(hands={0: "123m456m789m1234p6s", 1: "666s234m567m789p1z"}, rules=RULES)
    game.apply(act("0 discard 6s"))
    assert "kong" in kinds(game, 1)


def test_gang_shang_kai_hua_after_a_ming_gang():
    hands = {0: "123m456m789m1234p6s", 1: "666s234m567m789p1z"}
    game = position(hands=hands, back="1z", rules=RULES)
    game.apply(act("0 discard 6s"))
    game.apply(act("1 kong 6s"))
    assert game.is_over and game.outcome.winner == 1 and game.outcome.kong_replacement
    assert {"自摸", "杠上开花"} <= names(game)


def test_claimed_kong_bloom_false_forbids_the_win_on_a_ming_gangs_replacement():
    """The table option is the rule set's own rule unless set: false makes taiwan13 play taiwan16's
    行動限制2 (no win, 過水)."""
    from engine.rules import TableOptions

    hands = {0: "123m456m789m1234p6s", 1: "666s234m567m789p1z"}
    game = position(hands=hands, back="1z", rules=RULES, options=TableOptions(claimed_kong_bloom=False))
    game.apply(act("0 discard 6s"))
    game.apply(act("1 kong 6s"))
    assert game.outcome is None and game.passed_win[1] and "hu" not in kinds(game, 1)


def test_no_ting_declaration():
    game = position(hands={0: "1122m3344p5566s7z9s"}, rules=RULES)
    assert "ting" not in kinds(game, 0)


def test_da_hua_hu_all_eight_flowers_and_three_pay_thirteen_tai():
    game = position(hands={0: "123m456m789m1234p6s"}, flowers={1: "f1f2f3f4f5f6f7"}, wall="f8", rules=RULES)
    game.apply(act("0 discard 6s"))
    pass_all(game)
    assert game.to_act() == [1] and "hu" in kinds(game, 1)  # 就可以喊胡: the player's call
    game.apply(act("1 hu"))
    assert game.is_over and game.outcome.winner == 1 and game.outcome.flower_win == "大花胡"
    result = score_outcome(game)
    settled = get_settle(RULES)(result, SettleContext(winner=1, dealer=0, discarder=None))
    assert settled.deltas == (-260, 780, -260, -260)


def test_no_qi_qiang_yi_in_taiwan13():
    game = position(
        hands={0: "123m456m789m1234p6s"}, flowers={1: "f1f2f3f4f5f6", 2: "f8"}, wall="f7", rules=RULES
    )
    game.apply(act("0 discard 6s"))
    pass_all(game)
    assert not game.is_over and len(game.flowers[1]) == 7


def test_the_deal_passes_unless_the_dealer_wins():
    assert next_dealer(DEALER_WINS_KEEPS, 1, 1) == 1  # 连庄
    assert next_dealer(DEALER_WINS_KEEPS, 1, 3) == 2  # 下庄
    assert next_dealer(DEALER_WINS_KEEPS, 1, None) == 2  # 庄家没有胡牌 (a draw game too)


def test_seeded_match_plays_to_the_end_with_invariants_checked():
    match = Match(RULES, seed=7, rounds=1)
    policies = [make_policy("ai", random.Random(seat)) for seat in range(4)]
    while not match.is_over:
        game = match.new_hand()
        play_hand(game, policies)  # checks tile conservation after every step
        result = match.finish_hand(game)
        assert sum(result.deltas) == 0 and result.unit == "tai"
        if result.winner is not None:
            assert result.total >= 1 and all(d % 20 == 0 for d in result.deltas)
    assert sum(match.scores) == 0 and len(match.history) >= 4
    for before, after in zip(match.history, match.history[1:], strict=False):
        kept = before.result.winner == before.dealer
        assert after.dealer == (before.dealer if kept else (before.dealer + 1) % 4)
        assert after.dealer_streak == (before.dealer_streak + 1 if kept else 0)


def test_selfplay_runs_taiwan13_and_reports_like_taiwan16():
    stats = run(RULES, hands=30, seed=3, policy="ai")
    assert stats["hands"] == 30 and stats["wins"] + stats["draw_games"] == 30
    assert set(stats) == set(run("taiwan16", hands=2, seed=3, policy="ai"))



def test_dealer_whose_only_tai_is_zhuang_jia_is_offered_hu():
    """Rule 5 counts every row of the 台 table toward the 1-台 minimum, 庄家 included: a dealer
    with an open hand worth nothing else wins on a discard (taken for them: 不可過水); at a
    non-dealer's seat the same hand may not win."""
    hands = {0: "234m567m45s11z", 1: "123456789p1234s6s"}
    melds = {0: ["pon:222p"]}
    for dealer, wins in ((0, True), (2, False)):
        game = position(hands=hands, melds=melds, rivers=MID_HAND, turn=1, dealer=dealer, drawn="6s", rules=RULES)
        game.apply(act("1 discard 6s"))
        assert (game.outcome is not None and game.outcome.winner == 0) is wins
        if wins:
            assert names(game) == {"庄家"}


def test_da_hua_hu_ends_the_hand_even_with_taiwan16s_flower_bonus_switch():
    """八仙過海即收 is a taiwan16 house rule: at a taiwan13 table 大花胡 is still a win that ends the
    hand, the player's to call (就可以喊胡)."""
    from engine.rules import TableOptions

    options = TableOptions(house_rules={"flower_win_as_bonus": True})
    game = position(hands={0: "123m456m789m123p1s9s"}, flowers={1: "f1f2f3f4f5f6f7"}, wall="f8", rules=RULES,
                    options=options)
    game.apply(act("0 discard 9s"))
    pass_all(game)
    assert game.flower_bonuses == [] and game.to_act() == [1]
    game.apply(act("1 hu"))
    assert game.outcome is not None and game.outcome.flower_win == "大花胡" and game.outcome.winner == 1
