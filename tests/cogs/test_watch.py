"""What a spectator receives is made from the public table alone: over whole matches of every rule
set, the spectator's text and picture stay exactly the same when any concealed tile of a hand in
play is swapped for another hidden tile, and the view they are made from holds no concealed tile."""

from __future__ import annotations

import copy
import random

import pytest

from cogs.mahjong.watch import reveal_frames, spectator_payload, spectator_text
from engine.actions import Action, Kind
from engine.game import Game
from engine.match import Match
from engine.policy import make_policy
from engine.rules import get_profile
from engine.tiles import NUM_KINDS
from tests.engine.match_driver import play_match

NAMES = ("alice", "AI 1", "AI 2", "AI 3")
RULES = ("taiwan16", "taiwan13", "hongkong", "guangdong")


def swap_hidden(game: Game, rng: random.Random) -> Game | None:
    """A copy of ``game`` with one concealed tile of a seat exchanged for a different tile still in
    the live wall (both unseen by the table); None when there is nothing to swap."""
    other = copy.deepcopy(game)
    seats = [s for s in range(4) if sum(other.hands[s])]
    wall = other.wall
    live = [i for i in range(wall.front, wall.back) if wall.tiles[i] < NUM_KINDS]
    if not seats or not live:
        return None
    seat = rng.choice(seats)
    held = [t for t in range(NUM_KINDS) if other.hands[seat][t]]
    a = rng.choice(held)
    candidates = [i for i in live if wall.tiles[i] != a and other.hands[seat][wall.tiles[i]] < 4]
    if not candidates:
        return None
    i = rng.choice(candidates)
    b = wall.tiles[i]
    other.hands[seat][a] -= 1
    other.hands[seat][b] += 1
    if other.drawn[seat] == a and not other.hands[seat][a]:
        other.drawn[seat] = b
    wall.tiles[i] = a
    other._turn_cache = None
    return other


@pytest.mark.parametrize("rules", RULES)
def test_a_spectator_sees_nothing_of_a_concealed_tile_over_whole_matches(rules):
    rng = random.Random(rules)
    checked = {"steps": 0, "pictures": 0}

    def check(game: Game) -> None:
        view = game.view(None)
        assert view.viewer is None and view.concealed == () and view.drawn is None and view.others == {}
        assert view.waits == ()
        if game.is_over:
            return  # the hand is over: every hand is shown, as on the table
        assert view.revealed == {}
        text = spectator_text(view, NAMES, "en", 7)
        swapped = swap_hidden(game, rng)
        if swapped is None:
            return
        assert swapped.view(None) == view
        assert spectator_text(swapped.view(None), NAMES, "en", 7) == text
        checked["steps"] += 1
        if checked["steps"] % 40 == 1:  # the picture too (it is drawn from the view alone)
            first = spectator_payload(view, NAMES, "en", 7)
            second = spectator_payload(swapped.view(None), NAMES, "en", 7)
            assert first.png == second.png and first.content == second.content and first.view is None
            checked["pictures"] += 1

    for seed in range(2):
        options = get_profile(rules).options
        play_match(rules, seed, options=options, rounds=1, max_hands=8, on_step=check)
    assert checked["steps"] > 200 and checked["pictures"] >= 5


def test_the_spectator_text_refuses_a_players_view():
    game = Game("taiwan16", seed=1)
    with pytest.raises(ValueError):
        spectator_text(game.view(game.dealer), NAMES, "en", 1)


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
        shown = reveal_frames(match, number, NAMES)
        assert shown[-1].view.phase == "over"  # to the hand's end, and no further
        assert len(shown) >= 2
    last = reveal_frames(match, 1, NAMES)[-1].view
    assert last.revealed == first.view(None).revealed  # the hand as it ended (hand_reveal animates these frames)
