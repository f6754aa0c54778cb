"""Signed, expiring links: a token names one person, their seat and their table, and is good until a time.

``table.seat.user.expires.signature``, the signature an HMAC-SHA256 of the four numbers under the bot's
secret (``MAHJONG_WEB_SECRET``, or a random one drawn when the bot starts: links then last until the next
restart, when every DM is shown afresh with a new one). Only the bot can make one; any change to a number
breaks the signature. Time is passed in, so the checks are tested without a clock.

    >>> signer = Signer(b"k" * 32)
    >>> token = signer.make(Grant(table=7, seat=2, user=42, expires=1000))
    >>> signer.check(token, now=999)
    Grant(table=7, seat=2, user=42, expires=1000)
    >>> signer.check(token, now=1000) is None  # expired
    True
    >>> signer.check(token.replace("7.2", "7.1", 1), now=0) is None  # another seat: forged
    True
    >>> Signer(b"x" * 32).check(token, now=0) is None  # another bot's secret
    True
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass

LIFETIME = 6 * 3600.0  # a link in a DM: long enough for a long match; every DM edit carries a fresh one
_SHAPE = re.compile(r"^(\d{1,20})\.([0-3])\.(\d{1,20})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$")


@dataclass(frozen=True, slots=True)
class Grant:
    """What a valid token lets its holder do: play ``seat`` of ``table`` as ``user`` until ``expires``."""

    table: int
    seat: int
    user: int
    expires: int


class Signer:
    def __init__(self, secret: bytes) -> None:
        if len(secret) < 16:
            raise ValueError("the web secret needs at least 16 bytes")
        self._secret = secret

    def _sign(self, body: str) -> str:
        digest = hmac.new(self._secret, body.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")

    def make(self, grant: Grant) -> str:
        body = f"{grant.table}.{grant.seat}.{grant.user}.{grant.expires}"
        return f"{body}.{self._sign(body)}"

    def check(self, token: str, *, now: float) -> Grant | None:
        """The grant a token carries, or None: malformed, signed with another secret, altered, or expired."""
        found = _SHAPE.match(token)
        if found is None:
            return None
        table, seat, user, expires, signature = found.groups()
        if not hmac.compare_digest(signature, self._sign(f"{table}.{seat}.{user}.{expires}")):
            return None
        if now >= int(expires):
            return None
        return Grant(int(table), int(seat), int(user), int(expires))


_LINK = re.compile(r"^((?:\d{1,20}\.){1,4})([A-Za-z0-9_-]{43})$")


def make_link(signer: Signer, kind: str, *numbers: int) -> str:
    """A token for another page than a seat's (``kind`` "watch", "replay"): ``n1.n2….signature``, the
    signature over the kind and the numbers, so a watch token never opens a replay, nor the reverse.

        >>> signer = Signer(b"k" * 32)
        >>> token = make_link(signer, "replay", 5, 9)
        >>> check_link(signer, "replay", token), check_link(signer, "watch", token)
        ((5, 9), None)
        >>> check_link(signer, "replay", token.replace("5.9", "5.8", 1)) is None
        True
    """
    body = ".".join(str(int(n)) for n in numbers)
    return f"{body}.{signer._sign(f'{kind}:{body}')}"  # noqa: SLF001 (the signer's own HMAC)


def check_link(signer: Signer, kind: str, token: str) -> tuple[int, ...] | None:
    """The numbers a ``kind`` token carries, or None: malformed, another kind, altered or another secret's."""
    found = _LINK.match(token)
    if found is None:
        return None
    body = found.group(1)[:-1]
    if not hmac.compare_digest(found.group(2), signer._sign(f"{kind}:{body}")):  # noqa: SLF001
        return None
    return tuple(int(n) for n in body.split("."))


def expiry(now: float, lifetime: float = LIFETIME) -> int:
    """A link's end, rounded up to the next quarter hour: a DM edited often carries the same link."""
    return int(-(-(now + lifetime) // 900) * 900)
