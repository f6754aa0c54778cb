"""What replays and exports read: a stored hand with its moves and who may see it, and a whole match
with every hand. Read-only queries over the tables every match already writes (0001), so hands
played before replays existed replay too."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .records import loads
from .store import Store


@dataclass(frozen=True, slots=True)
class StoredHand:
    """One hand as a replay needs it. ``players`` are the people seated at its table; ``finished``
    says the hand is over (only then may it be replayed), ``match_over`` that the whole match is."""

    id: int
    table_id: int
    hand_no: int
    rules: str
    header: dict[str, Any]  # engine.Game.header()
    moves: tuple[str, ...]
    result: dict[str, Any] | None
    names: tuple[str, ...]  # by seat
    users: tuple[int | None, ...]  # by seat: the person's id, None for an AI seat
    finished: bool
    match_over: bool
    hands: int  # hands of the match stored so far (for "next hand")

    @property
    def players(self) -> frozenset[int]:
        return frozenset(u for u in self.users if u is not None)


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """A whole match for an export: the match header, seats and every stored hand in order."""

    table_id: int
    guild_id: int
    rules: str
    header: dict[str, Any]  # engine.Match.header()
    seats: tuple[dict[str, Any], ...]  # name, user_id (str) or ai, by seat
    players: frozenset[int]
    hands: tuple[tuple[tuple[str, ...], dict[str, Any] | None], ...]  # (moves, result) per hand
    started_at: float
    finished_at: float | None
    over: bool  # finished, or closed: no hand of it is still being played

    @property
    def users(self) -> tuple[int | None, ...]:
        """By seat: the person's id, None for an AI seat."""
        return tuple(int(s["user_id"]) if "user_id" in s else None for s in self.seats)


async def stored_hand(
    store: Store,
    guild_id: int,
    *,
    hand_id: int | None = None,
    table_id: int | None = None,
    hand_no: int | None = None,
) -> StoredHand | None:
    """A hand of this server by its id, or by its table and number (None: no such hand here)."""
    if hand_id is not None:
        where, params = "h.id = ?", (hand_id, guild_id)
    elif table_id is not None and hand_no is not None:
        where, params = "h.table_id = ? AND h.hand_no = ?", (table_id, hand_no, guild_id)  # type: ignore[assignment]
    else:
        raise ValueError("name a hand by its id, or by its table and number")
    async with store._read(snapshot=True) as db:
        row = await db.one(
            "SELECT h.id, h.table_id, h.hand_no, h.header, h.result, h.finished_at, t.rules, t.phase, m.finished_at AS match_end,"
            " (SELECT COUNT(*) FROM hands x WHERE x.table_id = h.table_id) AS hands"
            f" FROM hands h JOIN tables t ON t.id = h.table_id LEFT JOIN matches m ON m.table_id = h.table_id"
            f" WHERE {where} AND t.guild_id = ?",
            params,
        )
        if row is None:
            return None
        moves = await db.all("SELECT action FROM moves WHERE hand_id = ? ORDER BY move_no", (row["id"],))
        played = await db.all(
            "SELECT seat, name FROM hand_seats WHERE hand_id = ? ORDER BY seat", (row["id"],)
        )
        seats = await db.all(
            "SELECT seat, user_id, name FROM seats WHERE table_id = ? ORDER BY seat", (row["table_id"],)
        )
    names = tuple(r["name"] for r in played) if len(played) == 4 else tuple(r["name"] for r in seats)
    return StoredHand(
        id=row["id"],
        table_id=row["table_id"],
        hand_no=row["hand_no"],
        rules=row["rules"],
        header=loads(row["header"]),
        moves=tuple(m["action"] for m in moves),
        result=loads(row["result"]),
        names=names,
        users=tuple(r["user_id"] for r in seats),
        finished=row["finished_at"] is not None,
        match_over=row["match_end"] is not None or row["phase"] in ("over", "closed"),
        hands=row["hands"],
    )


async def stored_match(store: Store, guild_id: int, table_id: int) -> StoredMatch | None:
    """A match of this server, every stored hand included (None: no match at that table here)."""
    async with store._read(snapshot=True) as db:
        row = await db.one(
            "SELECT m.table_id, m.header, m.started_at, m.finished_at, t.guild_id, t.rules, t.phase FROM matches m"
            " JOIN tables t ON t.id = m.table_id WHERE m.table_id = ? AND t.guild_id = ?",
            (table_id, guild_id),
        )
        if row is None:
            return None
        seats = await db.all(
            "SELECT seat, user_id, name, ai_level FROM seats WHERE table_id = ? ORDER BY seat",
            (table_id,),
        )
        hands = await db.all("SELECT id, result FROM hands WHERE table_id = ? ORDER BY hand_no", (table_id,))
        logged = []
        for hand in hands:
            moves = await db.all("SELECT action FROM moves WHERE hand_id = ? ORDER BY move_no", (hand["id"],))
            logged.append((tuple(m["action"] for m in moves), loads(hand["result"])))
    return StoredMatch(
        table_id=row["table_id"],
        guild_id=row["guild_id"],
        rules=row["rules"],
        header=loads(row["header"]),
        seats=tuple(
            {"name": s["name"], "user_id": str(s["user_id"])}
            if s["user_id"] is not None
            else {"name": s["name"], "ai": s["ai_level"]}
            for s in seats
        ),
        players=frozenset(s["user_id"] for s in seats if s["user_id"] is not None),
        hands=tuple(logged),
        started_at=row["started_at"],
        finished_at=row["finished_at"],
        over=row["finished_at"] is not None or row["phase"] in ("over", "closed"),
    )
