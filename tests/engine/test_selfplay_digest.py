"""Seeded self-play plays the same games as before the engine's speed work: the digests of
``bench.digest`` (every view, event, action log and scored result of every step, for each rule set
and table it lists) are pinned for a small run, and so are the statistics of the run
``bench.selfplay`` times. A change made only for speed must leave both as they are; a change to the
rules that moves them updates the pins on purpose, saying why."""

from __future__ import annotations

from bench.digest import digests
from engine import selfplay

# bench.digest.digests(1, 4, ["random", "auto", "easy"]), as the engine played before its speed work
PINNED = {
    "taiwan16/default/random": "b7661c613c098567",
    "taiwan16/min3-pass-exchange/random": "8f25f59d73d16644",
    "taiwan16/self-draw-see-flower/random": "b246e6907da163f9",
    "taiwan16/common-lugu/random": "723017efdbf83825",
    "taiwan13/default/random": "69b86221c6d83bd0",
    "hongkong/default/random": "31e4a5ef1b21d6f0",
    "hongkong/min3-bonus/random": "bf89238da1f08153",
    "guangdong/default/random": "cd7cab87dccb0fc4",
    "selfplay/random": "d3d0e93de7dca38a",
    "taiwan16/default/auto": "5fd7b5aa3e922f08",
    "taiwan16/min3-pass-exchange/auto": "032888c6c90ecef5",
    "taiwan16/self-draw-see-flower/auto": "141206582dc09ddd",
    "taiwan16/common-lugu/auto": "76ba2069c45a8d58",
    "taiwan13/default/auto": "c98d6ab0b0da94a5",
    "hongkong/default/auto": "0ebb3de947ba3ff2",
    "hongkong/min3-bonus/auto": "80cabcd890de9a9e",
    "guangdong/default/auto": "48335b1fd9b44f61",
    "selfplay/auto": "1650a5073e59a2cd",
    "taiwan16/default/easy": "e1481d1840f5ca4a",
    "taiwan16/min3-pass-exchange/easy": "47329dc6b346e565",
    "taiwan16/self-draw-see-flower/easy": "6d298da8014c6aba",
    "taiwan16/common-lugu/easy": "8921b05dcde2e3b7",
    "taiwan13/default/easy": "f54349e03f19d3c8",
    "hongkong/default/easy": "b9520ccdcc2d4018",
    "hongkong/min3-bonus/easy": "0672224c326ef93a",
    "guangdong/default/easy": "5226c5854e295e0d",
    "selfplay/easy": "71e4a0e6108a9a3b",
    "all": "3a716f63a262a74a",
}


def test_seeded_self_play_digests_are_the_pinned_ones():
    got = digests(1, 4, ["random", "auto", "easy"])
    changed = sorted(k for k in PINNED if got.get(k) != PINNED[k])
    assert not changed, f"seeded self-play changed for {changed}"


def test_the_benchmarked_random_run_plays_the_pinned_hands():
    """``python -m engine.selfplay --hands 300 --seed 1 --policy random --no-check``, bench.selfplay's run."""
    stats = selfplay.run("taiwan16", 300, 1, "random", check=False)
    outcome = {k: stats[k] for k in ("hands", "wins", "self_drawn", "draw_games", "flower_wins", "claims", "max_tai")}
    assert outcome == {
        "hands": 300,
        "wins": 6,
        "self_drawn": 1,
        "draw_games": 294,
        "flower_wins": 0,
        "claims": 2249,
        "max_tai": 19,
    }
