"""The registry of running tables (cogs/mahjong/registry.py): one place adds a table and one removes it,
and it answers by channel, by id and by seated person — what ten collections once kept in step by hand."""

from __future__ import annotations

from types import SimpleNamespace

from cogs.mahjong.registry import TableRegistry
from table.lobby import TableSettings, TableState
from table.session import TableSession
from table.timing import Timing

GUILD = 1


class Runner(SimpleNamespace):
    """A running table as the registry sees one: its state and its session (who left it, whether it is closed)."""

    __hash__ = object.__hash__  # one table is one table, as a TableRunner is


def table(table_id: int, channel: int, *people: int, kind: str = "player", left: tuple[int, ...] = ()) -> Runner:
    state = TableState(table_id, GUILD, channel, people[0], TableSettings())
    state.kind = kind
    for user in people:
        state.join(user, f"p{user}")
    session = TableSession(state, Timing())
    session.left = set(left)  # as TableSession.restore sets it (records.left_of)
    return Runner(state=state, session=session)


def test_a_table_added_is_found_by_channel_id_and_each_person_seated():
    registry = TableRegistry()
    runner = table(7, 100, 11, 12)
    registry.add(runner)  # type: ignore[arg-type]
    assert registry.get(7) is runner and 7 in registry and len(registry) == 1
    assert registry.in_channel(100) is runner
    assert registry.where_seated(GUILD, 11) == 100 and registry.where_seated(GUILD, 12) == 100
    assert registry.seated_runner(GUILD, 12, 100) is runner and registry.seated_runner(GUILD, 13, None) is None


def test_a_table_removed_frees_its_people_and_its_channel():
    registry = TableRegistry()
    runner = table(7, 100, 11, 12)
    registry.add(runner)  # type: ignore[arg-type]
    registry.remove(runner)  # type: ignore[arg-type]
    assert registry.get(7) is None and registry.in_channel(100) is None and not registry
    assert registry.where_seated(GUILD, 11) is None and registry.where_seated(GUILD, 12) is None


def test_a_system_table_shares_its_channel_and_keeps_its_people_seated_when_the_player_table_ends():
    registry = TableRegistry()
    player, system = table(7, 100, 11), table(8, 100, 12, kind="system")
    registry.add(player)  # type: ignore[arg-type]
    registry.add(system)  # type: ignore[arg-type]
    assert registry.in_channel(100) is player and registry.system_table_in(100) is system
    registry.remove(player)  # type: ignore[arg-type]
    assert registry.where_seated(GUILD, 12) == 100 and registry.where_seated(GUILD, 11) is None


def test_someone_who_left_a_match_is_free_and_sits_again_through_the_registry():
    registry = TableRegistry()
    registry.add(table(7, 100, 11, 12, left=(12,)))  # type: ignore[arg-type]
    assert registry.where_seated(GUILD, 12) is None
    registry.sit(GUILD, 12, 100)
    assert registry.where_seated(GUILD, 12) == 100
    registry.stand(GUILD, 12)
    assert registry.where_seated(GUILD, 12) is None


def test_a_table_moving_between_processes_is_neither_here_nor_over():
    registry = TableRegistry()
    registry.restoring.add(5)
    registry.leaving.add(6)
    assert registry.moving(5) and registry.moving(6) and not registry.moving(7)


def test_a_table_whose_write_was_refused_for_its_lease_stops_here_at_once():
    """journal.py's ``on_lost``: another process holds the lease now. The table is closed, forgotten and its
    lease no longer counted as this process's (nor released: it is the other's), before another click."""
    from cogs.mahjong.ownership import SoleProcess

    registry = TableRegistry()
    runner = table(7, 100, 11, 12)
    discarded, finished, closing = [], [], []
    runner.journal = SimpleNamespace(discard=lambda: discarded.append(7))
    runner.close = lambda: "closing"

    class Host:
        def open_stored(self, saved):  # pragma: no cover - not asked here
            raise AssertionError

        def table_finished(self, runner):
            finished.append(runner)
            registry.remove(runner)

        def background(self, coro):
            closing.append(coro)

    registry.host = Host()  # type: ignore[assignment]
    registry.add(runner)  # type: ignore[arg-type]
    registry.leased.add(7)
    SoleProcess(registry, cog=None).lost(7)  # type: ignore[arg-type]
    assert 7 not in registry and 7 not in registry.leased and registry.where_seated(GUILD, 11) is None
    assert discarded == [7] and finished == [runner] and closing == ["closing"]
    assert runner.session.phase.closed, "its session takes no more clicks"
