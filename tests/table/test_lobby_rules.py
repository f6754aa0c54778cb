"""The lobby and the start of a match, as transcripts: each input fed through ``TableSession.handle`` on a
fake clock, the effects it hands back and what the lobby then holds."""

from __future__ import annotations

from dataclasses import replace

from engine import fairness
from table import effects as fx
from table import inputs as ins
from table.lobby import TablePhase
from table.visibility import PUBLIC, Viewer

from .transcript import ALICE, BOB, CAROL, DAVE, STRANGER, Host, key, kinds, only, seated, started

LOBBY_CHANGED = [fx.StoreSeats, fx.ShowLobby]


def names(host: Host) -> list[str]:
    return [s.name for s in host.session.state.seats]


# ------------------------------------------------------------------ joining and leaving


def test_a_new_lobby_is_stored_with_its_settings_and_shown():
    host = seated(people=())
    assert kinds(host.feed(ins.Opened())) == [fx.StoreOptions, *LOBBY_CHANGED]


def test_joining_seats_the_person_and_the_lobby_is_stored_and_shown():
    host = seated(people=())
    assert kinds(host.feed(ins.Join(BOB, "Bob", locale="zh-TW"))) == LOBBY_CHANGED
    (bob,) = host.session.state.seats
    assert (bob.user_id, bob.name, bob.locale, bob.is_ai) == (BOB, "Bob", "zh-TW", False)


def test_a_person_joining_twice_is_seated_once():
    host = seated(people=(ALICE, BOB))
    host.feed(ins.Join(BOB, "Bob again"))
    assert [s.user_id for s in host.session.state.seats] == [ALICE, BOB]
    assert names(host) == [f"p{ALICE}", f"p{BOB}"]  # the first join's name stands


def test_a_full_table_refuses_a_fifth_person_and_nothing_changes():
    host = seated(people=(ALICE, BOB, CAROL, DAVE))
    assert host.refused(ins.Join(STRANGER, "Eve")) == "err.table_full"
    assert len(host.session.state.seats) == 4 and host.session.state.seat_of(STRANGER) is None


def test_a_full_table_refuses_another_ai():
    host = seated(people=(ALICE, BOB, CAROL))
    host.feed(ins.AddAi())
    assert host.refused(ins.AddAi()) == "err.table_full"


def test_a_locked_lobby_seats_the_person_with_the_right_password():
    host = seated(people=(), password="2468")
    assert kinds(host.feed(ins.Join(BOB, "Bob", "2468"))) == LOBBY_CHANGED
    assert host.session.state.seat_of(BOB) == 0


def test_a_locked_lobby_refuses_a_wrong_or_missing_password_and_nothing_changes():
    host = seated(people=(), password="2468")
    assert host.refused(ins.Join(BOB, "Bob", "1357")) == "err.wrong_password"
    assert host.refused(ins.Join(BOB, "Bob")) == "err.wrong_password"
    assert host.session.state.seats == []


def test_the_host_joins_their_own_locked_lobby_without_the_password():
    host = seated(people=(), password="2468")
    host.feed(ins.Join(ALICE, "Ann"))  # ALICE hosts the table (transcript.HOST)
    assert host.session.state.seat_of(ALICE) == 0


def test_leaving_the_lobby_frees_the_seat_for_someone_else():
    host = seated(people=(ALICE, BOB, CAROL, DAVE))
    assert kinds(host.feed(ins.Leave(CAROL))) == LOBBY_CHANGED
    assert host.session.state.seat_of(CAROL) is None
    host.feed(ins.Join(STRANGER, "Eve"))
    assert [s.user_id for s in host.session.state.seats] == [ALICE, BOB, DAVE, STRANGER]


def test_leaving_a_lobby_one_is_not_seated_at_is_refused():
    host = seated(people=(ALICE,))
    assert host.refused(ins.Leave(BOB)) == "err.not_seated"


def test_leaving_through_the_lobby_once_the_match_is_on_is_refused():
    host = started(people=(ALICE, BOB))
    assert host.refused(ins.Leave(BOB)) == "err.not_lobby"  # a match is left with PlayerLeft
    assert host.session.viewer(BOB).seat is not None


def test_the_host_or_a_server_manager_may_manage_the_table_and_nobody_else():
    state = seated(people=(ALICE, BOB)).session.state
    assert state.may_manage(ALICE)
    assert not state.may_manage(BOB)
    assert state.may_manage(BOB, manage_guild=True)


# ------------------------------------------------------------------ AI seats


def test_ai_seats_are_numbered_and_removing_takes_the_last_one():
    host = seated(people=(ALICE,))
    assert kinds(host.feed(ins.AddAi("easy"))) == LOBBY_CHANGED
    host.feed(ins.AddAi("strong"))
    assert names(host) == ["p10", "AI 1", "AI 2"]
    assert [s.ai_level for s in host.session.state.seats] == [None, "easy", "strong"]
    assert kinds(host.feed(ins.RemoveAi())) == LOBBY_CHANGED
    assert names(host) == ["p10", "AI 1"]
    host.feed(ins.AddAi())
    assert names(host) == ["p10", "AI 1", "AI 2"]  # the next number after the highest left


def test_removing_an_ai_where_there_is_none_is_refused():
    host = seated(people=(ALICE, BOB))
    assert host.refused(ins.RemoveAi()) == "err.no_ai_seat"


def test_ai_seats_change_only_in_the_lobby():
    host = started()
    assert host.refused(ins.AddAi()) == "err.not_lobby"
    assert host.refused(ins.RemoveAi()) == "err.not_lobby"


# ------------------------------------------------------------------ settings


