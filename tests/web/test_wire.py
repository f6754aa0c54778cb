"""What crosses a seat's socket is that seat's screen and nothing more: the others' concealed tiles never."""

from __future__ import annotations

import json

from table import inputs as ins
from table.lobby import TableSettings, TableState
from table.screens import SEATS
from table.session import TableSession
from table.timing import Timing
from web.wire import hand_json, tiles


def dealt_table() -> TableSession:
    session = TableSession(TableState(3, guild_id=1, channel_id=2, host_id=10, settings=TableSettings()), Timing(ai_delay=0))
    for n in range(4):
        session.handle(ins.Join(10 + n, f"p{n}"), 0.0)
    session.handle(ins.OpenSeats(), 0.0)
    session.handle(ins.Start(bytes(32)), 0.0)
    session.handle(ins.Dealt(), 0.0)
    return session


def test_a_seats_page_shows_its_own_tiles_and_only_counts_of_the_others():
    session = dealt_table()
    game = session.game
    for seat in range(4):
        shown = hand_json(session.screen(seat), now=0.0)
        own = sorted(tiles(game.view(seat).concealed) + ([shown["drawn"]] if shown["drawn"] else []))
        assert sorted(shown["concealed"] + ([shown["drawn"]] if shown["drawn"] else [])) == own
        for other in shown["seats"]:
            assert other["revealed"] is None and other["seen"] is None  # mid-hand: nobody's hand face up
        text = json.dumps(shown)
        assert "seed" not in text and "key" not in text
        assert shown["seats"][seat]["count"] == len(shown["concealed"]) + (1 if shown["drawn"] else 0)


def test_the_page_offers_the_dm_buttons_codes_for_the_same_decision_point():
    session = dealt_table()
    seats = session.screen(SEATS)
    (seat,) = seats.to_act
    shown = hand_json(session.screen(seat), now=0.0)
    assert shown["showing"] == "prompt" and shown["decision"] == seats.decision and shown["hand"] == seats.hand_number
    codes = {a["code"] for a in shown["actions"]}
    discard = next(c for c in codes if c.startswith("d"))
    session.handle(ins.Click(seats.seats[seat].user_id, seat, discard, shown["hand"], shown["decision"]), 1.0)
    assert session.screen(SEATS).decision != shown["decision"]
