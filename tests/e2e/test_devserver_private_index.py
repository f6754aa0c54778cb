"""The stand-in finds each person's own messages through an index and wakes only them (issue 30)."""

from __future__ import annotations

import asyncio

from devserver.recorder import EPHEMERAL, Message, Recorder


def _message(recorder: Recorder, number: int, *, dm_with: int | None = None, ephemeral_to: int | None = None) -> Message:
    flags = EPHEMERAL if ephemeral_to is not None else 0
    return recorder.add(
        Message(number, channel_id=7, author={}, content=f"m{number}", dm_with=dm_with, ephemeral_to=ephemeral_to, flags=flags)
    )


def test_a_person_private_messages_are_their_dms_and_ephemerals_oldest_first():
    recorder = Recorder()
    _message(recorder, 1)  # the channel's: everyone's, nobody's own
    _message(recorder, 2, dm_with=10)
    _message(recorder, 3, ephemeral_to=11)
    _message(recorder, 4, ephemeral_to=10)
    _message(recorder, 5, dm_with=11)
    assert [m.id for m in recorder.private_to(10)] == [2, 4]
    assert [m.id for m in recorder.private_to(11)] == [3, 5]
    assert recorder.private_to(12) == []


async def test_a_waiting_person_is_woken_by_their_own_message_only():
    recorder = Recorder()
    checks = {"n": 0}

    def check() -> Message | None:
        checks["n"] += 1
        return next((m for m in recorder.private_to(10) if m.content == "prompt"), None)

    waiter = asyncio.ensure_future(recorder.wait_private(10, check, 5.0, lambda: "a prompt"))
    await asyncio.sleep(0)
    for number in range(20):  # other people's changes: the waiter is not run again
        _message(recorder, 100 + number, dm_with=11)
    await asyncio.sleep(0.01)
    before = checks["n"]
    prompt = _message(recorder, 200, dm_with=10)
    prompt.content = "prompt"
    recorder.touched(prompt)
    assert await waiter is prompt and before == 1
