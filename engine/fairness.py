"""Provably fair deals: a match commits to a secret key when it starts and reveals it when it ends.

Every random thing a match does — the seat draw, the dealer's dice, each hand's shuffle (and the
tiles 換牌 puts back into the wall) — comes from a seed derived from the match key with HMAC-SHA-256,
never from a seed a player could learn while playing. The table shows the key's SHA-256 (the
commitment) when the match starts and the key itself when it is over; with both, anyone can rebuild
every wall from the export alone (``python -m engine.log verify FILE``) and see that the deals were
fixed before the first tile was drawn.

    >>> key = bytes(range(32))
    >>> commitment(key)
    '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd'
    >>> hand_seed(key, 1) != hand_seed(key, 2)
    True
    >>> 0 <= hand_seed(key, 1) < 2**63
    True

Pure: ``hashlib`` and ``hmac`` only, loaded on first use (a match dealt from a plain seed, as
self-play's are, never hashes, and loading OpenSSL's hashes is a good part of a short process's
start-up).
"""

from __future__ import annotations

KEY_BYTES = 32  # 256 bits: as long as the hash, so the commitment hides the key as well as it can


def commitment(key: bytes) -> str:
    """The SHA-256 of the key, in hex: shown when the match starts, checked against the key at its end."""
    import hashlib

    return hashlib.sha256(key).hexdigest()


def derive(key: bytes, label: str) -> int:
    """A 63-bit seed for ``label`` ("seats", "hand 3", "ai 2"): the first 8 bytes of
    HMAC-SHA-256(key, label), big-endian, with the top bit dropped."""
    return int.from_bytes(derive_key(key, label)[:8], "big") >> 1


def derive_key(key: bytes, label: str) -> bytes:
    """A whole key for ``label`` (a tournament's table: "round 2 table 3"), HMAC-SHA-256(key, label): knowing
    it tells nothing of the key it came from nor of its siblings."""
    import hashlib
    import hmac

    return hmac.new(key, label.encode("ascii"), hashlib.sha256).digest()


def seating_seed(key: bytes) -> int:
    """The seed of the seat draw (抓位) and the first dealer's dice (起莊)."""
    return derive(key, "seats")


def hand_seed(key: bytes, number: int) -> int:
    """Hand ``number``'s seed (1-based, in the order the match plays its hands): its wall and dice."""
    return derive(key, f"hand {number}")


def position_seed(key: bytes, dealer_changes: int, streak: int) -> int:
    """The seed of the hand dealt at a position of the match — after ``dealer_changes`` changes of dealer,
    on the dealer's ``streak``-th repeat — for duplicate play: tables sharing a key deal the same wall
    wherever they reach the same position, also after one table's dealer kept the deal longer."""
    return derive(key, f"position {dealer_changes} {streak}")


def ai_seed(key: bytes, seat: int) -> int:
    """The seed of the AI player at ``seat`` (its tie-breaks): nothing about the deal follows from it."""
    return derive(key, f"ai {seat}")


def key_from_hex(text: object) -> bytes:
    """A key as an export writes it (64 hex digits); ValueError for anything else."""
    if not isinstance(text, str) or len(text) != 2 * KEY_BYTES:
        raise ValueError(f"a match key is {2 * KEY_BYTES} hex digits")
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise ValueError(f"a match key is {2 * KEY_BYTES} hex digits") from None
