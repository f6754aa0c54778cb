"""python bot.py --sandbox: a whole run writes what the person saw; with --db a run killed mid-hand
(SIGKILL) resumes from the stored moves and finishes the hands it was asked for."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def sandbox(out: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "bot.py", "--sandbox", str(out), *extra],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def stored_moves_of_an_unfinished_hand(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
            row = con.execute(
                "SELECT COUNT(*) FROM moves m JOIN hands h ON h.id = m.hand_id WHERE h.finished_at IS NULL"
            ).fetchone()
            return row[0] if row else 0
    except sqlite3.Error:
        return 0


def test_the_sandbox_writes_a_transcript_with_every_image(tmp_path):
    run = sandbox(tmp_path / "out", "--hands", "1", "--seed", "2")
    output, _ = run.communicate(timeout=240)
    assert run.returncode == 0, output
    text = (tmp_path / "out" / "transcript.md").read_text(encoding="utf-8")
    assert "抓位" in text and "Leaderboard" in text and "小明 Ming 🀄" in text
    images = sorted((tmp_path / "out" / "images").iterdir())
    assert any(p.name.endswith("hand.png") for p in images) and any(p.name.endswith("table.png") for p in images)
    assert any(p.name.endswith("score.png") for p in images)
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in images)


def test_a_sandbox_killed_mid_hand_resumes_from_its_database(tmp_path):
    out, db = tmp_path / "out", tmp_path / "sandbox.sqlite3"
    first = sandbox(out, "--hands", "8", "--seed", "4", "--db", str(db))
    deadline = time.monotonic() + 120
    while stored_moves_of_an_unfinished_hand(db) < 5:
        assert first.poll() is None and time.monotonic() < deadline, "the first run should be mid-hand"
        time.sleep(0.01)
    first.send_signal(signal.SIGKILL)
    first.wait()
    assert stored_moves_of_an_unfinished_hand(db) >= 5  # killed with a hand half played

    second = sandbox(out, "--hands", "8", "--seed", "4", "--db", str(db))
    output, _ = second.communicate(timeout=600)
    assert second.returncode == 0, output
    text = (out / "transcript.md").read_text(encoding="utf-8")
    assert "Resumed at hand" in text and "I restarted" in text
    with sqlite3.connect(db) as con:
        finished = con.execute("SELECT COUNT(*) FROM hands WHERE finished_at IS NOT NULL").fetchone()[0]
    assert finished >= 8
