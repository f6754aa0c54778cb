"""系統桌 and the table list without Discord: the documents' system settings, who a queue seats, when AI
fill, the ratings hook, and what /mahjong tables shows on each page."""

from __future__ import annotations

import pytest

from cogs.mahjong.system import (
    SYSTEM,
    SYSTEM_TURN_CHOICES,
    fill_at,
    is_rated,
    place_in,
    queue_of,
    ready_group,
    system_settings,
)
from cogs.mahjong.tablelist import PAGE_SIZE, listed, table_list
from data import GuildSettings
from engine.rules import PROFILES, get_profile
from table.lobby import TablePhase, TableSettings, TableState


@pytest.mark.parametrize("rules", list(PROFILES))
def test_system_table_is_one_round_five_second_turns_and_no_passing_a_win(rules):
    # 系統桌皆為1圈 · 系統桌皆為5秒 · 本公司在自動配桌預設為不可過水
    settings = system_settings(rules)
    assert settings.rounds == 1 and settings.options.turn_seconds == 5 and settings.options.may_pass_win is False
    profile = get_profile(rules).options  # the rule set's own stakes and switches otherwise
    assert (settings.options.base, settings.options.tai, settings.options.min_tai) == (
        profile.base, profile.tai, profile.min_tai
    )
    assert settings.options.house_rules.is_document


def test_a_server_may_lengthen_the_system_turn_but_never_shorten_it():
    assert system_settings("taiwan16", 20).options.turn_seconds == 20
    assert min(SYSTEM_TURN_CHOICES) == 5
    with pytest.raises(ValueError, match="5"):
        system_settings("taiwan16", 4)


def test_four_in_the_queue_form_a_table_first_come_first():
    assert ready_group(queue_of(1, 2, 3)) == []
    assert [e.user_id for e in ready_group(queue_of(5, 6, 7, 8, 9))] == [5, 6, 7, 8]


def test_place_in_the_queue_counts_from_one():
    queue = queue_of(4, 2, 9)
    assert [place_in(queue, u) for u in (4, 2, 9, 1)] == [1, 2, 3, 0]


def test_ai_fill_after_the_wait_of_the_one_who_waited_longest_only_when_allowed():
    queue = queue_of(1, 2)  # queued at 0.0 and 1.0
    assert fill_at(queue, GuildSettings(1)) is None  # off by default
    allowed = GuildSettings(1, ai_fill_seconds=120)
    assert fill_at(queue, allowed) == 120.0
    assert fill_at(queue[1:], allowed) == 121.0
    assert fill_at(queue, allowed, scale=0.5) == 60.0
    assert fill_at([], allowed) is None


def test_system_tables_are_the_rated_ones():
    assert is_rated(SYSTEM) and not is_rated("player")


def state(table_id: int, *, phase=TablePhase.LOBBY, rules="taiwan16", seated=1, kind="player", password=None):
    s = TableState(table_id, 9, 100 + table_id, 10, TableSettings(rules), password, kind=kind)
    for user in range(seated):
        s.join(10 + user if user == 0 else 50 + user, f"p{user}", password="0000" if password else None)
    s.phase = phase
    return s


def test_the_list_shows_open_tables_first_then_playing_and_filters_by_rule_set():
    tables = [state(1, phase=TablePhase.PLAYING), state(2), state(3, rules="hongkong"), state(4, phase=TablePhase.OVER)]
    assert [s.table_id for s in listed(tables, None)] == [2, 3, 1]
    assert [s.table_id for s in listed(tables, "hongkong")] == [3]


def test_join_buttons_only_for_open_tables_with_a_free_seat():
    tables = [state(1), state(2, seated=4), state(3, phase=TablePhase.PLAYING, seated=4, kind=SYSTEM)]
    embed, view, page = table_list(tables, page=1, rules=None, queues={}, locale="en")
    assert page == 1 and [b.custom_id for b in view.children] == ["mj:h:j:1"]
    lines = embed.description.split("\n")
    assert lines[0].startswith("**1.** <#101> · Taiwanese 16-tile · 玩家桌 · 1/4 seated · open")
    assert "系統桌 · 4/4 seated · playing" in embed.description


def test_a_password_table_shows_the_lock():
    embed, _view, _page = table_list([state(1, password="x$y")], page=1, rules=None, queues={}, locale="en")
    assert "🔒" in embed.description


def test_pages_hold_eight_tables_and_a_page_past_the_end_shows_the_last():
    tables = [state(n) for n in range(1, 2 * PAGE_SIZE + 2)]  # 17 tables: three pages
    embed, view, page = table_list(tables, page=99, rules=None, queues={"taiwan16": 2}, locale="en")
    assert page == 3 and embed.footer.text == "Page 3/3"
    assert embed.description.startswith("**17.**")
    ids = [item.custom_id for item in view.children]
    assert ids == ["mj:h:j:17", "mj:h:p:2:all", "mj:h:p:4:all"] and all(len(i) <= 100 for i in ids)
    assert [item.item.disabled for item in view.children] == [False, False, True]  # no page 4
    assert "Taiwanese 16-tile 2 waiting" in embed.fields[0].value


def test_an_empty_hall_says_how_to_open_a_table():
    embed, view, page = table_list([], page=1, rules=None, queues={}, locale="zh-TW")
    assert view is None and page == 1 and "/mahjong create" in embed.description
