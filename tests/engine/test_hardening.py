"""Bad input never crashes or corrupts a game (issue 17): each fuzz-campaign reproducer, then the
contracts as properties — ``Game.apply`` plays a legal action or raises IllegalActionError with the
state unchanged; ``Action.from_str`` round-trips or raises NotationError; a long self-play keeps
every hand at its exact size, flower wins included."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Action, Kind, shape_problem
from engine.game import Game, IllegalActionError, Phase
from engine.match import score_outcome
from engine.meld import Meld
from engine.policy import RandomPolicy
from engine.position import position
from engine.rules import TableOptions
from engine.tiles import NotationError, full_set, parse_tiles
from engine.wall import Wall
from tests.engine.helpers import act, pass_all, tile

# ---------------------------------------------------------------- helpers


def snapshot(game: Game) -> dict:
    """Everything a failed ``apply`` must leave untouched (the caches aside: the legal actions, and
    the waits remembered per hand, which a refused action may look up)."""
    caches = ("_turn_cache", "_waits_memo", "_ron_memo", "_shown_hands", "rng", "win_filter")
    state = {k: copy.deepcopy(v) for k, v in vars(game).items() if k not in caches}
    state["rng"] = game.rng.getstate()
    state["log_text"] = [repr(a) for a in game.log]  # Action(False, ...) == Action(0, ...): compare text too
    return state


def assert_refused_unchanged(game: Game, action: object) -> None:
    before = snapshot(game)
    with pytest.raises(IllegalActionError):
        game.apply(action)  # type: ignore[arg-type]
    assert snapshot(game) == before


def hand_sizes(game: Game) -> list[int]:
    return [sum(game.hands[s]) + 3 * len(game.melds[s]) for s in range(4)]


def rigged_deal(monkeypatch: pytest.MonkeyPatch, seat_chunks: dict[tuple[int, int], str]) -> None:
    """Make the next Game's wall deal ``seat_chunks[(round, seat)]`` (four tiles in notation) to a
    seat in a dealing round (dealer 0, rounds 0-3); every other tile comes in kind order, flowers
    never from the back."""
    pool = full_set(True)
    chunks = {}
    for key, text in seat_chunks.items():
        chunks[key] = parse_tiles(text)
        for t in chunks[key]:
            pool.remove(t)
    plain = [t for t in pool if t < 34]
    spare_flowers = [t for t in pool if t >= 34]
    front: list[int] = []
    for rnd in range(4):
        for seat in range(4):
            front += chunks.get((rnd, seat)) or [plain.pop(0) for _ in range(4)]
    tiles = front + plain[:1] + spare_flowers + plain[1:]  # 開門 tile, then the rest; back end is plain
    built = Wall(tiles, 0, len(tiles))
    monkeypatch.setattr(Wall, "build", classmethod(lambda cls, rng, **kw: built))


# ---------------------------------------------------------------- flower wins in the deal


def test_seven_rob_one_in_the_deal_ends_the_hand_with_every_hand_whole():
    # the fuzz campaign's reproducer: seat 0 reaches seven flowers while seat 1 shows the eighth
    game = Game("taiwan16", seed=7400513030961064311, dealer=2)
    out = game.outcome
    assert out.flower_win == "七搶一" and out.winner == 0 and out.loser == 1
    assert game.phase is Phase.OVER and game.is_over
    assert game.to_act() == [] and all(game.legal_actions(s) == [] for s in range(4))
    assert hand_sizes(game) == [16, 16, 17, 16]  # 補花 completed; the dealer keeps the 開門 tile
    game.check_invariants()
    with pytest.raises(IllegalActionError):
        game.apply(Action(2, Kind.DISCARD, game.hand(2)[0]))
    assert game.outcome == out  # nothing can overwrite it
    result = score_outcome(game)
    assert result.valid and [i.name for i in result.items] == ["七搶一"]


def test_eight_immortals_in_the_deal_waits_for_the_deals_flower_replacement(monkeypatch):
    rigged_deal(monkeypatch, {(0, 0): "f1f2f3f4", (1, 0): "f5f6f7f8"})
    game = Game("taiwan16", seed=1, dealer=0)
    assert game.outcome.flower_win == "八仙過海" and game.outcome.winner == 0
    assert game.phase is Phase.OVER and game.to_act() == []
    flower_events = [e for e in game.events if e.kind == "flower"]
    assert len(flower_events) == 8 and game.events[-1].kind == "win"
    assert hand_sizes(game) == [17, 16, 16, 16]
    game.check_invariants()


def test_seven_rob_one_in_the_deal_is_declared_after_everyone_replaced(monkeypatch):
    # seat 0 is dealt seven flowers and seat 3 the eighth; seat 3 still replaces its flower
    rigged_deal(monkeypatch, {(0, 0): "f1f2f3f4", (1, 0): "f5f6f71m", (0, 3): "f82m3m4m"})
    game = Game("taiwan16", seed=1, dealer=0)
    out = game.outcome
    assert out.flower_win == "七搶一" and out.winner == 0 and out.loser == 3
    assert hand_sizes(game) == [17, 16, 16, 16]
    game.check_invariants()


def test_eight_immortals_during_the_exchange_waits_for_the_exchange_to_complete(monkeypatch):
    # seat 0 is dealt seven flowers; the eighth is the first live tile after the 開門 tile, so the
    # dealer draws it in 換牌 while seat 1 has still to draw its replacement tile
    rigged_deal(monkeypatch, {(0, 0): "f1f2f3f4", (1, 0): "f5f6f71m"})
    game = Game("taiwan16", seed=1, dealer=0, options=TableOptions(exchange=True))
    assert game.phase is Phase.EXCHANGE and game.outcome is None
    game.apply(Action(0, Kind.EXCHANGE, None, (game.hand(0)[0],)))
    game.apply(Action(1, Kind.EXCHANGE, None, (game.hand(1)[0], game.hand(1)[1])))
    game.apply(Action(2, Kind.EXCHANGE))
    game.apply(Action(3, Kind.EXCHANGE))
    assert game.outcome.flower_win == "八仙過海" and game.outcome.winner == 0
    assert game.phase is Phase.OVER and game.to_act() == []
    assert hand_sizes(game) == [17, 16, 16, 16]
    game.check_invariants()


def test_check_invariants_catches_a_hand_short_of_its_replacement_after_a_flower_win():
    game = Game("taiwan16", seed=7400513030961064311, dealer=2)
    t = next(t for t in range(34) if game.hands[1][t])
    game.hands[1][t] -= 1  # as the old deal left it: seat 1 short of its replacement tile
    game.wall.tiles.insert(game.wall.back, t)
    game.wall.back += 1
    with pytest.raises(AssertionError, match="seat 1 holds 15"):
        game.check_invariants()


def test_flower_win_in_play_leaves_every_seat_exactly_sixteen():
    game = position(hands={0: "123m456m789m123p456p1s9s"}, flowers={1: "f1f2f3f4f5f6", 3: "f8"}, wall="f7")
    game.apply(act("0 discard 9s"))
    pass_all(game)
    assert game.outcome.flower_win == "七搶一"
    assert hand_sizes(game) == [16, 16, 16, 16]
    game.check_invariants()


# ---------------------------------------------------------------- views after the hand


def test_revealed_concealed_kong_counts_as_seen_once_the_hand_is_over():
    hands = {0: "123m456m789m123p55p78s1z"}  # after 1z: waits on 6s and 9s; seat 1 holds all four 9s
    live = position(hands=hands, melds={1: ["ankong:9999s"]})
    live.apply(act("0 discard 1z"))
    pass_all(live)
    assert not live.is_over and dict(live.view(0).waits)[tile("9s")] == 4  # face down: unseen
    over = position(hands=hands, melds={1: ["ankong:9999s"]}, live=0)
    over.apply(act("0 discard 1z"))
    pass_all(over)
    assert over.is_over and over.outcome.winner is None
    assert dict(over.view(0).waits)[tile("9s")] == 0  # revealed: all four are seen
    assert over.view(0).seats[1].melds[0].tiles[0] == tile("9s")


# ---------------------------------------------------------------- Game.apply reproducers


@pytest.mark.parametrize(
    "action",
    [
        Action(0, Kind.DISCARD, -28),  # IndexError while building the message
        Action(0, Kind.DISCARD, 1.0),  # type: ignore[arg-type]  # TypeError after logging
        Action(0, Kind.TIMEOUT, 99),  # logged as "0 timeout f66"
        Action(False, Kind.DISCARD, 1),  # type: ignore[arg-type]  # logged as "False discard 2m"
        Action(True, Kind.PASS),  # type: ignore[arg-type]
        Action(0, "discard", 1),  # type: ignore[arg-type]
        Action(0, Kind.DISCARD, None),
        Action(0, Kind.WIN, 3),
        Action(0, Kind.DISCARD, 34),  # a flower is never discarded
        Action(0, Kind.CHI, 7),  # 8m9m10m
        Action(4, Kind.DISCARD, 1),
        Action(-1, Kind.DISCARD, 1),
        Action(0, Kind.DISCARD, 10**5000),
        "0 discard 2m",
        None,
        (0, Kind.DISCARD, 1),
    ],
)
def test_apply_refuses_malformed_actions_without_touching_the_game(action):
    game = Game("taiwan16", seed=1, dealer=0)
    assert not game.is_legal(action)
    assert_refused_unchanged(game, action)


def test_a_legal_discard_with_the_same_value_in_another_type_is_refused():
    game = Game("taiwan16", seed=1, dealer=0)
    legal = next(a for a in game.legal_actions(0) if a.kind is Kind.DISCARD)
    assert_refused_unchanged(game, Action(0, Kind.DISCARD, float(legal.tile)))
    game.apply(legal)
    assert game.log == [legal] and str(game.log[0]) == str(legal)


def test_malformed_action_message_never_indexes_with_the_bad_value():
    game = Game("taiwan16", seed=1, dealer=0)
    with pytest.raises(IllegalActionError, match="tile must be an int"):
        game.apply(Action(0, Kind.DISCARD, -28))


def test_apply_refuses_everything_once_the_hand_is_over():
    game = Game("taiwan16", seed=7400513030961064311, dealer=2)
    for action in (Action(2, Kind.TIMEOUT), Action(2, Kind.DISCARD, game.hand(2)[0]), Action(0, Kind.WIN)):
        assert_refused_unchanged(game, action)


# ---------------------------------------------------------------- Game.apply as a property

SEATS = st.one_of(
    st.integers(0, 3), st.integers(-3, 8), st.booleans(), st.floats(allow_nan=True), st.text(max_size=2)
)
KINDS = st.one_of(
    st.sampled_from(list(Kind)), st.sampled_from([k.value for k in Kind]), st.none(), st.integers()
)
TILES = st.one_of(
    st.none(),
    st.integers(0, 33),
    st.integers(-100, 100),
    st.integers(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.text(max_size=3),
)
EXCHANGED = st.one_of(
    st.tuples(), st.lists(st.integers(-2, 40), max_size=4).map(tuple), st.lists(TILES, max_size=2)
)
ANY_ACTION = st.one_of(
    st.builds(Action, SEATS, KINDS, TILES),
    st.builds(Action, st.integers(0, 3), st.sampled_from(list(Kind)), st.none(), EXCHANGED),
    st.builds(Action, st.integers(0, 3), st.sampled_from(list(Kind)), TILES),
    st.text(max_size=12),
    st.integers(),
    st.none(),
    st.tuples(st.integers(0, 3), st.sampled_from(list(Kind)), st.integers(0, 33)),
)


TABLES = st.sampled_from(
    [
        TableOptions(),
        TableOptions(may_pass_win=True),
        TableOptions(self_draw_only=True),
        TableOptions(min_tai=3),
        TableOptions(exchange=True),
    ]
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    options=TABLES,
    steps=st.lists(st.tuples(st.booleans(), ANY_ACTION, st.integers(0, 50)), min_size=1, max_size=60),
)
def test_apply_plays_a_legal_action_or_refuses_with_the_state_unchanged(seed, options, steps):
    game = Game("taiwan16", seed=seed, dealer=seed % 4, options=options)
    for play_legal, junk, pick in steps:
        if game.is_over:
            break
        seat = game.to_act()[0]
        legal = game.legal_actions(seat) + [Action(seat, Kind.TIMEOUT)]
        candidate = legal[pick % len(legal)] if play_legal else junk
        if isinstance(candidate, Action) and game.is_legal(candidate):
            logged = len(game.log)
            game.apply(candidate)
            assert len(game.log) == logged + 1
            entry = game.log[-1]
            assert shape_problem(entry) == "" and Action.from_str(str(entry)) == entry
            game.check_invariants()
        else:
            assert_refused_unchanged(game, candidate)
    # the log is a faithful record: its text replays to the same position
    replayed = Game.replay(game.header(), [str(a) for a in game.log])
    assert replayed.hands == game.hands and replayed.outcome == game.outcome and replayed.phase == game.phase


# ---------------------------------------------------------------- notation reproducers


@pytest.mark.parametrize(
    "text",
    [
        "1 chi 3m4p5s",  # read as 1 chi 345m
        "2 chi f1f2f3",
        "1 chi 891m",
        "1 chi 345z",
        "1 chi 354m",  # not the printed form
        "3 hu 9p 0 discard 5m",  # trailing tokens
        "3 hu 9p",
        "٣ pon 5m",  # non-ASCII digit as a seat
        "0 pass 5m",
        "0 timeout 5m",
        "2 away 5m",
        "2 back 1z",
        "0 discard f1",
        "0 discard",
        "0 ankong",
        "4 discard 5m",
        "-1 discard 5m",
        "01 discard 5m",
        "+1 discard 5m",
        " 0 discard 5m",
        "0 discard 5m ",
        "0  discard 5m",
        "0\tdiscard 5m",
        "0 DISCARD 5m",
        "0 discard 55m",
        "0 discard 5m,",
        "",
        "0",
    ],
)
def test_from_str_refuses_what_it_cannot_print_back(text):
    with pytest.raises(NotationError):
        Action.from_str(text)


@pytest.mark.parametrize("value", [None, 0, b"0 discard 5m", ["0", "discard", "5m"], Action(0, Kind.PASS)])
def test_from_str_of_a_non_string_is_a_notation_error(value):
    with pytest.raises(NotationError):
        Action.from_str(value)


@pytest.mark.parametrize(
    "text",
    [
        "0 discard 5m",
        "1 chi 345m",
        "2 chi 789s",
        "1 pon",
        "1 pon 5z",
        "3 kong",
        "0 ting 9s",
        "2 hu",
        "3 pass",
        "0 timeout",
        "2 away",
        "2 back",
    ],
)
def test_exact_notation_round_trips(text):
    assert str(Action.from_str(text)) == text


def test_reprs_are_notation():
    assert repr(Action.from_str("0 discard 5m")) == "Action.from_str('0 discard 5m')"
    assert eval(repr(Action(1, Kind.CHI, 2))) == Action(1, Kind.CHI, 2)
    meld = Meld.from_str("chi:345m", claimed="4m", source=3)
    assert repr(meld) == "Meld.from_str('chi:345m', claimed='4m', source=3)" and eval(repr(meld)) == meld
    assert repr(Meld.from_str("pon:555z")) == "Meld.from_str('pon:555z')"
    assert "-28" in repr(Action(0, Kind.DISCARD, -28))  # a malformed action still prints, as its fields


# ---------------------------------------------------------------- notation as a property

TOKENS = st.sampled_from(
    [
        "0",
        "1",
        "2",
        "3",
        "4",
        "٣",
        "01",
        " ",
        "  ",
        "\t",
        "\n",
        "5m",
        "345m",
        "3m4p5s",
        "f1",
        "f1f2f3",
        "9p",
        "1z",
    ]
    + [k.value for k in Kind]
)


@given(
    st.one_of(
        st.text(max_size=30),
        st.lists(TOKENS, max_size=6).map("".join),
        st.lists(TOKENS, max_size=5).map(" ".join),
    )
)
def test_from_str_parses_only_text_that_prints_back_to_itself(text):
    try:
        action = Action.from_str(text)
    except NotationError:
        return
    assert shape_problem(action) == ""
    assert str(action) == text


WELL_FORMED = st.one_of(
    st.builds(
        Action, st.integers(0, 3), st.sampled_from([k for k in Kind if k is not Kind.CHI]), st.integers(0, 33)
    ),
    st.builds(Action, st.integers(0, 3), st.just(Kind.CHI), st.integers(0, 26).filter(lambda t: t % 9 <= 6)),
    st.builds(Action, st.integers(0, 3), st.sampled_from([k for k in Kind if k is not Kind.CHI])),
).filter(lambda a: shape_problem(a) == "")


@given(WELL_FORMED)
def test_every_well_formed_action_round_trips(action):
    assert shape_problem(action) == ""
    assert Action.from_str(str(action)) == action


# ---------------------------------------------------------------- long self-play, exact sizes

SELF_PLAY_HANDS = 600  # seed 524 ends in a 七搶一 drawn in play


def test_long_self_play_keeps_every_hand_at_its_exact_size_at_every_step():
    flower_wins = []
    option_sets = [
        TableOptions(),
        TableOptions(may_pass_win=True),
        TableOptions(self_draw_only=True),
        TableOptions(exchange=True),
    ]
    deals = [(7400513030961064311, 2), *((seed, seed % 4) for seed in range(SELF_PLAY_HANDS))]
    for seed, dealer in deals:
        game = Game("taiwan16", seed=seed, dealer=dealer, options=option_sets[seed % 4])
        policy = RandomPolicy(random.Random(seed))
        game.check_invariants()
        steps = 0
        while not game.is_over:
            seat = game.to_act()[0]
            game.apply(policy.choose(game.view(seat), game.legal_actions(seat)))
            game.check_invariants()  # exact: 16 each, +1 for the seat to move or the winner
            steps += 1
            assert steps < 2000
        if game.outcome.flower_win:
            flower_wins.append((seed, game.log == []))
    assert (7400513030961064311, True) in flower_wins  # a flower win in the deal
    assert any(not in_deal for _, in_deal in flower_wins)  # and one in play
