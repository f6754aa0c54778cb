"""Typed rows: frozen dataclasses built from database rows by ``from_row``, so cogs never see SQL shapes."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol


class Row(Protocol):
    """What a query hands back, read by column name: sqlite3.Row, asyncpg.Record (tests pass dicts)."""

    def __getitem__(self, key: str, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...


PHASES = ("lobby", "playing", "over", "closed")


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _rate(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


@dataclass(frozen=True, slots=True)
class SeatRecord:
    seat: int  # 0..3
    user_id: int | None  # None: an AI seat
    name: str
    ai_level: str | None = None

    @property
    def is_ai(self) -> bool:
        return self.user_id is None

    @classmethod
    def from_row(cls, row: Row) -> SeatRecord:
        return cls(row["seat"], row["user_id"], row["name"], row["ai_level"])


@dataclass(frozen=True, slots=True)
class TableRecord:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    rules: str
    rounds: int
    options: dict
    password_hash: str | None
    phase: str
    seats: tuple[SeatRecord, ...]
    lobby_message_id: int | None
    table_message_id: int | None
    created_at: float
    kind: str = "player"  # 'player' (玩家桌) or 'system' (系統桌, from the quick-play queue)

    @classmethod
    def from_row(cls, row: Row, seats: tuple[SeatRecord, ...] = ()) -> TableRecord:
        return cls(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            host_id=row["host_id"],
            rules=row["rules"],
            rounds=row["rounds"],
            options=loads(row["options"]) or {},
            password_hash=row["password_hash"],
            phase=row["phase"],
            seats=seats,
            lobby_message_id=row["lobby_message_id"],
            table_message_id=row["table_message_id"],
            created_at=row["created_at"],
            kind=row["kind"] if "kind" in row.keys() else "player",
        )


@dataclass(frozen=True, slots=True)
class SavedHand:
    """A hand as the engine replays it: header + actions; ``result`` once it is over."""

    id: int
    hand_no: int
    header: dict
    actions: list[str]
    deadline: float | None
    result: dict | None

    @classmethod
    def from_row(cls, row: Row, actions: list[str]) -> SavedHand:
        return cls(
            row["id"], row["hand_no"], loads(row["header"]), actions, row["deadline"], loads(row["result"])
        )


@dataclass(frozen=True, slots=True)
class SavedTable:
    """An unfinished table to resume after a restart; hands in hand order."""

    table: TableRecord
    match_header: dict | None
    hands: list[SavedHand]
    problem: str | None = None  # a stored row that could not be read: the table cannot be rebuilt


@dataclass(frozen=True, slots=True)
class LeaderRow:
    """One player's numbers in one server. Rates are fractions 0..1: wins and deal-ins per hand played,
    self-draws per win (the convention of Tenhou-style stats pages)."""

    rank: int
    user_id: int
    name: str  # the name in the player's latest finished hand in this server
    points: int  # sum of point changes over finished hands
    matches: int  # tables with at least one finished hand
    hands: int
    wins: int
    self_draws: int
    deal_ins: int
    best_tai: int | None  # the largest total of a hand this player won
    best_rules: str | None = None  # the rule set of that hand (its unit: 台, 番, ×)

    @property
    def win_rate(self) -> float:
        return _rate(self.wins, self.hands)

    @property
    def self_draw_rate(self) -> float:
        return _rate(self.self_draws, self.wins)

    @property
    def deal_in_rate(self) -> float:
        return _rate(self.deal_ins, self.hands)

    @classmethod
    def from_row(cls, row: Row) -> LeaderRow:
        return cls(**{f: row[f] for f in _LEADER_FIELDS})


_LEADER_FIELDS = (
    "rank",
    "user_id",
    "name",
    "points",
    "matches",
    "hands",
    "wins",
    "self_draws",
    "deal_ins",
    "best_tai",
    "best_rules",
)


@dataclass(frozen=True, slots=True)
class PlayerStats(LeaderRow):
    """A player's leaderboard line, plus how many ranked players there are."""

    players: int = 0

    @classmethod
    def from_row(cls, row: Row) -> PlayerStats:
        return cls(**{f: row[f] for f in _LEADER_FIELDS}, players=row["players"])


class Standing(NamedTuple):
    """(name, user_id, score): one seat's final result; user_id None for an AI seat."""

    name: str
    user_id: int | None
    score: int


@dataclass(frozen=True, slots=True)
class MatchSummary:
    table_id: int
    rules: str
    rounds: int
    started_at: float
    finished_at: float
    hands: int
    standings: tuple[Standing, ...]  # best first


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """What the score sheet of a finished hand needs to be drawn again."""

    id: int
    table_id: int
    hand_no: int
    rules: str
    result: dict
    names: tuple[str, ...]  # by seat
    finished_at: float

    @classmethod
    def from_row(cls, row: Row, names: tuple[str, ...]) -> FinishedHand:
        return cls(
            row["id"],
            row["table_id"],
            row["hand_no"],
            row["rules"],
            loads(row["result"]),
            names,
            row["finished_at"],
        )
