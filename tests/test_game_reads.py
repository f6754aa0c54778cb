"""The host's only window onto a table is ``table/`` (issue 38): nothing under ``cogs/`` imports the engine's game
modules (``engine.game``, ``engine.match``, ``engine.prompt``, ``engine.hints``) or reads the ``game`` or
``match`` of a session or a runner. What a message shows comes from the screens ``TableSession.screen(who)``
hands out (table/screens.py), which re-export the few engine values the views need (Prompt, Ask, ReadyDiscard).

And the session's surface, as the host uses it, is four names: ``handle(input, now)`` for every change,
``screen(who)`` and ``phase`` for everything it needs to know, ``table_id``. The scan counts every attribute
read, call or assignment on an expression named ``session`` (a name, or an attribute such as
``runner.session``) under ``cogs/``; any other name is a session field read, or an old entry point."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = ("engine.game", "engine.match", "engine.prompt", "engine.hints")
HOLDERS = ("session", "runner")  # names (or attributes) that hold a table: cog code reaches it through them
ALLOWED: set[str] = set()  # modules excused from the scan: none (runner.py left it with issue 38 item 2)
SURFACE = frozenset({"handle", "screen", "table_id", "phase"})  # all of a session the host may touch


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


def _session(node: ast.expr) -> bool:
    """``session``, ``self.session``, ``runner.session`` …: an expression naming a table session."""
    if isinstance(node, ast.Name):
        return node.id == "session"
    return isinstance(node, ast.Attribute) and node.attr == "session"


def beyond_the_surface(source: str) -> list[tuple[int, str]]:
    """Each attribute of a session that ``source`` touches (reads, calls, assigns) other than the four of
    :data:`SURFACE`."""
    return [
        (node.lineno, f"session.{node.attr}")
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute) and _session(node.value) and node.attr not in SURFACE
    ]


def cog_leaks(scan: Callable[[str], list[tuple[int, str]]] = leaks) -> list[str]:
    out = []
    for path in sorted((ROOT / "cogs").rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative in ALLOWED:
            continue
        out += [f"{relative}:{line} {what}" for line, what in scan(path.read_text(encoding="utf-8"))]
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


def test_no_module_is_excepted():
    assert ALLOWED == set()


def test_the_surface_scan_finds_each_field_and_old_entry_point():
    source = (
        "a = runner.session.closed\nb = session.version\nrunner.session.join(1, 'x')\nself.session.left = set()\n"
        "c = runner.session.handle(i, 0.0)\nd = session.screen(TABLE).view\ne = runner.session.phase.closed\n"
        "f = session.table_id\ng = screen.closed\n"
    )
    assert sorted(line for line, _ in beyond_the_surface(source)) == [1, 2, 3, 4]


def test_the_host_touches_a_session_only_through_its_surface():
    assert cog_leaks(beyond_the_surface) == []
