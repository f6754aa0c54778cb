"""A tournament as a pure value: its entrants, its rounds' seatings and results, its standings, and the keys
every table of it is dealt from — the part of league night that decides, for the host to carry out.

The tournament commits to one secret key when it starts (``commitment``; engine.fairness) and derives
everything random from it: round 1's draw and each later round's seat order within tables, and each
table's match key. With duplicate walls on, every table of a round is dealt from that round's one key
(and deals by position, ``engine.match.Match.duplicate``), so they play the same walls; a table's key is
then the round's secret until every table of the round has finished (one finished table must not show
the walls another still plays). Without duplicate walls each table has its own key.

    >>> t = Tournament(key=bytes(32), entrants=tuple(range(1, 9)), rounds=2, duplicate=True)
    >>> first = t.seat_next_round()
    >>> len(first.tables), t.table_key(1, 0) == t.table_key(1, 1)
    (2, True)
    >>> for n, seats in enumerate(first.tables):
    ...     t.record(1, n, [300, -100, -100, -100] if n == 0 else [0, 0, 0, 0])
    >>> [round(r.duplicate) for r in t.results(1)][:4]
    [300, -100, -100, -100]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine import fairness
from engine.match import Match
from ranking.duplicate import duplicate_scores
from ranking.places import placements
from ranking.standings import RoundResult, Standing, standings
from ranking.swiss import Seating, pairs_of, seat_round


@dataclass
class Tournament:
    key: bytes = field(repr=False)
    entrants: tuple[int, ...]
    rounds: int
    duplicate: bool = False
    ai_seats: bool = True
    seatings: list[Seating] = field(default_factory=list)
    # round -> table -> final points by seat (as the match's seat draw seated them)
    points: dict[int, dict[int, list[int]]] = field(default_factory=dict)
    dropped: set[int] = field(default_factory=set)

    @property
    def commitment(self) -> str:
        return fairness.commitment(self.key)

    @property
    def current(self) -> int:
        """The round being played (0 before the first)."""
        return len(self.seatings)

    @property
    def is_over(self) -> bool:
        return self.current == self.rounds and self.round_over(self.rounds)

    def round_over(self, number: int) -> bool:
        seating = self.seatings[number - 1]
        return len(self.points.get(number, {})) == len(seating.tables)

    def seat_next_round(self) -> Seating:
        """The next round's tables: drawn in round 1, Swiss after (by the standings so far, fewest repeats)."""
        if self.current and not self.round_over(self.current):
            raise ValueError(f"round {self.current} is still being played")
        if self.current == self.rounds:
            raise ValueError("the tournament is over")
        number = self.current + 1
        playing = [e for e in self.entrants if e not in self.dropped]
        order = [s.entrant for s in self.standings() if s.entrant in playing] if number > 1 else playing
        order += [e for e in playing if e not in order]  # anyone with no result yet goes last
        met = pairs_of(table for seating in self.seatings for table in seating.tables)
        byes = [p for seating in self.seatings for p in seating.byes]
        seed = fairness.derive(self.key, f"seating {number}")
        seating = seat_round(order, met=met, seed=seed, number=number, ai_seats=self.ai_seats, had_bye=byes)
        self.seatings.append(seating)
        return seating

    def table_key(self, number: int, table: int) -> bytes:
        """The match key of a round's table: the round's one key with duplicate walls, else the table's own."""
        label = f"round {number}" if self.duplicate else f"round {number} table {table}"
        return fairness.derive_key(self.key, label)

    def key_may_show(self, number: int) -> bool:
        """Whether a table of round ``number`` may reveal its key when its match ends: with duplicate walls
        only once every table of the round has ended."""
        return not self.duplicate or self.round_over(number)

    def record(self, number: int, table: int, final_points: Sequence[int]) -> None:
        """A table's match ended with these points, by the seats of its seating (table order)."""
        if len(final_points) != len(self.seatings[number - 1].tables[table]):
            raise ValueError("one score a seat")
        self.points.setdefault(number, {})[table] = list(final_points)

    def points_of(self, number: int, table: int, scores_by_seat: Sequence[int], rules: str) -> list[int]:
        """A table's final scores as its match stored them (by the seats its seat draw gave) in the round's
        seat order, for ``record``: the draw follows from the table's key (engine.match)."""
        seat_of = Match(rules, key=self.table_key(number, table)).seat_of_player
        return [scores_by_seat[seat_of[player]] for player in range(len(self.seatings[number - 1].tables[table]))]

    def results(self, number: int) -> list[RoundResult]:
        """Every entrant's result in a finished round (AI seats have none; a bye scores 0, no place)."""
        seating = self.seatings[number - 1]
        by_table = self.points.get(number, {})
        order = sorted(by_table)
        dup = duplicate_scores([by_table[t] for t in order]) if self.duplicate else None
        out = []
        for index, t in enumerate(order):
            places = placements(by_table[t])
            for seat, entrant in enumerate(seating.tables[t]):
                if entrant is not None:
                    score = dup[index][seat] if dup is not None else 0.0
                    out.append(RoundResult(entrant, by_table[t][seat], score, places[seat]))
        out += [RoundResult(entrant, 0) for entrant in seating.byes]
        return out

    def standings(self) -> list[Standing]:
        finished = [n for n in range(1, self.current + 1) if self.round_over(n)]
        return standings((r for n in finished for r in self.results(n)), duplicate=self.duplicate)
