"""Messages between bot processes that share one PostgreSQL database, through LISTEN/NOTIFY.

    mailbox = await Mailbox.open(url, name="shards 4-7", on_message=handle)   # handle(dict) per message
    await mailbox.send("shards 0-3", {"interaction": payload})
    await mailbox.close()

Meant for the one thing Discord makes necessary: every click on a DM button reaches shard 0's process
only, and that process hands the raw interaction to the table's owner (``data.leases``), which
answers it through the interaction's own REST callback within Discord's 3 seconds. A NOTIFY reaches
the listening process in about a millisecond on a nearby server and costs no table, no polling and
no cleanup. Its payload is at most 8,000 bytes: a message is JSON, compressed (zlib, base64) when it
is longer than that, and refused with ``ValueError`` when even that does not fit. A NOTIFY to a name
no process listens on is dropped, as the server drops it: the sender learns nothing (the caller
checks ownership first).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
import zlib
from collections.abc import Callable
from typing import Any

import asyncpg

from data.postgres import CLUSTER_ERRORS, CONNECT_TIMEOUT, shown, translate

log = logging.getLogger(__name__)

LIMIT = 7999  # PostgreSQL's NOTIFY payload limit is 8000 bytes
_COMPRESSED = "z:"


def channel_of(name: str) -> str:
    """The NOTIFY channel of a process name: a fixed-length identifier, whatever the name holds.

    >>> channel_of("shards 0-3 on host-a")
    'mahjong_e87a0573567666df'
    """
    return "mahjong_" + hashlib.sha256(name.encode()).hexdigest()[:16]


def application_name(name: str) -> str:
    """What the process's listening connection calls itself: while it is connected, the process is alive."""
    return f"{name} (mailbox)"


def encode(message: dict) -> str:
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    if len(text.encode()) <= LIMIT:
        return text
    packed = _COMPRESSED + base64.b64encode(zlib.compress(text.encode(), 9)).decode()
    if len(packed) > LIMIT:
        raise ValueError(
            f"a message of {len(text)} bytes does not fit a NOTIFY, even compressed ({len(packed)})"
        )
    return packed


def decode(payload: str) -> dict:
    if payload.startswith(_COMPRESSED):
        payload = zlib.decompress(base64.b64decode(payload[len(_COMPRESSED) :])).decode()
    message = json.loads(payload)
    if not isinstance(message, dict):
        raise ValueError("a mailbox message is a JSON object")
    return message


class Mailbox:
    def __init__(self, connection: asyncpg.Connection, name: str, path: str, url: str = "") -> None:
        self._connection = connection
        self.name = name
        self.path = path
        self.url = url  # to open it again (it holds the password: never logged)
        self._sending = asyncio.Lock()  # one connection runs one statement at a time

    @classmethod
    async def open(cls, url: str, *, name: str, on_message: Callable[[dict], Any]) -> Mailbox:
        path = shown(url)
        try:
            connection = await asyncpg.connect(
                url, timeout=CONNECT_TIMEOUT, server_settings={"application_name": application_name(name)}
            )

            def received(_: object, __: int, ___: str, payload: object) -> None:
                try:
                    message = decode(str(payload))
                except (ValueError, zlib.error) as error:
                    log.error("mailbox %s: a message that cannot be read was dropped: %s", name, error)
                    return
                on_message(message)

            await connection.add_listener(channel_of(name), received)
        except CLUSTER_ERRORS as error:
            raise translate(error, path) from error
        return cls(connection, name, path, url)

    async def send(self, to: str, message: dict) -> None:
        """Hand ``message`` to the process called ``to`` (ValueError if it is too large for a NOTIFY)."""
        payload = encode(message)
        try:
            async with self._sending:
                await self._connection.execute("SELECT pg_notify($1, $2)", channel_of(to), payload)
        except CLUSTER_ERRORS as error:
            raise translate(error, self.path) from error

    @property
    def closed(self) -> bool:
        """The connection ended (the server restarted, the network dropped): nothing arrives any more."""
        return self._connection.is_closed()

    async def close(self) -> None:
        if not self._connection.is_closed():
            await self._connection.close()
