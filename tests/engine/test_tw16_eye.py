"""眼牌 and Miji as game actions (document 000's 台 table): declared at any time, the declarer sees the
other hands (in their own view only), the hand is fixed (摸到什麼打什麼, no kong), 1 台 on a win, the
1-台 penalty when someone else wins, none on a draw game; Miji is 眼牌 declared in its window."""

import pytest

from engine.actions import Action, Kind
from engine.game import Game, IllegalActionError, Phase
from engine.match import Match, score_outcome
from engine.position import position
from engine.rules import TableOptions
from tests.engine.helpers import act, kinds, pass_all, tile

S0 = "123m456m789m123p456p1s9s"  # seat 0 to move, discards 9s
WAITS_5Z = "234m567m111z222z333z5z"  # waits on 5z only
NO_CAP = TableOptions(cap_tai=None, bankroll_tai=None)
SEA = {2: "99m77s66s33p7z88p"}  # nine discards already made (with S0's 9s): past the Miji window


def played(**kwargs) -> Game:
    """A position after the Miji window: 眼牌 is declared as ``eye``."""
    return position(rivers=SEA, **kwargs)


def items(game: Game) -> dict[str, int]:
    scored = score_outcome(game)
    assert scored is not None and scored.valid
    return {i.name: i.value for i in scored.items}


def settle(game: Game) -> tuple[int, ...]:
    match = Match(seed=0, options=game.options)
    match.dealer = game.dealer
    return match.finish_hand(game).deltas


def test_eye_declarer_sees_the_other_hands_and_nobody_else_does():
    game = played(hands={0: S0, 1: WAITS_5Z})
    assert all(game.view(v).others == {} for v in (None, 0, 1, 2, 3))
    unseen_before = game.unseen_counts(1)
    game.apply(act("1 eye"))
    mine = game.view(1)
    assert mine.others == {s: tuple(game.hand(s)) for s in (0, 2, 3)}
    for viewer in (None, 0, 2, 3):
        view = game.view(viewer)
        assert view.others == {}
        assert view.seats[1].eye  # the declaration itself is public
        assert view.revealed == {}
    # the declarer counts the other hands as seen: nothing is unseen but the wall's tiles
    unseen = game.unseen_counts(1)
    nine_s = tile("9s")
    assert unseen[nine_s] == unseen_before[nine_s] - sum(game.hands[s][nine_s] for s in (0, 2, 3))
    assert sum(unseen) == sum(1 for t in game.wall.remaining_tiles() if t < 34)


def test_eye_others_follow_the_hands_and_end_with_the_hand():
    game = played(hands={0: S0, 1: WAITS_5Z}, wall="8p")
    game.apply(act("1 eye"))
    game.apply(act("0 discard 9s"))
    pass_all(game)
    # seat 1 drew 8p and the engine discarded it (摸到什麼打什麼); seat 0's hand shrank by the 9s
    assert game.view(1).others[0] == tuple(game.hand(0))
    assert tile("9s") not in game.view(1).others[0]
    while not game.is_over:
        seat = game.to_act()[0]
        game.apply(game.auto_action(seat))
    assert game.view(1).others == {}  # over: everyone sees the reveal instead


def test_eye_is_declarable_at_any_time_ready_or_not():
    game = position(hands={0: S0})
    assert game.declarations(2) == [Action(2, Kind.MIJI)]  # not ready, not their turn: still allowed
    game.apply(act("0 discard 9s"))
    assert game.phase in (Phase.CLAIM, Phase.TURN)
    game.apply(act("3 miji"))
    assert game.eye[3] and game.declarations(3) == []
    with pytest.raises(IllegalActionError):
        game.apply(act("3 eye"))  # once a hand


def test_eye_fixes_the_hand_draw_what_you_discard():
    # seat 1 holds four 9p: no 暗槓 after 眼牌; the non-winning draw 8p is discarded by the engine
    game = played(hands={0: S0, 1: "9999p234m567m111z22z5p"}, wall="8p")
    game.apply(act("1 eye"))
    game.apply(act("0 discard 9s"))
    pass_all(game)
    assert game.rivers[1] == [tile("8p")]
    assert game.hands[1][tile("9p")] == 4


def test_eye_declarer_may_not_claim_chi_pon_or_kong():
    game = played(hands={0: S0, 1: "99s78s234m567m111z22z5p"})
    game.apply(act("1 eye"))
    game.apply(act("0 discard 9s"))
    assert game.legal_actions(1) == []


def test_eye_declared_in_a_claim_window_withdraws_chi_and_pon():
    game = played(hands={0: S0, 1: "99s78s234m567m111z22z5p"})
    game.apply(act("0 discard 9s"))
    assert {"pon", "chi"} <= kinds(game, 1)
    game.apply(act("1 eye"))
    assert game.legal_actions(1) == [] and 1 not in game.to_act()


