"""What each viewer is shown, as the screen values ``TableSession.screen(who)`` hands the host (table/screens.py):
a seat's DM says which screen it is (prompt, wait, 代打, 換牌, hand over, match over), with hints only where the
table's hints are on; the channel's table the public view; the lobby its seats; a spectator the finished hands
the visibility rule lets them see face up, and nothing of a hand in play."""

from __future__ import annotations

from dataclasses import FrozenInstanceError

import pytest

from engine.events import EventKind
from engine.game import Game
from engine.rules import TableOptions
from engine.tiles import format_tiles, tile_from_str
from table import inputs as ins
from table.screens import (
    DELAYED,
    LOBBY,
    PUBLIC,
    SPECTATOR,
    TABLE,
    Ask,
    HandScreen,
    Kind,
    LobbyScreen,
    Showing,
    SpectatorScreen,
    TableScreen,
)
from table.visibility import Viewer

from .transcript import ALICE, BOB, Host, seated, started

ONE_AWAY = "123456789m123456p57s"  # with 7s drawn: discarding 5s or 7s leaves it ready (聽)
READY = "123456789m123456p5s"  # waits on 5s


def at(host: Host, hand: str, *, turn: int | None = None, drawn: str | None = None) -> int:
    """ALICE's seat holding ``hand`` (tile notation), the turn ``turn``'s (default hers): the session's hand in play
    laid out as written. Returns her seat."""
    seat = host.seat(ALICE)
    whose = seat if turn is None else turn
    host.session.game = Game.from_position(hands={seat: hand}, turn=whose, drawn=drawn, rules="taiwan16")
    return seat


def tiles(values: object) -> str:
    return format_tiles(sorted(values))  # type: ignore[call-overload]


# ---------------------------------------------------------------------- a seat's DM


def test_a_seat_owing_a_discard_is_prompted_with_the_discards_that_keep_it_ready():
    host = started()
    seat = at(host, ONE_AWAY, drawn="7s")
    screen = host.session.screen(seat)
    assert isinstance(screen, HandScreen) and screen.showing is Showing.PROMPT
    assert screen.prompt is not None and screen.prompt.kind is Ask.DISCARD and screen.prompt.legal
    assert tiles(d.tile for d in screen.ready_discards) == "57s"
    assert format_tiles(screen.view.concealed) == READY and screen.view.drawn == tile_from_str("7s")
    assert screen.names[seat] == f"p{ALICE}" and screen.locale == "en"


def test_without_the_tables_hints_a_seat_gets_no_ready_discards_and_no_waits():
    host = started(hints=False)
    seat = at(host, ONE_AWAY, drawn="7s")
    assert host.session.screen(seat).ready_discards == ()
    seat = at(host, READY, turn=(host.seat(ALICE) + 1) % 4)
    screen = host.session.screen(seat)
    assert screen.showing is Showing.WAIT and screen.view.waits == () and not screen.hints


def test_a_ready_seat_waiting_on_another_sees_its_waits_and_may_declare():
    host = started()
    seat = at(host, READY, turn=(host.seat(ALICE) + 1) % 4)
    screen = host.session.screen(seat)
    assert screen.showing is Showing.WAIT and screen.prompt is not None and not screen.prompt.legal
    assert [tile for tile, _ in screen.view.waits] == [tile_from_str("5s")]
    assert screen.ready_discards == ()  # not its own discard
    assert [a.kind for a in screen.declarations] == [Kind.MIJI]  # 眼牌 in its Miji window
    assert not screen.showing.playing or screen.declarations  # the DM's 眼牌 button


def test_a_seat_played_by_the_table_sees_take_back_and_no_prompt():
    host = started(people=(ALICE, BOB))
    host.feed(ins.PlayerLeft(ALICE))
    screen = host.session.screen(host.seat(ALICE))
    assert screen.showing is Showing.AUTO and screen.take_back
    assert screen.prompt is None and screen.declarations == () and screen.ready_discards == ()
    assert host.session.screen(host.seat(BOB)).showing in (Showing.PROMPT, Showing.WAIT)


def test_at_an_exchange_table_the_seat_is_shown_the_exchange_not_a_prompt():
    host = started(options=TableOptions(exchange=True))
    screen = host.session.screen(host.seat(ALICE))
    assert screen.showing is Showing.EXCHANGE and screen.prompt is None  # hundreds of choices: not asked
    assert screen.showing.playing and len(screen.view.concealed) + (screen.view.drawn is not None) >= 16


def test_a_hand_over_shows_its_result_and_take_back_only_to_a_seat_played_for_with_a_hand_to_come():
    host = started(people=(ALICE, BOB), rounds=2)
    host.feed(ins.PlayerLeft(BOB))
    host.until_settled(playing=(ALICE,))
    alice, bob = host.session.screen(host.seat(ALICE)), host.session.screen(host.seat(BOB))
    for screen in (alice, bob):
        assert screen.showing is Showing.HAND_OVER and screen.hand_over and screen.result is not None
        assert screen.declarations == () and screen.prompt is None
    assert bob.take_back and not alice.take_back
    assert len(alice.view.revealed) == 4  # every hand face up once it is over


