"""Which edits of a hand's DM go with the prompts: only one that brings its person something to press that
the message does not show yet. A prompt already there, edited again (its clock restarted after a late
delivery, as every hand a takeover sends afresh is), waits with the pictures: in a 100-table takeover such
edits went ahead of hands still on their way (the prompt-rank DM edits of its first 12 s: 213, then 118)."""

from __future__ import annotations

from types import SimpleNamespace

from cogs.mahjong.dms import DmSlot, HandMessages
from cogs.mahjong.live import PICTURE, PROMPT


class Host:
    def __init__(self) -> None:
        self.asks: tuple[int, int] | None = None
        self.delivered_versions: list[int] = []

    def owes(self, seat: int) -> tuple[int, int] | None:
        return self.asks

    async def dm_payload(self, seat: int, mode: str = "main") -> object:
        return SimpleNamespace(shows=self.asks)

    def delivered(self, seat: int, version: int, *, notified: bool = False) -> None:
        self.delivered_versions.append(version)


async def test_a_dm_edit_is_a_prompt_only_while_it_brings_something_new_to_press() -> None:
    host = Host()
    hands = HandMessages(host)  # type: ignore[arg-type]
    slot = DmSlot(user_id=41)
    assert hands._rank(slot, 2) == PICTURE  # nothing to press: a picture
    host.asks = (1, 5)
    assert hands._rank(slot, 2) == PROMPT  # their decision, not on the message yet
    await hands._payload(slot, 2)  # the edit showing it is built...
    hands._shown(slot, 2, version=8)  # ...and acknowledged
    assert host.delivered_versions == [8]
    assert hands._rank(slot, 2) == PICTURE  # the same decision again (a restarted clock): no hurry
    host.asks = (1, 9)
    assert hands._rank(slot, 2) == PROMPT  # the next decision
    host.asks = (1, -1)  # the table plays for them: Take back
    assert hands._rank(slot, 2) == PROMPT


async def test_an_edit_built_before_a_decision_opened_does_not_count_as_showing_it() -> None:
    host = Host()
    hands = HandMessages(host)  # type: ignore[arg-type]
    slot = DmSlot(user_id=41)
    await hands._payload(slot, 2)  # built while they owed nothing
    host.asks = (1, 5)  # their decision opens while that edit is on its way
    hands._shown(slot, 2, version=8)
    assert hands._rank(slot, 2) == PROMPT, "the message landed without the decision: the next edit is urgent"
