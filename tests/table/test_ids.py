"""The custom-id grammar (table/ids.py): buttons already posted on Discord keep working after an
upgrade, so today's ids are pinned byte for byte; every id the grammar prints parses back to the
value it was printed from, and every text a template matches parses without raising."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from table import ids
from table.codes import PATTERN
from table.ids import (
    Act,
    EntryOp,
    Exchange,
    HelpPage,
    JoinListed,
    LeaveQueue,
    LobbyClick,
    LobbyOp,
    Mode,
    PlayInDiscord,
    PromptPoint,
    Rematch,
    ReplayFrame,
    ReplayOpen,
    ReplaySeat,
    ReplayStep,
    ReviewOpen,
    ReviewShare,
    ReviewStep,
    StepOp,
    SwitchMode,
    TableClick,
    TableOp,
    TablePage,
    TournamentEntry,
    Watch,
)

# (an id as the bot has posted it, the value it says): one at least of every kind
POSTED: list[tuple[str, ids.CustomId]] = [
    ("mj:l:7:join", LobbyClick(7, LobbyOp.JOIN)),
    ("mj:l:7:close", LobbyClick(7, LobbyOp.CLOSE)),
    ("mj:a:7:3:2:41:d5m", Act(PromptPoint(7, 3, 2, 41), "d5m")),
    ("mj:a:12:2:3:9:w", Act(PromptPoint(12, 2, 3, 9), "w")),
    ("mj:m:7:3:1:41:ready", SwitchMode(PromptPoint(7, 3, 1, 41), Mode.READY)),
    ("mj:t:7:eyeask", TableClick(7, TableOp.EYE_ASK)),
    ("mj:t:7:eye", TableClick(7, TableOp.EYE)),
    ("mj:e:7:3:0:1", Exchange(PromptPoint(7, 3, 0, 1))),
    ("mj:w:5", Watch(5)),
    ("mj:r:12", Rematch(12)),
    ("mj:pd:12", PlayInDiscord(12)),
    ("mj:r:17:2:35:next", ReplayStep(ReplayFrame(17, 2, 35), StepOp.NEXT)),
    ("mj:r:9:3:12:nh", ReplayStep(ReplayFrame(9, 3, 12), StepOp.NEXT_HAND)),
    ("mj:rs:17:35", ReplaySeat(17, 35)),
    ("mj:rp:5:2", ReplayOpen(5, 2)),
    ("mj:vr:5:2:1:48", ReviewStep(5, 2, 1, 48)),
    ("mj:vs:5:0:123456789012345678", ReviewShare(5, None, 123456789012345678)),
    ("mj:vs:5:3:42", ReviewShare(5, 3, 42)),
    ("mj:vo:5", ReviewOpen(5)),
    ("mj:q:leave", LeaveQueue()),
    ("mj:h:j:41", JoinListed(41)),
    ("mj:h:p:3:all", TablePage(3, None)),
    ("mj:h:p:2:taiwan13", TablePage(2, "taiwan13")),
    ("mj:hp:guangdong", HelpPage("guangdong")),
    ("mj:tn:3:join", TournamentEntry(3, EntryOp.JOIN)),
    ("mj:tn:3:in", TournamentEntry(3, EntryOp.CHECK_IN)),
]


def test_a_zero_hand_shares_the_whole_match_however_it_is_spelt():
    assert ReviewShare.from_custom_id("mj:vs:5:00:42") == ReviewShare(5, None, 42)


def test_every_kind_of_id_is_pinned():
    assert {type(value) for _, value in POSTED} == set(ids.KINDS)


@pytest.mark.parametrize(("custom_id", "value"), POSTED, ids=[c for c, _ in POSTED])
def test_a_posted_id_is_printed_and_read_as_before(custom_id: str, value: ids.CustomId) -> None:
    assert value.to_custom_id() == custom_id
    assert ids.parse(custom_id) == value
    assert [kind for kind in ids.KINDS if kind.from_custom_id(custom_id) is not None] == [type(value)]


@pytest.mark.parametrize(
    ("custom_id", "table"),
    [("mj:l:7:join", 7), ("mj:a:17:2:0:41:d5m", 17), ("mj:m:3:1:1:4:main", 3), ("mj:t:8:show", 8),
     ("mj:e:9:1:2:3", 9), ("mj:w:5", None), ("mj:r:12", None), ("mj:pd:12", None), ("mj:vo:5", None), ("mj:a:17:2:0:41:", None)],
)  # fmt: skip
def test_the_router_reads_the_table_of_a_running_tables_own_clicks(custom_id: str, table: int | None) -> None:
    assert ids.table_of(custom_id) == table


def test_the_templates_are_the_ones_discord_py_matched_before():
    """The languages the items' templates matched before the grammar moved here (a sample of each)."""
    before = {
        Act: rf"mj:a:(?P<table>\d+):(?P<hand>\d+):(?P<seat>[0-3]):(?P<move>\d+):(?P<code>{PATTERN})",
        ReplayStep: rf"mj:r:(?P<hand>\d+):(?P<seat>[0-3]):(?P<step>\d+):(?P<op>{'|'.join(StepOp)})",
        TablePage: r"mj:h:p:(?P<page>\d+):(?P<rules>[a-z0-9]+)",
        HelpPage: r"mj:hp:(?P<rules>[a-z0-9_]+)",
    }
    samples = ["mj:a:1:2:3:4:c1m", "mj:a:1:2:4:4:c1m", "mj:a:1:2:3:4:c0m", "mj:r:1:2:3:win", "mj:r:1:2:3:winx",
               "mj:h:p:0:all", "mj:h:p:0:a_b", "mj:hp:a_b", "mj:hp:A"]  # fmt: skip
    for kind, old in before.items():
        for sample in samples:
            now, then = re.fullmatch(kind.TEMPLATE, sample), re.fullmatch(old, sample)
            assert bool(now) == bool(then), (kind, sample)


