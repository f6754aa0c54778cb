"""guangdong played by the one game loop (document 004): 13 tiles without flowers, 碰/杠 but no 吃,
most hands only by 自摸 (the scorer decides what the game offers), 地胡 on the dealer's first
discard, 抢杠 and 杠上开花, 谁胡谁庄 with 荒庄 passing the deal, and four horses (买马) set aside
from the wall and revealed when the hand ends."""

import json
from dataclasses import replace

import pytest

from engine.game import Game
from engine.match import Match, score_outcome
from engine.position import position
from engine.rules import GUANGDONG, WINNER_DEALS_DRAW_PASSES, next_dealer
from engine.selfplay import run
from engine.tiles import parse_tiles
from engine.view import HandResult
from tests.engine.helpers import act, kinds

NO_HORSES = replace(GUANGDONG, horses=0)  # to read a win's own settlement without the dealer's horses
FILLER = "123m456m789m1123p"  # seat 0 to move: 14 tiles with the tile it lets go added


def finish(game: Game, **kw):
    return Match("guangdong", seed=1, **kw).finish_hand(game)


def names(game: Game) -> dict[str, int]:
    result = score_outcome(game)
    assert result is not None and result.valid, result and result.reason
    return {i.name: i.value for i in result.items}


def test_profile_deals_13_tiles_from_a_wall_without_flowers_and_sets_four_horses_aside():
    game = Game("guangdong", seed=5)
    assert game.profile.wall_size == 136 and not any(game.flowers)
    assert [sum(game.hands[s]) for s in range(4)] == [14 if s == game.dealer else 13 for s in range(4)]
    assert game.wall.back == len(game.wall.tiles) - 4  # no draw, live or replacement, reaches them
    assert game.outcome is None
    game.check_invariants()


def test_a_profile_cannot_set_aside_a_negative_number_of_horses():
    with pytest.raises(ValueError, match="horses"):
        replace(GUANGDONG, horses=-1)
    with pytest.raises(ValueError, match="horses"):
        position(rules="guangdong", horses="1m2m3m4m5m")


def test_the_wall_is_played_to_its_last_tile_and_the_horses_are_revealed_at_the_end():
    for seed in range(40):
        game = Game("guangdong", seed=seed)
        horses = tuple(game.wall.tiles[game.wall.back : game.wall.back + 4])
        while not game.is_over:
            seat = game.to_act()[0]
            game.apply(game.auto_action(seat))
            game.check_invariants()
        assert game.outcome.horses == horses
        if game.outcome.winner is None:
            assert game.wall.remaining == 0  # 荒庄: 全部牌被摸完
            return
    raise AssertionError("no draw game in 40 seeds")


def test_no_chi_only_pon():
    game = position(rules="guangdong", hands={0: FILLER + "5s", 1: "46s55s123m456m789p"})
    game.apply(act("0 discard 5s"))
    assert kinds(game, 1) == {"pon", "pass"}


def test_an_ordinary_hand_may_not_win_on_a_discard():
    game = position(rules="guangdong", hands={0: FILLER + "5z", 1: "123m456p789s1155z"})
    game.apply(act("0 discard 5z"))
    assert not game.is_over and "hu" not in kinds(game, 1)


def test_a_big_hand_wins_on_a_discard_and_the_discarder_pays_thirty():
    game = position(rules=NO_HORSES, hands={0: FILLER + "5z", 1: "111z222z333z4445z"})
    game.apply(act("0 discard 5z"))
    assert game.outcome.winner == 1 and game.outcome.loser == 0
    assert names(game) == {"字一色": 20}
    assert finish(game).deltas == (-30, 30, 0, 0)


def test_earthly_win_on_the_dealers_first_discard_even_with_an_ordinary_hand():
    hands = {0: FILLER + "5z", 1: "123m456p789s1155z"}
    game = position(rules=NO_HORSES, hands=hands, dealer=0, first_go=True)
    game.apply(act("0 discard 5z"))
    assert game.outcome.winner == 1 and names(game) == {"地胡": 20}
    assert finish(game).deltas == (-30, 30, 0, 0)
    later = position(rules=NO_HORSES, hands=hands, dealer=0, first_go=False)
    later.apply(act("0 discard 5z"))
    assert not later.is_over


def test_self_drawn_ordinary_win_is_paid_two_by_each():
    game = position(rules=NO_HORSES, hands={1: "123m456p789s1155z5z"}, turn=1, drawn="5z", dealer=0)
    game.apply(act("1 hu"))
    assert names(game) == {"普通自摸胡": 2}
    assert finish(game).deltas == (-2, 6, -2, -2)


