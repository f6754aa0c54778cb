"""Skill ratings from placements, with openskill's Plackett–Luce model (Weng & Lin 2011).

Plackett–Luce models a match as a finishing order of any number of players, so one four-player
placement updates all four at once (a pairwise Elo would count one match as six duels), with an
uncertainty (sigma) per player that shrinks as they play: a new player moves fast, a regular
slowly. Ties are ties (equal ranks). What we add on top, in one place:

- the shown rating is ``1000 + 40 × (mu − 3·sigma)`` rounded: 1000 for a new player, rising as the
  model becomes sure of a good player (the conservative "ordinal" every openskill leaderboard uses);
- a player is *provisional* for their first ``PROVISIONAL_MATCHES`` rated matches;
- an AI seat plays at a fixed rating for its level and is never updated.

    >>> new = new_rating()
    >>> shown(new), new.matches
    (1000, 0)
    >>> after = rate([new, new, new, new], [1, 2, 3, 4])
    >>> [shown(r) for r in after], after[0].matches
    ([1120, 1081, 1017, 868], 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # mu 25, sigma 25/3, beta 25/6: the library's defaults
PROVISIONAL_MATCHES = 5
BASE, SCALE = 1000, 40
# fixed ratings of AI seats by level, in the model's units: what a match "with AI seats counting" rates
# people against. Sure (small sigma) and never updated; normal sits at a new player's mean.
AI_RATINGS = {"easy": (20.0, 2.0), "normal": (25.0, 2.0), "strong": (29.0, 2.0)}


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float
    matches: int = 0  # rated matches played

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL_MATCHES


def new_rating() -> Rating:
    return Rating(MODEL.mu, MODEL.sigma, 0)


def ai_rating(level: str | None) -> Rating:
    mu, sigma = AI_RATINGS.get(level or "normal", AI_RATINGS["normal"])
    return Rating(mu, sigma, PROVISIONAL_MATCHES)


def shown(rating: Rating) -> int:
    """The number players see (and tiers read)."""
    return round(BASE + SCALE * (rating.mu - 3 * rating.sigma))


def rate(ratings: Sequence[Rating], places: Sequence[int], fixed: Sequence[bool] = ()) -> list[Rating]:
    """Every seat's rating after one match finished in ``places`` (1 = first, equal = tie). Seats marked
    ``fixed`` (AI seats) come back unchanged; everyone else has one more rated match."""
    if len(ratings) != len(places):
        raise ValueError("one place per rating")
    fixed = tuple(fixed) or (False,) * len(ratings)
    teams = [[MODEL.create_rating([r.mu, r.sigma])] for r in ratings]
    updated = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [
        old if frozen else replace(old, mu=team[0].mu, sigma=team[0].sigma, matches=old.matches + 1)
        for old, team, frozen in zip(ratings, updated, fixed, strict=True)
    ]