def test_a_setting_changed_in_the_lobby_is_stored_and_shown():
    host = seated()
    out = host.feed(ins.SetSettings(replace(host.session.state.settings, pace="fast", hints=False)))
    assert kinds(out) == [fx.StoreOptions, *LOBBY_CHANGED]
    assert host.session.state.settings.pace == "fast" and not host.session.state.settings.hints


def test_settings_are_refused_once_the_seats_are_open():
    host = seated()
    host.feed(ins.OpenSeats())
    before = host.session.state.settings
    assert host.refused(ins.SetSettings(replace(before, pace="slow"))) == "err.not_lobby"
    assert host.session.state.settings is before


def test_settings_are_refused_during_a_match():
    host = started()
    assert host.refused(ins.SetSettings(replace(host.session.state.settings, rounds=2))) == "err.not_lobby"


def test_joining_is_refused_once_the_match_is_on():
    host = started()
    assert host.refused(ins.Join(BOB, "Bob")) == "err.not_lobby"


# ------------------------------------------------------------------ opening the seats and starting


def test_opening_the_seats_needs_a_person():
    host = seated(people=())
    host.feed(ins.AddAi())
    assert host.refused(ins.OpenSeats()) == "err.need_human"
    assert host.session.state.phase is TablePhase.LOBBY


def test_a_rated_table_opens_only_with_four_people():
    host = seated(people=(ALICE, BOB, CAROL), ranking="rated")
    assert host.refused(ins.OpenSeats()) == "err.rated_needs_four"
    host.feed(ins.Join(DAVE, "Dave"))
    assert kinds(host.feed(ins.OpenSeats())) == LOBBY_CHANGED


def test_opening_the_seats_fills_the_empty_ones_with_ai_and_closes_the_lobby():
    host = seated(people=(ALICE, BOB))
    assert kinds(host.feed(ins.OpenSeats())) == LOBBY_CHANGED
    state = host.session.state
    assert state.phase is TablePhase.PLAYING and [s.is_ai for s in state.seats] == [False, False, True, True]


def test_starting_before_the_seats_are_open_is_refused():
    host = seated()
    assert host.refused(ins.Start(key(3))) == "err.not_lobby"
    assert host.session.view(PUBLIC) is None


def test_the_start_stores_the_match_shows_its_commitment_and_deals():
    host = seated(people=(ALICE,))
    host.feed(ins.OpenSeats())
    out = host.feed(ins.Start(key(3)))
    assert kinds(out) == [fx.StoreOptions, fx.StoreMatch, fx.MatchStarted, fx.NewHand, fx.StoreHand, fx.Deal]
    (started_,) = only(out, fx.MatchStarted)
    assert started_.commitment == fairness.commitment(key(3))
    assert key(3).hex() not in started_.commitment  # the channel learns the hash, never the key
    (stored,) = only(out, fx.StoreMatch)
    assert stored.header["key"] == key(3).hex()  # the table's own record holds it (a secret until the end)
    (hand,) = only(out, fx.StoreHand)
    assert hand.number == 1 and host.public().hand_number == 1


def test_the_deal_is_shown_to_the_table_and_every_person_once_its_messages_are_out():
    host = seated(people=(ALICE, BOB))
    host.feed(ins.OpenSeats())
    host.feed(ins.Start(key(3)))
    out = host.feed(ins.Dealt())
    version = host.session.version
    assert out[0] == fx.ShowTable(version)
    assert only(out, fx.ShowHand) == [fx.ShowHand(s, version) for s in sorted({host.seat(ALICE), host.seat(BOB)})]


def test_the_seat_draw_seats_each_person_once_and_follows_the_key():
    def seats(seed: int) -> tuple[int, ...]:
        host = started(people=(ALICE, BOB, CAROL), seed=seed)
        return tuple(host.seat(user) for user in (ALICE, BOB, CAROL))

    first = seats(3)
    assert len(set(first)) == 3  # three different seats
    assert seats(3) == first  # the same key draws the same seats
    assert any(seats(seed) != first for seed in range(4, 12))  # and another key others
    assert started(people=(ALICE,)).session.viewer(STRANGER) is PUBLIC  # nobody else has a seat


def test_at_taiwan13_the_tables_owner_sits_east_and_deals_first():
    for seed in range(3, 8):  # whatever the draw, the first dealer is the owner (player 0: the first to join)
        host = started("taiwan13", people=(ALICE, BOB), seed=seed)
        view = host.public()
        assert view.dealer == host.seat(ALICE) and view.seats[view.dealer].wind == 0


def test_one_match_per_table():
    host = started()
    view = host.public()
    assert host.refused(ins.Start(key(4))) == "err.not_lobby"
    assert host.public() == view  # still the first hand of the first match


def test_the_key_is_revealed_when_the_match_is_over_and_matches_the_commitment():
    host = started("taiwan13", people=(ALICE,), seed=5)
    (commitment,) = [e.commitment for e in only(host.effects, fx.MatchStarted)]
    out = host.feed(ins.PlayerLeft(ALICE))  # 中断连线: the quickest way to the end of a match
    (over,) = only(out, fx.MatchOver)
    assert over.key == key(5).hex() and fairness.commitment(bytes.fromhex(over.key)) == commitment
    assert host.session.sight(Viewer.at(0)).secrets and host.session.sight(PUBLIC).secrets


def test_a_finished_table_starts_no_second_match():
    host = started("taiwan13", seed=5)
    host.feed(ins.PlayerLeft(ALICE))  # the match is over
    assert host.refused(ins.Start(key(6))) == "err.not_lobby"
    assert host.refused(ins.OpenSeats()) == "err.not_lobby"
