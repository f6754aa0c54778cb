"""``render.warm_up`` leaves nothing for the first real pictures to build: after it, drawing a
hand, a table and score sheets of other states adds no sprite and opens no font."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import render
from engine.meld import Meld, MeldKind
from engine.view import ScoreItem
from render import fonts, hand, scoresheet, sprites, table
from render.demo import synthetic


def _misses() -> tuple[int, ...]:
    return (
        sprites.sprite.cache_info().misses,
        fonts.ui_font.cache_info().misses,
        fonts.face_font.cache_info().misses,
    )


def _long_rows(view):
    """Every seat with many melds and all eight flowers: the table's smallest row scales."""
    kongs = tuple(Meld(MeldKind.KONG, (t,) * 4, claimed=t, source=0) for t in (0, 9, 18))
    seats = tuple(
        replace(s, melds=kongs, flowers=tuple(range(34, 42)), concealed_count=4) for s in view.seats
    )
    return replace(view, seats=seats)


def test_first_pictures_after_warm_up_build_no_sprite_and_open_no_font():
    render.warm_up()
    before = _misses()
    state = synthetic(23)
    names = ("Ωμέγα", "عربي", "ไทย 🐉", "Zoë 🇹🇼")  # scripts the demo does not use
    hand.render_hand(state.mine)
    table.render_table(state.public, names)
    table.render_table(_long_rows(state.public), names, bottom=2)
    over = replace(state.public, phase="over", revealed={0: state.mine.concealed})
    table.render_table(over, names)
    table.render_table(over, names, result=state.result, locale="en")  # the settled hand's picture
    scoresheet.render_score(state.result, names, state.public)
    capped = replace(state.result, capped_total=4, limited=True, items=(ScoreItem("門清", 1),) * 9)
    scoresheet.render_score(capped, names)
    long = replace(state.result, flowers=tuple(range(34, 42)))
    scoresheet.render_score(long, names, state.public)
    for locale in ("en", "zh-CN"):  # every language's labels, the claim prompt, a 13-tile hand
        offered = replace(state.mine, phase="claim", drawn=None, offer=(3, 7))
        hand.render_hand(offered, locale=locale)
        hand.render_hand(synthetic(23, rules="hongkong").mine, locale=locale)
        table.render_table(synthetic(23, rules="hongkong").public, names, locale=locale)
        table.render_table(replace(state.public, seats=_long_names(state.public)), LONG_NAMES, locale=locale)
    assert _misses() == before


LONG_NAMES = ("x" * 32, "麻将王很长的名字一二三四五六七八九十", "Alexandria Montgomery", "🀄" * 32)


def _long_names(view):
    """Seats whose plates must pick smaller name sizes and a shrunk status line."""
    return tuple(replace(s, ready=True, auto=True) for s in view.seats)


def test_every_sprite_use_is_a_real_scale():
    for scale, variant, rotation in render.sprite_uses():
        assert variant in sprites.VARIANTS and rotation in (0, 90, 180, 270) and scale > 0


def test_a_warm_up_told_to_stop_ends_at_once_and_builds_no_more_sprites():
    """The bot sets ``stop`` at shutdown: a process ending does not wait seconds for pictures nobody sees."""
    import threading

    stop = threading.Event()
    stop.set()
    before = sprites.sprite.cache_info().misses
    render.warm_up(("sakura",), stop=stop)  # a theme no test draws every sprite of
    assert sprites.sprite.cache_info().misses == before


def test_a_cold_picture_worker_reads_requests_without_warming_up(monkeypatch):
    """``python -m render.worker --cold`` (the bot's MAHJONG_WARM_UP=0) draws each sprite when first used."""
    import io

    from render import worker

    warmed = []
    monkeypatch.setattr(worker, "warm_up", lambda: warmed.append(True))
    monkeypatch.setattr(worker.sys, "stdin", io.TextIOWrapper(io.BytesIO(worker.frame((1, "ready", (), {})))))
    answers = io.BytesIO()
    monkeypatch.setattr(worker.sys, "stdout", io.TextIOWrapper(answers))
    assert worker.main(["--cold"]) == 0 and warmed == []
    assert worker.main([]) == 0 and warmed == [True]


def test_a_picture_worker_whose_bot_died_ends_quietly():
    """A SIGKILLed bot leaves its worker writing into a pipe nobody reads: it ends, exit 0, and says nothing
    (its traceback was an error in every bench.cluster run that killed a process)."""
    import subprocess
    import sys

    from render import worker

    child = subprocess.Popen(
        [sys.executable, "-m", "render.worker", "--cold"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=Path(worker.__file__).resolve().parents[1],
    )
    assert child.stdin is not None and child.stdout is not None and child.stderr is not None
    child.stdout.close()  # the bot is gone: nobody reads the answers
    child.stdin.write(worker.frame((1, "ready", (), {})))
    child.stdin.close()
    assert child.wait(timeout=60) == 0
    assert child.stderr.read() == b""
