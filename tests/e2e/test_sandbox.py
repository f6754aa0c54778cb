"""python bot.py --sandbox: a whole run writes what the person saw; --hands counts the table's hands,
so a run killed mid-hand (SIGKILL) and run again with the same --db plays exactly the hands asked for,
continuing its own OUTDIR or starting a new one; any other used OUTDIR is refused with one line."""

from __future__ import annotations

import json
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from devserver.sandbox import SHOWCASE_SEEDS

ROOT = Path(__file__).resolve().parents[2]


def sandbox(out: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "bot.py", "--sandbox", str(out), *extra],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finished(run: subprocess.Popen, timeout: float = 300) -> str:
    output, errors = run.communicate(timeout=timeout)
    assert run.returncode == 0, output + errors
    return output
def finished_hands(db: Path) -> int:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT COUNT(*) FROM hands WHERE finished_at IS NOT NULL").fetchone()[0]


def kill_mid_hand(run: subprocess.Popen, db: Path, *, after_hands: int) -> None:
    """SIGKILL the run once ``after_hands`` hands are finished and the next one is a few moves in."""
    deadline = time.monotonic() + 120
    while finished_hands_or_zero(db) < after_hands or stored_moves_of_an_unfinished_hand(db) < 3:
        assert run.poll() is None and time.monotonic() < deadline, "the first run should be mid-hand"
        time.sleep(0.01)
    run.send_signal(signal.SIGKILL)
    run.wait()


def finished_hands_or_zero(db: Path) -> int:
    try:
        return finished_hands(db)
    except sqlite3.Error:
        return 0


