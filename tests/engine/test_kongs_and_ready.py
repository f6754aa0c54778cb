"""Kongs (行動限制 2, 3), 聽 (聽牌 1-3), 過水 and the table options 限自摸 / 可過水."""

from engine.actions import Kind
from engine.analysis import waits
from engine.game import Phase
from engine.position import position
from engine.rules import TableOptions
from engine.tiles import parse_tiles, to_counts
from tests.engine.helpers import act, kinds, tile

S0 = "123m456m789m123p456p1s9s"
PASSABLE = TableOptions(may_pass_win=True)
# seat 2 waits on 5z: 234m567m 111z 222z 333z 5z (16 tiles)
WAITS_5Z = "234m567m111z222z333z5z"


def test_concealed_kong_draws_a_replacement_and_keeps_the_hand_concealed():
    game = position(hands={0: "1111m56m789m123p456p1s9s"}, back="7z")
    game.apply(act("0 ankong 1m"))
    meld = game.melds[0][-1]
    assert str(meld) == "ankong:1111m" and meld.is_concealed
    assert game.drawn[0] == tile("7z") and game.turn == 0
    assert "1111m" not in str(game.view(1).seats[0].melds) or game.view(1).seats[0].melds[0].is_concealed


def test_added_kong_onto_a_pon():
    game = position(hands={0: "1m456m789m123p456p9s"}, melds={0: ["pon:111m"]}, back="7z")
    assert "addkong" in kinds(game, 0)
    game.apply(act("0 addkong 1m"))
    assert str(game.melds[0][0]) == "addkong:1111m"
    assert game.drawn[0] == tile("7z")


def test_rule2_exposed_kong_replacement_may_not_win_and_forces_passing():
    # seat 2 holds 999s and waits on 5z; the 明槓 replacement is 5z: no self-drawn win
    game = position(hands={0: S0, 2: "234m567m111z222z5z999s"}, back="5z", options=PASSABLE)
    game.apply(act("0 discard 9s"))
    game.apply(act("2 kong 9s"))
    assert game.drawn[2] == tile("5z")
    assert "hu" not in kinds(game, 2)
    assert game.passed_win[2]  # forced 過水


def test_rule2_holds_on_the_default_table_too():
    game = position(hands={0: S0, 2: "234m567m111z222z5z999s"}, back="5z")
    game.apply(act("0 discard 9s"))
    game.apply(act("2 kong 9s"))
    assert not game.is_over and "hu" not in kinds(game, 2)


def test_rule3_concealed_kong_after_an_exposed_kong_replacement_may_not_win():
    # 明槓 9s, replacement 1p (seat 2 then holds 1111p), 暗槓 1p, replacement 5z would win
    game = position(
        hands={0: "123m456m789m234p456p1s9s", 2: "234m567m111z1p11p5z999s"},
        back="1p5z",
        options=PASSABLE,
    )
    game.apply(act("0 discard 9s"))
    game.apply(act("2 kong 9s"))
    assert game.drawn[2] == tile("1p")
    assert "ankong" in kinds(game, 2)
    game.apply(act("2 ankong 1p"))
    assert game.drawn[2] == tile("5z")
    assert "hu" not in kinds(game, 2)


def test_rule3_a_winning_replacement_after_exposed_then_concealed_kong_forces_passing():
    # 「明槓之後摸進來的牌若是正好胡牌，也必須強制過水」: the 暗槓's replacement is drawn in after the 明槓
    # too, so the 過水 is forced as for the 明槓's own replacement (docs/rules/taiwan16.md)
    game = position(
        hands={0: "123m456m789m234p456p1s9s", 2: "234m567m111z1p11p5z999s"},
        back="1p5z",
        options=PASSABLE,
    )
    game.apply(act("0 discard 9s"))
    game.apply(act("2 kong 9s"))
    assert not game.passed_win[2]  # the 明槓's replacement 1p does not complete the hand
    game.apply(act("2 ankong 1p"))
    assert game.drawn[2] == tile("5z") and game.passed_win[2]
    game.apply(act("2 discard 5z"))  # discarding a winning tile keeps 過水
    assert game.passed_win[2]


