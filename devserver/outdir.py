"""Which OUTDIR a sandbox run may write into, so that no run ever writes over another's transcript
and pictures (an earlier run's links would then show the wrong images).

* A missing or empty folder: a fresh run.
* A folder whose run was stopped before it finished (killed mid-hand) and that stored its table in
  ``--db FILE``: run again with the same FILE, and the run continues that folder — its transcript
  goes on below a "Resumed" heading and its pictures are numbered after the ones already there.
* Anything else (a finished run, a run without ``--db``, another FILE, files of your own): refused
  with one line saying why, before anything starts.

``sandbox.json`` in the folder remembers the database and the table of the run, and whether it
finished.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

MARKER = "sandbox.json"


class OutdirRefused(Exception):
    """This OUTDIR cannot be written; the message is the one line to print."""


@dataclass
class Outdir:
    path: Path
    db: Path | None  # resolved; None: the run's table lives in memory only
    table: int | None = None  # the run's table, once it exists
    continuing: bool = False  # this run continues a stopped run's transcript

    @classmethod
    def claim(cls, path: Path, db: Path | None) -> Outdir:
        """The folder for a run storing its table in ``db``; OutdirRefused if it may not be written."""
        db = db.resolve() if db is not None else None
        if path.exists() and not path.is_dir():
            raise OutdirRefused(f"{path} is a file: give a new or empty folder for the transcript")
        if not path.exists() or not any(path.iterdir()):
            path.mkdir(parents=True, exist_ok=True)
            fresh = cls(path, db)
            fresh.save(finished=False)
            return fresh
        stored = _read_marker(path / MARKER)
        if stored is None:
            raise OutdirRefused(
                f"{path} is not empty: give a new or empty folder (a sandbox run never writes over other files)"
            )
        if stored.get("finished"):
            raise OutdirRefused(f"{path} holds a finished sandbox run: give a new or empty folder")
        if stored.get("db") is None:
            raise OutdirRefused(
                f"{path} holds a run that was stopped and stored nowhere (no --db): give a new or empty folder"
            )
        if db is None or str(db) != stored["db"]:
            raise OutdirRefused(
                f"{path} holds a stopped run stored in {stored['db']}: continue it with --db {stored['db']}, "
                "or give a new or empty folder"
            )
        table = stored.get("table")
        return cls(path, db, table if isinstance(table, int) else None, continuing=True)

    def save(self, *, finished: bool) -> None:
        marker = {"db": str(self.db) if self.db is not None else None, "table": self.table, "finished": finished}
        (self.path / MARKER).write_text(json.dumps(marker) + "\n", encoding="utf-8")


def _read_marker(path: Path) -> dict | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
