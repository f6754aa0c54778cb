"""A prompt that reached a person in a new message (a hand sent afresh after a takeover or a restart) was
notified by Discord already: no nudge for that decision, however often its DM is edited later; the next
decision, shown by an edit, is nudged as ever."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from types import SimpleNamespace

from cogs.mahjong.nudges import Nudges
from table.screens import Showing

ALICE = 41


@dataclass
class Screen:
    decision: int
    deadline: float
    showing: Showing = Showing.PROMPT
    hand_number: int = 1
    seats: tuple = (SimpleNamespace(user_id=ALICE),)
    prompt: None = None
    locale: str = "en"


@dataclass
class Host:
    """A table whose one seat owes ``screen``'s decision; its nudges are the DMs ``sent``."""

    screen: Screen
    sent: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.session = SimpleNamespace(screen=lambda seat: self.screen, table_id=7)
        self.hands = SimpleNamespace(nudgeable=lambda seat: True)
        self.cog = SimpleNamespace(timing=SimpleNamespace(nudge_after=0.0), send_dm=self._send, background=asyncio.ensure_future)

    async def _send(self, user_id: int, **kwargs: object) -> object:
        self.sent.append(str(kwargs["content"]))
        return SimpleNamespace(delete=None)


async def _settled(nudges: Nudges) -> None:
    """Every nudge task has run to its end."""
    await asyncio.gather(*(n.task for n in nudges.open.values() if n.task is not None))


async def test_a_prompt_in_a_new_message_is_not_nudged_and_the_next_decision_by_edit_is() -> None:
    host = Host(Screen(decision=5, deadline=time.time() + 20))
    nudges = Nudges(host)
    nudges.shown(0, notified=True)  # the hand sent afresh, its prompt on it
    nudges.shown(0)  # an edit of that DM while the same decision waits
    await _settled(nudges)
    assert host.sent == []
    host.screen = Screen(decision=9, deadline=time.time() + 20)  # their next decision, shown by an edit
    nudges.check()
    nudges.shown(0)
    await _settled(nudges)
    assert len(host.sent) == 1


async def test_a_prompt_shown_by_an_edit_is_nudged() -> None:
    host = Host(Screen(decision=5, deadline=time.time() + 20))
    nudges = Nudges(host)
    nudges.shown(0)
    await _settled(nudges)
    assert len(host.sent) == 1
