"""AI levels: each plays only legal actions, sees only its view, and plays the shape it should."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Kind
from engine.ai import NORMAL, STRONG, PlannerAI, SimpleAI
from engine.game import Game
from engine.policy import LEVELS, make_policy
from engine.position import position
from engine.rules import TableOptions
from engine.view import GameView
from tests.engine.helpers import act, tile

ENGINE = Path(__file__).resolve().parents[2] / "engine"


class ViewOnlyTable:
    """What an AI is handed at a real table: a frozen view and the legal actions — no Game."""

    def __init__(self, game: Game) -> None:
        self._game = game

    def ask(self, policy) -> object:
        seat = self._game.to_act()[0]
        view = self._game.view(seat)
        legal = tuple(self._game.legal_actions(seat))
        assert isinstance(view, GameView) and not hasattr(view, "hands") and not hasattr(view, "wall")
        return policy.choose(view, legal)


@pytest.mark.parametrize("level", LEVELS)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), min3=st.booleans(), exchange=st.booleans())
def test_every_level_plays_legal_actions_to_the_end_of_a_hand(level, seed, min3, exchange):
    options = TableOptions(min_tai=3 if min3 else 0, exchange=exchange)
    game = Game(seed=seed, dealer=seed % 4, options=options)
    policies = [make_policy(level, random.Random(s)) for s in range(4)]
    table = ViewOnlyTable(game)
    steps = 0
    while not game.is_over:
        seat = game.to_act()[0]
        action = table.ask(policies[seat])
        assert action in game.legal_actions(seat)
        game.apply(action)
        steps += 1
        assert steps < 2000
    game.check_invariants()


def test_the_levels_are_easy_normal_strong_and_unknown_ones_are_refused():
    assert LEVELS == ("easy", "normal", "strong")
    with pytest.raises(ValueError):
        make_policy("grandmaster", random.Random(0))
    assert isinstance(make_policy("ai", random.Random(0)), SimpleAI)  # selfplay's old name


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found.add("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def test_the_ai_cannot_reach_the_game_only_the_view():
    files = [*sorted((ENGINE / "ai").glob("*.py")), ENGINE / "policy.py"]
    for path in files:
        for name in _imports(path):
            assert not name.endswith("game"), f"{path.name} imports {name}"
            assert not name.endswith("match") and not name.endswith("wall"), f"{path.name} imports {name}"


def test_the_strong_ai_decides_the_same_from_a_view_whatever_the_hidden_tiles():
    # two games that differ only in the other players' hands and the wall: seat 0 sees the same
    a = position(hands={0: "123m456m789m12p45p99s1z2z", 1: "111z222z333z444z555z6z"})
    b = position(hands={0: "123m456m789m12p45p99s1z2z", 1: "123p456p789p123s456s1s"})
    view_a, view_b = a.view(0), b.view(0)
    assert view_a.concealed == view_b.concealed
    choice_a = PlannerAI(STRONG).choose(view_a, a.legal_actions(0))
    choice_b = PlannerAI(STRONG).choose(view_b, b.legal_actions(0))
    assert choice_a == choice_b


def test_the_strong_ai_throws_a_tile_known_safe_against_a_declared_ready_hand():
    # seat 1 declared 聽; afterwards 5m was discarded and not won on: against a fixed hand it is safe
    game = position(hands={0: "123m456m789m123p5m8p2z3z4z"}, rivers={1: "1z", 2: "5m"})
    game.ready[1] = True
    ai = PlannerAI(STRONG)
    view = game.view(0)
    before = GameView(**{f: getattr(view, f) for f in view.__dataclass_fields__})
    seats = list(before.seats)
    from dataclasses import replace

    seats[2] = replace(seats[2], discards=())
    ai.memory.update(replace(before, seats=tuple(seats)))  # saw seat 1 ready before 5m came
    choice = ai.choose(view, game.legal_actions(0))
    assert choice.kind is Kind.DISCARD
    assert tile("5m") in ai.memory.safe[1]


def test_the_strong_ai_keeps_a_dragon_pair_and_throws_the_lone_wind():
    game = position(hands={0: "123m456m789m12p45p9s55z3z"})
    choice = PlannerAI(STRONG).choose(game.view(0), game.legal_actions(0))
    assert choice.kind is Kind.DISCARD and choice.tile != tile("5z")


def test_the_strong_ai_does_not_declare_ready_in_taiwan16():
    # 聽 earns no 台 in taiwan16 and tells the table: the strong level keeps it quiet
    game = position(hands={0: "123m456m789m123p45p99s7z"})
    legal = game.legal_actions(0)
    assert any(a.kind is Kind.READY for a in legal)
    assert PlannerAI(STRONG).choose(game.view(0), legal).kind is Kind.DISCARD


def test_the_normal_ai_declares_ready_when_its_hand_may_win_on_a_discard():
    game = position(hands={0: "123m456m789m123p45p99s7z"})
    choice = PlannerAI(NORMAL).choose(game.view(0), game.legal_actions(0))
    assert choice == act("0 ting 7z")


def test_the_normal_ai_keeps_building_a_ready_hand_that_cannot_reach_the_table_minimum():
    # 三台起胡: 46p waiting on 5p is 門清 + 獨聽 = 2 台 on a discard; only a self-draw would reach 3
    game = position(hands={0: "123m456m789m123p46p99s7z"}, options=TableOptions(min_tai=3))
    assert any(a.kind is Kind.READY for a in game.legal_actions(0))
    choice = PlannerAI(NORMAL).choose(game.view(0), game.legal_actions(0))
    assert choice.kind is Kind.DISCARD


def test_the_strong_ai_declares_miji_with_an_early_ready_hand_and_nothing_when_not_ready():
    game = position(hands={0: "123m456m789m123p45p99s", 1: "1477m258p369s1234567z"}, turn=1)
    offered = game.declarations(0)
    assert [a.kind for a in offered] == [Kind.MIJI]
    assert PlannerAI(STRONG).declare(game.view(0), offered) == offered[0]
    slow = position(hands={0: "159m159p159s1234567z", 1: "123m456m789m123p45p99s9m"}, turn=1)
    assert PlannerAI(STRONG).declare(slow.view(0), slow.declarations(0)) is None
    assert PlannerAI(NORMAL).declare(game.view(0), offered) is None  # normal never declares 眼牌


@given(
    shanten=st.integers(0, 6),
    live=st.integers(1, 120),
    made=st.integers(0, 70),
)
def test_the_measured_win_chance_falls_with_shanten_and_stage_and_rises_with_live_tiles(shanten, live, made):
    from engine.ai.value import measured_win_chance

    chance = measured_win_chance(shanten, live, made)
    assert 0.0 <= chance <= 0.95
    eps = 1e-12  # the stages are interpolated in floating point
    assert measured_win_chance(shanten + 1, live, made) <= chance + eps
    assert measured_win_chance(shanten, live, made + 4) <= chance + eps
    assert measured_win_chance(shanten, live + 4, made) >= chance - eps
    assert measured_win_chance(shanten, 0, made) == 0.0  # no live tile: a dead hand


@pytest.mark.parametrize("level", LEVELS)
def test_at_the_exchange_an_ai_gives_back_only_tiles_its_hand_does_not_need(level):
    from engine import analysis
    from engine.tiles import format_tiles

    game = Game(seed=3, options=TableOptions(exchange=True))  # seat 0 deals; East round
    policies = [make_policy(level, random.Random(s)) for s in range(4)]
    chosen = {}
    while game.phase.value == "exchange":
        seat = game.to_act()[0]
        hand = list(game.hands[seat])
        action = ViewOnlyTable(game).ask(policies[seat])
        assert action.kind is Kind.EXCHANGE and len(action.tiles) <= 3
        chosen[seat] = format_tiles(action.tiles)
        for t in action.tiles:
            hand[t] -= 1
        sets = 5  # taiwan16: five sets and a pair, whatever was given back
        assert analysis.shanten(hand, sets) == analysis.shanten(list(game.hands[seat]), sets)
        game.apply(action)
    # dealer 156m123489p45789s166z: the loose 1m and 1p go, East (its own wind, the round's) stays
    # West seat 57889m136p23679s475z: the loose 6p, 9s and North go, the dragons 5z and 7z stay
    assert chosen[0] == "1m1p" and chosen[2] == "6p9s4z"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 60), see=st.booleans())
def test_the_estimate_of_every_discard_read_at_once_is_the_estimate_of_each_hand_left(seed, steps, see):
    """The planner values all its discards from one reading of the hand: to the last bit what
    valuing each hand left on its own gives, with and without a meld it thinks of claiming."""
    from engine.ai.table import own_counts
    from engine.ai.value import Valuer
    from engine.meld import Meld

    game = Game(seed=seed, options=TableOptions(see_wind_see_flower=see))
    easy = SimpleAI()
    for _ in range(steps):
        if game.is_over:
            break
        seat = game.to_act()[0]
        game.apply(easy.choose(game.view(seat), game.legal_actions(seat)))
    seat = game.turn
    view = game.view(seat)
    counts = own_counts(view)
    valuer = Valuer(view)
    held = [t for t in range(34) if counts[t]]
    for claimed in (None, Meld.from_str("pon:777z"), Meld.from_str("chi:345p")):
        together = valuer.estimate_by_discard(counts, held, claimed)
        for t in held:
            counts[t] -= 1
            assert together[t] == valuer.estimate(counts, claimed)
            counts[t] += 1


def _claims_and_the_turns_after(level_style, seeds):
    """(claim view, claim legal, the claim chosen, the turn's view, legal and the action chosen)
    for every 吃/碰 a seat of ``level_style`` makes in games of four such seats."""
    found = []
    for seed in seeds:
        game = Game(seed=seed, dealer=seed % 4)
        players = [PlannerAI(level_style) for _ in range(4)]
        pending: dict[int, tuple] = {}
        while not game.is_over:
            seat = game.to_act()[0]
            view = game.view(seat)
            legal = tuple(game.legal_actions(seat))
            action = players[seat].choose(view, legal)
            claimed = pending.pop(seat, None)
            # the claim was made (not overtaken by another seat's): one meld more and no tile drawn
            if claimed and view.drawn is None and len(view.me.melds) == len(claimed[0].me.melds) + 1:
                found.append((*claimed, view, legal, action))
            if action.kind in (Kind.CHI, Kind.PON):
                pending[seat] = (view, legal, action)
            game.apply(action)
    return found


def test_after_a_claim_the_strong_ai_discards_the_tile_the_claim_was_judged_with():
    turns = _claims_and_the_turns_after(STRONG, range(6))
    assert len(turns) >= 10
    kept = 0
    for claim_view, claim_legal, claim, turn_view, turn_legal, discard in turns:
        judged = PlannerAI(STRONG)
        assert judged.choose(claim_view, claim_legal) == claim
        planned = judged._plan
        assert planned is not None and planned[0] == bytes(_counts(turn_view))
        if any(a.kind is Kind.DISCARD and a.tile == planned[1] for a in turn_legal):
            assert discard.kind is Kind.DISCARD and discard.tile == planned[1]
            kept += 1
    assert kept >= 10


def test_after_a_claim_the_normal_ai_weighs_every_discard_again():
    turns = _claims_and_the_turns_after(NORMAL, range(4))
    assert len(turns) >= 10
    for *_, turn_view, turn_legal, discard in turns:
        assert PlannerAI(NORMAL).choose(turn_view, turn_legal) == discard  # no plan: the same as a fresh seat


def _counts(view: GameView) -> list[int]:
    counts = [0] * 34
    for t in (*view.concealed, *(() if view.drawn is None else (view.drawn,))):
        counts[t] += 1
    return counts
