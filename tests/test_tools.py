"""Every command-line tool answers ``--help`` with its whole description (not cut mid-sentence, never
waiting on standard input) and a bad input with one line and a non-zero exit, touching nothing.

The tools run in this process through their ``main`` (a subprocess each would cost a second of
imports); ``main`` is what ``python -m`` runs.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest

import bot
from data import copy as data_copy
from data import recompute
from engine import log as engine_log
from engine import score, selfplay
from engine.cli import summary
from render import demo
from render import replay as render_replay


class NoInput(io.StringIO):
    """Standard input nobody types into: reading it would wait for ever at a terminal."""

    def read(self, *args: object) -> str:
        raise AssertionError("the tool read standard input")


def run(main: Callable[..., int | None], *args: object, **kwargs: object) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("sys.stdout", out)
        mp.setattr("sys.stderr", err)
        try:
            code = main(*args, **kwargs)
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 2
    return code or 0, out.getvalue(), err.getvalue()


def words(text: str) -> str:
    return " ".join(text.split())


TOOLS = {
    "engine.log": (engine_log.main, engine_log.__doc__),
    "engine.selfplay": (selfplay.main, selfplay.__doc__),
    "render.replay": (render_replay.main, render_replay.__doc__),
    "render.demo": (demo.main, demo.__doc__),
    "data.copy": (data_copy.main, data_copy.__doc__),
    "data.recompute": (recompute.main, recompute.__doc__),
    "bot.py": (bot.main, None),
}


@pytest.mark.parametrize("name", sorted(TOOLS))
def test_help_shows_the_whole_description(name):
    main, doc = TOOLS[name]
    code, out, err = run(main, ["--help"])
    assert code == 0 and err == ""
    assert out.startswith("usage: ")
    if doc is not None:
        first = summary(doc)
        assert first.endswith((".", ":", ")")), first
        assert first in words(out), f"{name} --help cuts its description"


def test_score_help_answers_without_reading_standard_input():
    out, err = io.StringIO(), io.StringIO()
    assert score.main(NoInput(), out, err, argv=["--help"]) == 0
    assert summary(score.__doc__) in words(out.getvalue()) and err.getvalue() == ""
    out, err = io.StringIO(), io.StringIO()
    assert score.main(NoInput(), out, err, argv=["--rules"]) == 2
    assert len(err.getvalue().splitlines()) == 1 and out.getvalue() == ""
    out, err = io.StringIO(), io.StringIO()
    assert score.main(io.StringIO("not json"), out, err) == 2
    assert len(err.getvalue().splitlines()) == 1 and out.getvalue() == ""


def one_line_refusal(result: tuple[int, str, str]) -> None:
    code, out, err = result
    assert code != 0
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err


def test_bad_arguments_are_one_line_everywhere(tmp_path):
    for main, _ in TOOLS.values():
        one_line_refusal(run(main, ["--no-such-option"]))
    one_line_refusal(run(selfplay.main, ["--hands", "x"]))
    one_line_refusal(run(selfplay.main, ["--rules", "nope"]))
    one_line_refusal(run(engine_log.main, []))
    one_line_refusal(run(engine_log.main, ["check", str(tmp_path / "nowhere.json")]))
    one_line_refusal(run(render_replay.main, [str(tmp_path / "nowhere.json"), "--hand", "1", "--seat", "9", "o"]))
    one_line_refusal(run(render_replay.main, [str(tmp_path / "nowhere.json"), "--hand", "1", "--seat", "0", "o"]))
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    one_line_refusal(run(demo.main, [str(blocker / "out")]))


def test_recompute_refuses_a_database_that_does_not_exist_and_creates_none(tmp_path):
    missing = tmp_path / "nowhere.sqlite3"
    code, out, err = run(recompute.main, [str(missing)])
    assert code != 0 and out == "" and len(err.strip().splitlines()) == 1
    assert "nowhere.sqlite3" in err and "recomputed" not in err
    assert list(tmp_path.iterdir()) == []
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    one_line_refusal(run(recompute.main, [str(text)]))
    assert text.read_text() == "hello"


def test_copy_refuses_a_source_that_does_not_exist_and_creates_nothing(tmp_path):
    code, out, err = run(data_copy.main, [str(tmp_path / "nowhere.sqlite3"), str(tmp_path / "copy.sqlite3")])
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_bot_refuses_sandbox_options_without_the_sandbox(monkeypatch):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    for argv in (["--hands", "2"], ["--seed", "3"], ["--rules", "hongkong"], ["--lang", "en"], ["--db", "x.sqlite3"]):
        code, out, err = run(bot.main, argv)
        assert code == 2 and out == "", argv
        assert len(err.strip().splitlines()) == 1 and argv[0] in err and "--sandbox" in err, (argv, err)


def test_refusals_of_a_log_print_their_verdict_once(tmp_path):
    log = json.loads(selfplay_log_text())
    hand = log["matches"][0]["hands"][0]
    hand["moves"][-1] = hand["moves"][-1].split()[0] + " hu"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(log), encoding="utf-8")
    for main, argv in (
        (engine_log.main, ["check", str(bad)]),
        (render_replay.main, [str(bad), "--hand", "1", "--seat", "0", str(tmp_path / "out")]),
    ):
        code, out, err = run(main, argv)
        assert code == 1 and err == ""
        assert len(out.splitlines()) == 1 and out.startswith("refused: hand 1, move "), out


def selfplay_log_text() -> str:
    matches: list = []
    selfplay.run("taiwan16", 1, 3, "random", check=False, matches=matches)
    return json.dumps(selfplay.selfplay_log(matches, "random"))


def test_the_readme_names_no_tool_this_test_forgets():
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    named = {
        word.split()[0]
        for word in readme.split("python -m ")[1:]
        if not word.startswith(("bench.", "pytest", "pip"))
    }
    assert named <= set(TOOLS) | {"engine.score"}, named - set(TOOLS)
