"""Which OUTDIR a sandbox run may write (devserver/outdir.py), and a continued transcript that never
reuses a picture's name (devserver/transcript.py)."""

from __future__ import annotations

import json

import pytest

from devserver.outdir import MARKER, Outdir, OutdirRefused
from devserver.recorder import Attachment, Message
from devserver.transcript import Transcript

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 16


def stopped_run(out, db, *, table=7, finished=False):
    out.mkdir(parents=True, exist_ok=True)
    (out / "transcript.md").write_text("# Mahjong sandbox transcript\n", encoding="utf-8")
    (out / MARKER).write_text(json.dumps({"db": str(db) if db else None, "table": table, "finished": finished}))


def test_a_missing_or_empty_outdir_is_a_fresh_run(tmp_path):
    for out in (tmp_path / "new" / "deeper", tmp_path / "empty"):
        if out.name == "empty":
            out.mkdir()
        claimed = Outdir.claim(out, None)
        assert not claimed.continuing and out.is_dir()
        assert json.loads((out / MARKER).read_text()) == {"db": None, "table": None, "finished": False}


def test_a_folder_with_other_files_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(OutdirRefused, match="is not empty"):
        Outdir.claim(tmp_path, tmp_path / "db.sqlite3")
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_a_file_is_refused(tmp_path):
    path = tmp_path / "out"
    path.write_text("x")
    with pytest.raises(OutdirRefused, match="is a file"):
        Outdir.claim(path, None)


def test_a_finished_run_is_refused_even_with_its_database(tmp_path):
    db = (tmp_path / "db.sqlite3").resolve()
    stopped_run(tmp_path / "out", db, finished=True)
    with pytest.raises(OutdirRefused, match="holds a finished sandbox run"):
        Outdir.claim(tmp_path / "out", db)


def test_a_stopped_run_without_a_database_cannot_be_continued(tmp_path):
    stopped_run(tmp_path / "out", None)
    with pytest.raises(OutdirRefused, match="stored nowhere"):
        Outdir.claim(tmp_path / "out", tmp_path / "db.sqlite3")


def test_a_stopped_run_is_continued_only_with_its_own_database(tmp_path):
    db = (tmp_path / "db.sqlite3").resolve()
    stopped_run(tmp_path / "out", db)
    with pytest.raises(OutdirRefused, match=f"continue it with --db {db}"):
        Outdir.claim(tmp_path / "out", tmp_path / "other.sqlite3")
    with pytest.raises(OutdirRefused, match=f"continue it with --db {db}"):
        Outdir.claim(tmp_path / "out", None)
    claimed = Outdir.claim(tmp_path / "out", tmp_path / "x" / ".." / "db.sqlite3")  # the same file, spelt otherwise
    assert claimed.continuing and claimed.table == 7 and claimed.db == db


def test_a_continued_transcript_numbers_its_pictures_after_the_ones_there(tmp_path):
    images = tmp_path / "images"
    images.mkdir()
    for name in ("0001-table.png", "0041-hand.png"):
        (images / name).write_bytes(b"old")
    (tmp_path / "transcript.md").write_text("# Mahjong sandbox transcript\n\nearlier\n", encoding="utf-8")
    transcript = Transcript(tmp_path, person_id=5)
    message = Message(id=9, channel_id=1, author={}, content="hi", dm_with=5)
    message.attachments.append(Attachment(1, "hand.png", PNG))
    transcript.seen(message, "new")
    assert (images / "0042-hand.png").read_bytes() == PNG
    assert (images / "0041-hand.png").read_bytes() == b"old"
    text = (tmp_path / "transcript.md").read_text(encoding="utf-8")
    assert text.startswith("# Mahjong sandbox transcript\n\nearlier\n") and "](images/0042-hand.png)" in text
    assert transcript.written == 1


def test_what_arrives_while_held_is_written_after_the_heading(tmp_path):
    transcript = Transcript(tmp_path, person_id=5)
    transcript.hold()
    transcript.seen(Message(id=9, channel_id=1, author={}, content="🔄 I restarted"), "new")
    transcript.note("Resumed at hand 2")
    transcript.release()
    text = (tmp_path / "transcript.md").read_text(encoding="utf-8")
    assert text.index("## Resumed at hand 2") < text.index("I restarted")
