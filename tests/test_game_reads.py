"""The host's only window onto a table is ``table/`` (issue 38): nothing under ``cogs/`` imports the engine's game
modules (``engine.game``, ``engine.match``, ``engine.prompt``, ``engine.hints``) or reads the ``game`` or
``match`` of a session or a runner. What a message shows comes from the screens ``TableSession.screen(who)``
hands out (table/screens.py), which re-export the few engine values the views need (Prompt, Ask, ReadyDiscard)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = ("engine.game", "engine.match", "engine.prompt", "engine.hints")
HOLDERS = ("session", "runner")  # names (or attributes) that hold a table: cog code reaches it through them
# runner.py is being rewritten in parallel (issue 38 item 2: effects that carry their content, w-effects);
# it leaves this list when that lands
ALLOWED = {"cogs/mahjong/runner.py"}


def _forbidden_module(name: str) -> bool:
    return any(name == m or name.startswith(m + ".") for m in FORBIDDEN)


def _holder(node: ast.expr) -> bool:
    """``session``, ``runner``, ``self.session``, ``x.runner`` …: an expression naming a table's holder."""
    if isinstance(node, ast.Name):
        return node.id in HOLDERS
    return isinstance(node, ast.Attribute) and node.attr in HOLDERS


def leaks(source: str) -> list[tuple[int, str]]:
    """Each line of ``source`` that imports an engine game module or reads a session's or a runner's game."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, f"import {a.name}") for a in node.names if _forbidden_module(a.name)]
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            if _forbidden_module(node.module):
                found.append((node.lineno, f"from {node.module} import …"))
            elif node.module == "engine":
                found += [(node.lineno, f"from engine import {a.name}") for a in node.names
                          if _forbidden_module(f"engine.{a.name}")]
        elif isinstance(node, ast.Attribute) and node.attr in ("game", "match") and _holder(node.value):
            found.append((node.lineno, f"….{node.attr}"))
    return found


def cog_leaks() -> list[str]:
    out = []
    for path in sorted((ROOT / "cogs").rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative in ALLOWED:
            continue
        out += [f"{relative}:{line} {what}" for line, what in leaks(path.read_text(encoding="utf-8"))]
    return out


def test_the_scan_finds_each_kind_of_leak():
    source = (
        "import engine.game\nfrom engine.match import Match\nfrom engine import prompt\n"
        "from engine.hints import ready_discards\nx = session.game\ny = self.runner.match\n"
        "from engine.view import GameView\nz = screen.view\nw = re.match('a', 'b')\n"
    )
    assert [line for line, _ in leaks(source)] == [1, 2, 3, 4, 5, 6]


def test_nothing_under_cogs_reads_a_table_around_its_screens():
    assert cog_leaks() == []


def test_only_the_runner_being_rewritten_is_excepted():
    assert ALLOWED == {"cogs/mahjong/runner.py"} and all((ROOT / path).is_file() for path in ALLOWED)
