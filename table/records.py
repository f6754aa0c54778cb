"""The table row as stored, written and read in this one place: ``TableSettings``/``TableState`` ⇄ the
row's columns and its ``options`` JSON (the engine's options, the lobby's switches, the channel's
language, the host's name, each person's language, who left the match).

The session hands the row over in ``StoreOptions``; the cog stores a new table's first row with
``settings_options``; a restart reads it back with ``state_of``/``left_of``. Stored rows are read through
the shape they have (``StoredTable``), so this stays pure: no storage imported.

    >>> state = TableState(7, 1, 2, 3, TableSettings(), seats=[Seat(3, "Ann", locale="fr")], locale="fr")
    >>> row = options_row(state, left={3})
    >>> row["locale"], row["locales"], row["left"]
    ('fr', {'3': 'fr'}, [3])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from engine.rules import TableOptions

from .lobby import (
    DEFAULT_THEME,
    SYSTEM_KIND,
    THEMES,
    Seat,
    TablePhase,
    TableSettings,
    TableState,
    hints_by_default,
)


class StoredSeat(Protocol):
    @property
    def user_id(self) -> int | None: ...
    @property
    def name(self) -> str: ...
    @property
    def ai_level(self) -> str | None: ...


class StoredTable(Protocol):
    """A stored table row (``data.TableRecord`` has this shape)."""

    @property
    def id(self) -> int: ...
    @property
    def guild_id(self) -> int: ...
    @property
    def channel_id(self) -> int: ...
    @property
    def host_id(self) -> int: ...
    @property
    def rules(self) -> str: ...
    @property
    def rounds(self) -> int: ...
    @property
    def options(self) -> dict: ...
    @property
    def password_hash(self) -> str | None: ...
    @property
    def phase(self) -> str: ...
    @property
    def seats(self) -> Sequence[StoredSeat]: ...
    @property
    def kind(self) -> str: ...
    @property
    def ranking(self) -> str: ...


def settings_options(settings: TableSettings, locale: str) -> dict[str, object]:
    """What a new table's row keeps besides its columns, before anyone else sits down."""
    return {
        "table": settings.options.to_dict(),
        "locale": locale,
        "spectators": settings.spectators,
        "hints": settings.hints,
        "pace": settings.pace,
        "theme": settings.theme,
        "bank": settings.bank,
    }


def options_row(
    state: TableState, left: Iterable[int], banks: Mapping[int, float] | None = None
) -> dict[str, object]:
    """The row's options as the table stands: its settings, the channel's language, the host's name,
    each seated person's language, who left the match (free to sit elsewhere), and what is left of each
    seat's time bank once one was used (table/bank.py; absent: every bank full)."""
    settings = state.settings
    return {
        "table": settings.options.to_dict(),
        "spectators": settings.spectators,
        "hints": settings.hints,
        "pace": settings.pace,
        "theme": settings.theme,
        "locale": state.locale,
        "host_name": state.host_name,
        "locales": {str(s.user_id): s.locale for s in state.seats if s.user_id is not None},
        "left": sorted(left),
        "bank": settings.bank,
        **({"banks": {str(seat): round(left_s, 3) for seat, left_s in sorted(banks.items())}} if banks else {}),
    }


def settings_of(record: StoredTable) -> TableSettings:
    extra = record.options
    return TableSettings(
        record.rules,
        record.rounds,
        TableOptions.from_dict(extra.get("table", {})),
        ranking=record.ranking,
        spectators=extra.get("spectators", "public"),
        # a row without the key (系統桌 rows were written without it): the default of its kind and ranking
        hints=bool(extra.get("hints", hints_by_default(record.ranking, system=record.kind == SYSTEM_KIND))),
        pace=extra.get("pace", "normal"),
        theme=theme if (theme := extra.get("theme")) in THEMES else DEFAULT_THEME,  # a row from before: felt
        bank=int(extra.get("bank", 0)),
    )


def state_of(record: StoredTable) -> TableState:
    """The lobby (or the table in play's seats) as stored."""
    extra = record.options
    locale = extra.get("locale", "en")
    locales = extra.get("locales", {})
    seats = [Seat(s.user_id, s.name, s.ai_level, locales.get(str(s.user_id), locale)) for s in record.seats]
    return TableState(
        record.id,
        record.guild_id,
        record.channel_id,
        record.host_id,
        settings_of(record),
        record.password_hash,
        seats,
        TablePhase(record.phase),
        record.kind,
        locale=locale,
        host_name=extra.get("host_name", ""),
    )


def banks_of(record: StoredTable) -> dict[int, float]:
    """What was left of each seat's time bank (stored by ``options_row``); a seat not named has it full."""
    return {int(seat): float(left) for seat, left in record.options.get("banks", {}).items()}


def left_of(record: StoredTable) -> set[int]:
    """The people who had left the match in play (stored by ``options_row``)."""
    return {int(user) for user in record.options.get("left", [])}
