"""hongkong played by the one game loop (document 002): 13 tiles without flowers, 十三幺 as a
win form, 番起和 as the table minimum, 杠開 包牌 and 搶杠 paid by the right seat, 人和 only on the
dealer's first discard, 翻寶牌 as a table option, and seeded self-play of whole matches."""

import pytest

from engine.actions import Kind
from engine.game import Game
from engine.match import Match, score_outcome
from engine.policy import SimpleAI
from engine.position import position
from engine.rules import TableOptions, get_profile
from engine.scoring.hongkong import bonus_tile, points
from engine.selfplay import play_hand, run
from tests.engine.helpers import act, kinds, tile

FILLER = "123m456m789m1123p5s"  # seat 0 to move: 14 tiles, nothing anyone else wants
FILLER_9S = "123m456m789m1123p9s"  # the same, with a 9s to let go
ORPHANS_WAITING = "19m19p19s1234567z"  # 十三幺, waiting on any of the 13


def names(game: Game) -> dict[str, int]:
    result = score_outcome(game)
    assert result is not None and result.valid, result and result.reason
    return {i.name: i.value for i in result.items}


def settled(game: Game, **kw) -> tuple[int, int, int, int]:
    return Match("hongkong", **kw).finish_hand(game).deltas


def test_profile_deals_13_tiles_from_a_wall_without_flowers():
    game = Game("hongkong", seed=11)
    assert get_profile("hongkong").hand_size == 13 and game.profile.wall_size == 136
    held = [sum(game.hands[s]) for s in range(4)]
    assert held == [14 if s == game.dealer else 13 for s in range(4)]
    assert not any(game.flowers)
    game.check_invariants()


def test_no_ting_declaration_in_the_fan_game():
    game = position(rules="hongkong", hands={0: "123m456m789m123p5s9s"})
    assert "ready" not in kinds(game, 0)


def test_shi_san_yao_wins_on_a_discard_and_the_discarder_pays_512():
    game = position(rules="hongkong", hands={0: FILLER, 1: ORPHANS_WAITING})
    game.apply(act("0 discard 1p"))
    assert game.outcome is not None and game.outcome.winner == 1
    assert names(game) == {"十三幺": 9}
    assert settled(game) == (-512, 512, 0, 0)


def test_fan_minimum_keeps_a_chicken_hand_from_winning():
    # seat 1: 雞糊 on 9s (no 番: claimed chow, pung of a non-seat wind, mixed suits)
    chicken = {0: FILLER_9S, 1: "234m567s999p9s"}
    melds = {1: ["chi:123p"]}
    table = position(rules="hongkong", hands=chicken, melds=melds, options=TableOptions(min_tai=1))
    table.apply(act("0 discard 9s"))
    assert not table.is_over
    assert all(a.kind is not Kind.WIN for s in range(4) for a in table.legal_actions(s))
    anything = position(rules="hongkong", hands=chicken, melds=melds)  # 無番起和
    anything.apply(act("0 discard 9s"))
    assert anything.outcome is not None and anything.outcome.winner == 1
    assert names(anything) == {"雞糊": 0}


KONG_WAITING = {0: "123m456m789m123p9s9p", 2: "234m567m111z2z999s"}  # seat 2 waits on 2z and holds 999s


def test_no_win_on_a_claimed_kongs_replacement_by_default():
    """「明杠他人所打之牌時，若所補之牌恰巧可以胡牌，不得胡牌」: seat 2 明杠s seat 0's 9s and the
    replacement is its winning 2z — no 胡 is offered; as in taiwan16 (行動限制2) it is 過水 and discards."""
    game = position(rules="hongkong", hands=KONG_WAITING, back="2z")
    game.apply(act("0 discard 9s"))
    game.apply(act("2 kong 9s"))
    assert game.outcome is None and game.turn == 2 and game.passed_win[2]
    assert Kind.WIN not in {a.kind for a in game.legal_actions(2)}


def test_gang_kai_after_a_ming_gang_the_kong_tiles_discarder_pays_three_shares():
    # with claimed_kong_bloom on, seat 2 may win on its 明杠's replacement: 杠開, and 包牌
    options = TableOptions(claimed_kong_bloom=True)
    game = position(rules="hongkong", hands=KONG_WAITING, back="2z", options=options)
    game.apply(act("0 discard 9s"))
    game.apply(act("2 kong 9s"))
    out = game.outcome
    assert out is not None and out.winner == 2 and out.self_drawn and out.kong_source == 0
    got = names(game)
    assert got["杠開"] == 1 and got["自摸"] == 1
    share = points(score_outcome(game))
    assert settled(game, options=options) == (-3 * share, 0, 3 * share, 0)


def test_gang_kai_after_a_concealed_kong_is_paid_by_all_three():
    game = position(rules="hongkong", hands={0: "1111m456m789m123p2z"}, back="2z")
    game.apply(act("0 ankong 1m"))
    out = game.outcome
    assert out is not None and out.winner == 0 and out.kong_replacement and out.kong_source is None
    share = points(score_outcome(game))
    assert settled(game) == (3 * share, -share, -share, -share)


def test_qiang_gang_the_kong_owner_pays_three_shares():
    game = position(
        rules="hongkong", hands={0: "1m456m789m123p5p", 1: "23m456p789p123s55s"}, melds={0: ["pon:111m"]}
    )
    game.apply(act("0 addkong 1m"))
    out = game.outcome
    assert out is not None and out.winner == 1 and out.robbing_kong and out.loser == 0
    got = names(game)
    assert got["搶杠"] == 0 and got["自摸"] == 1
    share = points(score_outcome(game))
    assert settled(game) == (-3 * share, 3 * share, 0, 0)


