"""cogs.mahjong.pictures: a worker process draws the same bytes as a thread; the setting is checked."""

from __future__ import annotations

import asyncio

import pytest

import bot as entry
import render
from cogs.mahjong.pictures import Painter
from render.demo import hand_screen, synthetic


async def test_a_worker_process_draws_the_very_picture_a_thread_draws() -> None:
    demo = synthetic()
    threads, workers = Painter(0), Painter(1)
    try:
        await workers.warm_up()
        for draw, args in (
            (render.render_hand, (demo.mine,)),
            (render.render_table, (demo.public, list(demo.names))),
        ):
            in_thread = await threads.draw(draw, *args, locale="zh-TW")
            in_worker = await workers.draw(draw, *args, locale="zh-TW")
            assert in_worker == in_thread and in_worker.startswith(b"\x89PNG")
        screen = hand_screen(demo.claim)  # the DM picture: the seat's whole screen goes down the pipe
        assert await workers.draw(render.render_dm, screen) == await threads.draw(render.render_dm, screen)
    finally:
        await workers.close()


def test_the_environment_chooses_the_picture_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("MAHJONG_PICTURE_WORKERS", "3")
    assert entry.Config.from_env().picture_workers == 3
    monkeypatch.delenv("MAHJONG_WARM_UP", raising=False)  # the suite's own setting (tests/conftest.py)
    assert entry.Config.from_env().warm_up is True
    monkeypatch.setenv("MAHJONG_WARM_UP", "0")  # the caches filled as pictures need them
    assert entry.Config.from_env().warm_up is False
    monkeypatch.setenv("MAHJONG_PICTURE_WORKERS", "some")
    with pytest.raises(SystemExit, match="MAHJONG_PICTURE_WORKERS"):
        entry.Config.from_env()


async def test_a_worker_that_dies_costs_no_picture_and_is_started_again() -> None:
    demo = synthetic()
    painter = Painter(1, warm=False)  # twice 10 s of warm-up would test nothing more
    try:
        first = await painter.draw(render.render_hand, demo.mine)
        [worker] = painter.workers
        assert worker.process is not None
        worker.process.kill()
        await worker.process.wait()
        again = await painter.draw(render.render_hand, demo.mine)  # drawn here while the worker is gone
        assert again == first
        later = await painter.draw(render.render_hand, demo.mine)  # and by a new worker
        assert later == first and worker.alive
    finally:
        await painter.close()


async def test_only_the_known_drawings_go_to_a_worker() -> None:
    painter = Painter(1, warm=False)
    try:
        assert await painter.draw(sorted, [3, 1, 2]) == [1, 2, 3]  # not a drawing: a thread
        assert painter.workers[0].process is None  # no worker was started for it
    finally:
        await painter.close()


async def test_when_pictures_queue_a_hand_goes_before_the_tables_asked_earlier() -> None:
    import pickle

    from cogs.mahjong.pictures import DEPTH, _Worker
    from render.worker import HEADER

    class Pipe:
        def __init__(self) -> None:
            self.sent: list[str] = []

        def write(self, data: bytes) -> None:
            self.sent.append(pickle.loads(data[HEADER:])[1])

    class Process:
        returncode = None
        stdin = Pipe()

    loop = asyncio.get_running_loop()
    worker = _Worker()
    worker.process = Process()  # type: ignore[assignment]
    worker.reader = asyncio.create_task(asyncio.sleep(60))
    worker.starting = loop.create_future()
    worker.starting.set_result(None)
    worker.waiting = {-1 - n: loop.create_future() for n in range(DEPTH)}  # the pipe is full
    names = ("render_table", "render_table", "render_score", "render_hand")
    drawing = [asyncio.create_task(worker.draw(name, (), {})) for name in names]
    await asyncio.sleep(0)
    assert Process.stdin.sent == []
    for n in range(len(names)):  # the worker answers one picture at a time
        worker.waiting.pop(-1 - n)
        worker._feed()
    assert Process.stdin.sent == ["render_hand", "render_score", "render_table", "render_table"]
    for task in (*drawing, worker.reader):
        task.cancel()
