"""No import loop inside ``cogs/`` (issue 38, review §1.2): a module that its own imports lead back to
cannot be read, changed or tested alone, and the loop of eight files that ``cogs/mahjong/`` had hid
behind lazy imports and ``if TYPE_CHECKING`` blocks.

What counts as an import here, read with ``ast`` from every module under ``cogs/``:

* every ``import`` and ``from … import``, wherever it is: at the top, inside a function (a lazy
  import is the same dependency, only paid later), and under ``if TYPE_CHECKING`` (a module typed
  against another cannot be understood or changed without it; such blocks are how a loop gets hidden);
* ``from . import name`` is an import of the submodule ``name`` when there is one, else of the package
  itself (its ``__init__``);
* importing ``a.b.c`` is not counted as importing ``a.b`` as well (Python runs the package's
  ``__init__`` first, but that is the package's business, not a dependency of the importer).

One kind of arrow is set apart: a module of ``cogs/mahjong/`` importing its package (``from . import
Mahjong``, the cog that ``cogs/mahjong/__init__.py`` assembles from every module). That package is the
top of its modules, so those are arrows back up (measured separately in the review), not loops
between peers; the registry work removes them. They are listed in ``BACK_UP``: a new one fails.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOP = "cogs"
COG = "cogs.mahjong"  # the package whose __init__ is the cog built from all its modules

# today's arrows from a module of cogs/mahjong/ up to the cog that imports them all (see the docstring)
BACK_UP = {
    ("cogs.mahjong.clicks", "cogs.mahjong"),
    ("cogs.mahjong.cluster", "cogs.mahjong"),
    ("cogs.mahjong.hall", "cogs.mahjong"),
    ("cogs.mahjong.runner", "cogs.mahjong"),
    ("cogs.mahjong.watch", "cogs.mahjong"),
}


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(root: Path, top: str) -> dict[str, Path]:
    return {module_name(p, root): p for p in sorted((root / top).rglob("*.py"))}


def imported(name: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    """The modules under ``top`` that module ``name`` imports, anywhere in its text."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            target = (node.module or "") if node.level == 0 else ".".join(p for p in (base, node.module) if p)
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                if sub in known:
                    yield sub
                elif target in known:
                    yield target


def import_graph(root: Path = ROOT, top: str = TOP) -> dict[str, set[str]]:
    known = modules(root, top)
    return {name: set(imported(name, path, known)) - {name} for name, path in known.items()}


def back_up(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    return {(a, COG) for a, targets in graph.items() if COG in targets and a.startswith(COG + ".")}


def loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def peer_graph(root: Path = ROOT, top: str = TOP) -> dict[str, set[str]]:
    graph = import_graph(root, top)
    ups = back_up(graph)
    return {a: {b for b in targets if (a, b) not in ups} for a, targets in graph.items()}


def test_the_scan_sees_lazy_and_type_checking_imports(tmp_path: Path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from .a import A\n")
    (package / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\nA = 1\n"
    )
    (package / "b.py").write_text("def later():\n    from . import c\n")
    (package / "c.py").write_text("import pkg.a\n")
    graph = import_graph(tmp_path, "pkg")
    assert graph == {"pkg": {"pkg.a"}, "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.c"}, "pkg.c": {"pkg.a"}}
    assert loops(graph) == [["pkg.a", "pkg.b", "pkg.c"]]


def test_the_scan_reads_the_cogs():
    graph = import_graph()
    assert "cogs.mahjong.clicks" in graph["cogs.mahjong.buttons"]  # at the top
    assert "cogs.i18n" in graph["cogs.mahjong.prompts"]  # a package, from two levels up
    assert "cogs.mahjong" in graph["cogs.mahjong.clicks"]  # under if TYPE_CHECKING


def test_no_import_loop_inside_cogs():
    assert loops(peer_graph()) == []


def test_no_new_arrow_back_up_to_the_cog():
    new = back_up(import_graph()) - BACK_UP
    assert new == set(), "a module of cogs/mahjong/ imports the cog, which imports it: pass what it needs"