def test_added_kong_lifts_passing_and_its_replacement_may_win():
    game = position(hands={0: "1m456m789m123p456p5z"}, melds={0: ["pon:111m"]}, back="5z", options=PASSABLE)
    game.passed_win[0] = True
    game.apply(act("0 addkong 1m"))
    assert not game.passed_win[0]
    # 456m789m123p456p 5z + 5z → complete: a 槓上開花 self-draw
    assert "hu" in kinds(game, 0)
    game.apply(act("0 hu"))
    assert game.outcome.kong_replacement and game.outcome.self_drawn


def test_ready_declaration_is_offered_not_forced():
    game = position(hands={0: "123m456m789m123p456p5z9s"})
    assert {"discard", "ting"} <= kinds(game, 0)  # 聽牌1
    game.apply(act("0 discard 9s"))
    assert not game.ready[0]


def test_after_ready_draws_are_auto_discarded_and_claims_are_not_offered():
    game = position(hands={0: "123m456m789m123p456p5z9s"}, wall="8p3s")
    game.apply(act("0 ting 9s"))
    assert game.ready[0] and game.ready_waits[0] == (tile("5z"),)
    # everyone passes / discards until seat 0 draws 8p (wall order: 8p for seat 1...)
    # put seat 0 in turn again with a non-winning draw
    game2 = position(hands={0: "123m456m789m123p456p5z8p"}, wall="3s")
    game2.ready[0] = True
    game2.ready_waits[0] = (tile("5z"),)
    game2.drawn[0] = tile("8p")
    game2._turn_cache = None
    game2._run_forced()  # the engine plays the forced auto-discard itself
    assert game2.rivers[0][-1] == tile("8p")


def test_ready_hand_gets_no_chi_or_pon():
    game = position(hands={0: S0, 1: "111z222z333z44z5s78s99p"})
    game.ready[1] = True
    game.ready_waits[1] = (tile("5s"),)
    game.apply(act("0 discard 9s"))
    assert game.legal_actions(1) == []  # 聽牌2


def test_ready_concealed_kong_only_when_waits_unchanged():
    # 聽牌3: 111m456m789m123p45p55z waits 3p/6p; drawing the fourth 1m, the kong keeps those waits
    game = position(hands={0: "1111m456m789m123p45p55z"}, back="7z")
    game.ready[0] = True
    game.ready_waits[0] = tuple(waits(to_counts(parse_tiles("111m456m789m123p45p55z"))))
    assert "ankong" in kinds(game, 0)
    # 222m34m...55z waits 2m/5m/5z; a kong of 2m leaves only 2m/5m: not allowed
    game2 = position(hands={0: "2222m34m789m123p456p55z"})
    game2.ready[0] = True
    game2.ready_waits[0] = tuple(waits(to_counts(parse_tiles("222m34m789m123p456p55z"))))
    assert game2.ready_waits[0] == tuple(parse_tiles("25m5z"))
    assert "ankong" not in kinds(game2, 0)


def test_no_exposed_kong_after_ready():
    game = position(hands={0: S0, 2: "234m567m111z222z4z999s"})
    game.ready[2] = True
    game.ready_waits[2] = (tile("4z"),)
    game.apply(act("0 discard 9s"))
    assert game.legal_actions(2) == []


def test_default_table_wins_automatically():
    game = position(hands={0: S0, 2: WAITS_5Z.replace("5z", "9s")})
    game.apply(act("0 discard 9s"))
    assert game.is_over and game.outcome.winner == 2 and not game.outcome.self_drawn


