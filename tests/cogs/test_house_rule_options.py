"""/tai and /mahjong create take single house-rule switches on top of the preset, typed as players
write them, with autocomplete over every switch (issue 40 item 5); /tai takes the win's other facts."""

from __future__ import annotations

import pytest

from cogs.calculator import FACTS, parse_facts
from cogs.choices import CHOICE_TEXT, CHOICES, complete_entries, switch_spellings
from engine.house_rules import SWITCHES, find_switch
from engine.score import calculate


def test_every_switch_is_offered_by_label_and_by_name_and_each_spelling_finds_it():
    spellings = switch_spellings()
    for sw in SWITCHES:
        assert sw.name in spellings and any(w.split(" ")[0] == sw.label for w in spellings)
    for word in spellings:
        assert find_switch(word.split(" ")[0]) is not None, word


def test_the_switch_being_typed_is_completed_after_those_written():
    got = [c.value for c in complete_entries("天胡 24, 字一色計", switch_spellings())]
    assert got[:3] == ["天胡 24, 字一色計碰碰胡", "天胡 24, 字一色計三元牌", "天胡 24, 字一色計風台"]
    assert len(complete_entries("", switch_spellings())) == CHOICES  # more switches than one answer holds
    assert all(len(c.value) <= CHOICE_TEXT for c in complete_entries("x" * 95 + ",", switch_spellings()))
    assert [c.value for c in complete_entries("flower_win_o", switch_spellings())] == ["flower_win_optional"]


def test_facts_name_what_they_imply():
    assert parse_facts("dealt_ready, after_flower") == {
        "dealt_ready": True, "heavenly_ready": True, "declared_ready": True, "after_flower": True,
        "kong_replacement": True,
    }
    assert parse_facts("") == {}
    with pytest.raises(ValueError, match="unknown fact 'tenpai'"):
        parse_facts("tenpai")


def test_every_fact_is_a_field_the_calculator_reads():
    base = {"concealed": "123p234m567m345s45s11z", "win_tile": "6s", "seat_wind": "S"}
    for fact in FACTS:
        request = {**base, **parse_facts(fact)}
        if fact in ("heavenly", "earthly", "human"):
            request.update(self_drawn=fact == "heavenly", dealer=fact == "heavenly", seat_wind="S" if fact != "heavenly" else "E")
        if fact in ("after_flower",):
            request["self_drawn"] = True
        if fact == "flower_win_declined":
            request["flowers"] = "f1f2f3f4f5f6f7f8"
        assert calculate(request)["valid"] in (True, False), fact  # read, not refused as unknown
