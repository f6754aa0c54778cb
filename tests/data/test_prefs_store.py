"""Each person's preferences (migration 0010) on each database: defaults without a row, changes kept per
person and across servers, a bad name or value refused with nothing written, and kept across a reopen."""

from __future__ import annotations

import pytest

from data import PlayerPrefs, Store
from tests.data.conftest import Clock


async def test_a_person_without_a_row_has_the_defaults(store: Store) -> None:
    assert await store.get_player_prefs(7) == PlayerPrefs(True, "felt", False, False, False)


async def test_changes_are_kept_per_person_and_only_what_is_given(store: Store) -> None:
    first = await store.set_player_prefs(7, auto_win=True, theme="sakura")
    assert first == PlayerPrefs(nudge=True, theme="sakura", auto_win=True)
    second = await store.set_player_prefs(7, nudge=False, auto_discard=True)
    assert second == PlayerPrefs(nudge=False, theme="sakura", auto_win=True, auto_discard=True)
    assert await store.get_player_prefs(7) == second
    assert await store.get_player_prefs(8) == PlayerPrefs()


@pytest.mark.parametrize(
    ("changes", "says"), [({"colour": "red"}, "colour"), ({"theme": "neon"}, "neon"), ({"nudge": 1}, "switch")]
)
async def test_a_bad_preference_is_refused_and_nothing_is_written(store: Store, changes: dict, says: str) -> None:
    await store.set_player_prefs(7, no_calls=True)
    with pytest.raises(ValueError, match=says):
        await store.set_player_prefs(7, auto_win=True, **changes)
    assert await store.get_player_prefs(7) == PlayerPrefs(no_calls=True)


async def test_preferences_survive_a_reopen(target: str, clock: Clock) -> None:
    store = await Store.open(target, clock=clock)
    await store.set_player_prefs(3, theme="contrast", no_calls=True)
    await store.close()
    again = await Store.open(target, clock=clock)
    try:
        assert await again.get_player_prefs(3) == PlayerPrefs(theme="contrast", no_calls=True)
    finally:
        await again.close()
