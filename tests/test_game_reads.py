"""Outside ``engine/`` and ``table/`` a ``Game`` is read only through its view, its prompts and its public
queries (issue 27): its working fields (the open claim, the phase, who declared 聽, the wall) stay the
engine's, so texts, buttons and pictures cannot drift from what a seat is allowed to know."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# what a host, a picture or a benchmark may ask a game: views, prompts, the move API and the record
PUBLIC = {
    "view", "prompt", "legal_actions", "is_legal", "apply", "to_act", "auto_seats", "auto_action",
    "declarations", "header", "is_over", "hand_number", "events", "log", "outcome", "dealer", "dealer_streak",
}
OUTSIDE = ["cogs", "render", "devserver", "bench", "data", "ranking", "bot.py"]


def game_reads() -> list[tuple[str, int, str]]:
    found = []
    for root in OUTSIDE:
        paths = [ROOT / root] if root.endswith(".py") else sorted((ROOT / root).rglob("*.py"))
        for path in paths:
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Attribute):
                    continue
                owner = node.value
                name = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else ""
                if name in ("game", "finished_hand"):
                    found.append((str(path.relative_to(ROOT)), node.lineno, node.attr))
    return found


def test_nothing_outside_the_engine_and_the_table_reads_a_games_working_fields():
    reads = game_reads()
    assert reads, "the scan finds the host's reads (payloads.py reads game.view)"
    private = [f"{path}:{line} game.{attr}" for path, line, attr in reads if attr not in PUBLIC]
    assert private == []