def test_ren_he_on_the_dealers_first_discard_the_dealer_pays():
    game = position(rules="hongkong", hands={0: FILLER, 1: "234m567s999p789s4m"}, first_go=True)
    game.apply(act("0 discard 4m"))
    assert names(game) == {"人和": 9}
    assert settled(game) == (-512, 512, 0, 0)


def test_first_round_win_on_another_players_discard_is_not_ren_he():
    game = position(
        rules="hongkong",
        hands={0: FILLER, 1: "159m159p159s1234z", 2: "234m567s999p789s4m"},
        wall="4m",
        first_go=True,
    )
    game.apply(act("0 discard 5s"))
    game.apply(act("1 discard 4m"))  # seat 1 drew 4m and lets it go: seat 2 wins on it
    assert game.outcome is not None and game.outcome.winner == 2 and game.outcome.earthly
    assert "人和" not in names(game)


def test_bao_pai_indicator_is_the_third_stack_of_the_kept_back_tiles_and_public():
    game = Game("hongkong", seed=3, options=TableOptions(bonus_tile=True))
    assert game.bonus_indicator == game.wall.tiles[-5]
    assert game.view(None).bonus_indicator == game.bonus_indicator
    plain = Game("hongkong", seed=3)
    assert plain.bonus_indicator is None and plain.view(None).bonus_indicator is None


def test_bao_pai_adds_a_fan_per_copy_at_a_table_that_plays_it():
    # the fifth tile from the back is the face-up one: 8p, so 9p is the 寶牌 (seat 1 holds 999p)
    hands = {0: FILLER_9S, 1: "234m567s999p9s"}
    game = position(
        rules="hongkong",
        hands=hands,
        melds={1: ["chi:123p"]},
        back="1z2z3z4z8p",
        options=TableOptions(bonus_tile=True),
    )
    assert game.bonus_indicator == tile("8p") and bonus_tile(tile("8p")) == tile("9p")
    game.apply(act("0 discard 9s"))
    assert names(game) == {"雞糊": 0, "寶牌": 3}


def test_seeded_self_play_plays_whole_hongkong_matches_with_invariants():
    stats = run("hongkong", hands=60, seed=3, policy="ai")
    assert stats["hands"] == 60 and stats["wins"] + stats["draw_games"] == 60
    assert stats["flower_wins"] == 0 and stats["wins"] > 0


def test_three_fan_table_with_bao_pai_only_pays_wins_of_three_countable_fan():
    match = Match("hongkong", seed=5, rounds=1, options=TableOptions(min_tai=3, bonus_tile=True))
    ai = [SimpleAI() for _ in range(4)]
    wins = 0
    while not match.is_over and len(match.history) < 40:
        game = play_hand(match.new_hand(), ai)
        if game.outcome.winner is not None:
            result = score_outcome(game)
            assert result.countable >= 3
            wins += 1
        hand = match.finish_hand(game)
        assert sum(hand.deltas) == 0 and hand.unit == "fan"
    assert wins > 0 and sum(match.scores) == 0
    replayed, pending = Match.replay(match.header(), [r.log for r in match.history])
    assert pending is None and replayed.scores == match.scores



# ---------------------------------------------------------------- the 16-tile game (hand_size 16)

SIXTEEN = TableOptions(hand_size=16)


def test_sixteen_tile_game_deals_sixteen_with_flowers_replaced():
    """補花牌 (十六張麻將才有), 取完十六張牌為止, 莊家多拿一張: 144 tiles, flowers set aside and replaced."""
    game = Game("hongkong", seed=11, options=SIXTEEN)
    assert (game.profile.hand_size, game.profile.wall_size, game.profile.win_forms) == (16, 144, ())
    held = [sum(game.hands[s]) for s in range(4)]
    assert held == [17 if s == game.dealer else 16 for s in range(4)]
    assert all(t >= 34 for f in game.flowers for t in f)
    assert Game.replay(game.header(), []).hands == game.hands  # the size travels in the header


def test_sixteen_tile_game_wins_with_five_sets_and_a_pair():
    """一副牌必須湊成五組麵子以及一組對子(至少十七張牌): seat 1 wins on a discard; flowers score no 番."""
    game = position(rules="hongkong", options=SIXTEEN, hands={0: "123m456m789m123p456p1s9s",
                                                          1: "234m567m234p567p45s11z"}, flowers={1: "f2f6"})
    game.apply(act("0 discard 9s"))
    assert game.outcome is None or game.outcome.winner is None  # 9s is no win for seat 1
    win = position(rules="hongkong", options=SIXTEEN, hands={0: "123m456m789m123p456p1s6s",
                                                         1: "234m567m234p567p45s11z"}, flowers={1: "f2f6"})
    win.apply(act("0 discard 6s"))
    assert win.outcome is not None and win.outcome.winner == 1
    assert names(win) == {"平胡": 1, "門前清": 1}


def test_sixteen_tile_game_has_no_bao_pai_and_other_rule_sets_keep_their_size():
    with pytest.raises(ValueError, match="十三張麻將才有"):
        Game("hongkong", seed=1, options=TableOptions(hand_size=16, bonus_tile=True))
    assert Game("hongkong", seed=1, options=TableOptions(hand_size=13)).profile.wall_size == 136
    with pytest.raises(ValueError, match="taiwan13 is played with 13 tiles, not 16"):
        Game("taiwan13", seed=1, options=TableOptions(hand_size=16))


def test_sixteen_tile_self_play_keeps_the_invariants_and_settles_to_zero():
    for policy in ("random", "easy"):
        stats = run("hongkong", hands=40, seed=7, policy=policy, options=SIXTEEN)
        assert stats["hands"] == 40 and stats["checked"]
