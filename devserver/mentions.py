"""Who a message pings, as Discord decides it from the content and ``allowed_mentions``.

Without ``allowed_mentions`` a message the bot posts parses every mention in its text (users, roles,
@everyone/@here); an interaction answer or follow-up parses users only. With it, only what ``parse``
names, plus the ``users`` and ``roles`` it lists. Names escaped with a zero-width space (as
``discord.utils.escape_mentions`` does) are text, not mentions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

USER = re.compile(r"<@!?(\d+)>")
ROLE = re.compile(r"<@&(\d+)>")
EVERYONE = re.compile(r"@(everyone|here)\b")


@dataclass(frozen=True)
class Pings:
    users: frozenset[int] = field(default_factory=frozenset)
    roles: frozenset[int] = field(default_factory=frozenset)
    everyone: bool = False

    def __bool__(self) -> bool:
        return bool(self.users or self.roles or self.everyone)


def pings_of(content: str, allowed: dict[str, Any] | None, *, by_interaction: bool) -> Pings:
    users = {int(u) for u in USER.findall(content)}
    roles = {int(r) for r in ROLE.findall(content)}
    everyone = bool(EVERYONE.search(content))
    if allowed is None:
        parse = {"users"} if by_interaction else {"users", "roles", "everyone"}
        listed_users: set[int] = set()
        listed_roles: set[int] = set()
    else:
        parse = set(allowed.get("parse") or [])
        listed_users = {int(u) for u in allowed.get("users") or []}
        listed_roles = {int(r) for r in allowed.get("roles") or []}
    return Pings(
        frozenset(u for u in users if "users" in parse or u in listed_users),
        frozenset(r for r in roles if "roles" in parse or r in listed_roles),
        everyone and "everyone" in parse,
    )
