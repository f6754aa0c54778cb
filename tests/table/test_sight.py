"""Who sees what, viewer by viewer, over a hand and a match (table/visibility.py through the session's
``view`` and ``sight``): a seat its own concealed tiles and no one else's, the public none, a delayed
spectator nothing until the match is over, everyone everything after it; a seat's waits only where the
table's hints are on."""

from __future__ import annotations

from engine.analysis import best_discards
from engine.tiles import tile_to_str
from table import effects as fx
from table import inputs as ins
from table.visibility import DELAYED, PUBLIC, Sight, Viewer

from .transcript import ALICE, BOB, Host, started

SEATS = [Viewer.at(s) for s in range(4)]
READY_EARLY = 3  # key 3: ALICE, discarding toward ready, is ready (聽) within hand 1


def step(host: Host) -> None:
    """One tick, then the clock to the wake-up it asked for."""
    out = host.tick()
    wakes = [e.at for e in out if isinstance(e, fx.WakeAt)]
    if wakes:
        host.now = max(host.now, min(wakes))


def assert_hidden_while_played(host: Host) -> None:
    """The rule at one moment of a hand in play (no 眼牌 declared)."""
    for viewer in SEATS:
        view = host.session.view(viewer)
        assert view is not None and view.viewer == viewer.seat
        assert view.revealed == {} and view.others == {}
        assert len(view.concealed) + (view.drawn is not None) == view.seats[viewer.seat].concealed_count  # type: ignore[index]
    public = host.session.view(PUBLIC)
    assert public is not None and public.viewer is None
    assert (public.concealed, public.drawn, public.waits, public.revealed) == ((), None, (), {})
    assert host.session.view(DELAYED) is None


def test_over_a_whole_hand_each_seat_sees_only_its_own_tiles_and_the_public_none():
    host = started(people=(ALICE, BOB))
    host.feed(ins.PlayerLeft(ALICE))
    host.feed(ins.PlayerLeft(BOB))
    moments = 0
    while not host.public().phase == "over":
        assert_hidden_while_played(host)
        moments += 1
        step(host)
    assert moments > 50


def test_a_seat_sees_its_own_concealed_tiles():
    host = started()
    view = host.view(ALICE)
    assert view is not None and view.viewer == host.seat(ALICE) and len(view.concealed) >= 16


def test_a_person_not_at_the_table_sees_the_public_view():
    host = started()
    view = host.view(99)
    assert view is not None and view.viewer is None and view.concealed == ()


def test_a_delayed_spectator_sees_nothing_of_a_hand_in_play_nor_of_one_just_over():
    host = started()
    assert host.session.view(DELAYED) is None and not host.session.sight(DELAYED).live
    host.until_settled()
    assert host.session.view(DELAYED) is None  # between hands too: the match is still played


def test_a_finished_hand_is_revealed_to_the_whole_table():
    host = started()
    host.until_settled()
    public = host.public()
    assert sorted(public.revealed) == [0, 1, 2, 3] and all(public.revealed.values())
    assert host.view(ALICE).revealed == public.revealed  # type: ignore[union-attr]


def test_while_the_match_is_played_no_viewer_may_see_its_secrets():
    host = started()
    seat = host.seat(ALICE)
    assert host.session.sight(Viewer.at(seat)) == Sight(live=True, seat=seat, finished_hands=True, secrets=False)
    assert host.session.sight(PUBLIC) == Sight(live=True, seat=None, finished_hands=False, secrets=False)
    assert host.session.sight(DELAYED) == Sight(live=False, seat=None, finished_hands=True, secrets=False)


def test_once_the_match_is_over_everyone_sees_everything():
    host = started("taiwan13", seed=5)
    host.until_settled(playing=(ALICE,))
    host.feed(ins.PlayerLeft(ALICE))
    host.tick()  # 中断连线 between hands: the table ends as the next hand is dealt
    for viewer in [*SEATS, PUBLIC, DELAYED]:
        assert host.session.sight(viewer) == Sight(live=True, seat=viewer.seat, finished_hands=True, secrets=True)
    delayed = host.session.view(DELAYED)
    assert delayed is not None and delayed.viewer is None  # the delayed spectator may now see the table


def test_a_table_its_host_closed_is_over_for_every_viewer():
    host = started()
    host.feed(ins.Shut())
    assert host.session.sight(PUBLIC).secrets and host.session.sight(DELAYED).live


def test_a_table_the_bot_stops_running_here_is_not_over_for_any_viewer():
    """Close is a shutdown, or the table moving to another process: the match goes on there, so what a
    viewer may see stays what it was (a public spectator no finished hand face up, a delayed one nothing
    of the hand in play, nobody the key)."""
    host = started()
    host.until_settled()
    host.tick()  # hand 2 is dealt
    assert host.feed(ins.Close()) == []
    assert host.session.sight(PUBLIC) == Sight(live=True, seat=None, finished_hands=False, secrets=False)
    assert host.session.sight(DELAYED).live is False and host.session.view(DELAYED) is None
    assert not host.session.sight(Viewer.at(host.seat(ALICE))).secrets


# ------------------------------------------------------------------ hints


def shaping_code(host: Host) -> str:
    """ALICE's button as a player who builds her hand picks it: the discard that leaves the fewest tiles
    from ready (and 過 to every claim, so her hand stays all concealed)."""
    view = host.view(ALICE)
    assert view is not None
    if view.phase != "turn":
        return "s"
    counts = [0] * 34
    for tile in (*view.concealed, *(() if view.drawn is None else (view.drawn,))):
        counts[tile] += 1
    _, discards = best_discards(counts)
    return "d" + tile_to_str(discards[0])


def lockstep_until_ready() -> tuple[Host, Host]:
    """Two tables dealt from one key and played alike, one with hints and one without, up to the first
    moment ALICE's hand is ready (聽: it has waits) in the table with hints."""
    hinted, plain = started(seed=READY_EARLY, hints=True), started(seed=READY_EARLY, hints=False)
    for _ in range(1000):
        view = hinted.view(ALICE)
        assert view is not None and view.phase != "over", "no ready hand in this deal"
        if view.waits:
            return hinted, plain
        if hinted.owes(ALICE):
            code = shaping_code(hinted)
            hinted.click(ALICE, code)
            plain.click(ALICE, code, at=hinted.now)
        else:
            step(hinted)
            plain.tick(at=hinted.now)
            plain.now = hinted.now
    raise AssertionError("no ready hand")


def test_a_ready_seat_sees_its_waits_where_the_tables_hints_are_on():
    hinted, _ = lockstep_until_ready()
    view = hinted.view(ALICE)
    assert view is not None and all(count >= 0 for _, count in view.waits)


def test_a_ready_seat_sees_no_waits_where_the_tables_hints_are_off():
    hinted, plain = lockstep_until_ready()
    with_hints, without = hinted.view(ALICE), plain.view(ALICE)
    assert with_hints is not None and without is not None
    assert without.concealed == with_hints.concealed  # the same hand at the same moment
    assert with_hints.waits and without.waits == ()


def test_the_public_never_sees_a_seats_waits():
    hinted, _ = lockstep_until_ready()
    assert hinted.view(ALICE).waits  # type: ignore[union-attr]
    assert hinted.public().waits == () and hinted.public().concealed == ()
