"""The web table's live updates (web/server.py, issue 43 item 6): a seat's screen is built once per stamp of
its table however many of its pages are open and however often the host says "changed", nothing unchanged
is sent again, each page's clock is written in as it is sent, and each seat's socket carries its own screen
only. Real table sessions behind a real server on a local port; every wait is on a socket's next message."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Hashable
from typing import Any

import aiohttp
import pytest_asyncio

from table import inputs as ins
from table.screens import SEATS
from table.session import TableSession
from web.server import Page, Text, WebTable, text_of
from web.tokens import Grant, Signer
from web.wire import hand_json, tiles

from .test_wire import dealt_table


class Clock:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


class OneTable:
    """``web.server.Tables`` over one real session; counts the screens built."""

    def __init__(self, session: TableSession) -> None:
        self.session = session
        self.built: list[int] = []

    def seated(self, grant: Grant) -> bool:
        seats = self.session.screen(SEATS).seats
        return grant.table == self.session.table_id and seats[grant.seat].user_id == grant.user

    def stamp(self, table: int) -> Hashable | None:
        return self.session.screen(SEATS) if table == self.session.table_id else None

    def screen(self, grant: Grant, now: float) -> dict[str, Any] | None:
        self.built.append(grant.seat)
        screen = self.session.screen(grant.seat)
        return hand_json(screen, now=now) if screen.seats[grant.seat].user_id == grant.user else None

    async def play(self, grant: Grant, code: str, hand: int, move: int) -> str | None:
        self.session.handle(ins.Click(grant.user, grant.seat, code, hand, move), 1.0)
        return None


@pytest_asyncio.fixture
async def served() -> AsyncIterator[tuple[WebTable, OneTable, Clock, aiohttp.ClientSession]]:
    clock = Clock()
    tables = OneTable(dealt_table())
    web = WebTable(tables, Signer(b"s" * 32), base="http://127.0.0.1", clock=clock)
    await web.start("127.0.0.1", 0)
    async with aiohttp.ClientSession() as client:
        yield web, tables, clock, client
    await web.stop()


def url(web: WebTable, tables: OneTable, seat: int) -> str:
    user = tables.session.screen(SEATS).seats[seat].user_id or 0
    token = web.signer.make(Grant(tables.session.table_id, seat, user, 10**9))
    return f"http://127.0.0.1:{web.port}/ws/{token}"


async def next_screen(socket: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    message = await socket.receive(timeout=10)
    assert message.type is aiohttp.WSMsgType.TEXT, message
    data: dict[str, Any] = json.loads(message.data)
    return data


def move(tables: OneTable) -> None:
    """The seat to act plays its first legal code (its drawn tile, or 過)."""
    session = tables.session
    seats = session.screen(SEATS)
    seat = seats.to_act[0]
    shown = hand_json(session.screen(seat), now=0.0)
    code = next(a["code"] for a in shown["actions"])
    session.handle(ins.Click(seats.seats[seat].user_id, seat, code, seats.hand_number, seats.decision), 1.0)


async def test_a_seats_screen_is_built_once_a_stamp_and_nothing_unchanged_is_sent_again(served):
    web, tables, clock, client = served
    async with client.ws_connect(url(web, tables, 0)) as one, client.ws_connect(url(web, tables, 0)) as two:
        first = [await next_screen(one), await next_screen(two)]
        assert first[0] == first[1] and first[0]["now"] == 5000.0
        assert tables.built == [0]  # two pages of the seat: one screen
        for _ in range(3):  # the host says "changed" with nothing new (a wake-up, a stored move's echo)
            web.changed(tables.session.table_id)
            web._push(tables.session.table_id)
        assert tables.built == [0]
        await one.send_str("not a move")  # answered after anything the pushes sent: here, nothing
        assert (await next_screen(one))["type"] == "refused"
        clock.now = 5007.5
        move(tables)
        web.changed(tables.session.table_id)
        web._push(tables.session.table_id)
        clock.now = 5010.0  # built at 5007.5, sent now
        later = [await next_screen(one), await next_screen(two)]
        assert tables.built == [0, 0]
        assert later[0]["decision"] != first[0]["decision"] and later[0] == later[1]
        assert later[0]["now"] == 5010.0  # the page sets its clock by the bot's as sent, not as built


async def test_each_seats_socket_carries_its_own_hand_and_only_counts_of_the_others(served):
    web, tables, clock, client = served
    game = tables.session.game
    assert game is not None
    sockets = [await client.ws_connect(url(web, tables, seat)) for seat in range(4)]
    try:
        for _ in range(6):
            move(tables)
            web.changed(tables.session.table_id)
            web._push(tables.session.table_id)
            for seat, socket in enumerate(sockets):
                while True:  # the connect's screen first, then this move's
                    shown = await next_screen(socket)
                    if shown["decision"] == tables.session.decision:
                        break
                drawn = [shown["drawn"]] if shown["drawn"] else []
                assert sorted(shown["concealed"] + drawn) == sorted(tiles(game.view(seat).concealed) + drawn)
                assert shown["seat"] == seat and shown["seats"][seat]["count"] == len(shown["concealed"]) + len(drawn)
                assert all(s["revealed"] is None and s["seen"] is None for s in shown["seats"])
    finally:
        for socket in sockets:
            await socket.close()


def test_a_pending_screen_older_than_what_the_page_shows_is_not_sent():
    page = Page(Grant(1, 0, 10, 0), socket=None)  # type: ignore[arg-type]  # offers only: no socket written
    a, b = Text('{"type":"screen","decision":1}', True), Text('{"type":"screen","decision":2}', True)
    page.last = a.body
    page.offer(b)
    assert page.pending is b
    page.offer(a)  # back to what the page shows (b came and went before it was sent)
    assert page.pending is None
    page.offer(b)
    assert page.pending is b


def test_a_screens_clock_goes_in_as_it_is_sent_and_other_messages_are_kept_as_they_are():
    text = text_of({"type": "screen", "now": 1.0, "seat": 2, "concealed": ["5m"]})
    assert json.loads(text.at(1796228868.7071726)) == {"type": "screen", "now": 1796228868.7071726, "seat": 2, "concealed": ["5m"]}
    waiting = text_of({"type": "waiting", "table": 3, "seat": 1})
    assert waiting.at(9.0) == '{"type":"waiting","table":3,"seat":1}'


def test_the_stamp_changes_with_a_move_and_with_what_no_new_version_follows():
    tables = OneTable(dealt_table())
    session = tables.session
    seen = [tables.stamp(session.table_id)]
    assert tables.stamp(session.table_id) == seen[0]  # asked again, nothing changed: the same
    move(tables)
    assert tables.stamp(session.table_id) not in seen
    seen.append(tables.stamp(session.table_id))
    version = session.version
    session.handle(ins.Shut(), 2.0)  # the host closed the table: no new version, every screen says match over
    assert session.version == version and tables.stamp(session.table_id) not in seen


def test_the_bots_tables_show_a_seat_only_to_the_person_sitting_there_and_nothing_before_the_deal():
    from types import SimpleNamespace

    from cogs.mahjong.webtables import RunningTables
    from table.lobby import TableSettings, TableState
    from table.timing import Timing

    session = dealt_table()
    runners = {session.table_id: SimpleNamespace(session=session)}
    tables = RunningTables(SimpleNamespace(get=runners.get))
    user = session.screen(SEATS).seats[1].user_id or 0
    shown = tables.screen(Grant(session.table_id, 1, user, 0), 0.0)
    assert shown is not None and shown["seat"] == 1 and shown["words"]["btn.pass"]
    assert tables.screen(Grant(session.table_id, 1, user + 1, 0), 0.0) is None  # not (or no longer) theirs
    assert tables.screen(Grant(session.table_id + 1, 1, user, 0), 0.0) is None  # not run here
    lobby = TableSession(TableState(8, guild_id=1, channel_id=2, host_id=10, settings=TableSettings()), Timing())
    runners[8] = SimpleNamespace(session=lobby)
    assert tables.screen(Grant(8, 0, 10, 0), 0.0) is None
