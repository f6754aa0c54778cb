"""The host carries effects from their own fields: the journal writes each Store* effect in the order the
table made them (a transcript's effects, carried into a fake store) and nothing when storage is off; the
seat draw reads from MatchStarted as it read from the Match."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.mahjong import texts
from cogs.mahjong.announce import seat_draw_text
from cogs.mahjong.journal import Journal
from cogs.mahjong.markdown import shown_names
from table import effects as fx
from table import inputs as ins

from ..table.transcript import ALICE, BOB, key, seated, started


class Store:
    """Records each call the journal makes, by name."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def __getattr__(self, name: str) -> Any:
        async def call(*args: Any, **kwargs: Any) -> int:
            self.calls.append((name, args))
            return len(self.calls)

        return call


def first_hand() -> list[fx.Effect]:
    host = seated(people=(ALICE, BOB))
    host.feed(ins.OpenSeats())
    host.answer(host.feed(ins.Start(key(3))))
    return host.effects


async def test_every_store_of_a_start_is_written_in_order_from_its_fields():
    store = Store()
    journal = Journal(store, 1)  # type: ignore[arg-type]
    effects = first_hand()
    kept = [e for e in effects if journal.keep(e)]
    await journal.flush()
    assert kept == [e for e in effects if type(e).__name__.startswith("Store")]
    names = [name for name, _ in store.calls]
    assert names[:3] == ["set_seats", "set_seats", "set_seats"]  # the lobby: creator, guest, AI seats
    assert "set_options" in names and "start_match" in names and names[-1] == "start_hand"
    (match,) = [e for e in effects if isinstance(e, fx.StoreMatch)]
    seats_written = [args for name, args in store.calls if name == "set_seats"][-1][1]
    assert [s.name for s in seats_written] == [s.name for s in match.seats]  # engine order, from the effect


async def test_storage_off_writes_nothing():
    store = Store()
    journal = Journal(store, 1, enabled=False)  # type: ignore[arg-type]
    for effect in first_hand():
        journal.keep(effect)
    await journal.flush()
    assert store.calls == []


def test_the_seat_draw_names_the_dealer_and_the_dice_from_the_effect():
    draw = fx.SeatDraw(("Ann", "Bob", "AI 1", "AI 2"), dealer=1, dice=(3, 4, 5))
    text = seat_draw_text(fx.MatchStarted(draw, commitment="ab" * 32), "en")
    lines = text.splitlines()
    assert "Bob" in lines[1] and "Ann" in lines[-3]  # East first, round the table: Ann sits North
    assert "3 4 5" in text and "ab" * 32 in text
    assert "3 4 5" not in seat_draw_text(fx.MatchStarted(fx.SeatDraw(draw.names, 0, None)), "en")


@pytest.mark.parametrize("rules", ["taiwan16", "taiwan13"])
@pytest.mark.parametrize("locale", ["en", "zh-TW"])
def test_the_seat_draw_from_the_effect_reads_as_the_one_from_the_match(rules, locale):
    host = started(rules, people=(ALICE, BOB), seed=5)
    (effect,) = [e for e in host.effects if isinstance(e, fx.MatchStarted)]
    match = host.session.match
    assert match is not None
    names = shown_names(host.session.seating.names())
    assert seat_draw_text(effect, locale) == texts.seat_draw_text(match, names, locale, match.commitment)
