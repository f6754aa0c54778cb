"""系統桌 (system tables), as documents 000 and 003 describe them: formed by the game from its queue
(自動配桌) with fixed settings — 系統桌皆為1圈, 系統桌皆為5秒, and 本公司在自動配桌預設為不可過水 — while a
玩家桌 (player table) is opened by a person with their own. Pure: who a queue seats, when AI may fill it,
which settings the table gets. The hall (hall.py) does the I/O.

    >>> settings = system_settings(DEFAULT_RULES)
    >>> settings.rounds, settings.options.turn_seconds, settings.options.may_pass_win
    (1, 5, False)
    >>> [e.user_id for e in ready_group(queue_of(1, 2, 3, 4, 5))]
    [1, 2, 3, 4]
    >>> place_in(queue_of(7, 8, 9), 9)
    3
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from data import GuildSettings, QueueEntry
from engine.house_rules import HouseRules
from engine.rules import get_profile
from engine.rulesets import DEFAULT_RULES
from table.bank import SYSTEM_BANK
from table.lobby import SEATS, TURN_SECONDS, TableSettings, hints_by_default

PLAYER, SYSTEM = "player", "system"  # the two kinds of table (tables.kind)
SYSTEM_ROUNDS = 1  # 系統桌皆為1圈
SYSTEM_TURN = 5  # 系統桌皆為5秒
# a server may give its 系統桌 longer turns for people on Discord, never shorter than the documents' 5 s
SYSTEM_TURN_CHOICES = tuple(s for s in TURN_SECONDS if s >= SYSTEM_TURN)


def system_settings(
    rules: str, turn_seconds: int = SYSTEM_TURN, *, claim_seconds: int | None = None, house_rules: HouseRules | None = None
) -> TableSettings:
    """The documents' system settings for ``rules``: 1 圈, the turn time, 不可過水, the rule set's own
    stakes and the document's house rules, no hints (table/lobby.py); everything else as the rule set
    has it. A tournament may choose its tables' claim time and house rules (``None``: the rule set's own).

        >>> from engine.rulesets import DEFAULT_RULES
        >>> s = system_settings(DEFAULT_RULES, 8, claim_seconds=10, house_rules=HouseRules({"heavenly_tai": 24}))
        >>> s.options.turn_seconds, s.options.claim_seconds, s.options.house_rules.to_dict()
        (8, 10, {'heavenly_tai': 24})
    """
    if turn_seconds not in SYSTEM_TURN_CHOICES:
        raise ValueError(f"a 系統桌 turn is one of {SYSTEM_TURN_CHOICES} seconds, not {turn_seconds}")
    options = replace(get_profile(rules).options, turn_seconds=turn_seconds, may_pass_win=False)
    if claim_seconds is not None:
        options = replace(options, claim_seconds=claim_seconds)
    if house_rules is not None:
        options = replace(options, house_rules=house_rules)
    return TableSettings(rules, SYSTEM_ROUNDS, options, hints=hints_by_default("casual", system=True), bank=SYSTEM_BANK)


def ready_group(queue: Sequence[QueueEntry]) -> list[QueueEntry]:
    """The first four of a queue (first come first), or nobody while fewer than four wait."""
    return list(queue[:SEATS]) if len(queue) >= SEATS else []


def place_in(queue: Sequence[QueueEntry], user_id: int) -> int:
    """A person's place in the queue, from 1; 0 when they are not in it."""
    return next((i for i, e in enumerate(queue, start=1) if e.user_id == user_id), 0)


def fill_at(queue: Sequence[QueueEntry], settings: GuildSettings, scale: float = 1.0) -> float | None:
    """When AI may fill the empty seats (unix time): the server's wait after the person who has waited
    longest came, ``scale`` shrinking it in tests; None when AI fill is off or nobody waits."""
    if settings.ai_fill_seconds is None or not queue:
        return None
    return min(e.queued_at for e in queue) + settings.ai_fill_seconds * scale


def is_rated(kind: str) -> bool:
    """THE RATINGS HOOK: whether a finished match of a table of ``kind`` moves its players' ratings.
    The issue's default: 系統桌 are rated, 玩家桌 casual. Ratings do not exist in this branch; the
    ratings code calls this (and may add a server setting in front of it) instead of deciding anew."""
    return kind == SYSTEM


def queue_of(*user_ids: int, rules: str = DEFAULT_RULES, guild_id: int = 1) -> list[QueueEntry]:
    """A queue of these people, in this order (for examples and tests)."""
    return [QueueEntry(guild_id, u, rules, f"user{u}", "en", "en", 10, float(i)) for i, u in enumerate(user_ids)]
