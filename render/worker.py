"""The process end of the bot's picture workers (cogs/mahjong/pictures.py): drawing requests come in on
stdin and the PNG bytes go back on stdout, one length-prefixed pickle each way, in order.

    python -m render.worker [--cold]

A plain pipe and no threads on either side: the stdlib's process pool feeds its workers from a thread of
the bot's process, and every picture then cost the event loop a GIL hand-off of a few milliseconds.
Only the drawing functions named in ``DRAWINGS`` can be asked for.
"""

from __future__ import annotations

import os
import pickle
import sys
from collections.abc import Callable
from typing import Any, BinaryIO

from . import render_dm, render_hand, render_score, render_table, warm_up


def ready() -> bytes:
    """Answered once the worker's caches are warm (it warms them before reading any request)."""
    return b""


DRAWINGS: dict[str, Callable[..., bytes]] = {
    "render_dm": render_dm,
    "render_hand": render_hand,
    "render_table": render_table,
    "render_score": render_score,
    "ready": ready,
}
HEADER = 4  # bytes of big-endian length before each pickle


def frame(value: Any) -> bytes:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return len(data).to_bytes(HEADER, "big") + data


def serve(requests: BinaryIO, answers: BinaryIO) -> None:
    """``(id, name, args, kwargs)`` in, ``(id, png, error)`` out, until the bot closes the pipe."""
    while len(header := requests.read(HEADER)) == HEADER:
        number, name, args, kwargs = pickle.loads(requests.read(int.from_bytes(header, "big")))
        answer: tuple[int, bytes | None, str | None]
        try:
            answer = (number, DRAWINGS[name](*args, **kwargs), None)
        except Exception as error:  # noqa: BLE001 - the bot draws this one itself and logs why
            answer = (number, None, f"{type(error).__name__}: {error}")
        answers.write(frame(answer))
        answers.flush()


def main(argv: list[str] | None = None) -> int:
    if "--cold" not in (sys.argv[1:] if argv is None else argv):  # the bot's MAHJONG_WARM_UP=0
        warm_up()
    try:
        serve(sys.stdin.buffer, sys.stdout.buffer)
    except BrokenPipeError:  # the bot died (a SIGKILL) while this worker drew for it: nobody left to answer
        # nor to read a traceback, which a benchmark or supervisor watching the output counts as an error;
        # stdout goes to /dev/null so that the interpreter's own flush at exit fails no more (Python's docs
        # on SIGPIPE)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    sys.exit(main())
