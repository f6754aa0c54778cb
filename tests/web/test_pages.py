"""The watch, replay and leaderboard pages' routes, through a real aiohttp server on a free port: each refuses a
forged, altered, expired or other-kind token with 403 and an empty body; a table whose spectators are off says
so (403) and sends nothing of the table; a public watcher's JSON holds no concealed tile of any seat while a
hand is played (only the end-of-hand reveal), a delayed one's nothing of the hand in play; a running match's
replay is refused until it is over, then every step opens from any seat at its address, in the reader's
language; a server's board shows the leaderboard's ranking only once the server turned it on."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from cogs.mahjong.webpages import Spectators, StoredBoards, step_text, texts
from data.replays import stored_hand
from data.store import Store
from engine.replay import frame_marks
from table import inputs as ins
from table.codes import code_of
from table.lobby import TableSettings, TableState
from table.screens import SEATS, SPECTATOR
from table.session import TableSession
from table.timing import Timing
from web.board import BoardPages
from web.replay import ReplayPages
from web.tokens import Signer, make_link
from web.watch import WatchPages, last_hand_json, watch_json
from web.wire import tiles

from ..data.test_replays import store_a_match

NOW = 1_000_000.0


class Registry:
    def __init__(self, sessions: dict[int, TableSession]) -> None:
        self.sessions = sessions

    def get(self, table_id: int) -> Any:
        session = self.sessions.get(table_id)
        return None if session is None else type("Runner", (), {"session": session})()


def dealt_table(table_id: int, spectators: str) -> TableSession:
    settings = replace(TableSettings(), spectators=spectators)
    session = TableSession(TableState(table_id, guild_id=1, channel_id=2, host_id=10, settings=settings), Timing(ai_delay=0))
    for n in range(4):
        session.handle(ins.Join(10 + n, f"p{n}"), 0.0)
    session.handle(ins.OpenSeats(), 0.0)
    session.handle(ins.Start(bytes(32)), 0.0)
    session.handle(ins.Dealt(), 0.0)
    return session


def play_out_hand(session: TableSession) -> None:
    """Each seat to act clicks its first legal move (the DM button's code) until the hand is over."""
    now = 1.0
    while True:
        seats = session.screen(SEATS)
        if seats.hand_over:
            session.handle(ins.Tick(), now)  # the table's clock: the hand is settled
            return
        seat = seats.to_act[0]
        action = session.game.prompt(seat).legal[0]  # type: ignore[union-attr]
        session.handle(ins.Click(seats.seats[seat].user_id, seat, code_of(action), seats.hand_number, seats.decision), now)
        now += 0.01


SIGNER = Signer(b"s" * 32)


@pytest.fixture
async def watching() -> AsyncIterator[tuple[TestClient[Any, Any], WatchPages, dict[int, TableSession]]]:
    sessions = {1: dealt_table(1, "public"), 2: dealt_table(2, "delayed"), 3: dealt_table(3, "off")}
    pages = WatchPages(Spectators(Registry(sessions)), SIGNER, texts, base=lambda: "http://x", clock=lambda: NOW)
    app = web.Application()
    app.add_routes(pages.routes())
    async with TestClient(TestServer(app)) as client:
        yield client, pages, sessions


def token_of(pages: WatchPages, table: int) -> str:
    return pages.link(table).rsplit("/", 1)[1]


async def test_forged_altered_expired_and_replay_tokens_open_no_watch_page(watching):
    client, pages, _ = watching
    good = token_of(pages, 1)
    table, expires, signature = good.split(".")
    bad = [
        f"2.{expires}.{signature}",  # another table, the same signature
        make_link(Signer(b"o" * 32), "watch", 1, int(expires)),  # another bot's secret
        make_link(SIGNER, "watch", 1, int(NOW) - 1),  # expired
        make_link(SIGNER, "replay", 1, int(expires)),  # a replay token
        "nonsense",
    ]
    for token in bad:
        async with client.get(f"/watch/{token}") as response:
            assert response.status == 403 and await response.read() == b""
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await client.ws_connect(f"/watch/{token}/ws")
        assert refused.value.status == 403
    async with client.get(f"/watch/{good}") as response:
        assert response.status == 200 and "watch.js" in await response.text()


async def test_a_table_whose_spectators_are_off_says_so_and_shows_nothing(watching):
    client, pages, sessions = watching
    token = token_of(pages, 3)
    async with client.get(f"/watch/{token}", headers={"Accept-Language": "zh-TW,zh;q=0.9"}) as response:
        text = await response.text()
        assert response.status == 403 and texts("zh-TW", "watch.off") in text
    for n in range(4):  # nothing of the table: no name, no tile
        assert f"p{n}" not in text
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await client.ws_connect(f"/watch/{token}/ws")
    assert refused.value.status == 403
    async with client.get(f"/watch/{token_of(pages, 9)}") as gone:  # a table not run here
        assert gone.status == 404 and texts("en", "web.watch_gone") in await gone.text()


async def test_a_public_watcher_gets_no_concealed_tile_while_a_hand_is_played(watching):
    client, pages, sessions = watching
    session = sessions[1]
    game = session.game
    async with client.ws_connect(f"/watch/{token_of(pages, 1)}/ws") as socket:
        shown = json.loads((await socket.receive()).data)
    assert shown["type"] == "watch" and shown["mode"] == "public" and shown["board"] is not None
    assert sorted(s["name"] for s in shown["board"]["seats"]) == ["p0", "p1", "p2", "p3"]
    for n, seat in enumerate(shown["board"]["seats"]):
        assert seat["hand"] is None and seat["count"] == len(game.hand(n))
    text = json.dumps(shown)
    assert "seed" not in text and "key" not in text and "wall_order" not in text
    # no seat's concealed tiles appear anywhere beyond what the table sees (rivers, melds, flowers)
    public = sum(len(s["river"]) + len(s["flowers"]) + sum(len(m["tiles"]) for m in s["melds"]) for s in shown["board"]["seats"])
    assert sum(text.count(f'"{t}"') for t in set(tiles(range(42)))) == public
    play_out_hand(session)
    assert session.screen(SEATS).hand_over
    over = watch_json(session.screen(SPECTATOR), now=NOW)
    assert all(seat["hand"] is not None for seat in over["board"]["seats"])  # the end-of-hand reveal, as the channel's


async def test_a_delayed_watcher_gets_nothing_of_the_hand_in_play_and_each_finished_hand_face_up(watching):
    client, pages, sessions = watching
    session = sessions[2]
    async with client.ws_connect(f"/watch/{token_of(pages, 2)}/ws") as socket:
        shown = json.loads((await socket.receive()).data)
        assert shown["mode"] == "delayed" and shown["board"] is None and shown["last"] is None and shown["finished"] == 0
        for tile in tiles(session.game.hand(0)):
            assert f'"{tile}"' not in json.dumps(shown)
        play_out_hand(session)
        pages.changed(2)  # the table's host says it changed: the page gets the finished hand
        seen = json.loads((await socket.receive(timeout=5)).data)
    screen = session.screen(SPECTATOR)
    assert seen["finished"] == screen.revealable == 1
    assert seen["board"] is None and seen["last"]["number"] == 1
    assert all(seat["hand"] is not None for seat in seen["last"]["seats"])
    assert seen["last"] == last_hand_json(screen)


async def test_a_watchers_page_is_told_when_the_table_ends_and_its_socket_closes(watching):
    client, pages, sessions = watching
    async with client.ws_connect(f"/watch/{token_of(pages, 1)}/ws") as socket:
        assert json.loads((await socket.receive()).data)["type"] == "watch"
        pages.ended(1)  # the table's match ended (its last screen was sent already)
        assert json.loads((await socket.receive(timeout=5)).data) == {"type": "closed"}
        assert (await socket.receive(timeout=5)).type is aiohttp.WSMsgType.CLOSE
    for _ in range(100):  # the server's side lets go of the page once its handler returns
        if not pages.pages:
            break
        await asyncio.sleep(0)
    assert pages.pages == {} and pages.locales == {}


async def test_closing_the_pages_closes_every_watchers_socket(watching):
    client, pages, _ = watching
    async with client.ws_connect(f"/watch/{token_of(pages, 2)}/ws") as socket:
        await socket.receive()
        await pages.close()
        assert (await socket.receive(timeout=5)).type is aiohttp.WSMsgType.CLOSE


# ---------------------------------------------------------------------- replay


@pytest.fixture
async def replaying(tmp_path) -> AsyncIterator[tuple[TestClient[Any, Any], ReplayPages, Store, int, Any]]:
    store = await Store.open(str(tmp_path / "m.sqlite3"))
    table, match = await store_a_match(store, hands=2, guild_id=5)

    async def replays(guild: int, table_id: int, hand_no: int) -> Any:
        return await stored_hand(store, guild, table_id=table_id, hand_no=hand_no)

    pages = ReplayPages(replays, SIGNER, texts, step_text, base=lambda: "http://x")
    app = web.Application()
    app.add_routes(pages.routes())
    async with TestClient(TestServer(app)) as client:
        yield client, pages, store, table, match
    await store.close()


def path_of(link: str) -> str:
    return link.removeprefix("http://x")


async def test_a_running_matchs_replay_is_refused_until_it_is_over(replaying):
    client, pages, store, table, match = replaying
    link = path_of(pages.link(5, table, hand=1, step=3, seat=2))
    token = link.split("/")[2].split("?")[0]
    for path in (link, f"/replay/{token}/frame?hand=1&step=3&seat=2"):
        async with client.get(path, headers={"Accept-Language": "zh-TW"}) as response:
            body = await response.text()
            assert response.status == 403 and texts("zh-TW", "web.replay_running") in body
            assert "header" not in body and "seed" not in body
    await store.finish_match(table, match.scores)
    async with client.get(link) as response:
        assert response.status == 200 and "replay.js" in await response.text()


async def test_forged_and_other_servers_replay_tokens_open_nothing(replaying):
    client, pages, store, table, match = replaying
    await store.finish_match(table, match.scores)
    good = path_of(pages.link(5, table)).split("/")[2].split("?")[0]
    guild, table_text, signature = good.split(".")
    for bad in (f"6.{table_text}.{signature}", make_link(SIGNER, "watch", 5, table), make_link(Signer(b"o" * 32), "replay", 5, table), "x"):
        async with client.get(f"/replay/{bad}/frame") as response:
            assert response.status == 403 and await response.read() == b""
    async with client.get(path_of(pages.link(6, table))) as other:  # a real token of another server: no such hand
        assert other.status == 404


async def test_a_replay_link_opens_at_its_hand_step_and_seat_in_the_readers_language(replaying):
    client, pages, store, table, match = replaying
    await store.finish_match(table, match.scores)
    token = path_of(pages.link(5, table)).split("/")[2].split("?")[0]
    hand = await stored_hand(store, 5, table_id=table, hand_no=2)
    assert hand is not None
    steps = len(frame_marks(hand.header, hand.moves))
    async with client.get(f"/replay/{token}/frame?hand=2&step=4&seat=3", headers={"Accept-Language": "zh-TW"}) as response:
        frame = await response.json()
    assert (frame["hand"], frame["step"], frame["seat"], frame["steps"], frame["hands"]) == (2, 4, 3, steps, 2)
    assert frame["locale"] == "zh-TW" and frame["words"]["next_hand"] == texts("zh-TW", "replay.next_hand")
    assert frame["line"] == step_text("zh-TW", *_step(hand, 4), list(hand.names))
    assert all(seat["hand"] is not None for seat in frame["board"]["seats"])  # the match is over: every hand face up
    async with client.get(f"/replay/{token}/frame?hand=2&step=99999&seat=x") as response:
        last = await response.json()
    assert last["step"] == steps - 1 and last["result"] is not None and last["locale"] == "en"
    assert last["seat"] == ((hand.result or {}).get("winner") if isinstance((hand.result or {}).get("winner"), int) else 0)
    async with client.get(f"/replay/{token}/frame?hand=3") as response:  # no such hand
        assert response.status == 404


def _step(hand: Any, index: int) -> tuple[int, Any]:
    from engine.replay import frame_at

    frame = frame_at(hand.header, hand.moves, index, seat=3)
    return frame.number, frame.events


# ---------------------------------------------------------------------- the leaderboard


async def test_a_servers_board_is_shown_only_once_the_server_turns_it_on(tmp_path):
    store = await Store.open(str(tmp_path / "b.sqlite3"))
    try:
        table, match = await store_a_match(store, hands=2, guild_id=5)
        await store.finish_match(table, match.scores)
        app = web.Application()
        app.add_routes(BoardPages(StoredBoards(store), texts).routes())
        async with TestClient(TestServer(app)) as client:
            for path in ("/board/5", "/board/6", "/board/nonsense", "/board/-1"):
                async with client.get(path) as response:
                    assert response.status == 404 and texts("en", "web.board_off") in await response.text()
            await store.set_guild_settings(5, web_board=True)
            async with client.get("/board/5", headers={"Accept-Language": "zh-TW"}) as response:
                page = await response.text()
            async with client.get("/board/6") as response:  # another server's stays off
                assert response.status == 404
        rows, count, _ = await store.leaderboard_page(5, page=1, size=10, min_matches=1)
        assert response.status == 404 and count == len(rows) > 0
        assert texts("zh-TW", "lb.title") in page
        positions = [page.index(f">{row.name}<") for row in rows]  # the same players, in the command's order
        assert positions == sorted(positions)
        assert f"{rows[0].points:+,}" in page
    finally:
        await store.close()


def test_a_players_name_on_the_board_is_text_never_markup():
    from web.board import Board, BoardRow, board_html

    board = Board("Board", "all", (BoardRow("1.", "<script>alert(1)</script>", ("+1,000",)),), 1, 2, "none")
    page = board_html(board, 5, "en", texts)
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert 'href="5?page=2"' in page and 'rel="prev"' not in page  # page 1 of 2: only a way on