# ---------------------------------------------------------------------- properties

numbers = st.integers(min_value=0, max_value=10**19)
seats = st.integers(min_value=0, max_value=3)
points = st.builds(PromptPoint, numbers, numbers, seats, numbers)
codes = st.from_regex(PATTERN, fullmatch=True)
rule_ids = st.from_regex(r"[a-z0-9]+", fullmatch=True).filter(lambda r: r != ids.ALL_RULES)
values = st.one_of(
    st.builds(LobbyClick, numbers, st.sampled_from(LobbyOp)),
    st.builds(Act, points, codes),
    st.builds(SwitchMode, points, st.sampled_from(Mode)),
    st.builds(TableClick, numbers, st.sampled_from(TableOp)),
    st.builds(Exchange, points),
    st.builds(Watch, numbers),
    st.builds(Rematch, numbers),
    st.builds(ReplayStep, st.builds(ReplayFrame, numbers, seats, numbers), st.sampled_from(StepOp)),
    st.builds(ReplaySeat, numbers, numbers),
    st.builds(ReplayOpen, numbers, numbers),
    st.builds(ReviewStep, numbers, numbers, seats, numbers),
    st.builds(ReviewShare, numbers, st.none() | st.integers(min_value=1, max_value=10**6), numbers),
    st.builds(ReviewOpen, numbers),
    st.just(LeaveQueue()),
    st.builds(JoinListed, numbers),
    st.builds(TablePage, numbers, st.none() | rule_ids),
    st.builds(HelpPage, st.from_regex(r"[a-z0-9_]+", fullmatch=True)),
)


@given(values)
def test_an_id_parses_back_to_the_value_it_was_printed_from(value: Any) -> None:
    custom_id = value.to_custom_id()
    assert ids.parse(custom_id) == value
    assert type(value).from_custom_id(custom_id) == value
    assert re.fullmatch(type(value).TEMPLATE, custom_id)


def matched(kind: Any) -> st.SearchStrategy[tuple[Any, str]]:
    return st.tuples(st.just(kind), st.from_regex(kind.TEMPLATE, fullmatch=True))


@given(st.sampled_from(ids.KINDS).flatmap(matched))
def test_whatever_a_template_matches_parses_without_raising(kind_and_text: tuple[Any, str]) -> None:
    """discord.py drops a click whose ``from_custom_id`` raises: every match must read (and print again),
    and reach one kind only."""
    kind, text = kind_and_text
    assert [other for other in ids.KINDS if other.from_custom_id(text) is not None] == [kind]
    value = kind.from_custom_id(text)
    assert value is not None
    assert kind.from_custom_id(value.to_custom_id()) == value
