"""Tournament rounds: Swiss seating, duplicate scores and standings (ranking.swiss, .duplicate, .standings)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranking.duplicate import duplicate_scores
from ranking.standings import RoundResult, standings
from ranking.swiss import pairs_of, repeat_pairs, seat_round


def play_rounds(entrants: int, rounds: int, seed: int, *, ai_seats: bool = True):
    """Seat ``rounds`` rounds, each standing drawn at random (as results would reorder it)."""
    rng = random.Random(seed)
    people = list(range(1, entrants + 1))
    met: set = set()
    byes: list[int] = []
    seatings = []
    standing = people
    for number in range(1, rounds + 1):
        seating = seat_round(standing, met=met, seed=seed * 100 + number, number=number, ai_seats=ai_seats,
                             had_bye=byes)  # fmt: skip
        seatings.append(seating)
        met |= pairs_of(seating.tables)
        byes += seating.byes
        standing = rng.sample(people, len(people))
    return seatings


@pytest.mark.parametrize("seed", range(5))
def test_thirty_two_entrants_meet_nobody_twice_in_three_rounds(seed):
    seatings = play_rounds(32, 3, seed)
    tables = [t for s in seatings for t in s.tables]
    assert len(tables) == 24 and all(len(t) == 4 and None not in t for t in tables)
    assert repeat_pairs(tables) == 0


def test_eight_entrants_repeat_only_what_two_tables_force():
    seatings = play_rounds(8, 2, 3)
    assert repeat_pairs([t for s in seatings for t in s.tables]) == 4  # 2 of each old table at each new one


@settings(max_examples=60, deadline=None)
@given(entrants=st.integers(4, 41), rounds=st.integers(1, 4), seed=st.integers(0, 10**6), ai=st.booleans())
def test_every_entrant_plays_or_sits_out_exactly_once_a_round(entrants, rounds, seed, ai):
    for seating in play_rounds(entrants, rounds, seed, ai_seats=ai):
        seated = [p for t in seating.tables for p in t if p is not None]
        assert sorted(seated + list(seating.byes)) == list(range(1, entrants + 1))
        assert all(len(t) == 4 for t in seating.tables)
        if ai:
            assert not seating.byes
            if entrants >= 12:  # enough tables: never two AI seats at one table
                assert all(t.count(None) <= 1 for t in seating.tables)
        else:
            assert None not in [p for t in seating.tables for p in t]
            assert len(seating.byes) == entrants % 4


def test_byes_go_round_before_anyone_sits_out_twice():
    seatings = play_rounds(9, 4, 11, ai_seats=False)
    byes = [p for s in seatings for p in s.byes]
    assert len(byes) == 4 and len(set(byes)) == 4


def test_round_one_is_drawn_from_the_seed_and_the_same_seed_draws_the_same():
    people = list(range(1, 17))
    one = seat_round(people, met=set(), seed=5, number=1)
    assert one == seat_round(
        list(reversed(people)), met=set(), seed=5, number=1
    )  # the order given is no input
    assert one != seat_round(people, met=set(), seed=6, number=1)


def test_later_rounds_seat_by_standing():
    standing = list(range(1, 17))
    seating = seat_round(standing, met=set(), seed=1, number=2)
    assert sorted(sorted(t) for t in seating.tables) == [
        [1, 2, 3, 4],
        [5, 6, 7, 8],
        [9, 10, 11, 12],
        [13, 14, 15, 16],
    ]


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, 8).flatmap(
        lambda n: st.lists(
            st.lists(st.integers(-500, 500), min_size=3, max_size=3).map(lambda x: [*x, -sum(x)]),
            min_size=n,
            max_size=n,
        )
    )
)
def test_duplicate_scores_of_a_seat_sum_to_zero_over_the_round(points):  # fmt: skip
    scores = duplicate_scores(points)
    for seat in range(4):
        assert abs(sum(table[seat] for table in scores)) < 1e-6
    if all(table == points[0] for table in points):  # the same result everywhere: nobody gained on the field
        assert all(abs(x) < 1e-9 for table in scores for x in table)


def test_duplicate_score_is_points_less_the_other_tables_mean_for_that_seat():
    scores = duplicate_scores([[90, -30, -30, -30], [30, 30, -30, -30], [0, 0, 0, 0]])
    assert scores[0][0] == 90 - (30 + 0) / 2 and scores[2][1] == 0 - (-30 + 30) / 2


def test_standings_rank_by_duplicate_then_points_placements_and_first_places():
    results = [
        RoundResult(1, points=10, duplicate=5.0, place=2), RoundResult(1, points=10, duplicate=0.0, place=2),
        RoundResult(2, points=20, duplicate=5.0, place=1), RoundResult(2, points=0, duplicate=0.0, place=3),
        RoundResult(3, points=20, duplicate=5.0, place=1), RoundResult(3, points=0, duplicate=0.0, place=4),
        RoundResult(5, points=30, duplicate=5.0, place=2), RoundResult(5, points=-10, duplicate=0.0, place=3),
        RoundResult(4, points=0, duplicate=0.0, place=None), RoundResult(4, points=90, duplicate=4.0, place=1),
    ]  # fmt: skip
    table = standings(results, duplicate=True)
    # all but 4 have duplicate 5; 2 and 1 tie on points (20) and placements (4), 2 has a first place;
    # 3 and 5 have 20 points too and placements 5 each, and 3 has a first place
    assert [s.entrant for s in table] == [2, 1, 3, 5, 4]
    assert [s.rank for s in table] == [1, 2, 3, 4, 5]
    assert table[-1].places == [1] and table[-1].rounds == 2  # the bye is a round without a place
    assert [s.entrant for s in standings(results, duplicate=False)][0] == 4  # by points: 90
