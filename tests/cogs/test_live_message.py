"""A burst of changes costs one edit; a click's own answer is not repeated; the budget paces edits."""

from __future__ import annotations

import asyncio
import time

from cogs.mahjong.live import EditBudget, LiveMessage, Payload, WindowLimit


class FakeMessage:
    id = 1

    def __init__(self, delay: float = 0.01) -> None:
        self.edits: list[str] = []
        self.delay = delay

    async def edit(self, **kwargs) -> None:
        await asyncio.sleep(self.delay)
        self.edits.append(kwargs["content"])


async def test_a_burst_of_wants_costs_one_follow_up_edit_with_the_latest_state():
    message = FakeMessage()
    state = {"v": 0}

    async def build():
        return Payload(content=f"v{state['v']}")

    live = LiveMessage(message, build)
    for v in range(1, 21):  # twenty moves while the first edit is in flight
        state["v"] = v
        live.want(v)
        await asyncio.sleep(0)
    await asyncio.wait([live.pending()])
    await asyncio.sleep(0.05)
    assert len(message.edits) <= 2 and message.edits[-1] == "v20"


async def test_a_version_already_shown_by_a_click_answer_is_not_edited_again():
    message = FakeMessage()

    async def build():
        return Payload(content="x")

    live = LiveMessage(message, build)
    live.mark_shown(5)
    live.want(5)
    await asyncio.sleep(0.05)
    assert message.edits == []


async def test_the_budget_keeps_a_reserve_for_prompts():
    budget = EditBudget(per_second=20, reserve=5)
    start = time.monotonic()
    for _ in range(20):  # pictures may use what is above the reserve, then wait for refills
        await budget.take(urgent=False)
    waited_pictures = time.monotonic() - start
    start = time.monotonic()
    await budget.take(urgent=True)  # a prompt still finds a token at once
    assert time.monotonic() - start < 0.05 and waited_pictures > 0.1


async def test_the_window_lets_a_burst_through_then_waits_for_the_oldest_call_to_leave():
    window = WindowLimit(limit=3, seconds=0.2)
    start = time.monotonic()
    for _ in range(3):
        await window.take()
    burst = time.monotonic() - start
    await window.take()  # the fourth waits until the first is 0.2 s old
    assert burst < 0.05 and time.monotonic() - start >= 0.19
