"""Review my play: the strong AI's reading of a seat's decisions, from the seat's view only."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action, Kind
from engine.ai import STRONG, PlannerAI
from engine.house_rules import PRESETS, HouseRules
from engine.log import hand_steps
from engine.match import Match
from engine.policy import make_policy
from engine.position import position
from engine.replay import frames
from engine.review import REVIEWED, judge, reasons, review_hand, review_match
from engine.rules import PROFILES, TableOptions
from engine.selfplay import play_hand
from engine.tiles import NUM_KINDS
from tests.engine.helpers import act, tile

READY = "123m456m789m123p45p99s"  # waits 3p 6p


def test_a_discard_that_breaks_a_ready_hand_is_flagged_with_the_tile_that_keeps_it():
    game = position(hands={0: READY + "1z"})
    review = review_hand(game, ["0 discard 9s"], seat=0)
    (d,) = review.decisions
    assert not d.agreed and d.loss > 1.0
    assert d.best.action.tile == tile("1z") and d.best.action.kind in (Kind.DISCARD, Kind.READY)
    assert d.done.action == act("0 discard 9s")
    assert d.best.shanten == 0 and d.done.shanten == 1
    assert reasons(d)[0] == ("ready", {"done": 1})


def test_keeping_the_ready_hand_agrees_with_the_ai_and_costs_nothing():
    game = position(hands={0: READY + "1z"})
    (d,) = review_hand(game, ["0 discard 1z"], seat=0).decisions
    assert d.agreed and d.loss == 0.0


def test_not_taking_a_self_drawn_win_is_flagged_as_a_win_passed():
    game = position(hands={0: READY + "3p"}, drawn="3p")
    # the deal's own draw wins at once here (天胡 is never declined), so the choice is written out
    legal = [act("0 hu"), act("0 discard 1m"), act("0 discard 3p")]
    done, best, agreed = judge(PlannerAI(STRONG), game.view(0), legal, act("0 discard 1m"))
    assert not agreed and best.action.kind is Kind.WIN and best.value > done.value
    assert best.value >= 3 * 3  # three payers, 3 + 台 each


def test_the_review_is_the_same_whatever_the_hidden_tiles():
    # two tables that differ only in the rivals' hands and the wall: seat 0 sees the same table
    mine = "123m456m789m12p45p99s1z2z"
    tables = (
        {
            "hands": {0: mine, 1: "111z222z333z444z555z6z", 2: "1p1p1p2p2p2p3p3p3p4p4p4p6p6p6p7s"},
            "wall": "7p8p9p",
        },
        {
            "hands": {0: mine, 1: "123p456p789p123s456s1s", 2: "9m9m9m8s8s8s7s7s6s6s5s5s3m3m4m4m"},
            "wall": "3p6p1s",
        },
    )
    assert position(**tables[0]).hand(1) != position(**tables[1]).hand(1)
    for done in ("0 discard 1z", "0 discard 9s", "0 discard 1m", "0 discard 5p"):
        first, second = (review_hand(position(**table), [done], 0) for table in tables)
        assert first.decisions == second.decisions and first.decisions


def _match(
    rules: str, hands: int, seed: int = 3, options: TableOptions | None = None
) -> tuple[Match, list[list[str]]]:
    match = Match(rules, seed=seed, rounds=4, options=options or TableOptions())
    policies = [make_policy(level, random.Random(seed)) for level in ("easy", "normal", "strong", "easy")]
    logs = []
    while not match.is_over and len(logs) < hands:
        game = match.new_hand()
        play_hand(game, policies, check=False)
        match.finish_hand(game)
        logs.append([str(a) for a in game.log])
    return match, logs


@pytest.mark.parametrize("rules", sorted(PROFILES))
def test_a_review_of_a_match_replays_it_exactly(rules):
    for options in (
        TableOptions(),
        TableOptions(min_tai=3, self_draw_only=True),
        TableOptions(see_wind_see_flower=True, may_pass_win=True, exchange=True),
        TableOptions(house_rules=HouseRules(PRESETS["common"])),
    ):
        match, logs = _match(rules, 2, options=options)
        review = review_match(match.header(), logs, seat=0)
        assert review.scores == tuple(match.scores)
        assert [h.result for h in review.hands] == [h.result for h in match.history]
        assert review.decisions
        headers = _hand_headers(match, logs)
        for d in review.decisions:
            shown = list(frames(headers[d.hand - 1], logs[d.hand - 1]))
            assert shown[d.frame].number < d.move  # the replay step shows the table before the decision
            assert shown[d.frame].number == d.shown  # and the review names it by the replay's own number
            assert d.frame + 1 == len(shown) or shown[d.frame + 1].number >= d.move  # and not after it
            assert Action.from_str(logs[d.hand - 1][d.move - 1]).seat == 0


def _hand_headers(match: Match, logs: list[list[str]]) -> list[dict]:
    replayed = Match.replay(match.header(), [])[0]
    headers = []
    for moves in logs:
        game = replayed.new_hand()
        headers.append(game.header())
        for move in moves:
            game.apply(act(move))
        replayed.finish_hand(game)
    return headers


def test_a_weaker_player_agrees_less_with_the_strong_ai():
    match, logs = _match("taiwan16", 4)
    easy, strong = (review_match(match.header(), logs, seat=s) for s in (0, 2))
    assert strong.agreement == 1.0 and strong.loss_per_hand == 0.0
    assert easy.agreement < strong.agreement and easy.loss_per_hand > 0


def test_an_unfinished_hand_is_not_reviewed():
    match, logs = _match("taiwan16", 2)
    cut = [logs[0], logs[1][: len(logs[1]) // 2]]
    review = review_match(match.header(), cut, seat=0)
    assert [h.number for h in review.hands] == [1]


def test_only_one_hand_is_reviewed_when_asked():
    match, logs = _match("taiwan16", 3)
    review = review_match(match.header(), logs, seat=1, only=2)
    assert [h.number for h in review.hands] == [2]
    assert review.scores == tuple(match.scores)


def _swap_rival_tile(game, seat: int, rng: random.Random):
    """A copy of ``game`` with one concealed tile of a rival of ``seat`` exchanged for a different
    tile still in the live wall: neither is anything ``seat`` can see (None: nothing to swap)."""
    other = copy.deepcopy(game)
    wall = other.wall
    rivals = [s for s in range(4) if s != seat and sum(other.hands[s])]
    live = [i for i in range(wall.front, wall.back) if wall.tiles[i] < NUM_KINDS]
    if not rivals or not live:
        return None
    rival = rng.choice(rivals)
    a = rng.choice([t for t in range(NUM_KINDS) if other.hands[rival][t]])
    choices = [i for i in live if wall.tiles[i] != a and other.hands[rival][wall.tiles[i]] < 4]
    if not choices:
        return None
    i = rng.choice(choices)
    b = wall.tiles[i]
    other.hands[rival][a] -= 1
    other.hands[rival][b] += 1
    if other.drawn[rival] == a and not other.hands[rival][a]:
        other.drawn[rival] = b
    wall.tiles[i] = a
    other._turn_cache = None
    return other


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(sorted(PROFILES)))
def test_no_decision_is_judged_differently_when_the_rivals_hands_and_the_wall_change(seed, rules):
    match, logs = _match(rules, 1, seed)
    game = Match.replay(match.header(), [])[0].new_hand()
    rng = random.Random(seed)
    judged = 0
    for step in hand_steps(game, logs[0]):
        if step.number >= len(logs[0]) or game.is_over:
            continue
        action = act(logs[0][step.number])
        legal = game.legal_actions(0)
        if action.seat != 0 or action.kind not in REVIEWED or len(legal) < 2:
            continue
        swapped = _swap_rival_tile(game, 0, rng)
        if swapped is None:
            continue
        assert swapped.legal_actions(0) == legal
        same = judge(PlannerAI(STRONG), swapped.view(0), legal, action)
        assert judge(PlannerAI(STRONG), game.view(0), legal, action) == same
        judged += 1
    assert judged


def test_after_a_claim_a_review_weighs_the_discard_afresh():
    """The strong AI's play keeps the tile a claim was judged with (keep_claim_plan); a review judges the
    discard after a claim as it judges every decision, as if it had not weighed the claim before."""
    from engine.review import JUDGE

    checked = 0
    for seed in range(3, 9):
        match, logs = _match("taiwan16", 2, seed)
        for number, moves in enumerate(logs):
            game = Match.replay(match.header(), logs[:number])[0].new_hand()
            ai = PlannerAI(JUDGE)
            after_claim = False
            for step in hand_steps(game, moves):
                if step.number >= len(moves) or game.is_over:
                    continue
                legal = game.legal_actions(2)
                action = act(moves[step.number])
                if action.seat == 2 and action.kind in REVIEWED and len(legal) >= 2:
                    if after_claim:
                        afresh = copy.deepcopy(ai)
                        afresh._plan = None
                        assert judge(ai, game.view(2), legal, action) == judge(afresh, game.view(2), legal, action)
                        checked += 1
                    else:
                        judge(ai, game.view(2), legal, action)
                after_claim = action.seat == 2 and action.kind in (Kind.CHI, Kind.PON)
    assert checked
