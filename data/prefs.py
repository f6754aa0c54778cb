"""Each person's own preferences (migration 0010), global across servers: one row a person, the defaults
for anyone without one. ``Store`` includes these methods (``PrefsStore``).

    >>> PlayerPrefs().nudge, PlayerPrefs().theme, PlayerPrefs().auto_win
    (True, 'felt', False)
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, fields, replace
from typing import Any, Protocol

from data.driver import Session
from data.records import Row

THEMES = ("felt", "ocean", "sakura", "contrast")


@dataclass(frozen=True, slots=True)
class PlayerPrefs:
    """A person's switches: the nudge DM, their pictures' theme, and the three auto toggles."""

    nudge: bool = True  # a short new DM when a decision waits on them (it notifies; an edit does not)
    theme: str = "felt"  # one of THEMES
    auto_win: bool = False  # take every win offered
    no_calls: bool = False  # pass every 吃/碰/槓 offer (never a win)
    auto_discard: bool = False  # 摸切: discard the drawn tile, until turned off

    @classmethod
    def from_row(cls, row: Row) -> PlayerPrefs:
        return cls(
            bool(row["nudge"]), str(row["theme"]), bool(row["auto_win"]), bool(row["no_calls"]),
            bool(row["auto_discard"]),
        )

    def changed(self, **changes: Any) -> PlayerPrefs:
        """These preferences with ``changes``, each checked: a ValueError names what is wrong."""
        unknown = set(changes) - set(PREF_NAMES)
        if unknown:
            raise ValueError(f"unknown preferences {sorted(unknown)}; expected some of {PREF_NAMES}")
        if "theme" in changes and changes["theme"] not in THEMES:
            raise ValueError(f"unknown theme {changes['theme']!r}; expected one of {THEMES}")
        for name, value in changes.items():
            if name != "theme" and not isinstance(value, bool):
                raise ValueError(f"{name} is a switch (True or False), not {value!r}")
        return replace(self, **changes)


PREF_NAMES = tuple(f.name for f in fields(PlayerPrefs))


class _Database(Protocol):
    """What these methods use of ``Store`` (they are mixed into it)."""

    def _write(self) -> AbstractAsyncContextManager[Session]: ...
    def _read(self) -> AbstractAsyncContextManager[Session]: ...


class PrefsStore:
    """``get_player_prefs`` / ``set_player_prefs`` of ``Store``."""

    async def get_player_prefs(self: _Database, user_id: int) -> PlayerPrefs:
        async with self._read() as db:
            row = await db.one("SELECT * FROM player_prefs WHERE user_id = ?", (user_id,))
        return PlayerPrefs() if row is None else PlayerPrefs.from_row(row)

    async def set_player_prefs(self: _Database, user_id: int, **changes: Any) -> PlayerPrefs:
        """Change the preferences named (checked first: nothing is written for a bad one); returns them all."""
        PlayerPrefs().changed(**changes)  # names and values checked before any write
        values = {k: int(v) if isinstance(v, bool) else v for k, v in changes.items()}
        async with self._write() as db:
            await db.execute("INSERT INTO player_prefs (user_id) VALUES (?) ON CONFLICT DO NOTHING", (user_id,))
            if values:
                columns = ", ".join(f"{name} = ?" for name in values)  # names checked above
                await db.execute(f"UPDATE player_prefs SET {columns} WHERE user_id = ?", (*values.values(), user_id))
            row = await db.one("SELECT * FROM player_prefs WHERE user_id = ?", (user_id,))
        assert row is not None  # inserted in this very transaction
        return PlayerPrefs.from_row(row)
