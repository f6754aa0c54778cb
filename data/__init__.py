"""Persistence only: the schema and its migrations (SQLite, PostgreSQL), typed records, and the Store the cogs call."""

from data.errors import (
    DuplicateMove,
    SchemaTooNew,
    StoreClosed,
    StoreConflict,
    StoreCorrupt,
    StoreError,
    StoreFenced,
    StoreFull,
    StoreLocked,
    StoreReadOnly,
    StoreUnreachable,
)
from data.hall import GuildSettings, QueueEntry
from data.prefs import THEMES, PlayerPrefs
from data.records import (
    FinishedHand,
    LeaderRow,
    MatchSummary,
    PlayerStats,
    SavedHand,
    SavedTable,
    SeatRecord,
    SpectatorThread,
    Standing,
    TableRecord,
)
from data.store import Store
from data.tournaments import EntrantRecord, RoundTable, TournamentRecord

__all__ = [
    "DuplicateMove",
    "EntrantRecord",
    "FinishedHand",
    "GuildSettings",
    "LeaderRow",
    "MatchSummary",
    "PlayerPrefs",
    "PlayerStats",
    "QueueEntry",
    "RoundTable",
    "SavedHand",
    "SavedTable",
    "SchemaTooNew",
    "SeatRecord",
    "SpectatorThread",
    "Standing",
    "Store",
    "StoreClosed",
    "StoreConflict",
    "StoreCorrupt",
    "StoreError",
    "StoreFenced",
    "StoreFull",
    "StoreLocked",
    "StoreReadOnly",
    "StoreUnreachable",
    "THEMES",
    "TableRecord",
    "TournamentRecord",
]
