"""A tournament's results as files: the standings as CSV (rank, player, points, duplicate score,
placements), and everything as JSON — the tournament, its standings, and every round's tables with each
table's match log (engine.log), so anyone can verify every deal. A round's key and its tables' keys are in
the files only once ``Tournament.key_may_show`` allows; before, the logs are sealed.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from data import Store
from data.replays import stored_match
from engine import fairness

from .league import Field
from .replay import match_log

CSV_COLUMNS = ("rank", "player", "user_id", "points", "duplicate", "placements", "firsts")


def standings_csv(field: Field) -> bytes:
    names = field.names()
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in field.tournament.standings():
        placements = " ".join(map(str, row.places))
        writer.writerow(
            (row.rank, names.get(row.entrant, ""), row.entrant, row.points, f"{row.duplicate:.2f}", placements, row.firsts)
        )
    return out.getvalue().encode()


async def results_json(store: Store, field: Field) -> bytes:
    """The tournament with every table's match log (sealed while its round may not show its key)."""
    record, tournament = field.record, field.tournament
    names = field.names()
    rounds: list[dict[str, Any]] = []
    for number in range(1, tournament.current + 1):
        shows = tournament.key_may_show(number)  # duplicate walls: once the whole round is over
        tables = []
        for rt in (rt for rt in field.tables if rt.round == number):
            match = await stored_match(store, record.guild_id, rt.table_id) if rt.table_id is not None else None
            log = None
            if match is not None:
                log = json.loads(match_log(match, sealed=not (shows and match.over)))
            tables.append({
                "table": rt.table_no + 1, "table_id": rt.table_id, "seats": list(rt.seats),
                "points": None if rt.points is None else list(rt.points), "log": log,
            })  # fmt: skip
        entry: dict[str, Any] = {"round": number, "byes": list(tournament.seatings[number - 1].byes), "tables": tables}
        if record.duplicate and shows:
            entry["key"] = tournament.table_key(number, 0).hex()
        rounds.append(entry)
    document = {
        "tournament": {
            "id": record.id, "name": record.name, "rules": record.rules, "rounds": record.rounds,
            "hands": record.hands, "duplicate": record.duplicate, "ai_fill": record.ai_fill, "phase": record.phase,
            "commitment": fairness.commitment(record.key),
        },
        "standings": [
            {"rank": s.rank, "player": names.get(s.entrant, ""), "user_id": str(s.entrant), "points": s.points,
             "duplicate": s.duplicate, "placements": s.places}
            for s in tournament.standings()
        ],
        "rounds": rounds,
    }  # fmt: skip
    return json.dumps(document, ensure_ascii=False, indent=1).encode()
