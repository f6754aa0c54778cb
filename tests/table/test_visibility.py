"""The one visibility rule (table/visibility.py) and the community norm for hints: who may see what of a
table at a moment, written out viewer by viewer, and what a new table shows its players by default."""

from __future__ import annotations

import pytest

from cogs.mahjong.prompts import settings_parts
from cogs.mahjong.system import system_settings
from engine.game import Game
from table.lobby import TableSettings, TableState, hints_by_default
from table.visibility import DELAYED, PUBLIC, Audience, Sight, Viewer, live_view, sight, spectator, viewer_of


@pytest.mark.parametrize(
    ("viewer", "playing", "over"),
    [
        (Viewer.at(1), Sight(True, 1, True, False), Sight(True, 1, True, True)),
        (PUBLIC, Sight(True, None, False, False), Sight(True, None, True, True)),
        (DELAYED, Sight(False, None, True, False), Sight(True, None, True, True)),
    ],
)
def test_each_viewer_sees_its_own_share_while_the_match_is_played_and_everything_after(viewer, playing, over):
    assert sight(viewer, over=False) == playing
    assert sight(viewer, over=True) == over


def test_a_spectator_is_the_public_or_a_delayed_viewer_and_off_tables_have_none():
    assert spectator("public") is PUBLIC and spectator("delayed") is DELAYED and spectator("off") is None
    with pytest.raises(ValueError):
        spectator("everything")
    assert viewer_of(7, [None, 7, 9, None]) == Viewer(Audience.SEAT, 1)
    assert viewer_of(8, [None, 7, 9, None]) is PUBLIC  # not seated: the public
    with pytest.raises(ValueError):
        Viewer.at(4)


def test_a_seat_sees_its_own_tiles_and_its_waits_only_where_hints_are_on():
    game = Game.from_position(hands={0: "123456789m123456p5s"}, turn=1, rules="taiwan16")  # seat 0 waits on 5s
    seat = sight(Viewer.at(0), over=False)
    with_hints = live_view(game, seat, hints=True)
    without = live_view(game, seat, hints=False)
    assert with_hints is not None and with_hints.viewer == 0 and with_hints.waits
    assert without is not None and without.waits == () and without.concealed == with_hints.concealed
    public = live_view(game, sight(PUBLIC, over=False))
    assert public is not None and public.viewer is None and public.concealed == ()
    assert live_view(game, sight(DELAYED, over=False)) is None  # nothing of a hand in play


def test_hints_are_on_at_casual_tables_and_off_at_rated_ones_and_system_tables():
    assert hints_by_default("casual") is True
    assert hints_by_default("rated") is False and hints_by_default("rated_ai") is False
    assert hints_by_default("casual", system=True) is False
    assert system_settings("taiwan16").hints is False


@pytest.mark.parametrize(("hints", "part"), [(True, "🎯 hints on"), (False, "no hints")])
def test_the_lobby_says_whether_the_table_shows_hints(hints, part):
    state = TableState(1, guild_id=9, channel_id=5, host_id=10, settings=TableSettings(hints=hints))
    assert any(p.startswith(part) for p in settings_parts(state, "en"))