def test_robbing_an_added_kong_with_an_ordinary_hand_the_robbed_pays_six_and_deals_next():
    hands = {0: "123p456p789p1s5m", 1: "34m123s456s789s11z"}
    game = position(rules=NO_HORSES, hands=hands, melds={0: ["pon:555m"]}, dealer=2, turn=0, drawn="5m")
    game.apply(act("0 addkong 5m"))  # seat 1 waits on 2m/5m: the win is forced (不可過水)
    out = game.outcome
    assert out.winner == 1 and out.robbing_kong and out.loser == 0
    assert names(game) == {"普通自摸胡": 2}
    match = Match("guangdong", seed=1)
    assert match.finish_hand(game).deltas == (-6, 6, 0, 0)  # the robbed kong is a 碰 again: no kong pay
    assert match.dealer == 0  # 规则三: 被抢玩家即为下盘庄家


def test_kong_replacement_win_is_a_self_draw_and_the_kong_is_paid_too():
    hands = {0: FILLER + "5s", 1: "123m456m789m1z555s"}
    game = position(rules=NO_HORSES, hands=hands, back="1z")
    game.apply(act("0 discard 5s"))
    game.apply(act("1 kong 5s"))  # 明杠; the replacement 1z completes the hand: 杠上开花
    out = game.outcome
    assert out.winner == 1 and out.self_drawn and out.kong_replacement
    assert names(game) == {"普通自摸胡": 2}
    assert finish(game).deltas == (-3, 9, -3, -3)  # 2 each for the win, 1 each for the 明杠


def test_a_draw_game_pays_no_kongs_and_the_next_seat_deals():
    game = position(rules="guangdong", hands={0: FILLER + "9s"}, melds={2: ["ankong:1111z"]}, live=0)
    game.apply(act("0 discard 9s"))
    assert game.is_over and game.outcome.winner is None
    match = Match("guangdong", seed=1)
    dealer = match.dealer
    result = match.finish_hand(game)
    assert result.deltas == (0, 0, 0, 0) and result.extras == ()
    assert match.dealer == (dealer + 1) % 4 and match.dealer_streak == 0


def test_who_wins_deals_next():
    assert next_dealer(WINNER_DEALS_DRAW_PASSES, 1, 3) == 3
    assert next_dealer(WINNER_DEALS_DRAW_PASSES, 1, 1) == 1  # 庄家胡牌则其继续担任庄家
    assert next_dealer(WINNER_DEALS_DRAW_PASSES, 1, None) == 2  # 流局: the 下家
    assert next_dealer(WINNER_DEALS_DRAW_PASSES, 1, 3, robbed=0) == 0  # 抢杠: the robbed player


def test_horses_on_the_dealer_settle_the_dealers_win_four_more_times():
    game = position(rules="guangdong", hands={0: "123m456p789s1155z5z"}, drawn="5z", horses="1m5p9s1z")
    game.apply(act("0 hu"))
    assert game.outcome.horses == tuple(parse_tiles("1m5p9s1z"))
    result = finish(game)
    assert result.total == 2 and [(i.name, i.value) for i in result.items] == [("普通自摸胡", 2)]
    assert result.deltas == (30, -10, -10, -10)
    assert [(i.value, i.seat) for i in result.extras] == [(6, 0)] * 4
    assert HandResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result  # stored with its horses


def test_horses_that_miss_every_result_settle_nothing():
    # seat 1 wins on seat 0's discard (字一色 30); horses 3m 7p 3z 5z all name seat 2 (对家): 平
    game = position(rules="guangdong", hands={0: FILLER + "5z", 1: "111z222z333z4445z"}, horses="3m7p3z5z")
    game.apply(act("0 discard 5z"))
    result = finish(game)
    assert result.deltas == (-30, 30, 0, 0)
    assert [(i.value, i.seat) for i in result.extras] == [(0, 2)] * 4


def test_self_play_plays_whole_matches_with_invariants_and_replays():
    stats = run("guangdong", 200, 1, "ai")
    assert stats["checked"] and stats["wins"] > 0 and stats["draw_games"] > 0 and stats["matches"] >= 1
    match = Match("guangdong", seed=4)
    from engine.policy import SimpleAI
    from engine.selfplay import play_hand

    while not match.is_over:
        game = match.new_hand()
        play_hand(game, [SimpleAI() for _ in range(4)])
        result = match.finish_hand(game)
        assert sum(result.deltas) == 0
    again, current = Match.replay(match.header(), [list(h.log) for h in match.history])
    assert current is None and again.scores == match.scores


def test_with_may_pass_win_a_big_hand_may_let_a_discard_go_and_wait_for_the_self_draw():
    options = replace(GUANGDONG.options, may_pass_win=True)
    game = position(rules="guangdong", hands={0: FILLER + "5z", 1: "111z222z333z4445z"}, options=options)
    game.apply(act("0 discard 5z"))
    assert {"hu", "pass"} <= kinds(game, 1)
    game.apply(act("1 pass"))
    assert not game.is_over
