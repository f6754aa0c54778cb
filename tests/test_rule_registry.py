"""One rule-set registry (engine.rulesets): every rule set has one entry, and nothing outside the
engine names a rule set — the Discord layer and the pictures ask the registry for what differs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import rulesets
from engine.rules import PROFILES
from engine.scoring import RULE_MODULES

ROOT = Path(__file__).resolve().parent.parent
# the layers above the engine that must not name a rule set (table/ joins them once it exists)
OUTSIDE = ("cogs", "render", "table")


def test_every_rule_set_has_one_entry_with_its_profile_and_scorer():
    assert list(rulesets.RULE_SETS) == list(PROFILES) == list(RULE_MODULES)
    for rules, spec in rulesets.RULE_SETS.items():
        assert spec.profile is PROFILES[rules] and spec.scorer.name == rules
        assert spec.unit in ("tai", "fan", "multiplier", "points")
        assert spec.hand_width == PROFILES[rules].hand_size + 1
    assert rulesets.DEFAULT_RULES in rulesets.RULE_SETS
    with pytest.raises(ValueError):
        rulesets.get("riichi")


def test_minimum_labels_and_default_minimums_are_the_rule_sets_own():
    assert rulesets.get("hongkong").minimum_label(1) == "1番起和"
    assert rulesets.get("taiwan16").minimum_label(3) == "三台起胡"
    assert rulesets.get("taiwan16").minimum_label(5) == "5台起胡"
    assert rulesets.DEFAULT_MINIMUM == {"hongkong": 3}  # document 002's 3番起和; the others none


def test_flower_wins_only_where_flowers_are_played():
    assert rulesets.get("taiwan16").flower_wins == ("八仙過海", "七搶一")
    assert rulesets.get("taiwan13").flower_wins == ("大花胡",)
    assert rulesets.get("hongkong").flower_wins == () and rulesets.get("guangdong").flower_wins == ()


def test_payment_facts_belong_to_one_rule_set_each():
    assert [r for r, s in rulesets.RULE_SETS.items() if s.stake_formula] == ["taiwan16"]
    assert [r for r, s in rulesets.RULE_SETS.items() if s.dealer_counts_a_tai] == ["taiwan13"]
    assert [r for r, s in rulesets.RULE_SETS.items() if s.pays_stakes] == ["taiwan16", "taiwan13"]
    assert [r for r, s in rulesets.RULE_SETS.items() if s.eye_declaration] == ["taiwan16"]


def test_no_module_outside_the_engine_names_a_rule_set():
    """``grep -rn '"hongkong"\\|"taiwan13"\\|"taiwan16"\\|"guangdong"' cogs render`` comes back empty
    (single quotes too, and any rule set registered later)."""
    named = re.compile("|".join(rf"""["']{re.escape(r)}["']""" for r in rulesets.RULE_IDS))
    hits = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for top in OUTSIDE
        for path in sorted((ROOT / top).rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if named.search(line)
    ]
    assert (ROOT / "cogs").is_dir() and (ROOT / "render").is_dir()
    assert hits == [], "ask engine.rulesets instead:\n" + "\n".join(hits)
