"""Which declarations a rule set has: 眼牌 / Miji are document 000's (taiwan16) and nobody else's, so no
other table can offer a button that shows the other hands."""

from __future__ import annotations

import pytest

from engine.actions import Kind
from engine.game import Game
from engine.rules import PROFILES

HAS_EYE = {"taiwan16": True, "taiwan13": False, "hongkong": False, "guangdong": False}


def test_every_rule_set_is_listed():
    assert set(HAS_EYE) == set(PROFILES)


@pytest.mark.parametrize("rules", sorted(HAS_EYE))
def test_eye_and_miji_are_declared_only_at_taiwan16(rules):
    game = Game(rules, seed=9)
    seen: set[Kind] = set()
    while not game.is_over:
        for seat in range(4):
            seen |= {a.kind for a in game.declarations(seat)}
            for action in game.declarations(seat):
                assert game.is_legal(action)
        if not HAS_EYE[rules]:
            assert not any(game.is_legal(a) for a in _eye_actions())
        game.apply(game.auto_action(game.to_act()[0]))
    if HAS_EYE[rules]:
        assert seen == {Kind.MIJI, Kind.EYE}
    else:
        assert seen == set()


def _eye_actions():
    from engine.actions import Action

    for seat in range(4):
        yield Action(seat, Kind.EYE)
        yield Action(seat, Kind.MIJI)
