"""The table as a pure state machine (lobby → playing → over/closed): who sits where, who hosts, the
settings and the password. No Discord and no I/O here, so every rule about seats is unit-tested like
the engine; the runner is the only thing that does I/O around it.

    >>> table = TableState(1, guild_id=9, channel_id=5, host_id=10, settings=TableSettings())
    >>> table.join(10, "Ann")
    >>> ai = table.add_ai("normal")
    >>> [s.name for s in table.seats]
    ['Ann', 'AI 1']
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from engine.rules import TableOptions, get_profile
from engine.rulesets import DEFAULT_RULES
from ranking import RANKINGS

SEATS = 4
# 出牌時間: the document's 4/5/6/8 s, plus longer choices for people on phones; 20 s by default
TURN_SECONDS = (4, 5, 6, 8, 15, 20, 30, 60)
CLAIM_SECONDS = (4, 5, 6, 8, 10, 15)
AI_LEVELS = ("easy", "normal", "strong")
# how fast AI players move, as a table option: a person follows each discard at "normal" (about a second
# between AI discards); "fast" for people who know the table, "slow" for new players and streams
PACES = {"fast": 0.4, "normal": 1.0, "slow": 2.0}
DEFAULT_AI = "normal"
# the pictures' themes (render/theme.py draws them): the host picks the channel picture's, each person their own
THEMES = ("felt", "ocean", "sakura", "contrast")
DEFAULT_THEME = "felt"
SYSTEM_KIND = "system"  # TableState.kind of a 系統桌 (cogs/mahjong/system.py SYSTEM)



def hints_by_default(ranking: str, *, system: bool = False) -> bool:
    """Whether a new table shows each player their waits and ready discards unless its host says: on
    at casual tables, off at rated ones and at 系統桌, as rated play elsewhere has it (Mahjong Soul's
    and Tenhou's ranked rooms show no waits)."""
    return ranking == "casual" and not system


class TablePhase(Enum):
    LOBBY = "lobby"
    PLAYING = "playing"
    OVER = "over"
    CLOSED = "closed"


class TableError(Exception):
    """A refusal the person who asked should read: ``key`` names the catalogue string."""

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


@dataclass(frozen=True, slots=True)
class Seat:
    """A person (``user_id``) or an AI (``ai_level``); ``locale`` is the language they last used."""

    user_id: int | None
    name: str
    ai_level: str | None = None
    locale: str = "en"

    @property
    def is_ai(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class TableSettings:
    """What the host chose at /mahjong create."""

    rules: str = DEFAULT_RULES
    rounds: int = 1
    options: TableOptions = field(default_factory=TableOptions)  # timers, stakes and switches
    ranking: str = "casual"  # one of RANKINGS
    spectators: str = "public"  # public | delayed | off (cogs/mahjong/watch.py)
    hints: bool = True  # the DM names a ready hand's waits and the discards that keep it ready (standing.py)
    pace: str = "normal"  # one of PACES: the time between AI discards
    theme: str = DEFAULT_THEME  # one of THEMES: the channel's pictures (the table and its score sheets)
    bank: int = 0  # a time bank per person per match, in seconds (table/bank.py BANK_SECONDS; 0: none)

    @property
    def pace_factor(self) -> float:
        return PACES[self.pace]

    def __post_init__(self) -> None:
        profile = get_profile(self.rules)
        if self.pace not in PACES:
            raise ValueError(f"pace is one of {tuple(PACES)}")
        if self.theme not in THEMES:
            raise ValueError(f"theme is one of {THEMES}")
        if self.spectators not in ("public", "delayed", "off"):
            raise ValueError("spectators is public, delayed or off")
        try:  # options that cannot go together at this rule set (hongkong 16 tiles with 寶牌, ...)
            replace(profile, options=self.options).for_table()
        except ValueError as error:
            raise TableError("err.options", reason=str(error)) from None
        if isinstance(self.bank, bool) or not isinstance(self.bank, int) or not 0 <= self.bank <= 600:
            raise ValueError(f"a time bank is 0 to 600 seconds, not {self.bank!r}")
        if not 1 <= self.rounds <= 4:
            raise ValueError("a match is 1 to 4 rounds")
        if self.ranking not in RANKINGS:
            raise ValueError(f"unknown ranking {self.ranking!r}; expected one of {RANKINGS}")


def hash_password(password: str, salt: bytes | None = None) -> str:
    """``salt$digest`` so a stored table never holds the password itself."""
    salt = salt or secrets.token_bytes(8)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 20_000)
    return f"{salt.hex()}${digest.hex()}"


def check_password(password: str, stored: str) -> bool:
    salt_hex, _, _ = stored.partition("$")
    return hmac.compare_digest(hash_password(password, bytes.fromhex(salt_hex)), stored)


def valid_password(password: str) -> bool:
    return len(password) == 4 and password.isascii() and password.isdigit()


@dataclass
class TableState:
    table_id: int
    guild_id: int
    channel_id: int
    host_id: int
    settings: TableSettings
    password_hash: str | None = None
    seats: list[Seat] = field(default_factory=list)
    phase: TablePhase = TablePhase.LOBBY
    kind: str = "player"  # 'player' (玩家桌) or 'system' (系統桌, formed from the quick-play queue: system.py)
    locale: str = "en"  # the channel's language: its messages (each person's is on their seat)
    host_name: str = ""  # as the host was called when they created the table (the lobby shows it)

    # ------------------------------------------------------------------ questions

    @property
    def locked(self) -> bool:
        return self.password_hash is not None

    @property
    def rematch(self) -> bool:
        """A finished match here may be played again by the same seats (not at a 系統桌, which the
        quick-play queue forms)."""
        return self.kind != SYSTEM_KIND

    @property
    def full(self) -> bool:
        return len(self.seats) >= SEATS

    def seat_of(self, user_id: int) -> int | None:
        """Index in ``seats`` (the player number the match draws seats for)."""
        return next((i for i, s in enumerate(self.seats) if s.user_id == user_id), None)

    def humans(self) -> list[Seat]:
        return [s for s in self.seats if not s.is_ai]

    def may_manage(self, user_id: int, *, manage_guild: bool = False) -> bool:
        return user_id == self.host_id or manage_guild

    # ------------------------------------------------------------------ changes

    def _lobby_only(self) -> None:
        if self.phase is not TablePhase.LOBBY:
            raise TableError("err.not_lobby")

    def join(self, user_id: int, name: str, *, password: str | None = None, locale: str = "en") -> None:
        self._lobby_only()
        if self.seat_of(user_id) is not None:
            return  # joining twice is a no-op, not an error: the lobby already shows them
        if self.full:
            raise TableError("err.table_full")
        if self.password_hash is not None and user_id != self.host_id:
            if password is None or not check_password(password, self.password_hash):
                raise TableError("err.wrong_password")
        self.seats.append(Seat(user_id, name, locale=locale))

    def leave(self, user_id: int) -> None:
        index = self.seat_of(user_id)
        if index is None:
            raise TableError("err.not_seated")
        self._lobby_only()
        del self.seats[index]

    def add_ai(self, level: str = DEFAULT_AI) -> Seat:
        self._lobby_only()
        if self.full:
            raise TableError("err.table_full")
        if level not in AI_LEVELS:
            raise ValueError(f"unknown AI level {level!r}")
        number = 1 + max((int(s.name.rsplit(" ", 1)[-1]) for s in self.seats if s.is_ai), default=0)
        seat = Seat(None, f"AI {number}", ai_level=level)
        self.seats.append(seat)
        return seat

    def remove_ai(self) -> None:
        self._lobby_only()
        for i in range(len(self.seats) - 1, -1, -1):
            if self.seats[i].is_ai:
                del self.seats[i]
                return
        raise TableError("err.no_ai_seat")

    def start(self, level: str = DEFAULT_AI) -> list[Seat]:
        """Fill empty seats with AI players and begin; returns the AI seats added."""
        self._lobby_only()
        if not self.humans():
            raise TableError("err.need_human")
        if self.settings.ranking == "rated" and len(self.humans()) < SEATS:
            raise TableError("err.rated_needs_four", people=len(self.humans()))
        added = [self.add_ai(level) for _ in range(SEATS - len(self.seats))]
        self.phase = TablePhase.PLAYING
        return added

    def touch_locale(self, user_id: int, locale: str) -> None:
        index = self.seat_of(user_id)
        if index is not None and self.seats[index].locale != locale:
            self.seats[index] = replace(self.seats[index], locale=locale)
