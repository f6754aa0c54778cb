"""The channel's table picture at the end of a hand is the hand as settled (issue 37, item 2): the scores
after its payments (not the hand's start), the winner and the winning tile, and every hand face up at a
size a phone reads; while a hand is played the picture gets no result to show."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.mahjong.payloads import table_payload
from render import sprites, table
from render.phone import DISCARD_MIN, tile_width
from table.screens import TABLE
from table.session import TableSession
from table.visibility import PUBLIC
from tests.table.test_session import started, tick_until


class Recording:
    """A painter that draws in the test's own thread and keeps what it was asked to draw."""

    def __init__(self) -> None:
        self.calls: list[tuple[tuple, dict[str, Any]]] = []

    async def draw(self, draw, /, *args: Any, **kwargs: Any) -> bytes:
        self.calls.append((args, kwargs))
        return b""

    def canvas(self):
        args, kwargs = self.calls[-1]
        return table.compose_table(*args, **kwargs)


def settled(session: TableSession, hands: int) -> bool:
    return session.match is not None and len(session.match.history) >= hands and session.result is not None


@pytest.mark.parametrize("rules", ["taiwan16", "guangdong"])
async def test_the_table_picture_of_a_settled_hand_shows_its_scores_winner_tile_and_hands(rules):
    session = started(rules, seed=5)
    painter = Recording()
    now = tick_until(session, 0.0, lambda s: s.game is not None and s.game.events and not s.game.is_over)
    await table_payload(session.screen(TABLE), "en", painter)  # type: ignore[arg-type]
    assert painter.calls[-1][1].get("result") is None  # a hand in play has no result to show

    for hands in (1, 2):
        now = tick_until(session, now, lambda s, n=hands: settled(s, n))
        match, game, result = session.match, session.game, session.result
        assert match is not None and game is not None and result is not None and game.is_over
        await table_payload(session.screen(TABLE), "en", painter)  # type: ignore[arg-type]
        cv = painter.canvas()
        words = cv.texts
        for seat, score in enumerate(match.scores):  # the settled scores, as the standings add them up
            assert (f"{score:+,}" if score else "0") in words, (seat, score, words)
            if result.deltas[seat]:
                assert f"{result.deltas[seat]:+,}" in words  # and the hand's own change beside it
        if result.winner is not None:
            assert ("Self-drawn" if result.self_drawn else "Won") in words
            assert (result.loser is None) == ("Dealt in" not in words)
            marked = [p.tile for p in cv.placed if p.variant == sprites.DRAWN]
            assert marked == [result.win_tile, result.win_tile]  # in the winner's hand and in the middle
        else:
            assert "Draw" in words
        public = session.view(PUBLIC)
        assert public is not None
        assert [seat.score for seat in public.seats] != match.scores  # the view has the hand's start scores
        revealed = sum(len(tiles) for tiles in public.revealed.values())
        river = [p for p in cv.placed if round(p.scale, 6) in {round(s, 6) for s in table.RIVER_SCALES}]
        assert len(river) == revealed == sum(s.concealed_count for s in public.seats)  # every hand, in the river's place
        readable = tile_width(cv, table.RIVER_SCALES)
        assert readable is not None and readable >= DISCARD_MIN
        session.next_hand_at = now  # deal the next hand at once
