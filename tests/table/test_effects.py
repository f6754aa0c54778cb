"""Every effect carries its content: what a host needs to carry one out (the stored seats and row, the
version to show, the seat draw, the standings) is in the effect, so it never reads the session back.
Each test checks an effect's fields against what the table holds at that moment."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.scoring import get_rules
from engine.summary import match_summary
from table import effects as fx
from table import inputs as ins
from table.lobby import Seat, TablePhase, TableState
from table.records import left_of, options_row, settings_options, state_of

from .transcript import ALICE, BOB, CAROL, TIMING, key, kinds, lobby, only, seated, started


def test_a_lobby_change_stores_the_seats_as_they_now_are_and_shows_that_version():
    host = seated(people=(ALICE,))
    out = host.feed(ins.Join(BOB, "Bob", locale="fr"))
    (stored,) = only(out, fx.StoreSeats)
    assert [(s.user_id, s.name, s.locale) for s in stored.seats] == [(ALICE, f"p{ALICE}", "en"), (BOB, "Bob", "fr")]
    assert only(out, fx.ShowLobby) == [fx.ShowLobby(host.session.version)]
    host.feed(ins.AddAi("strong"))
    assert host.effects[-2] == fx.StoreSeats(tuple(host.session.state.seats))  # a copy: later joins change not it
    assert len(stored.seats) == 2


def test_changed_settings_store_the_whole_options_row():
    host = seated(people=(ALICE,))
    settings = host.session.state.settings
    out = host.feed(ins.SetSettings(type(settings)(settings.rules, 2, hints=False, pace="slow")))
    (options,) = only(out, fx.StoreOptions)
    assert options.row["hints"] is False and options.row["pace"] == "slow" and options.row["left"] == []
    assert options.row == options_row(host.session.state, left=())


def test_a_closed_table_stores_its_phase():
    host = seated(people=(ALICE,))
    assert host.feed(ins.Shut()) == [fx.StorePhase(TablePhase.CLOSED.value)]


def test_the_match_start_carries_the_seat_draw_and_the_seats_to_store_and_deal_to():
    host = seated(people=(ALICE, BOB))
    host.feed(ins.OpenSeats())
    out = host.feed(ins.Start(key(3)))
    match, seating = host.session.match, host.session.seating
    assert match is not None
    (started_,) = only(out, fx.MatchStarted)
    assert started_.draw == fx.SeatDraw(tuple(seating.names()), match.first_dealer, tuple(match.dealer_dice))
    assert [started_.draw.wind(s) for s in range(4)] == [match.seat_wind(s) for s in range(4)]
    (stored,) = only(out, fx.StoreMatch)
    assert stored.seats == tuple(seating.by_seat) and stored.header == match.header()
    assert only(out, fx.NewHand) == [fx.NewHand(1)]
    assert only(out, fx.Deal) == [fx.Deal(1, tuple(seating.by_seat))]


def test_where_the_host_deals_first_the_seat_draw_has_no_dice():
    host = started("taiwan13", people=(ALICE, BOB), seed=5)
    (started_,) = only(host.effects, fx.MatchStarted)
    assert started_.draw.dice is None
    assert host.session.seating.by_seat[started_.draw.dealer].user_id == ALICE  # the table's owner deals


def test_every_show_carries_the_version_the_change_made():
    host = started(people=(ALICE, BOB))
    out = host.until_owes(ALICE)
    shows = only(out, fx.ShowTable) + only(out, fx.ShowHand)
    assert shows and all(0 < e.version <= host.session.version for e in shows)
    assert only(out, fx.ShowTable)[-1].version == host.session.version


def test_the_score_sheet_carries_the_names_the_revealed_hand_and_the_house_rules():
    host = started(people=(ALICE,))
    out = host.until_settled()
    (score,) = only(out, fx.ShowScore)
    assert score.names == tuple(host.session.seating.names())
    assert score.table == host.public()
    assert score.house_rules == host.session.state.settings.options.house_rules


def test_a_match_over_carries_its_standings_scores_summary_and_stakes():
    host = started("taiwan13", people=(ALICE, BOB), seed=5)
    out = host.feed(ins.PlayerLeft(ALICE))
    (over,) = only(out, fx.MatchOver)
    match = host.session.match
    assert match is not None
    assert over.standings == tuple(match.standings()) and over.scores == tuple(match.scores)
    assert over.standings[-1][0] == host.seat(ALICE)  # the leaver, placed last
    assert over.summary == match_summary(match) and over.hands == len(match.history)
    assert over.names == tuple(host.session.seating.names())
    assert over.unit == get_rules("taiwan13").unit and over.settings == host.session.state.settings
    assert over.key == key(5).hex() and over.rematch


def test_a_system_table_offers_no_rematch():
    host = started("taiwan13", people=(ALICE, BOB), seed=5)
    host.session.state.kind = "system"
    (over,) = only(host.feed(ins.PlayerLeft(ALICE)), fx.MatchOver)
    assert not over.rematch


def test_the_leaver_s_notice_names_them():
    host = started("taiwan13", people=(ALICE, BOB), seed=5)
    (notice,) = only(host.feed(ins.PlayerLeft(ALICE)), fx.Notice)
    assert notice.name == host.session.seating.by_seat[host.seat(ALICE)].name == f"p{ALICE}"


def test_a_table_told_to_play_so_many_hands_stays_idle_after_them():
    host = started(people=(ALICE,), timing=replace(TIMING, hands=1))
    host.until_settled()
    out = host.run_until(lambda h: h.tick() == [])
    assert only(out, fx.NewHand) == [] and host.session.match is not None and len(host.session.match.history) == 1
    assert kinds(host.tick(at=host.now + 3600)) == []


@dataclass(frozen=True)
class Row:
    """A stored table row, as data.TableRecord has it."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    rules: str
    rounds: int
    options: dict
    password_hash: str | None
    phase: str
    seats: tuple[Seat, ...]
    kind: str = "player"
    ranking: str = "casual"
    extra: dict = field(default_factory=dict)


