"""The procedure of a hand: dice, dealing, 補花, draws, draw game, views, timeouts, replay."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action, Kind
from engine.game import Game, IllegalActionError, Outcome, Phase
from engine.policy import RandomPolicy, SimpleAI
from engine.position import position
from engine.selfplay import play_hand, run
from engine.tiles import is_flower
from engine.wall import Wall
from tests.engine.helpers import act, kinds, pass_all, tile


def test_deal_gives_sixteen_each_and_the_dealer_a_seventeenth():
    for dealer in range(4):
        game = Game(seed=11, dealer=dealer)
        for s in range(4):
            assert sum(game.hands[s]) == (17 if s == dealer else 16)
            assert not any(is_flower(t) for t in game.hand(s))
        assert game.turn == dealer and game.phase is Phase.TURN
        game.check_invariants()


def test_same_seed_same_deal_and_different_seed_different_deal():
    assert Game(seed=5).hands == Game(seed=5).hands
    assert Game(seed=5).hands != Game(seed=6).hands


def test_wall_is_broken_where_the_dealers_dice_point():
    # dice total counted counter-clockwise from the dealer (dealer = 1)
    wall = Wall.build(random.Random(1), flowers=True, dealer=2, dice_total=10)
    assert wall.break_side == (2 + 10 - 1) % 4
    game = Game(seed=3, dealer=1)
    assert game.wall.break_side == (1 + sum(game.dice) - 1) % 4
    assert len(game.dice) == 3 and all(1 <= d <= 6 for d in game.dice)


def test_initial_flower_replacement_goes_round_before_a_second_replacement():
    # find a seeded deal where some replacement was itself a flower
    for seed in range(400):
        game = Game(seed=seed)
        flowers = [e for e in game.events if e.kind == "flower"]
        if len(flowers) >= 3:
            break
    else:
        pytest.skip("no multi-flower deal in range")
    total = sum(len(f) for f in game.flowers)
    assert total == len(flowers)
    for s in range(4):  # every flower set aside was replaced: hand sizes intact
        assert sum(game.hands[s]) == (17 if s == game.dealer else 16)


def test_second_round_flower_waits_until_everyone_replaced():
    game = Game(seed=0, dealer=0)
    # rebuild a deal by hand: seats 0 and 1 hold one flower each; seat 0's replacement is a flower
    game.hands = [[0] * 34 for _ in range(4)]
    game.flowers = [[tile("f1")], [tile("f2")], [], []]
    game.events = []
    game.wall.tiles[game.wall.back - 1] = tile("f3")  # seat 0's first replacement
    game.wall.tiles[game.wall.back - 2] = tile("1m")  # seat 1's replacement
    game.wall.tiles[game.wall.back - 3] = tile("2m")  # seat 0's second replacement
    game._initial_flowers([0, 1, 2, 3])
    order = [(e.seat, e.tile) for e in game.events if e.kind == "flower"]
    assert order == [(0, tile("f3"))]
    assert game.hands[1][tile("1m")] == 1  # seat 1 replaced before seat 0's second round
    assert game.hands[0][tile("2m")] == 1


def test_flower_drawn_in_play_is_replaced_at_once_from_the_back():
    game = position(hands={0: "123m456m789m123p456p1s9s"}, wall="f5", back="7z")
    game.apply(act("0 discard 9s"))
    pass_all(game)
    assert tile("f5") in game.flowers[1]
    assert game.drawn[1] == tile("7z")


def test_eight_flowers_win_at_once():
    game = position(hands={0: "123m456m789m123p456p1s9s"}, flowers={1: "f1f2f3f4f5f6f7"}, wall="f8")
    game.apply(act("0 discard 9s"))
    pass_all(game)
    assert game.is_over and game.outcome.flower_win == "八仙過海" and game.outcome.winner == 1


def test_seven_flowers_rob_the_eighth():
    game = position(hands={0: "123m456m789m123p456p1s9s"}, flowers={1: "f1f2f3f4f5f6", 3: "f8"}, wall="f7")
    game.apply(act("0 discard 9s"))
    pass_all(game)
    out = game.outcome
    assert out.flower_win == "七搶一" and out.winner == 1 and out.loser == 3


def test_draw_game_when_only_the_reserve_is_left():
    game = position(hands={0: "123m456m789m123p456p1s9s"}, live=0)
    assert game.wall.remaining == 16
    game.apply(act("0 discard 9s"))
    pass_all(game)
    assert game.is_over and game.outcome.winner is None


@pytest.mark.parametrize(
    ("rules", "hand"), [("taiwan16", "123m456m789m123p456p1s9s"), ("taiwan13", "123m456m789m123p1s9s")]
)
def test_draw_game_when_a_flower_replacement_would_come_out_of_the_reserve(rules, hand):
    """牌墩只剩下16張牌，此時稱之為和局 (+1 a kong): a flower drawn as the last live tile is set
    aside, and since its replacement would be one of the 16 kept back, the hand is a draw game
    there, the reserve whole (taiwan16 and taiwan13 alike: the same game loop)."""
    game = position(hands={0: hand}, wall="f1", live=1, rules=rules)
    game.apply(act("0 discard 9s"))
    pass_all(game)
    assert game.is_over and game.outcome.winner is None and game.outcome.flower_win is None
    assert game.wall.remaining == 16 and game.drawable == 0 and game.flowers[1] == [tile("f1")]
    size = game.profile.hand_size
    assert [sum(game.hands[s]) for s in range(4)] == [size] * 4  # the drawer holds no replacement
    game.check_invariants()


def test_each_kong_keeps_one_more_tile_back():
    game = position(hands={0: "123m456m789m123p456p1s9s"}, melds={2: ["kong:1111z"]})
    assert game.drawable == game.wall.remaining - 17


def test_last_tile_self_draw_is_flagged_for_haidi():
    game = position(hands={0: "123m456m789m123p456p1s9s", 1: "234m567m111z222z333z5z"}, wall="5z", live=1)
    game.apply(act("0 discard 9s"))
    pass_all(game)
    assert game.is_over and game.outcome.winner == 1 and game.outcome.last_tile


def test_heavenly_and_earthly_flags():
    game = position(hands={0: "123m456m789m123p456p11s"}, first_go=True)
    assert game.is_over or kinds(game, 0) == {"hu"}
    game._run_forced()
    assert game.outcome.heavenly
    g2 = position(hands={0: "123m456m789m123p456p1s9s", 1: "234m567m111z222z333z9s"}, first_go=True)
    g2.apply(act("0 discard 9s"))
    assert g2.outcome.winner == 1 and g2.outcome.earthly and not g2.outcome.heavenly


def test_public_view_holds_no_concealed_tiles_and_own_view_holds_exactly_ones_own():
    game = Game(seed=9)
    public = game.view(None)
    assert public.concealed == () and public.drawn is None and public.revealed == {}
    for s in range(4):
        v = game.view(s)
        own = list(v.concealed) + ([v.drawn] if v.drawn is not None else [])
        assert sorted(own) == sorted(game.hand(s))
        assert v.seats[s].concealed_count == len(own)


def _to_own_turn(game, seat, policies):
    while not game.is_over and game.to_act() != [seat]:
        s = game.to_act()[0]
        if s == seat:  # a claim prompt of our seat: left to time out, it is a 過
            game.apply(Action(s, Kind.TIMEOUT))
        else:
            game.apply(policies[s].choose(game.view(s), game.legal_actions(s)))
    if game.is_over:
        pytest.skip("hand ended first")


def test_three_own_turns_timed_out_switch_on_auto_play_until_back():
    game = Game(seed=21)
    seat = game.turn
    policies = [RandomPolicy(random.Random(s)) for s in range(4)]
    drawn_before = game.drawn[seat]
    game.apply(Action(seat, Kind.TIMEOUT))
    if drawn_before is not None:
        assert game.rivers[seat][-1] == drawn_before or game.is_over
    for _ in range(2):
        assert not game.auto[seat]
        _to_own_turn(game, seat, policies)
        game.apply(Action(seat, Kind.TIMEOUT))
    assert game.auto_seats() == [seat]
    _to_own_turn(game, seat, policies)
    game.apply(game.auto_action(seat))
    assert game.auto[seat]  # acting while auto-played does not end 代打
    game.apply(Action(seat, Kind.BACK))
    assert game.auto_seats() == []
    assert str(game.log[-1]) == f"{seat} back"


def test_away_puts_a_seat_on_auto_play_at_once_and_replays():
    game = Game(seed=5)
    other = (game.turn + 1) % 4
    game.apply(Action(other, Kind.AWAY))
    assert game.auto_seats() == [other]
    with pytest.raises(IllegalActionError):
        game.apply(Action(other, Kind.AWAY))
    again = Game.replay(game.header(), [str(a) for a in game.log])
    assert again.auto_seats() == [other]


def test_auto_play_never_kongs():
    from engine.policy import AutoPlayPolicy

    game = position(hands={0: "1111m56m789m123p456p1s9s"})
    assert "ankong" in kinds(game, 0)
    assert AutoPlayPolicy().choose(game.view(0), game.legal_actions(0)).kind is Kind.DISCARD


def test_replay_from_the_log_reproduces_the_hand():
    game = Game(seed=33)
    play_hand(game, [RandomPolicy(random.Random(s)) for s in range(4)])
    again = Game.replay(game.header(), [str(a) for a in game.log])
    assert again.hands == game.hands and again.rivers == game.rivers
    assert again.outcome == game.outcome


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 3), passable=st.booleans())
def test_random_hands_keep_every_invariant(seed, dealer, passable):
    from engine.rules import TableOptions

    game = Game(seed=seed, dealer=dealer, options=TableOptions(may_pass_win=passable))
    rng = random.Random(seed)
    play_hand(game, [RandomPolicy(rng) for _ in range(4)], check=True)
    assert game.is_over
    for s in range(4):
        assert game.view(s).viewer == s


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_illegal_actions_never_change_the_state(seed):
    game = Game(seed=seed)
    rng = random.Random(seed)
    for _ in range(30):
        if game.is_over:
            break
        seat = game.to_act()[0]
        legal = set(game.legal_actions(seat))
        for kind in (Kind.DISCARD, Kind.PON, Kind.CHI, Kind.WIN):
            bogus = Action((seat + 1) % 4, kind, 0)
            if bogus not in game.legal_actions(bogus.seat):
                before = (repr(game.hands), game.wall.front, game.phase)
                with pytest.raises(ValueError):
                    game.apply(bogus)
                assert (repr(game.hands), game.wall.front, game.phase) == before
        game.apply(rng.choice(sorted(legal, key=str)))


def test_long_seeded_self_play_keeps_invariants():
    stats = run("taiwan16", 150, seed=2026, policy="random", check=True)
    assert stats["hands"] == 150
    ai = run("taiwan16", 60, seed=2026, policy="ai", check=True)
    assert ai["wins"] > ai["draw_games"]  # the built-in AI actually wins hands
    again = run("taiwan16", 60, seed=2026, policy="ai", check=True)
    assert {k: v for k, v in ai.items() if k not in ("seconds", "hands_per_sec")} == {
        k: v for k, v in again.items() if k not in ("seconds", "hands_per_sec")
    }


def test_simple_ai_discards_the_isolated_honour():
    game = position(hands={0: "123m456m789m123p45p11s7z"})
    assert SimpleAI().choose(game.view(0), game.legal_actions(0)) in (act("0 discard 7z"), act("0 hu"))


def test_another_players_concealed_kong_is_face_down_in_views_until_the_end():
    game = position(hands={0: "1111m56m789m123p456p1s9s"}, back="7z")
    game.apply(act("0 ankong 1m"))
    own = game.view(0).seats[0].melds[0]
    assert str(own) == "ankong:1111m"
    for viewer in (None, 1, 2, 3):
        meld = game.view(viewer).seats[0].melds[0]
        assert meld.is_hidden and tile("1m") not in meld.tiles
    game._finish(Outcome(None))
    assert str(game.view(None).seats[0].melds[0]) == "ankong:1111m"  # end-of-hand reveal


def test_simple_ai_prefers_a_safe_tile_against_a_declared_ready_player():
    # 1z and 2z are equally useless to seat 0; seat 1 declared 聽 and has discarded 2z: 2z is safe
    game = position(hands={0: "123m456m789m12p45p99s1z2z"}, rivers={1: "2z"})
    game.ready[1] = True
    assert SimpleAI().choose(game.view(0), game.legal_actions(0)) == act("0 discard 2z")
    game.ready[1] = False
    game.rivers[1] = []
    game.rivers[3].append(tile("2z"))
    game._turn_cache = None
    assert SimpleAI().choose(game.view(0), game.legal_actions(0)).tile in (tile("1z"), tile("2z"))


def test_simple_ai_claims_a_dragon_pung():
    game = position(hands={0: "123m456m789m123p456p1s7z", 2: "55z234m567m345p678p2s8s"})
    game.apply(act("0 discard 7z"))
    assert "pon" not in kinds(game, 2)
    game2 = position(hands={0: "123m456m789m123p456p1s5z", 2: "55z234m567m345p678p2s8s"})
    game2.apply(act("0 discard 5z"))
    assert SimpleAI().choose(game2.view(2), game2.legal_actions(2)).kind is Kind.PON


def test_flower_win_as_bonus_is_paid_at_once_and_the_hand_goes_on():
    """House rule flower_win_as_bonus (八仙過海即收): 七搶一 is booked as a bonus of 8 台 without 底,
    the seven-flower holder takes a replacement and plays on, and their later win counts no 花牌 or
    花槓 (the flowers were paid); the bonus is settled with the hand."""
    from engine.match import Match
    from engine.rules import TableOptions

    options = TableOptions(house_rules={"flower_win_as_bonus": True})
    game = position(
        hands={0: "123m456m789m123p456p1s9s", 1: "234m567m111z222z333z5z"},
        flowers={1: "f1f2f3f4f5f6", 3: "f8"},
        wall="f7",
        back="5z",
        options=options,
    )
    game.apply(act("0 discard 9s"))
    pass_all(game)
    assert game.flower_bonuses == [(1, 3, "七搶一")] and any(e.kind == "flower_bonus" for e in game.events)
    assert game.outcome is not None and game.outcome.winner == 1 and game.outcome.flower_win is None
    match = Match(options=options)
    result = match.finish_hand(game)
    names = {i.name for i in result.items}
    assert "七搶一" not in names and not names & {"花牌", "花槓"} and "槓上開花" in names
    assert result.extras[-1].name == "七搶一" and result.extras[-1].value == 800 and result.extras[-1].seat == 1
    assert sum(result.deltas) == 0 and result.deltas[3] < -800  # seat 3 paid the bonus and its share


def test_flower_win_as_bonus_stands_at_a_draw_game():
    from engine.match import Match
    from engine.rules import TableOptions

    options = TableOptions(house_rules={"flower_win_as_bonus": True})
    game = position(hands={0: "123m456m789m123p456p1s9s"}, flowers={1: "f1f2f3f4f5f6f7"}, wall="f8", live=1,
                    options=options)
    game.apply(act("0 discard 9s"))
    pass_all(game)
    assert game.is_over and game.outcome.winner is None  # the replacement would be the reserve's
    assert game.outcome.flower_bonuses == ((1, None, "八仙過海"),)
    result = Match(options=options).finish_hand(game)
    assert result.deltas == (-800, 2400, -800, -800)
