"""換牌 (document 000, table option ``exchange``): after the deal and 補花 every player chooses 0-3 tiles to
give back; from the dealer in turn order each draws as many live tiles, then the tiles given back go
into the live wall. A player whose time runs out keeps the hand (沒有點選確定交換將不會換牌)."""

import json

import pytest

from engine.actions import Action, Kind
from engine.game import Game, IllegalActionError, Phase
from engine.rules import TableOptions
from engine.tiles import is_flower
from tests.engine.helpers import act

EXCHANGE = TableOptions(exchange=True)


def first_live(game: Game, n: int) -> list[int]:
    return game.wall.tiles[game.wall.front : game.wall.front + n]


def test_exchange_is_off_by_default_and_play_starts_with_the_dealer():
    game = Game(seed=0)
    assert game.phase is Phase.TURN and game.to_act() == [game.dealer]


def test_exchange_option_opens_a_phase_where_all_four_choose():
    game = Game(seed=0, dealer=2, options=EXCHANGE)
    assert game.phase is Phase.EXCHANGE and game.to_act() == [0, 1, 2, 3]
    game.check_invariants()  # the dealer still holds 17 tiles
    legal = game.legal_actions(1)
    assert legal[0] == Action(1, Kind.EXCHANGE)  # keeping the hand comes first
    assert all(a.kind is Kind.EXCHANGE and len(a.tiles) <= 3 for a in legal)
    assert len(set(legal)) == len(legal)
    # every distinct choice of up to three held tiles, each once
    hand = game.hands[1]
    assert all(all(a.tiles.count(t) <= hand[t] for t in a.tiles) for a in legal)
    assert game.declarations(1) == []  # no 眼牌 before play starts


def test_exchange_draws_as_many_live_tiles_from_the_dealer_in_turn_order():
    game = Game(seed=0, options=EXCHANGE)  # the first six live tiles are not flowers
    upcoming = first_live(game, 5)
    assert not any(map(is_flower, upcoming))
    before = [list(h) for h in game.hands]
    give1 = tuple(sorted(t for t in range(34) for _ in range(game.hands[1][t]))[:3])
    give3 = tuple(sorted(t for t in range(34) for _ in range(game.hands[3][t]))[-2:])
    for seat, tiles in ((3, give3), (0, ()), (1, give1), (2, ())):
        game.apply(Action(seat, Kind.EXCHANGE, None, tiles))
    assert game.phase is Phase.TURN and game.turn == 0
    expected1 = list(before[1])
    for t in give1:
        expected1[t] -= 1
    for t in upcoming[:3]:  # seat 1 comes first after the dealer (seat 0, who kept the hand)
        expected1[t] += 1
    assert game.hands[1] == expected1
    expected3 = list(before[3])
    for t in give3:
        expected3[t] -= 1
    for t in upcoming[3:5]:
        expected3[t] += 1
    assert game.hands[3] == expected3
    assert game.hands[0] == before[0] and game.hands[2] == before[2]
    game.check_invariants()


def test_exchange_tiles_given_back_go_into_the_live_wall():
    game = Game(seed=0, options=EXCHANGE)
    remaining = game.wall.remaining
    give = tuple(sorted(t for t in range(34) for _ in range(game.hands[2][t]))[:3])
    for seat in range(4):
        game.apply(Action(seat, Kind.EXCHANGE, None, give if seat == 2 else ()))
    assert game.wall.remaining == remaining  # three drawn, three put back
    live = game.wall.remaining_tiles()
    assert all(live.count(t) >= give.count(t) for t in give)
    game.check_invariants()


def test_exchange_timeout_keeps_the_hand():
    game = Game(seed=3, options=EXCHANGE)
    before = [list(h) for h in game.hands]
    for seat in range(4):
        game.apply(Action(seat, Kind.TIMEOUT))
    assert game.hands == before and game.phase is Phase.TURN
    assert [str(a) for a in game.log] == [f"{s} timeout" for s in range(4)]
    assert game.timeouts == [0, 0, 0, 0]  # not a turn without action (無動作)


def test_exchange_auto_played_seat_keeps_the_hand():
    game = Game(seed=3, options=EXCHANGE, auto_seats=[2])
    assert game.auto_action(2) == Action(2, Kind.EXCHANGE)


def test_exchange_waits_for_every_seat():
    game = Game(seed=4, options=EXCHANGE)
    for seat in (1, 2, 3):
        game.apply(Action(seat, Kind.EXCHANGE))
        assert game.phase is Phase.EXCHANGE
    with pytest.raises(IllegalActionError) as refused:
        game.apply(Action(1, Kind.EXCHANGE))  # one choice a seat
    assert refused.value.code == "not_your_decision"
    game.apply(Action(0, Kind.EXCHANGE))
    assert game.phase in (Phase.TURN, Phase.OVER)


@pytest.mark.parametrize("count", [4])
def test_exchange_refuses_more_than_three_tiles(count):
    game = Game(seed=0, options=EXCHANGE)
    held = tuple(sorted(t for t in range(34) for _ in range(game.hands[1][t]))[:count])
    with pytest.raises(IllegalActionError):
        game.apply(Action(1, Kind.EXCHANGE, None, held))


def test_exchange_refuses_tiles_not_held():
    game = Game(seed=0, options=EXCHANGE)
    missing = next(t for t in range(34) if game.hands[1][t] == 0)
    with pytest.raises(IllegalActionError):
        game.apply(Action(1, Kind.EXCHANGE, None, (missing,)))
    assert game.phase is Phase.EXCHANGE and 1 in game.to_act()


def test_exchange_tiles_in_any_order_mean_the_same_choice():
    game = Game(seed=0, options=EXCHANGE)
    held = sorted(t for t in range(34) for _ in range(game.hands[1][t]))
    choice = (held[5], held[0])
    game.apply(Action(1, Kind.EXCHANGE, None, choice))
    assert game.log[-1].tiles == tuple(sorted(choice))


@pytest.mark.parametrize("text", ["2 exchange 5m7p9s", "1 exchange", "0 exchange 55z"])
def test_exchange_notation_round_trips(text):
    assert str(Action.from_str(text)) == text


def test_exchange_notation_refuses_four_tiles():
    with pytest.raises(ValueError):
        Action.from_str("2 exchange 1234m")


def test_exchange_replays_from_header_and_log():
    game = Game(seed=8, options=EXCHANGE)
    for seat in range(4):
        legal = game.legal_actions(seat)
        game.apply(legal[min(len(legal) - 1, 40 * seat)])
    while not game.is_over:
        game.apply(game.auto_action(game.to_act()[0]))
    header = json.loads(json.dumps(game.header()))
    assert header["options"]["exchange"] is True
    again = Game.replay(header, [str(a) for a in game.log])
    assert again.hands == game.hands and again.rivers == game.rivers and again.outcome == game.outcome


def test_exchange_over_then_miji_is_offered():
    game = Game(seed=8, options=EXCHANGE)
    for seat in range(4):
        game.apply(act(f"{seat} exchange"))
    assert game.declarations(1) == [Action(1, Kind.MIJI)]
