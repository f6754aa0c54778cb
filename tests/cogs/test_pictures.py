"""cogs.mahjong.pictures: a worker process draws the same bytes as a thread; the setting is checked."""

from __future__ import annotations

import pytest

import bot as entry
import render
from cogs.mahjong.pictures import Painter
from render.demo import synthetic


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
    finally:
        workers.close()


def test_the_environment_chooses_the_picture_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("MAHJONG_PICTURE_WORKERS", "3")
    assert entry.Config.from_env().picture_workers == 3
    monkeypatch.setenv("MAHJONG_PICTURE_WORKERS", "some")
    with pytest.raises(SystemExit, match="MAHJONG_PICTURE_WORKERS"):
        entry.Config.from_env()
