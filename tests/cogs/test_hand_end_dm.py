"""The DM at the end of a hand (issue 37): the 胡 moment names who dealt in (or 自摸), and the feed
keeps the moves that came just before the win, as it does before every prompt."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cogs import i18n
from cogs.mahjong.feed import FeedMarks
from cogs.mahjong.payloads import dm_payload
from engine.events import EventKind, Phase
from engine.policy import make_policy
from engine.rules import get_profile
from table.codes import code_of
from table.lobby import TableSettings, TableState
from table.session import TableSession
from table.timing import Timing

ALICE = 101
SEED = 1  # the deal of this key: AI 1 deals in to the dealer, Alice (seat 3) looks on


class NoPictures:
    async def draw(self, draw: Any, /, *args: Any, **kwargs: Any) -> bytes:
        return b""


def hand_won_off_a_discard(seed: int, lang: str = "en") -> tuple[TableSession, FeedMarks, str]:
    """A taiwan16 table (Alice and three AI) played to the end of its first hand; Alice's DM prompts are
    drawn as she plays, so her feed marks stand where a real DM's would. Also her last prompt's text."""
    settings = TableSettings("taiwan16", 1, get_profile("taiwan16").options, hints=False)
    session = TableSession(TableState(7, guild_id=9, channel_id=5, host_id=ALICE, settings=settings), Timing(ai_delay=0.0))
    session.join(ALICE, "Alice", locale=lang)
    session.open_seats()
    session.start(key=seed.to_bytes(32, "big"), now=0.0)
    rng, marks, now, last = random.Random(seed), FeedMarks(), 0.0, ""
    seat = session.seating.seat_of_user(ALICE)
    assert seat is not None
    for _ in range(5000):
        game = session.game
        assert game is not None
        if game.is_over and session.result is not None:
            return session, marks, last
        if not game.is_over and session.needs_buttons():
            last = asyncio_run(dm_payload(session.screen(seat), marks, painter=NoPictures())).content  # type: ignore[arg-type]
            point = {"hand": game.hand_number, "move": session.decision, "now": now}
            if game.phase is Phase.EXCHANGE:
                session.exchange(ALICE, seat, game.auto_action(seat).tiles, **point)
                continue
            choice = make_policy("easy", rng).choose(game.view(seat), game.legal_actions(seat))
            session.click(ALICE, seat, code_of(choice), **point)
            continue
        wakes = [e.at for e in session.tick(now=now) if hasattr(e, "at")]
        now = max(now, min(wakes)) if wakes else now + 1.0
    raise AssertionError("the hand did not end")


def asyncio_run(coro: Any) -> Any:
    import asyncio

    return asyncio.new_event_loop().run_until_complete(coro)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_dm_at_a_win_names_who_dealt_in_and_keeps_the_moves_before_it(lang):
    session, marks, _ = hand_won_off_a_discard(SEED, lang)
    result, alice = session.result, session.seating.seat_of_user(ALICE)
    assert result is not None and result.winner is not None and result.loser is not None  # won off a discard
    assert alice not in (result.winner, result.loser)  # Alice reads about it from outside
    text = asyncio_run(dm_payload(session.screen(alice), marks, painter=NoPictures())).content  # type: ignore[arg-type]
    names = session.seating.names()
    moment = next(line for line in text.splitlines() if line.startswith("🀄"))
    assert names[result.winner] in moment and names[result.loser] in moment  # who won, who dealt in
    # the feed holds the discard that was won on, by the seat that dealt in
    game = session.game
    assert game is not None
    won_on = [e for e in game.events if e.kind is EventKind.DISCARD][-1]
    assert won_on.seat == result.loser
    assert i18n.t(lang, "feed.title") in text
    assert i18n.t(lang, "feed.discard", name=names[result.loser], tile=i18n.tile_label(lang, won_on.tile), how=i18n.t(lang, "feed.tsumogiri")) in text or i18n.t(
        lang, "feed.discard", name=names[result.loser], tile=i18n.tile_label(lang, won_on.tile), how=i18n.t(lang, "feed.tedashi")
    ) in text


def test_a_self_drawn_win_says_so_in_the_moment():
    from cogs.mahjong import texts

    from .test_texts import NAMES, win

    moment = texts.win_moment(win(loser=None, self_drawn=True), NAMES, "en")
    assert "自摸" in moment and "dealt in" not in moment
    off = texts.win_moment(win(), NAMES, "en")
    assert f"dealt in by {NAMES[win().loser]}" in off