def test_eye_declared_on_own_turn_discards_the_drawn_tile():
    game = played(hands={0: S0, 1: WAITS_5Z}, drawn="1s")
    game.apply(act("0 eye"))
    assert game.rivers[0] == [tile("1s")]  # the engine played the only legal move


def test_eye_scores_one_tai_on_a_win_outside_the_cap():
    game = played(hands={0: "123m456m789m123p456p1s5z", 1: WAITS_5Z})
    game.apply(act("1 eye"))
    game.apply(act("0 discard 5z"))
    assert game.is_over and game.outcome.winner == 1
    assert items(game)["眼牌"] == 1
    assert "Miji" not in items(game)


def test_eye_declarer_pays_one_tai_when_another_player_wins():
    def play(declare: bool) -> tuple[int, ...]:
        game = played(hands={0: "123m456m789m123p456p1s5z", 1: WAITS_5Z}, options=NO_CAP)
        if declare:
            game.apply(act("3 eye"))
        game.apply(act("0 discard 5z"))
        assert game.outcome.winner == 1
        return settle(game)

    plain, penalised = play(False), play(True)
    assert penalised[3] - plain[3] == -NO_CAP.tai
    assert penalised[1] - plain[1] == NO_CAP.tai
    assert sum(penalised) == 0


def test_eye_no_penalty_on_a_draw_game():
    game = played(hands={0: S0}, live=0)
    game.apply(act("2 eye"))
    game.apply(act("0 discard 9s"))
    pass_all(game)
    assert game.is_over and game.outcome.winner is None
    assert settle(game) == (0, 0, 0, 0)


def test_miji_offered_only_in_the_window():
    game = Game(seed=5)
    assert game.declarations(1) == [Action(1, Kind.MIJI)]
    with pytest.raises(IllegalActionError):
        game.apply(act("1 eye"))  # in the window the 眼牌 button is Miji
    while sum(len(r) for r in game.rivers) <= 8 and not game.claims_made and not game.is_over:
        seat = game.to_act()[0]
        assert game.declarations(2) == [Action(2, Kind.MIJI)]
        actions = [a for a in game.legal_actions(seat) if a.kind in (Kind.DISCARD, Kind.PASS)]
        game.apply(actions[0])
    if not game.is_over:
        assert game.declarations(2) == [Action(2, Kind.EYE)]


def test_miji_window_closes_after_a_claim():
    game = position(hands={0: S0, 1: "99s78s234m567m111z22z5p"})
    game.apply(act("0 discard 9s"))
    game.apply(act("1 pon"))
    assert game.declarations(2) == [Action(2, Kind.EYE)]


def test_miji_scores_eight_on_a_discard_without_menqing():
    game = position(hands={0: "123m456m789m123p456p1s5z", 1: WAITS_5Z})
    game.apply(act("1 miji"))
    game.apply(act("0 discard 5z"))
    got = items(game)
    assert got["Miji"] == 8 and "眼牌" not in got and "門清" not in got


def test_miji_self_draw_counts_zimo():
    game = position(hands={0: S0, 1: WAITS_5Z}, wall="5z")
    game.apply(act("1 miji"))
    game.apply(act("0 discard 9s"))
    pass_all(game)
    assert game.outcome.winner == 1 and game.outcome.self_drawn
    got = items(game)
    assert got["Miji"] == 8 and got["自摸"] == 1
    assert "眼牌" not in got and "門清" not in got and "門清自摸" not in got


def test_miji_penalty_is_the_eye_penalty():
    game = position(hands={0: "123m456m789m123p456p1s5z", 1: WAITS_5Z}, options=NO_CAP)
    game.apply(act("2 miji"))
    game.apply(act("0 discard 5z"))
    base = position(hands={0: "123m456m789m123p456p1s5z", 1: WAITS_5Z}, options=NO_CAP)
    base.apply(act("0 discard 5z"))
    assert settle(game)[2] - settle(base)[2] == -NO_CAP.tai


def test_eye_declarations_replay_from_header_and_log():
    game = Game(seed=11)
    game.apply(act("2 miji"))
    while not game.is_over:
        seat = game.to_act()[0]
        if not game.eye[0] and sum(len(r) for r in game.rivers) > 10 and game.declarations(0):
            game.apply(act("0 eye"))
            continue
        game.apply(game.auto_action(seat))
    log = [str(a) for a in game.log]
    assert "2 miji" in log
    again = Game.replay(game.header(), log)
    assert again.outcome == game.outcome and again.eye == game.eye and again.miji == game.miji
    assert again.rivers == game.rivers


@pytest.mark.parametrize("text", ["2 eye", "2 miji", "0 eye"])
def test_eye_notation_round_trips(text):
    assert str(Action.from_str(text)) == text
