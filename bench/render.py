"""Image rendering speed and size, PNG encode included.

    python -m bench.render [--runs 200] [--seed 11]

Targets (DESIGN.md): hand image (17 tiles + melds + flowers) ≤ 5 ms and ≤ 60 KB; table image
≤ 25 ms and ≤ 300 KB; and the first picture after ``render.warm_up()`` as fast as the rest; on a
phone (the picture shown 390 px wide) the hand's tiles ≥ 36 px and the table's discards ≥ 16 px.
Beside each picture's times and size: its width and the on-screen width of its tiles at 390 px
(``render.phone``): the hand's tiles and melds, the table's discards and melds, the sheet's hand.
``hand13`` is a 13-tile hand (hongkong), laid out in rows of seven.
Replays (issue 24): one replay step (the table from a seat, every hand face up, its line) ≤ 30 ms,
and a whole taiwan16 hand as one animated GIF ≤ 2 s and ≤ 8 MB (the longest of the first hands of
a self-played match, the replay of its moves included).
Two measurements per picture:

* first: in a fresh process (a child Python), ``render.warm_up()`` then one render, with names
  and a deal that warm-up has not drawn (what the bot's first hand costs after ``setup_hook``);
  the median over ``--fresh`` child processes, since one render is at the mercy of the machine;
* warm: the median over ``--runs`` renders in this process.

The DM picture (render/dm.py, the table from a seat: issue 39) as ``dm`` (the hand's deal) and ``dm_full``
(the fullest table: every other seat four kongs and eight flowers, rivers of 30, the viewer two kongs and a
two-row hand, the tallest of the pictures the tests try); from ``dm_full``:
dm_hand_tile_390 ≥ 30, dm_river_tile_390 and dm_meld_tile_390 ≥ 14, dm_aspect (height / width) ≤ 1.25;
table_meld_390: the channel picture's melds on a table as full (``table_full``) ≥ 14.

Last stdout line: one JSON object with hand_ms, hand_first_ms, hand_kb, hand_px (the picture's
width), hand_tile_390 (on-screen tile width) and hand_meld_390, the same for hand13, table
(table_tile_390: the discards) and score, plus warm_up_s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

# Names warm-up never drew, in scripts it did and did not draw (the first real table has new names).
FIRST_NAMES = ("張三 Chang", "李四 🌸", "さくら", "민수 Ωμέγα")


def _pictures(seed: int, names: tuple[str, ...] | None = None, theme: str = "felt") -> tuple[dict[str, tuple], str]:
    """Per picture: (compose function, the PNG function, its arguments), in ``theme`` (render/theme.py)."""
    from render import dm, hand, scoresheet, table
    from render.demo import crowded, hand_screen, synthetic

    state = synthetic(seed)
    names = names or state.names
    me = state.mine.viewer
    assert me is not None  # the player's own view
    seats = list(state.mine.seats)
    seats[me] = replace(seats[me], flowers=(34, 35, 38, 41))  # a heavy hand: 4 flowers as well
    mine = replace(state.mine, seats=tuple(seats))
    thirteen = synthetic(seed, rules="hongkong").mine
    n_tiles = len(mine.concealed) + 1 + sum(len(m.tiles) for m in seats[me].melds)
    about = f"hand: {n_tiles} tiles incl. melds, {len(seats[me].flowers)} flowers, {len(mine.waits)} waits"
    pictures: dict[str, tuple[Callable[..., Any], Callable[..., bytes], tuple]] = {
        "dm": (dm.compose_dm, dm.render_dm, (hand_screen(mine, names),)),
        "dm_full": (dm.compose_dm, dm.render_dm, (hand_screen(crowded(own_melds=2, river=30), names),)),
        "hand": (hand.compose_hand, hand.render_hand, (mine,)),
        "hand13": (hand.compose_hand, hand.render_hand, (thirteen,)),
        "table": (table.compose_table, table.render_table, (state.public, names)),
        "table_full": (table.compose_table, table.render_table, (replace(crowded(), viewer=None, concealed=(), drawn=None, waits=()), names)),
        "score": (scoresheet.compose_score, scoresheet.render_score, (state.result, names, state.public)),
    }
    themed: dict[str, tuple] = {
        name: (partial(compose, theme=theme), partial(png, theme=theme), args)
        for name, (compose, png, args) in pictures.items()
    }
    return themed, about


def jobs(
    seed: int, names: tuple[str, ...] | None = None, theme: str = "felt"
) -> tuple[dict[str, Callable[[], bytes]], str]:
    pictures, about = _pictures(seed, names, theme)
    return {name: partial(png, *args) for name, (_, png, args) in pictures.items()}, about


def phone_widths(seed: int, theme: str = "felt") -> dict[str, float]:
    """Each picture's width and its tiles' on-screen width at 390 px (render.phone), in ``theme``."""
    from render import dm, hand, phone, scoresheet, table

    scales = {
        "dm": (dm.HAND_SCALES, [dm.RIVER_SCALE]),
        "dm_full": (dm.HAND_SCALES, [dm.RIVER_SCALE]),
        "hand": ([2.0], [2.0 * hand.MELD_SCALE]),
        "hand13": ([2.0], [2.0 * hand.MELD_SCALE]),
        "table": (table.RIVER_SCALES, table.ROW_SCALES + table.ROW_SCALES_TWO),
        "table_full": (table.RIVER_SCALES, table.ROW_SCALES + table.ROW_SCALES_TWO),
        "score": (scoresheet.TILE_SCALES, ()),
    }
    out: dict[str, float] = {}
    pictures, _ = _pictures(seed, theme=theme)
    for name, (compose, _, args) in pictures.items():
        cv = compose(*args)
        tiles, melds = scales[name]
        out[f"{name}_px"] = cv.im.width
        out[f"{name}_tile_390"] = round(phone.tile_width(cv, tiles) or 0, 1)
        if melds:
            out[f"{name}_meld_390"] = round(phone.tile_width(cv, melds) or 0, 1)
        out[f"{name}_aspect"] = round(cv.im.height / cv.im.width, 3)
    # the figures (39): the DM picture on the fullest table (every other seat four kongs and eight
    # flowers, rivers of 30, the viewer two kongs: the tallest), and the channel's melds on a table as full
    full = pictures["dm_full"][0](*pictures["dm_full"][2])
    out["dm_hand_tile_390"] = round(phone.tile_width(full, dm.HAND_SCALES) or 0, 1)
    out["dm_river_tile_390"] = round(phone.tile_width(full, [dm.RIVER_SCALE]) or 0, 1)
    out["dm_meld_tile_390"] = round(phone.tile_width(full, [dm.MELD_SCALE]) or 0, 1)
    out["dm_aspect"] = out["dm_full_aspect"]
    out["table_deal_meld_390"] = out["table_meld_390"]  # the deal's table, as this figure was before issue 39
    out["table_meld_390"] = out["table_full_meld_390"]
    return out


def long_hand(seed: int = 1, hands: int = 6) -> tuple[dict, list[str]]:
    """The game header and moves of the longest of ``hands`` self-played taiwan16 hands (easy AI)."""
    import random

    from engine.match import Match
    from engine.policy import make_policy
    from engine.selfplay import play_hand

    match = Match("taiwan16", seed=seed, rounds=4)
    policies = [make_policy("easy", random.Random(seed + s)) for s in range(4)]
    best: tuple[dict, list[str]] = ({}, [])
    for _ in range(hands):
        game = match.new_hand()
        header = game.header()
        play_hand(game, policies, check=False)
        match.finish_hand(game)
        if len(game.log) > len(best[1]):
            best = (header, [str(a) for a in game.log])
    return best


def replay_step_job(names: tuple[str, ...]) -> Callable[[], bytes]:
    """One replay step as a click on ▶ costs it: replay the stored moves up to the middle of a long
    hand, then draw and encode that frame."""
    from cogs.i18n.steps import step_line
    from engine.replay import count, frame_at
    from render.replay import render_step

    header, moves = long_hand()
    middle = count(header, moves) // 2

    def job() -> bytes:
        frame = frame_at(header, moves, middle, seat=0)
        return render_step(frame.view, names, step_line("zh-TW", frame.number, frame.events, names), locale="zh-TW")

    return job


def animated_hand(names: tuple[str, ...], runs: int) -> dict[str, float]:
    """A whole 16-tile hand as one GIF, replay included: median seconds over ``runs``, size, frames."""
    from cogs.i18n.steps import step_line
    from engine.replay import frames
    from render.replay import render_animation

    header, moves = long_hand()
    times, size, count = [], 0, 0
    for _ in range(runs):
        start = time.perf_counter()
        steps = [(f.view, step_line("zh-TW", f.number, f.events, names)) for f in frames(header, moves, seat=0)]
        size = len(render_animation(steps, names, locale="zh-TW"))
        times.append(time.perf_counter() - start)
        count = len(steps)
    return {
        "animated_s": round(statistics.median(times), 3),
        "animated_mb": round(size / 1e6, 2),
        "animated_frames": count,
    }


def first_renders(seed: int) -> dict[str, float]:
    """In this (fresh) process: warm_up, then the first render of each picture, in ms."""
    import render

    start = time.perf_counter()
    render.warm_up()
    out = {"warm_up_s": round(time.perf_counter() - start, 2)}
    todo, _ = jobs(seed, FIRST_NAMES)
    for name, job in todo.items():
        start = time.perf_counter()
        job()
        out[f"{name}_first_ms"] = round((time.perf_counter() - start) * 1000, 2)
    return out


def warm_median(job: Callable[[], bytes], runs: int) -> tuple[float, int]:
    """(median ms, bytes), after one untimed render."""
    data = job()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        data = job()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), len(data)


THEMED = ("dm", "dm_full", "hand", "table", "table_full", "score")


def themes_figures(seed: int, runs: int, out: dict[str, float]) -> None:
    """Each theme (issue 39 item 7) beside felt: its first picture in a process warmed for felt only (its
    sprites are built then), the warm median and size of each picture, and the five phone figures, as
    ``<theme>_<figure>`` (felt's figures keep their names above)."""
    from render.theme import THEMES

    print(f"themes (warm median of {runs}; first: the theme's first picture after a felt warm_up):")
    for theme in THEMES:
        todo, _ = jobs(seed, FIRST_NAMES, theme)
        cells = []
        for name in THEMED:
            start = time.perf_counter()
            todo[name]()
            first = (time.perf_counter() - start) * 1000
            warm, size = warm_median(todo[name], runs)
            if theme != "felt":
                out[f"{theme}_{name}_first_ms"] = round(first, 2)
            out[f"{theme}_{name}_ms"] = round(warm, 2)
            out[f"{theme}_{name}_kb"] = round(size / 1024, 1)
            cells.append(f"{name} {warm:5.2f} ms {size / 1024:5.1f} KB (first {first:6.1f})")
        widths = phone_widths(seed, theme)  # after the first pictures: composing builds the theme's sprites
        figures = {k: widths[k] for k in ("dm_hand_tile_390", "dm_river_tile_390", "dm_meld_tile_390", "dm_aspect", "table_meld_390")}
        out.update({f"{theme}_{k}": v for k, v in figures.items()})
        print(f"  {theme:8s} " + " · ".join(cells))
        print(f"  {'':8s} " + ", ".join(f"{k} {v}" for k, v in figures.items()))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--fresh", type=int, default=5, help="fresh processes for the first render")
    parser.add_argument("--first-only", action="store_true", help=argparse.SUPPRESS)  # the child's job
    args = parser.parse_args(argv)
    if args.first_only:
        print(json.dumps(first_renders(args.seed)))
        return

    children = []
    for _ in range(args.fresh):
        child = subprocess.run(
            [sys.executable, "-m", "bench.render", "--first-only", "--seed", str(args.seed)],
            capture_output=True,
            text=True,
            check=True,
        )
        children.append(json.loads(child.stdout.strip().splitlines()[-1]))
    out = {key: round(statistics.median(c[key] for c in children), 2) for key in children[0]}
    print(
        f"{args.fresh} fresh processes: warm_up {out['warm_up_s']:.2f} s, then the first render of each picture"
    )

    import render

    render.warm_up()
    todo, about = jobs(args.seed, FIRST_NAMES)
    widths = phone_widths(args.seed)
    out.update(widths)
    for name, job in todo.items():
        warm, size = warm_median(job, args.runs)
        out[f"{name}_ms"] = round(warm, 2)
        out[f"{name}_kb"] = round(size / 1024, 1)
        first = out[f"{name}_first_ms"]
        at_390 = f"tiles {widths[f'{name}_tile_390']:4.1f} px"
        melds = widths.get("table_deal_meld_390" if name == "table" else f"{name}_meld_390")
        if melds is not None:
            at_390 += f", melds {melds:4.1f} px"
        print(
            f"{name:6s} first after warm_up {first:6.2f} ms   warm median {warm:6.2f} ms   {size / 1024:6.1f} KB"
            f"   {widths[f'{name}_px']:4d} px wide; at 390 px: {at_390}"
        )
    print(about)
    print(
        f"DM on the fullest table at 390 px: hand {out['dm_hand_tile_390']} px, rivers {out['dm_river_tile_390']} px,"
        f" melds {out['dm_meld_tile_390']} px, height/width {out['dm_aspect']}; the channel's melds {out['table_meld_390']} px"
    )
    step_ms, step_size = warm_median(replay_step_job(FIRST_NAMES), max(10, args.runs // 10))
    out["replay_step_ms"] = round(step_ms, 2)
    out["replay_step_kb"] = round(step_size / 1024, 1)
    print(f"replay step warm median {step_ms:6.2f} ms   {step_size / 1024:6.1f} KB (the stored moves replayed to mid-hand, drawn)")
    anim = animated_hand(FIRST_NAMES, max(3, args.runs // 40))
    out.update(anim)
    print(
        f"animated hand: {anim['animated_frames']} frames, {anim['animated_s']:.2f} s (median), "
        f"{anim['animated_mb']:.2f} MB GIF"
    )
    themes_figures(args.seed, max(20, args.runs // 4), out)
    print("targets: DM ≤ 1.5 × the hand's time, hand tiles ≥ 30 px, rivers and melds ≥ 14 px, height ≤ 1.25 × width; hand ≤ 5 ms ≤ 60 KB, tiles ≥ 36 px at 390; table ≤ 25 ms ≤ 300 KB, discards ≥ 16 px; a replay step ≤ 30 ms; an animated hand ≤ 2 s ≤ 8 MB")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
