"""A tournament's rules as a value (table.tournament): keys, rounds, standings, drops."""

from __future__ import annotations

import pytest

from engine import fairness
from table.tournament import Tournament

KEY = bytes(range(32))


def play_round(t: Tournament, points_of=lambda n, table: [30, -10, -10, -10]) -> None:
    seating = t.seat_next_round()
    for index, _ in enumerate(seating.tables):
        t.record(t.current, index, points_of(t.current, index))


def test_tables_of_a_duplicate_round_share_one_key_and_other_rounds_and_plain_tables_do_not():
    dup = Tournament(key=KEY, entrants=tuple(range(1, 13)), rounds=2, duplicate=True)
    plain = Tournament(key=KEY, entrants=tuple(range(1, 13)), rounds=2)
    dup.seat_next_round()
    plain.seat_next_round()
    assert dup.table_key(1, 0) == dup.table_key(1, 2) != dup.table_key(2, 0)
    assert len({plain.table_key(1, n) for n in range(3)}) == 3
    assert KEY not in {dup.table_key(1, 0), plain.table_key(1, 0)} and len(dup.table_key(1, 0)) == fairness.KEY_BYTES
    assert dup.commitment == fairness.commitment(KEY)


def test_a_duplicate_tables_key_shows_only_once_the_whole_round_is_over():
    t = Tournament(key=KEY, entrants=tuple(range(1, 9)), rounds=1, duplicate=True)
    t.seat_next_round()
    t.record(1, 0, [10, -10, 0, 0])
    assert not t.key_may_show(1)  # table 1 still plays the walls table 0 was dealt
    t.record(1, 1, [0, 0, 0, 0])
    assert t.key_may_show(1) and t.is_over
    assert Tournament(key=KEY, entrants=tuple(range(1, 9)), rounds=1).key_may_show(1) is True


def test_the_next_round_waits_for_every_table_and_the_last_round_ends_it():
    t = Tournament(key=KEY, entrants=tuple(range(1, 9)), rounds=2)
    t.seat_next_round()
    t.record(1, 0, [0, 0, 0, 0])
    with pytest.raises(ValueError, match="still being played"):
        t.seat_next_round()
    t.record(1, 1, [0, 0, 0, 0])
    play_round(t)
    with pytest.raises(ValueError, match="over"):
        t.seat_next_round()


def test_standings_sum_every_round_and_the_second_round_seats_by_them():
    t = Tournament(key=KEY, entrants=tuple(range(1, 17)), rounds=2)
    play_round(t, lambda n, table: [40 - 10 * table, 0, 0, -(40 - 10 * table)])
    leaders = {s.entrant for s in t.standings()[:4]}
    second = t.seat_next_round()
    assert leaders & set(second.tables[0]), "the top table takes the leaders"
    firsts = [table[0] for table in t.seatings[0].tables]
    assert t.standings()[0].entrant == firsts[0] and t.standings()[0].points == 40


def test_a_dropped_entrant_is_seated_no_more():
    t = Tournament(key=KEY, entrants=tuple(range(1, 9)), rounds=2, ai_seats=True)
    play_round(t)
    t.dropped.add(3)
    second = t.seat_next_round()
    assert 3 not in [p for table in second.tables for p in table] and sum(table.count(None) for table in second.tables) == 1


def test_a_tables_stored_scores_by_seat_are_put_back_in_the_rounds_seat_order():
    """The match seats its players by a draw from its key: points_of undoes it, so every duplicate table
    compares the same tournament seat (the same draw, the same walls)."""
    from engine.match import Match

    t = Tournament(key=KEY, entrants=tuple(range(1, 9)), rounds=1, duplicate=True)
    t.seat_next_round()
    seat_of = Match("taiwan16", key=t.table_key(1, 0)).seat_of_player
    by_seat = [0, 0, 0, 0]
    for player, points in enumerate([40, 10, -20, -30]):
        by_seat[seat_of[player]] = points
    assert t.points_of(1, 0, by_seat, "taiwan16") == [40, 10, -20, -30]
