"""What every command-line tool of the project shares: a bad argument is answered with one line and
exit 2 (argparse's own answer is the whole usage block and then the error), and ``--help`` opens
with the tool's docstring's first paragraph whole (``__doc__.splitlines()[0]`` cut it mid-sentence).

    parser = tool_parser("python -m engine.log", __doc__)

Pure: argparse only.
"""

from __future__ import annotations

import argparse
from typing import Any, NoReturn


class ToolParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose refusal is one line: ``PROG: error: MESSAGE (--help shows the usage)``.
    Subcommand parsers made by ``add_subparsers`` are of the same class, so they refuse alike."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (--help shows the usage)\n")


def summary(doc: str | None) -> str:
    """The first paragraph of ``doc`` as one line: what a tool is, in whole sentences."""
    paragraph = (doc or "").strip().split("\n\n")[0]
    return " ".join(paragraph.split())


def tool_parser(prog: str, doc: str | None, *, whole: bool = False, **kwargs: Any) -> ToolParser:
    """A tool's parser, described by its module docstring's first paragraph (``whole``: the whole
    docstring as it is laid out, for a tool whose docstring is its manual)."""
    if whole:
        return ToolParser(
            prog=prog,
            description=(doc or "").strip(),
            formatter_class=argparse.RawDescriptionHelpFormatter,
            **kwargs,
        )
    return ToolParser(prog=prog, description=summary(doc), **kwargs)
