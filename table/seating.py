"""Who sits in each engine seat once the match's 抓位 has drawn them."""

from __future__ import annotations

from dataclasses import dataclass, field

from .lobby import Seat


@dataclass
class Seating:
    by_seat: list[Seat] = field(default_factory=list)

    def names(self) -> list[str]:
        """As people chose them (pictures escape nothing; message text escapes them: cogs' markdown)."""
        return [s.name for s in self.by_seat]

    def seat_of_user(self, user_id: int) -> int | None:
        return next((i for i, s in enumerate(self.by_seat) if s.user_id == user_id), None)

    def people(self) -> set[int]:
        """Engine seats a person sits in."""
        return {seat for seat, who in enumerate(self.by_seat) if not who.is_ai}