def test_pass_water_after_declining_a_win_until_a_non_winning_discard():
    game = position(hands={0: "123m456m789m123p456p5z5z", 2: WAITS_5Z}, options=PASSABLE)
    game.apply(act("0 discard 5z"))
    assert "hu" in kinds(game, 2)
    game.apply(act("2 pass"))
    assert game.passed_win[2]
    # seat 2 in turn again with a drawn tile: discarding its wait 5z keeps 過水, anything else lifts it
    game2 = position(hands={0: "123m456m789m123p456p1s", 2: WAITS_5Z + "9p"}, turn=2, options=PASSABLE)
    game2.passed_win[2] = True
    game2.apply(act("2 discard 5z"))  # 5z is no wait of what remains (...333z9p waits 9p): lifted
    assert not game2.passed_win[2]
    # discarding a tile that still wins for the hand left (9p from ...333z9p9p) keeps 過水
    game3 = position(
        hands={0: "123m456m789m123p456p1s", 2: "234m567m111z222z333z9p9p"}, turn=2, options=PASSABLE
    )
    game3.passed_win[2] = True
    game3.apply(act("2 discard 9p"))
    assert game3.passed_win[2]


def test_passing_water_blocks_ron():
    game = position(hands={0: "123m456m789m123p456p5z5z", 2: WAITS_5Z}, options=PASSABLE)
    game.passed_win[2] = True
    game.apply(act("0 discard 5z"))
    assert "hu" not in kinds(game, 2)


def test_self_draw_only_table_offers_no_win_on_a_discard():
    opts = TableOptions(self_draw_only=True, may_pass_win=True)
    game = position(hands={0: "123m456m789m123p456p5z9s", 2: WAITS_5Z}, options=opts)
    game.apply(act("0 discard 5z"))
    assert "hu" not in kinds(game, 2)
    game2 = position(hands={0: "123m456m789m123p456p5z5z"}, options=opts)
    assert "hu" in kinds(game2, 0)


def test_robbing_an_added_kong():
    game = position(
        hands={0: "9s456m789m123p456p1s", 2: "234m567m111z222z55z78s"},
        melds={0: ["pon:999s"]},
        options=PASSABLE,
    )
    game.apply(act("0 addkong 9s"))
    assert game.phase is Phase.ROB_KONG and "hu" in kinds(game, 2)
    game.apply(act("2 hu"))
    out = game.outcome
    assert out.winner == 2 and out.loser == 0 and out.robbing_kong
    assert str(game.melds[0][0]) == "pon:999s"  # the robbed kong falls back to a pon
    game.check_invariants()


def test_added_kong_stands_when_nobody_robs():
    game = position(hands={0: "5z456m789m123p456p1s"}, melds={0: ["pon:555z"]}, back="3s")
    game.apply(act("0 addkong 5z"))
    assert game.phase is Phase.TURN and game.drawn[0] == tile("3s")
    assert game.legal_actions(0)[0].kind in (Kind.DISCARD, Kind.ANKONG, Kind.ADDKONG, Kind.READY)


def test_three_tai_minimum_hand_below_it_is_not_offered_a_win():
    # 234m567m345p678p123s + 9s on a discard: 門清 1 + 獨聽 1 = 2 台, below the minimum
    cheap = position(
        hands={0: S0, 2: "234m567m345p678p123s9s"}, options=TableOptions(min_tai=3, may_pass_win=True)
    )
    cheap.apply(act("0 discard 9s"))
    assert "hu" not in kinds(cheap, 2)
    # the same wait with three dragon pungs (三元 ×3 → more than 3 台) may win
    rich = position(
        hands={0: S0, 2: "234m567m555z666z777z9s"}, options=TableOptions(min_tai=3, may_pass_win=True)
    )
    rich.apply(act("0 discard 9s"))
    assert "hu" in kinds(rich, 2)


def test_last_discard_stays_marked_until_claimed():
    game = position(hands={0: S0})
    game.apply(act("0 discard 9s"))
    assert game.view(None).last_discard == (0, tile("9s"))


def test_declining_a_self_drawn_win_is_pass_water_too():
    game = position(hands={0: "123m456m789m123p456p5z5z"}, options=PASSABLE)
    assert "hu" in kinds(game, 0)
    game.apply(act("0 discard 5z"))  # 5z still completes what is left: 過水 stays
    assert game.passed_win[0]
