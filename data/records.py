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
    ranking: str = "casual"  # one of ranking.RANKINGS

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
            ranking=row["ranking"],
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
class SpectatorThread:
    """A delayed table's spectator thread (cogs/mahjong/watch.py): the thread, how many of the match's
    hands it has shown face up, and its spectators (user id, language)."""

    table_id: int
    thread_id: int
    revealed: int
    spectators: tuple[tuple[int, str], ...] = ()


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
    rating: int | None = None  # the shown rating (of this rule set, or their best one): None if never rated
    rated_matches: int = 0  # rated matches behind that rating (provisional while few)

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
    "rating",
    "rated_matches",
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


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One person's rating in one server and rule set, for the rated leaderboard."""

    rank: int
    user_id: int
    name: str
    rules: str
    rating: int  # shown: 1000 + 40 (mu - 3 sigma)
    mu: float
    sigma: float
    matches: int  # rated matches
    average_place: float | None  # over their finished matches of this rule set (rated or not)

    @classmethod
    def from_row(cls, row: Row) -> RatingRow:
        return cls(
            row["rank"],
            row["user_id"],
            row["name"],
            row["rules"],
            row["shown"],
            row["mu"],
            row["sigma"],
            row["matches"],
            row["average_place"],
        )


@dataclass(frozen=True, slots=True)
class PlayerFigures:
    """A person's numbers in one server and rule set: what /mahjong stats shows and draws.

    Rates are fractions 0..1: wins, deal-ins and calls (副露) per hand played, self-draws per win.
    """

    user_id: int
    name: str
    rules: str
    points: int
    hands: int
    wins: int
    self_draws: int
    deal_ins: int
    calls: int  # hands in which they showed a claimed meld
    tai_sum: int  # 台/番 (the rule set's unit) over their wins
    best_tai: int | None
    best_hand: int | None  # the hand id of that biggest hand (for /mahjong hand)
    longest_streak: int  # the highest 連莊 count of a hand they dealt
    places: tuple[int, int, int, int]  # finished matches ended 1st, 2nd, 3rd, 4th
    top_items: tuple[tuple[str, int], ...]  # (item, hands won with it), most made first
    rating: int | None = None
    rated_matches: int = 0
    rank: int | None = None  # place on the points leaderboard of this rule set
    players: int = 0  # players on that leaderboard
    other_rules: tuple[str, ...] = ()  # the other rule sets they have played in this server

    @property
    def matches(self) -> int:
        return sum(self.places)

    @property
    def average_place(self) -> float | None:
        return sum(p * n for p, n in enumerate(self.places, 1)) / self.matches if self.matches else None

    @property
    def win_rate(self) -> float:
        return _rate(self.wins, self.hands)

    @property
    def self_draw_rate(self) -> float:
        return _rate(self.self_draws, self.wins)

    @property
    def deal_in_rate(self) -> float:
        return _rate(self.deal_ins, self.hands)

    @property
    def call_rate(self) -> float:
        return _rate(self.calls, self.hands)

    @property
    def average_tai(self) -> float:
        return _rate(self.tai_sum, self.wins)


class ItemCount(NamedTuple):
    item: str
    hands: int  # won hands that made it
    last_hand: int  # the latest such hand's id
    last_name: str  # who made it last (a person's latest name, or the AI seat's)


class BigHand(NamedTuple):
    hand_id: int
    total: int
    name: str


@dataclass(frozen=True, slots=True)
class ServerFigures:
    """A server's numbers for one rule set: how many wins, the most-made items, the rarest, the biggest hands."""

    rules: str
    hands: int
    wins: int
    most_made: tuple[ItemCount, ...]
    rarest: tuple[ItemCount, ...]
    biggest: tuple[BigHand, ...]


@dataclass(frozen=True, slots=True)
class MatchStandings:
    """A finished match's final scores by seat, with what its ledger needs (stakes, the leaver)."""

    table_id: int
    rules: str
    options: dict  # the table's engine options as stored (base, tai, ...)
    names: tuple[str, ...]
    user_ids: tuple[int | None, ...]
    scores: tuple[int, ...]
    places: tuple[int, ...]
    leaver: int | None
    finished_at: float
    rating_changes: tuple[tuple[int, int, int], ...] = ()  # (seat, before, after) of rated people
