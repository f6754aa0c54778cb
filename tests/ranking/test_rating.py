"""Ratings from placements, against openskill's own Plackett–Luce figures; ties; provisional players;
AI seats; which tables are rated; placements with a leaver; tiers."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from ranking import RANKINGS, is_rated
from ranking.places import placements
from ranking.rating import AI_RATINGS, PROVISIONAL_MATCHES, Rating, ai_rating, new_rating, rate, shown
from ranking.tiers import FLOORS, TIERS, tier


def flat(pairs) -> list[float]:
    return [x for pair in pairs for x in pair]


def library(ratings: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """What openskill itself says, called the way its documentation shows."""
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    return [(team[0].mu, team[0].sigma) for team in model.rate(teams, ranks=ranks)]


def test_new_players_move_as_the_library_says_for_a_clear_finishing_order() -> None:
    after = rate([new_rating()] * 4, [1, 2, 3, 4])
    expected = library([(25.0, 25 / 3)] * 4, [1, 2, 3, 4])
    assert flat((r.mu, r.sigma) for r in after) == pytest.approx(flat(expected))
    # the figures openskill 6.2.0 gives (pinned: a library upgrade that changes them is seen here)
    assert [r.mu for r in after] == pytest.approx([27.795252672, 26.552918151, 24.689416370, 20.962412806])
    assert [r.matches for r in after] == [1, 1, 1, 1]


def test_known_ratings_move_as_the_library_says() -> None:
    before = [Rating(31.2, 3.1, 20), Rating(24.0, 5.5, 8), Rating(19.5, 2.4, 40), Rating(25.0, 25 / 3, 0)]
    after = rate(before, [3, 1, 4, 2])
    expected = library([(r.mu, r.sigma) for r in before], [3, 1, 4, 2])
    assert flat((r.mu, r.sigma) for r in after) == pytest.approx(flat(expected))
    assert [r.matches for r in after] == [21, 9, 41, 1]


def test_a_tie_is_a_tie_for_equal_players() -> None:
    after = rate([new_rating()] * 4, [1, 2, 2, 4])
    assert (after[1].mu, after[1].sigma) == pytest.approx((after[2].mu, after[2].sigma))
    assert flat((r.mu, r.sigma) for r in after) == pytest.approx(flat(library([(25.0, 25 / 3)] * 4, [1, 2, 2, 4])))
    assert after[0].mu > after[1].mu > after[3].mu


def test_a_player_is_provisional_for_their_first_rated_matches() -> None:
    rating = new_rating()
    seen = []
    for _ in range(PROVISIONAL_MATCHES + 1):
        seen.append(rating.provisional)
        rating = rate([rating, new_rating(), new_rating(), new_rating()], [1, 2, 3, 4])[0]
    assert seen == [True] * PROVISIONAL_MATCHES + [False]
    assert rating.matches == PROVISIONAL_MATCHES + 1


def test_ai_seats_keep_their_level_rating_and_people_move_against_it() -> None:
    strong = ai_rating("strong")
    before = [new_rating(), strong, ai_rating("easy"), ai_rating("normal")]
    after = rate(before, [1, 2, 3, 4], fixed=[False, True, True, True])
    assert after[1:] == before[1:]
    expected = library([(r.mu, r.sigma) for r in before], [1, 2, 3, 4])
    assert (after[0].mu, after[0].sigma) == pytest.approx(expected[0])
    assert (strong.mu, strong.sigma) == AI_RATINGS["strong"]
    assert AI_RATINGS["easy"][0] < AI_RATINGS["normal"][0] < AI_RATINGS["strong"][0]


def test_the_shown_rating_is_the_conservative_estimate_scaled() -> None:
    assert shown(new_rating()) == 1000
    assert shown(Rating(30.0, 2.0)) == 1000 + 40 * 24


def test_which_tables_are_rated() -> None:
    assert RANKINGS == ("casual", "rated", "rated_ai")
    assert [is_rated("casual", n) for n in (1, 4)] == [False, False]
    assert [is_rated("rated", n) for n in (1, 3, 4)] == [False, False, True]
    assert [is_rated("rated_ai", n) for n in (0, 1, 4)] == [False, True, True]
    assert not is_rated("rated", 3, seats=3)


def test_equal_scores_share_a_place_and_the_next_place_is_skipped() -> None:
    assert placements([100, 100, -50, -150]) == (1, 1, 3, 4)
    assert placements([0, 0, 0, 0]) == (1, 1, 1, 1)
    assert placements([-10, 30, 20, -40]) == (3, 1, 2, 4)


def test_taiwan13_leaver_is_placed_last_whatever_the_scores() -> None:
    assert placements([-300, 0, -50, 350], leaver=2) == (3, 2, 4, 1)
    assert placements([0, 0, -50, 0], leaver=2) == (1, 1, 4, 1)
    with pytest.raises(ValueError):
        placements([0, 0, 0, 0], leaver=4)


def test_tiers_climb_with_the_rating() -> None:
    assert TIERS == 8 and list(FLOORS) == sorted(FLOORS)
    assert [tier(f - 1) for f in FLOORS] == list(range(7))
    assert [tier(f) for f in FLOORS] == list(range(1, 8))
    assert tier(0) == 0 and tier(10_000) == 7
