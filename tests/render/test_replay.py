"""Replay pictures: a step shows the table from the chosen seat with every hand face up and the
step's line; the animated hand is one looping GIF that fits Discord's inline preview; the command
line writes a hand's pictures from a match log."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from PIL import Image

from cogs.i18n import tile_label
from cogs.i18n.steps import step_line
from engine.log import export_match, game_header
from engine.replay import CLAIM, KONG, WIN, count, frame_at, frames
from engine.tiles import tile_from_str
from render.replay import compose_step, render_animation
from tests.engine.match_driver import play_match

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("東家", "AI 1", "AI 2", "小明")


def logged(rules: str = "taiwan16", seed: int = 149) -> dict:
    played = play_match(rules, seed, max_hands=4)
    seats = [{"name": n} for n in NAMES]
    return json.loads(json.dumps(export_match(played.match.header(), played.hands, seats=seats)))


def test_a_step_shows_every_hand_face_up_from_the_chosen_seat_under_its_line():
    log = logged()
    match = log["matches"][0]
    hand = match["hands"][0]
    for seat in range(4):
        frame = frame_at(game_header(match, hand), hand["moves"], 20, seat=seat)
        assert frame.view.viewer == seat
        line = step_line("zh-TW", frame.number, frame.events, NAMES)
        cv = compose_step(frame.view, NAMES, line, locale="zh-TW")
        assert cv.texts[-1] == line and line.startswith(f"第 {frame.number} 手 · ")
        for s in range(4):  # every concealed tile of every seat is drawn face up
            tiles = frame.view.revealed[s]
            assert len(tiles) == frame.view.seats[s].concealed_count
            faces = cv.faces
            for t in set(tiles):
                assert faces.count(t) >= tiles.count(t)


def test_step_lines_name_the_player_the_claim_and_the_tile():
    log = logged()
    match = log["matches"][0]
    seen = set()
    for hand in match["hands"]:
        for frame in frames(game_header(match, hand), hand["moves"]):
            events = [e for e in hand["events"] if e["move"] == frame.number]
            assert [dict(e, move=frame.number) for e in frame.events] == events  # the log's own events
            for e in events:
                if e["type"] in ("pon", "kong"):
                    for lang, verb in (("zh-TW", "碰" if e["type"] == "pon" else "槓"), ("en", "pungs" if e["type"] == "pon" else "kongs")):
                        line = step_line(lang, frame.number, frame.events, NAMES)
                        assert f"{NAMES[e['seat']]} {verb} {tile_label(lang, tile_from_str(e['tile']))}" in line
                if e["type"] in ("chi", "pon", "kong"):
                    assert CLAIM in frame.marks
                if e["type"] in ("kong", "ankong", "addkong"):
                    assert KONG in frame.marks
                if e["type"] in ("win", "draw_game"):
                    assert WIN in frame.marks
            seen |= frame.marks
    assert {CLAIM, KONG, WIN} <= seen


def test_frame_at_is_the_same_frame_the_full_replay_gives():
    log = logged("hongkong", 199)
    match = log["matches"][0]
    hand = match["hands"][-1]
    header = game_header(match, hand)
    every = list(frames(header, hand["moves"], seat=2))
    assert len(every) == count(header, hand["moves"])
    for i in (0, 1, len(every) // 2, len(every) - 1):
        one = frame_at(header, hand["moves"], i, seat=2)
        assert (one.index, one.number, one.events, one.view) == (
            every[i].index,
            every[i].number,
            every[i].events,
            every[i].view,
        )
    assert frame_at(header, hand["moves"], 10_000, seat=2).index == len(every) - 1
    assert every[-1].view.phase == "over"


def test_the_animated_hand_is_a_looping_gif_inside_the_inline_preview():
    log = logged("taiwan16", 3)
    match = log["matches"][0]
    hand = max(match["hands"], key=lambda h: len(h["moves"]))
    steps = [(f.view, step_line("en", f.number, f.events, NAMES)) for f in frames(game_header(match, hand), hand["moves"])]
    data = render_animation(steps, NAMES, locale="en")
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF" and gif.n_frames == len(steps) and gif.info.get("loop") == 0
    assert gif.width <= 550 and gif.height <= 550 and len(data) < 8 * 1024 * 1024


def test_the_command_line_writes_a_hands_pictures(tmp_path):
    path = tmp_path / "log.json"
    path.write_text(json.dumps(logged("guangdong", 119)), encoding="utf-8")
    out = tmp_path / "out"
    run = subprocess.run(
        [sys.executable, "-m", "render.replay", str(path), "--hand", "2", "--seat", "3", str(out)],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    pictures = sorted(out.glob("step-*.png"))
    lines = (out / "steps.txt").read_text(encoding="utf-8").splitlines()
    assert len(pictures) == len(lines) >= 2 and lines[0].startswith("000 Deal · ")  # English unless --lang
    assert lines[1].startswith("001 Move 1 · ")
    zh = tmp_path / "zh"
    run = subprocess.run(
        [sys.executable, "-m", "render.replay", str(path), "--hand", "2", "--seat", "3", "--no-animation", "--lang", "zh-CN", str(zh)],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert (zh / "steps.txt").read_text(encoding="utf-8").splitlines()[1].startswith("001 第 1 手 · ")
    assert Image.open(pictures[-1]).size[0] >= 800  # a whole table picture (render.table), not a thumbnail
    assert Image.open(out / "hand.gif").n_frames == len(pictures)

    bad = subprocess.run(
        [sys.executable, "-m", "render.replay", str(path), "--hand", "99", "--seat", "0", str(out)],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    path.write_text("no log", encoding="utf-8")
    nolog = subprocess.run(
        [sys.executable, "-m", "render.replay", str(path), "--hand", "1", "--seat", "0", str(out)],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert nolog.returncode == 2 and len(nolog.stderr.strip().splitlines()) == 1
