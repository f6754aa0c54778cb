"""The table's seat rules, without Discord: joining, passwords, hosts, AI seats, starting."""

from __future__ import annotations

import pytest

from table.lobby import (
    TableError,
    TablePhase,
    TableSettings,
    TableState,
    check_password,
    hash_password,
    valid_password,
)


def table(**kw) -> TableState:
    return TableState(1, guild_id=9, channel_id=5, host_id=10, settings=TableSettings(), **kw)


def refused(key: str, call, *args, **kw) -> None:
    with pytest.raises(TableError) as caught:
        call(*args, **kw)
    assert caught.value.key == key


def test_four_seats_then_the_table_is_full():
    t = table()
    for user in (10, 11, 12, 13):
        t.join(user, f"p{user}")
    refused("err.table_full", t.join, 14, "late")
    refused("err.table_full", t.add_ai)


def test_joining_twice_keeps_one_seat():
    t = table()
    t.join(11, "Bob")
    t.join(11, "Bob")
    assert [s.user_id for s in t.seats] == [11]


def test_a_password_table_refuses_a_wrong_or_missing_password_but_not_its_host():
    t = table(password_hash=hash_password("0427"))
    refused("err.wrong_password", t.join, 11, "Bob", password="1234")
    refused("err.wrong_password", t.join, 11, "Bob")
    t.join(11, "Bob", password="0427")
    t.join(10, "Host")  # the host set it
    assert len(t.seats) == 2


def test_passwords_are_stored_salted_and_checked_exactly():
    stored = hash_password("0427")
    assert "0427" not in stored and stored != hash_password("0427")  # a fresh salt each time
    assert check_password("0427", stored) and not check_password("0428", stored)
    assert valid_password("0007") and not valid_password("123") and not valid_password("１２３４")


def test_ai_seats_are_numbered_and_removed_last_first():
    t = table()
    t.join(10, "Host")
    first, second = t.add_ai(), t.add_ai("strong")
    assert (first.name, second.name, second.ai_level) == ("AI 1", "AI 2", "strong")
    t.remove_ai()
    assert [s.name for s in t.seats] == ["Host", "AI 1"]
    t.remove_ai()
    refused("err.no_ai_seat", t.remove_ai)


def test_start_needs_a_person_and_fills_empty_seats_with_ai():
    t = table()
    refused("err.need_human", t.start)
    t.join(10, "Host")
    added = t.start()
    assert len(added) == 3 and len(t.seats) == 4 and t.phase is TablePhase.PLAYING
    refused("err.not_lobby", t.join, 11, "Bob")
    refused("err.not_lobby", t.add_ai)


def test_only_the_host_or_a_manager_manages():
    t = table()
    assert t.may_manage(10) and not t.may_manage(11) and t.may_manage(11, manage_guild=True)


def test_leaving_needs_a_seat():
    t = table()
    refused("err.not_seated", t.leave, 11)
    t.join(11, "Bob")
    t.leave(11)
    assert t.seats == []


def test_settings_refuse_an_unknown_rule_set_and_bad_rounds():
    with pytest.raises(ValueError):
        TableSettings(rules="riichi")
    with pytest.raises(ValueError):
        TableSettings(rounds=5)


def test_settings_refuse_options_that_do_not_go_together():
    from engine.rules import TableOptions

    assert TableSettings("hongkong", 1, TableOptions(hand_size=16)).options.hand_size == 16
    with pytest.raises(TableError) as refused:
        TableSettings("hongkong", 1, TableOptions(hand_size=16, bonus_tile=True))
    assert refused.value.key == "err.options" and "十三張麻將才有" in refused.value.values["reason"]
    with pytest.raises(TableError):
        TableSettings("taiwan16", 1, TableOptions(hand_size=13))


def test_a_rated_table_starts_only_with_four_people():
    from dataclasses import replace

    t = table()
    t.settings = replace(t.settings, ranking="rated")
    t.join(10, "Host")
    t.add_ai("strong")
    refused("err.rated_needs_four", t.start)
    assert t.phase is TablePhase.LOBBY and len(t.seats) == 2  # nothing changed
    t.remove_ai()
    for user in (11, 12, 13):
        t.join(user, f"P{user}")
    assert t.start() == [] and t.phase is TablePhase.PLAYING


def test_a_rated_ai_table_fills_empty_seats_with_ai_like_a_casual_one():
    from dataclasses import replace

    t = table()
    t.settings = replace(t.settings, ranking="rated_ai")
    t.join(10, "Host")
    assert len(t.start()) == 3


def test_a_table_is_casual_unless_the_host_says_rated():
    assert TableSettings().ranking == "casual"
    with pytest.raises(ValueError):
        TableSettings(ranking="ranked")
