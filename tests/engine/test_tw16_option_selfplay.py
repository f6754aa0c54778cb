"""Self-play with every combination of the table's switches (限自摸, 可過水, 見字見花, 三台起胡, 換牌) and
random 眼牌/Miji declarations: tiles are conserved after every step, every hand settles to zero, and no
view ever holds another seat's concealed tiles except a 眼牌 declarer's own view and the end-of-hand
reveal."""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action, Kind
from engine.game import Game, Phase
from engine.house_rules import KNOWN_PRESETS, HouseRules
from engine.match import Match
from engine.meld import MeldKind
from engine.rules import TableOptions

SWITCHES = ("self_draw_only", "may_pass_win", "see_wind_see_flower", "exchange")
COMBINATIONS = [
    TableOptions(**dict(zip(SWITCHES, flags, strict=True)), min_tai=min_tai)
    for flags in itertools.product((False, True), repeat=len(SWITCHES))
    for min_tai in (0, 3)
]


def check_views(game: Game) -> None:
    """What each view holds of hidden tiles, seat by seat."""
    over = game.phase is Phase.OVER
    for viewer in (None, 0, 1, 2, 3):
        view = game.view(viewer)
        if viewer is None:
            assert view.concealed == () and view.drawn is None and view.others == {}
        else:
            own = list(view.concealed) + ([view.drawn] if view.drawn is not None else [])
            assert sorted(own) == sorted(game.hand(viewer))
            expected = {s: tuple(game.hand(s)) for s in range(4) if s != viewer}
            assert view.others == (expected if game.eye[viewer] and not over else {})
        assert view.revealed == ({s: tuple(game.hand(s)) for s in range(4)} if over else {})
        for seat in view.seats:
            if seat.seat != viewer and not over:
                assert all(m.is_hidden for m in seat.melds if m.kind is MeldKind.ANKONG)
            assert seat.eye == game.eye[seat.seat]


def play(match: Match, rng: random.Random) -> Game:
    game = match.new_hand()
    game.check_invariants()
    check_views(game)
    steps = 0
    while not game.is_over:
        declaring = [a for s in range(4) for a in game.declarations(s)]
        if declaring and rng.random() < 0.03:
            action = rng.choice(declaring)
        else:
            seat = rng.choice(game.to_act())
            action = rng.choice(game.legal_actions(seat) + [Action(seat, Kind.TIMEOUT)])
        game.apply(action)
        game.check_invariants()
        check_views(game)
        steps += 1
        assert steps < 3000
    return game


def play_hands(options: TableOptions, seed: int, hands: int) -> None:
    rng = random.Random(seed)
    match = Match(seed=seed, rounds=1, options=options)
    for _ in range(hands):
        if match.is_over:
            break
        game = play(match, rng)
        result = match.finish_hand(game)
        assert sum(result.deltas) == 0 and sum(match.scores) == 0
        replayed = Game.replay(game.header(), [str(a) for a in game.log])
        assert replayed.outcome == game.outcome and replayed.hands == game.hands


@pytest.mark.parametrize("options", COMBINATIONS, ids=lambda o: "-".join(
    [name for name in SWITCHES if getattr(o, name)] + ([f"min{o.min_tai}"] if o.min_tai else [])
) or "plain")
def test_selfplay_with_every_option_combination_keeps_invariants(options):
    play_hands(options, seed=sum(map(ord, repr(options))) % 10_000, hands=3)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), options=st.sampled_from(COMBINATIONS))
def test_selfplay_invariants_hold_for_any_seed(seed, options):
    play_hands(options, seed=seed, hands=1)


HOUSE_TABLES = {
    **{name: TableOptions(house_rules=HouseRules.resolve(name)) for name in KNOWN_PRESETS},
    "flower_bonus_exchange": TableOptions(exchange=True, house_rules={"flower_win_as_bonus": True}),
    "flower_call_exchange": TableOptions(exchange=True, house_rules={"flower_win_optional": True}),
    "no_wait_rules_min3": TableOptions(min_tai=3, house_rules={"ping_hu_no_wait_rule": True, "lugu_tai": 16}),
}


@pytest.mark.parametrize("name", list(HOUSE_TABLES))
def test_selfplay_with_every_house_rules_preset_keeps_invariants(name):
    """The presets and families, and the variants that change play (the flower bonus): tiles
    conserved, views private, every hand zero-sum and replayable."""
    play_hands(HOUSE_TABLES[name], seed=len(name), hands=4)


def test_selfplay_command_line_takes_a_tables_options():
    from engine.selfplay import table_options

    got = table_options('{"exchange": true}', 16, "online", ["lugu_tai=16", "flower_win_as_bonus=off"])
    assert got.exchange and got.hand_size == 16
    assert got.house_rules["lugu_tai"] == 16 and not got.house_rules["flower_win_as_bonus"]
    assert got.house_rules["miji_tai"] == 4  # the rest of the preset
    with pytest.raises(ValueError, match="NAME=VALUE"):
        table_options(None, None, None, ["lugu_tai"])