def test_a_match_ended_by_its_host_says_so_with_no_buttons():
    host = started()
    host.feed(ins.Shut())
    screen = host.session.screen(host.seat(ALICE))
    assert screen.showing is Showing.MATCH_OVER and not screen.take_back and screen.declarations == ()


def test_a_screen_is_a_value_the_next_move_does_not_change():
    host = started()
    seat = host.seat(ALICE)
    host.until_owes(ALICE)
    before = host.session.screen(seat)
    decision, seen = before.decision, before.event_count
    host.click(ALICE)
    after = host.session.screen(seat)
    assert after.decision != decision and after.event_count > seen
    assert (before.decision, before.event_count, before.showing) == (decision, seen, Showing.PROMPT)
    with pytest.raises(FrozenInstanceError):
        before.seat = 0  # type: ignore[misc]


# ---------------------------------------------------------------------- the channel, the lobby


def test_the_channels_table_shows_the_public_view_and_a_settled_hands_result():
    host = started()
    table = host.session.screen(TABLE)
    assert isinstance(table, TableScreen) and table.view is not None and table.view.viewer is None
    assert table.view.concealed == () and table.view.revealed == {} and table.result is None and not table.over
    assert table.names == tuple(host.session.seating.names()) and table.hand_number == 1
    host.until_settled()
    settled = host.session.screen(PUBLIC)  # the public viewer is the channel's table
    assert isinstance(settled, TableScreen) and settled.result is not None and len(settled.view.revealed) == 4  # type: ignore[union-attr]
    assert settled.scores == tuple(host.session.match.scores)  # type: ignore[union-attr]


def test_before_the_first_deal_the_table_has_no_hand_and_the_lobby_lists_its_seats():
    host = seated(people=(ALICE, BOB))
    assert host.session.screen(TABLE).view is None
    lobby = host.session.screen(LOBBY)
    assert isinstance(lobby, LobbyScreen) and [s.name for s in lobby.seats] == [f"p{ALICE}", f"p{BOB}"]
    host.feed(ins.AddAi())
    assert len(lobby.seats) == 2 and len(host.session.screen(LOBBY).seats) == 3  # a value, taken when asked


# ---------------------------------------------------------------------- spectators


def finished(host: Host, hands: int) -> None:
    match = host.session.match
    assert match is not None
    host.run_until(lambda h: len(match.history) >= hands and h.session.result is not None)


def test_a_delayed_spectator_sees_nothing_of_the_hand_in_play_and_each_hand_face_up_once_over():
    host = started(spectators="delayed", rounds=2)
    screen = host.session.screen(SPECTATOR)
    assert isinstance(screen, SpectatorScreen) and screen.viewer == DELAYED and screen.watchable
    assert screen.view is None and screen.revealable == 0
    finished(host, 1)
    screen = host.session.screen(SPECTATOR)
    assert screen.view is None and [hand.number for hand in screen.hands] == [1]
    hand = screen.hands[0]
    record = host.session.match.history[0]  # type: ignore[union-attr]
    assert hand.dealer == record.dealer and hand.moves == record.log[: len(hand.moves)]
    assert Game.replay(hand.header, list(hand.moves)).is_over  # the hand, played to its end
    assert host.session.screen(DELAYED) == screen  # the delayed viewer, asked by name


def test_a_public_spectator_sees_the_channels_view_and_no_hand_face_up_until_the_match_ends():
    host = started(rounds=2)
    finished(host, 1)
    screen = host.session.screen(SPECTATOR)
    assert screen.viewer == PUBLIC and screen.hands == () and screen.view is not None
    host.session.close()  # a shutdown: the match goes on elsewhere, nothing more may be seen
    assert host.session.screen(SPECTATOR).hands == () and host.session.screen(SPECTATOR).closed
    host.feed(ins.Shut())  # the host ends it: every finished hand may be seen
    ended = host.session.screen(SPECTATOR)
    assert ended.ended and ended.revealable == len(host.session.match.history)  # type: ignore[union-attr]


def test_a_table_without_spectators_has_no_spectator_viewer_and_a_lobby_nothing_to_watch():
    assert started(spectators="off").session.screen(SPECTATOR).viewer is None
    assert not seated().session.screen(SPECTATOR).watchable


@pytest.mark.parametrize(("who", "kind"), [(Viewer.at(0), HandScreen), (PUBLIC, TableScreen), (DELAYED, SpectatorScreen)])
def test_a_viewer_as_the_visibility_rule_names_them_gets_their_screen(who, kind):
    assert isinstance(started().session.screen(who), kind)


def test_a_seats_feed_holds_the_others_public_moves_and_none_of_their_draws():
    host = started()
    seat = host.seat(ALICE)
    host.run_until(lambda h: len(h.session.screen(seat).moves) >= 8)
    screen = host.session.screen(seat)
    assert all(m.event.seat != seat and not m.event.private for m in screen.moves)
    assert all(m.event.kind is not EventKind.DRAW for m in screen.moves)
    assert [m.index for m in screen.moves] == sorted(m.index for m in screen.moves) and screen.event_count > 8
