"""Messages between processes over PostgreSQL LISTEN/NOTIFY: a raw interaction reaches the named process
whole, a large one compressed, one too large for a NOTIFY is refused, and others' messages stay theirs."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from data.mailbox import LIMIT, Mailbox, decode, encode


def interaction(size: int) -> dict:
    """A DM button click as Discord sends it, its message padded to about ``size`` bytes."""
    rng = random.Random(size)
    return {
        "type": 3,
        "id": "1323802874114736128",
        "token": "aW50ZXJhY3Rpb246" + "".join(rng.choice("abcdef0123456789") for _ in range(150)),
        "channel_id": "1323802873053577216",
        "user": {"id": "41771983423143937", "username": "小明"},
        "data": {"custom_id": "mj:t:12:3:discard:5m", "component_type": 2},
        "message": {"id": "1", "content": "你的手牌 " * (size // 16), "components": []},
    }


class Inbox:
    def __init__(self) -> None:
        self.messages: list[dict] = []
        self.arrived = asyncio.Event()

    def __call__(self, message: dict) -> None:
        self.messages.append(message)
        self.arrived.set()

    async def next(self) -> dict:
        await asyncio.wait_for(self.arrived.wait(), 5)
        self.arrived.clear()
        return self.messages[-1]


async def test_a_click_reaches_the_named_process_whole(pg_target: str) -> None:
    zero_inbox, owner_inbox, other_inbox = Inbox(), Inbox(), Inbox()
    zero = await Mailbox.open(pg_target, name="shards 0-3", on_message=zero_inbox)
    owner = await Mailbox.open(pg_target, name="shards 4-7", on_message=owner_inbox)
    other = await Mailbox.open(pg_target, name="shards 8-11", on_message=other_inbox)
    try:
        for size in (2_000, 40_000):  # the second goes compressed
            click = interaction(size)
            await zero.send("shards 4-7", {"interaction": click})
            assert await owner_inbox.next() == {"interaction": click}
        await owner.send("shards 0-3", {"answered": "1323802874114736128"})
        assert await zero_inbox.next() == {"answered": "1323802874114736128"}
        await asyncio.sleep(0.05)
        assert other_inbox.messages == [] and len(owner_inbox.messages) == 2
    finally:
        for mailbox in (zero, owner, other):
            await mailbox.close()


def test_messages_round_trip_and_too_large_ones_are_refused() -> None:
    small, large = interaction(1_000), interaction(60_000)
    assert decode(encode(small)) == small and not encode(small).startswith("z:")
    assert len(json.dumps(large)) > LIMIT and decode(encode(large)) == large and len(encode(large)) <= LIMIT
    rng = random.Random(1)
    noise = {"blob": "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(20_000))}
    with pytest.raises(ValueError, match="does not fit"):
        encode(noise)


async def test_messages_sent_at_once_all_arrive(pg_target: str) -> None:
    """Every click of a busy shard 0 is forwarded at once: sends share one connection in turn."""
    got: list[dict] = []
    inbox = await Mailbox.open(pg_target, name="owner", on_message=got.append)
    outbox = await Mailbox.open(pg_target, name="shard 0", on_message=lambda message: None)
    try:
        await asyncio.gather(*(outbox.send("owner", {"n": n}) for n in range(50)))
        for _ in range(100):
            if len(got) == 50:
                break
            await asyncio.sleep(0.02)
        assert sorted(m["n"] for m in got) == list(range(50))
    finally:
        await inbox.close()
        await outbox.close()


async def test_a_mailbox_knows_when_its_connection_ended(pg_target: str) -> None:
    """A server restart or a dropped network ends the listening connection: the cluster opens it afresh."""
    import asyncpg

    mailbox = await Mailbox.open(pg_target, name="owner", on_message=lambda message: None)
    admin = await asyncpg.connect(pg_target)
    try:
        assert not mailbox.closed and mailbox.url == pg_target
        await admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'owner (mailbox)'")
        for _ in range(100):
            if mailbox.closed:
                break
            await asyncio.sleep(0.02)
        assert mailbox.closed
    finally:
        await admin.close()
        await mailbox.close()