def stored_moves_of_an_unfinished_hand(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
            row = con.execute(
                "SELECT COUNT(*) FROM moves m JOIN hands h ON h.id = m.hand_id WHERE h.finished_at IS NULL"
            ).fetchone()
            return row[0] if row else 0
    except sqlite3.Error:
        return 0


def files_of(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def linked_images(out: Path) -> list[str]:
    return re.findall(r"\]\((images/[^)]+)\)", (out / "transcript.md").read_text(encoding="utf-8"))


def test_the_sandbox_writes_a_transcript_with_every_image(tmp_path):
    out = tmp_path / "out"
    finished(sandbox(out, "--hands", "1", "--seed", "2"))
    text = (out / "transcript.md").read_text(encoding="utf-8")
    assert "抓位" in text and "Leaderboard" in text and "小明 Ming 🀄" in text
    images = sorted((out / "images").iterdir())
    assert any(p.name.endswith("hand.png") for p in images) and any(p.name.endswith("table.png") for p in images)
    assert any(p.name.endswith("score.png") for p in images)
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in images)
    assert sorted(linked_images(out)) == [f"images/{p.name}" for p in images]  # one link per picture


def test_the_rules_and_language_options_reach_the_table_and_the_person(tmp_path):
    out = tmp_path / "out"
    finished(sandbox(out, "--rules", "hongkong", "--lang", "zh-TW"))  # one hand, the showcase seed
    text = (out / "transcript.md").read_text(encoding="utf-8")
    assert f"A new table: hongkong, 1 hand(s), seed {SHOWCASE_SEEDS['hongkong']}, language zh-TW" in text
    assert "🀄 麻將桌 · 香港麻將" in text  # the lobby, in the server's language
    assert "`過`" in text  # the person's buttons, in their language
    assert re.search(r"^> 🀄 \*\*胡！\*\* \*\*小明 Ming 🀄\*\* (胡了|自摸)第 1 局", text, re.M)  # and the person wins it


def test_a_sandbox_killed_mid_hand_continues_its_outdir_and_plays_the_hands_asked_for(tmp_path):
    out, db = tmp_path / "out", tmp_path / "sandbox.sqlite3"
    command = ("--hands", "3", "--seed", "4", "--db", str(db))
    kill_mid_hand(sandbox(out, *command), db, after_hands=1)
    assert finished_hands(db) == 1 and stored_moves_of_an_unfinished_hand(db) >= 3  # killed in hand 2
    before = files_of(out)

    finished(sandbox(out, *command))  # the same command again
    assert finished_hands(db) == 3
    text = (out / "transcript.md").read_text(encoding="utf-8")
    assert text.index("A new table") < text.index("Resumed at hand 2") < text.index("I restarted")
    assert "Done: 3 hand(s) at the table, 2 in this run" in text
    after = files_of(out)
    # the first run's pictures are untouched, the second run's are numbered after them, one link each
    assert all(after[name] == data for name, data in before.items() if name.startswith("images/"))
    links = linked_images(out)
    assert len(links) == len(set(links)) == len([n for n in after if n.startswith("images/")])


def test_a_resumed_sandbox_plays_the_hands_it_was_asked_for_in_total(tmp_path):
    """--hands N counts the table's hands: a run killed in hand 2 of 3 and resumed (into a new OUTDIR)
    plays hands 2 and 3, then stops (it used to play the whole four-round match)."""
    db = tmp_path / "sandbox.sqlite3"
    kill_mid_hand(sandbox(tmp_path / "first", "--hands", "3", "--seed", "4", "--db", str(db)), db, after_hands=1)
    assert finished_hands(db) == 1 and stored_moves_of_an_unfinished_hand(db) >= 3

    finished(sandbox(tmp_path / "second", "--hands", "3", "--seed", "4", "--db", str(db)))
    assert finished_hands(db) == 3
    text = (tmp_path / "second" / "transcript.md").read_text(encoding="utf-8")
    assert "Resumed at hand 2" in text and "Done: 3 hand(s) at the table, 2 in this run" in text


def test_a_run_into_a_used_outdir_is_refused_with_one_line_and_changes_nothing(tmp_path):
    out, db = tmp_path / "out", tmp_path / "sandbox.sqlite3"
    finished(sandbox(out, "--hands", "1", "--seed", "2", "--db", str(db)))
    before = files_of(out)
    for extra in ((), ("--db", str(db))):  # a finished run: refused with or without its database
        again = sandbox(out, "--hands", "1", "--seed", "2", *extra)
        output, errors = again.communicate(timeout=60)
        assert again.returncode == 2, output + errors
        assert errors.count("\n") == 1 and f"{out} holds a finished sandbox run" in errors
        assert output == ""
    assert files_of(out) == before
    nothing = sandbox(tmp_path / "other", "--hands", "0")
    output, errors = nothing.communicate(timeout=60)
    assert nothing.returncode == 2 and "--hands: expected a whole number of at least 1" in errors
    assert not (tmp_path / "other").exists()


def test_continuing_a_run_whose_table_had_finished_plays_no_new_table(tmp_path):
    """Killed after its table ended but before it said so: the same command again finds nothing to
    resume, says so, and starts no second table in that transcript."""
    out, db = tmp_path / "out", tmp_path / "sandbox.sqlite3"
    command = ("--hands", "1", "--seed", "2", "--db", str(db))
    finished(sandbox(out, *command))
    marker = json.loads((out / "sandbox.json").read_text())
    (out / "sandbox.json").write_text(json.dumps({**marker, "finished": False}))  # as if killed at the end
    with sqlite3.connect(db) as con:
        tables = con.execute("SELECT COUNT(*) FROM tables").fetchone()[0]

    finished(sandbox(out, *command))
    text = (out / "transcript.md").read_text(encoding="utf-8")
    assert f"Nothing to resume: table {marker['table']}" in text and text.count("A new table") == 1
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM tables").fetchone()[0] == tables
    assert json.loads((out / "sandbox.json").read_text())["finished"] is True


def test_a_picture_saved_just_before_a_kill_is_linked_once_when_the_transcript_continues(tmp_path):
    from devserver.transcript import Transcript

    out = tmp_path / "out"
    Transcript(out, person_id=1)
    (out / "images" / "0001-hand.png").write_bytes(b"png")  # saved; the kill came before its line
    Transcript(out, person_id=1)
    Transcript(out, person_id=1)  # and again: already linked
    assert linked_images(out) == ["images/0001-hand.png"]