def test_the_stored_row_reads_back_as_the_table_it_was():
    state = lobby("hongkong", pace="fast", spectators="delayed", theme="ocean")
    state.join(ALICE, "Ann", locale="fr")
    state.add_ai("easy")
    state.join(CAROL, "Cy", locale="zh-TW")
    state.locale, state.host_name = "en", "Ann"  # an AI seat reads back in the table's language
    row = options_row(state, left={CAROL})
    stored = Row(
        state.table_id, state.guild_id, state.channel_id, state.host_id, state.settings.rules,
        state.settings.rounds, row, None, state.phase.value, tuple(state.seats),
    )
    again = state_of(stored)
    assert again == state and left_of(stored) == {CAROL}
    assert settings_options(state.settings, "en").items() <= row.items()


def test_a_row_from_before_locales_were_stored_reads_with_the_table_s_language():
    row = {"table": {}, "locale": "zh-TW"}
    stored = Row(1, 9, 5, ALICE, "taiwan16", 1, row, None, "lobby", (Seat(ALICE, "Ann"),))
    state = state_of(stored)
    assert isinstance(state, TableState) and state.seats[0].locale == "zh-TW" and state.host_name == ""
    assert state.settings.theme == "felt"  # a row from before themes: the felt of before
    assert left_of(stored) == set() and BOB not in left_of(stored)


def test_a_row_that_never_stored_its_hints_reads_back_with_the_default_of_its_kind():
    """A 系統桌 shows no hints; a row written without the key (as 系統桌 rows were) must not read back with
    them on after a restart, and a casual player table's row still reads back with them on."""
    seats = (Seat(ALICE, "Ann"),)
    system = Row(1, 9, 5, ALICE, "taiwan16", 1, {"table": {}}, None, "playing", seats, kind="system")
    player = Row(2, 9, 5, ALICE, "taiwan16", 1, {"table": {}}, None, "playing", seats)
    rated = Row(3, 9, 5, ALICE, "taiwan16", 1, {"table": {}}, None, "playing", seats, ranking="rated")
    assert state_of(system).settings.hints is False
    assert state_of(player).settings.hints is True
    assert state_of(rated).settings.hints is False
    stored = Row(4, 9, 5, ALICE, "taiwan16", 1, {"table": {}, "hints": True}, None, "playing", seats, kind="system")
    assert state_of(stored).settings.hints is True  # what a row says wins over the default
