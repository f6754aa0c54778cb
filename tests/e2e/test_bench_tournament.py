"""python -m bench.tournament: a whole tournament of AI players through the tournament rules, the engine's
matches and the store, for every rule set (issue 42)."""

from __future__ import annotations

import json

import pytest

from bench import tournament as bench


@pytest.mark.parametrize("rules", ["taiwan16", "taiwan13", "hongkong", "guangdong"])
def test_a_duplicate_tournament_of_ai_players_deals_the_same_walls_and_sums_to_zero(rules, capsys):
    argv = ["--players", "9", "--rounds", "2", "--duplicate", "--rules", rules, "--seed", "3", "--hands", "3"]
    assert bench.main(argv) == 0
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert figures["players"] == 9 and figures["rounds"] == 2 and figures["tables"] == 6  # 9 + 3 AI seats
    assert figures["walls_identical"] is True and figures["zero_sum"] is True
    assert figures["duplicate_sum_zero"] is True and figures["stored_matches"] == 6
    assert 0 < figures["hands"] <= 18 and figures["repeat_pairs"] >= 0


def test_bad_arguments_are_one_line_and_exit_two(capsys):
    with pytest.raises(SystemExit) as exit_:
        bench.main(["--players", "3", "--rounds", "1", "--seed", "1"])
    assert exit_.value.code == 2 and "--players" in capsys.readouterr().err
