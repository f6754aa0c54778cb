"""When the bot has nothing more on its way to a person's DM: the moment the sandbox's person reads their
prompt (``Person.settle`` in devserver/people.py).

A click's in-place answer and an edit of the same DM can be on their way at once, and whichever the
stand-in applies last is what the person sees. A person who clicked while an edit built before their
click was in flight could find their answer (their next decision: a turn after a 碰, say) covered by the
prompt they had just answered; the bot believes the answer is on screen and sends nothing more, so the
decision went to the clock and the run played another hand (about one run in ten). Reading only once no
edit of their DM is in flight and no click's answer is still being taken in, the person reads the
prompt the bot means, clicks while nothing else is on its way to that message, and a run is a function
of its seed.

It reads the bot's own delivery state (the runner's ``dms``: each ``LiveMessage``'s edit in flight and
the clicks it holds for), as the sandbox reads the runner for its scoreboard: duck-typed, no import of
the product.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

# seconds between looks while a click's answer is being taken in (the bot sets no event for it): the
# answer has landed by then, so this lasts a few event-loop turns
HELD_POLL = 0.005

Settle = Callable[[], Awaitable[None]]


def dm_settled(runner: Any, user_id: int) -> Settle:
    """Wait until none of ``user_id``'s hand messages at ``runner``'s table has anything on its way: the
    first DM being sent, an edit in flight (``LiveMessage.pending``) or a click's answer it holds for."""

    async def settle() -> None:
        while True:
            slots = [slot for slot in runner.hands.slots.values() if slot.user_id == user_id]  # a new hand: new slots
            lives = [slot.live for slot in slots if slot.live is not None]
            edits = [task for live in lives if (task := live.pending()) is not None]
            if edits:
                await asyncio.wait(edits)
            elif any(slot.sending for slot in slots) or any(live.held for live in lives):
                await asyncio.sleep(HELD_POLL)
            else:
                return

    return settle
