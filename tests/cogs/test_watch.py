"""What a spectator may be shown face up, and when: the finished hands of a delayed table only, each
replayed to its own end; nothing face up for a public table's spectators, not even at a shutdown (a public
spectator reads the channel's table, whose privacy tests/cogs/test_fair_play.py covers)."""

from __future__ import annotations

import random

from cogs.mahjong.watch import reveal_frames
from engine.actions import Action, Kind
from engine.match import Match
from engine.policy import make_policy
from table.screens import revealed_hand, spectator_screen
from table.visibility import DELAYED, PUBLIC
from tests.table.test_session import started, tick_until


def _easy_hand(match, rng):
    game = match.new_hand()
    policies = [make_policy("easy", random.Random(rng.random())) for _ in range(4)]
    while not game.is_over:
        seat = game.to_act()[0]
        game.apply(policies[seat].choose(game.view(seat), game.legal_actions(seat)))
    match.finish_hand(game)
    return game


def test_a_hand_with_a_take_back_stored_after_its_end_is_shown_face_up():
    """Issue 37, item 11: a 代打 switch made between two hands is stored at the end of the settled
    hand's log (Match.between_hands); the face-up reveal replayed it as a move of the hand and failed."""
    rng = random.Random(11)
    match = Match("taiwan16", rounds=1, seed=11)
    first = _easy_hand(match, rng)
    match.between_hands(Action(2, Kind.AWAY))  # away between hands 1 and 2, then back between 2 and 3
    _easy_hand(match, rng)
    match.between_hands(Action(2, Kind.BACK))
    assert match.history[0].log[-1] == "2 away" and match.history[1].log[-1] == "2 back"
    for number in (1, 2):
        shown = reveal_frames(revealed_hand(match, number))
        assert shown[-1].view.phase == "over"  # to the hand's end, and no further
        assert len(shown) >= 2
    last = reveal_frames(revealed_hand(match, 1))[-1].view
    assert last.revealed == first.view(None).revealed  # the hand as it ended (hand_reveal animates these frames)


def test_a_shutdown_mid_match_shows_no_spectator_of_a_public_table_a_hand_face_up():
    """Issue 37, item 27: a clean shutdown closes the table's session, and the spectator loop took that for
    the match's end, when every finished hand may be shown to everyone: it sent them all face up."""
    session = started("taiwan16", seed=5)
    tick_until(session, 0.0, lambda s: s.match is not None and len(s.match.history) >= 1 and s.game is not None)
    assert spectator_screen(session, PUBLIC).revealable == 0 and spectator_screen(session, DELAYED).revealable == len(session.match.history)
    session.close()  # the bot shuts down (or another process takes the table over): the match goes on later
    assert not session.match_ended()
    assert spectator_screen(session, PUBLIC).revealable == 0 and not session.sight(PUBLIC).secrets
    session.shut()  # its host closes it: now the match is over, and everything may be seen
    assert spectator_screen(session, PUBLIC).revealable == len(session.match.history) and session.sight(PUBLIC).secrets
