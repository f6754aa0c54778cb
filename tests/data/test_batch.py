"""data.batch.GroupWriter: requests that arrive while a batch is written go in the next one, together."""

from __future__ import annotations

import asyncio

import pytest

from data.batch import GroupWriter


class Recorder:
    def __init__(self, refuse: set[str] | None = None) -> None:
        self.batches: list[list[str]] = []
        self.alone: list[str] = []
        self.refuse = refuse or set()

    async def many(self, requests: list[str]) -> None:
        await asyncio.sleep(0.01)
        if self.refuse & set(requests):
            raise ValueError("refused whole")
        self.batches.append(list(requests))

    async def one(self, request: str) -> None:
        await asyncio.sleep(0)
        if request in self.refuse:
            raise ValueError(request)
        self.alone.append(request)


async def test_requests_arriving_together_are_written_in_one_batch() -> None:
    recorder = Recorder()
    writer = GroupWriter(recorder.many, recorder.one)
    first = asyncio.create_task(writer.submit("a"))
    await asyncio.sleep(0)  # "a" is being written alone; the next ones wait for one batch
    await asyncio.gather(first, *(writer.submit(x) for x in "bcde"))
    assert recorder.alone == ["a"] and recorder.batches == [list("bcde")]


async def test_a_refused_batch_is_written_request_by_request_and_only_the_bad_one_fails() -> None:
    recorder = Recorder(refuse={"c"})
    writer = GroupWriter(recorder.many, recorder.one)
    results = await asyncio.gather(*(writer.submit(x) for x in "abcd"), return_exceptions=True)
    assert [type(r) for r in results] == [type(None), type(None), ValueError, type(None)]
    assert recorder.batches == [] and recorder.alone == ["a", "b", "d"]


async def test_a_cancelled_writer_leaves_nobody_waiting() -> None:
    started = asyncio.Event()

    async def slow(requests: list[str]) -> None:
        started.set()
        await asyncio.sleep(10)

    writer: GroupWriter[str] = GroupWriter(slow, Recorder().one)
    waiting = [asyncio.create_task(writer.submit(x)) for x in "ab"]
    await started.wait()
    assert writer._task is not None
    writer._task.cancel()
    for task in waiting:
        with pytest.raises(asyncio.CancelledError):
            await task
