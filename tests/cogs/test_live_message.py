"""A burst of changes costs one edit; a click's own answer is not repeated; the budget paces edits."""

from __future__ import annotations

import asyncio
import datetime
import time
from types import SimpleNamespace

import discord

from cogs.mahjong.live import (
    PICTURE,
    POST,
    PROMPT,
    EditBudget,
    LiveMessage,
    Payload,
    PictureTurns,
    Rank,
    WindowLimit,
)


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
        await budget.take(PICTURE)
    waited_pictures = time.monotonic() - start
    start = time.monotonic()
    await budget.take(PROMPT)  # a prompt still finds a token at once
    assert time.monotonic() - start < 0.05 and waited_pictures > 0.1


async def _waits(ready) -> bool:
    """Still waiting for a token after the loop ran everything it could (no refill to speak of)."""
    task = asyncio.ensure_future(ready)
    for _ in range(5):
        await asyncio.sleep(0)
    waiting = not task.done()
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    return waiting


async def test_under_load_prompts_go_first_then_channel_posts_then_pictures():
    """Taken over by the hundred, a process's table posts went before the prompts people waited for."""
    budget = EditBudget(per_second=1e-6, reserve=4, capacity=10)  # no refill to speak of
    budget.tokens = 3.0
    assert not await _waits(budget.ready(PROMPT))
    assert not await _waits(budget.ready(POST))  # 3 tokens leave the prompts their 2
    assert await _waits(budget.ready(PICTURE))  # the pictures leave them 4
    budget.tokens = 2.0
    assert await _waits(budget.ready(POST)) and not await _waits(budget.ready(PROMPT))


async def test_a_hand_message_waits_with_the_pictures_until_its_person_owes_a_decision():
    budget = EditBudget(per_second=1e-6, reserve=4, capacity=10)
    budget.tokens = 2.0
    owes = {"now": False}
    message = Recording()
    live = LiveMessage(message, lambda: _payload("your turn"), budget=budget, rank=lambda: PROMPT if owes["now"] else PICTURE)
    live.want(1)
    for _ in range(5):
        await asyncio.sleep(0)
    assert message.calls == []  # an AI's discard shown in a DM whose person owes nothing: it waits
    owes["now"] = True  # asked again at the budget's next look
    await asyncio.wait_for(asyncio.wait([live.pending()]), 30.0)
    assert [c[0] for c in message.calls] == ["your turn"]


async def test_the_window_lets_a_burst_through_then_waits_for_the_oldest_call_to_leave():
    window = WindowLimit(limit=3, seconds=0.2)
    start = time.monotonic()
    for _ in range(3):
        await window.take()
    burst = time.monotonic() - start
    await window.take()  # the fourth waits until the first is 0.2 s old
    assert burst < 0.05 and time.monotonic() - start >= 0.19


class Recording:
    """A message or a click that records each edit it carries (content and what was attached)."""

    def __init__(self, *, age: float = 0.0, fails: int | None = None) -> None:
        self.id = 1
        self.created_at = discord.utils.utcnow() - datetime.timedelta(seconds=age)
        self.calls: list[tuple[str, list]] = []
        self.fails = fails  # the Discord error code this click's token answers with
        self.extras: dict = {}
        self.client = None  # a click's bot: none here, so its age is read by the host's clock

    def _shown(self, kwargs: dict) -> SimpleNamespace:
        kept = [a for a in kwargs["attachments"] if not isinstance(a, discord.File)]
        self.calls.append((kwargs["content"], kwargs["attachments"]))
        return SimpleNamespace(attachments=kept or [SimpleNamespace(id=len(self.calls))])

    async def edit(self, **kwargs) -> SimpleNamespace:
        return self._shown(kwargs)

    async def edit_original_response(self, **kwargs) -> SimpleNamespace:
        if self.fails is not None:
            raise discord.HTTPException(SimpleNamespace(status=401, reason="Unauthorized"), {"code": self.fails})
        return self._shown(kwargs)


class EmptyBudget(EditBudget):
    """A budget that must not be asked: the click's token route is outside the global limit."""

    def __init__(self) -> None:
        super().__init__(per_second=1.0, reserve=0)
        self.taken = 0

    async def take(self, rank: Rank) -> None:
        self.taken += 1


async def _show(live: LiveMessage, version: int) -> None:
    live.want(version)
    await asyncio.wait([live.pending()])


async def test_after_a_click_the_message_is_edited_through_its_token_outside_the_global_limit():
    message, click, budget = Recording(), Recording(), EmptyBudget()
    live = LiveMessage(message, lambda: _payload("next prompt"), budget=budget)
    live.mark_shown(1, via=click)
    await _show(live, 2)
    assert [c[0] for c in click.calls] == ["next prompt"] and message.calls == [] and budget.taken == 0


async def test_a_token_near_the_end_of_its_fifteen_minutes_leaves_edits_to_the_channel_route():
    message, click, budget = Recording(), Recording(age=14.5 * 60), EmptyBudget()
    live = LiveMessage(message, lambda: _payload("next prompt"), budget=budget)
    live.mark_shown(1, via=click)
    await _show(live, 2)
    assert click.calls == [] and [c[0] for c in message.calls] == ["next prompt"] and budget.taken == 1


async def test_a_click_whose_id_clock_disagrees_counts_its_token_age_from_receipt():
    message, click = Recording(), Recording(age=200 * 24 * 3600.0)  # an id from another clock
    click.extras["mahjong_received"] = time.monotonic() - 5.0
    live = LiveMessage(message, lambda: _payload("next prompt"))
    live.mark_shown(1, via=click)
    await _show(live, 2)
    assert [c[0] for c in click.calls] == ["next prompt"] and message.calls == []


async def test_a_dead_token_falls_back_to_the_channel_route_in_the_same_edit():
    message, click = Recording(), Recording(fails=50027)
    live = LiveMessage(message, lambda: _payload("next prompt"))
    live.mark_shown(1, via=click)
    await _show(live, 2)
    await _show(live, 3)  # the dead token is not tried again
    assert [c[0] for c in message.calls] == ["next prompt"] and click.calls == []


async def test_a_private_hand_whose_token_is_past_its_life_closes_without_an_edit():
    """An ephemeral (closed DMs' Show my hand) has no channel route: once its token is too old to edit, the
    slot is done, and the person's next press opens a new one."""
    message, click, budget = Recording(), Recording(age=14.5 * 60), EmptyBudget()
    live = LiveMessage(message, lambda: _payload("next prompt"), budget=budget, token_only=True)
    live.mark_shown(1, via=click)
    await _show(live, 2)
    assert live.closed and click.calls == [] and message.calls == [] and budget.taken == 0
    live.want(3)
    assert live.pending() is None, "a closed slot starts no edit"


async def test_a_private_hand_whose_token_discord_calls_gone_closes_without_the_channel_route():
    message, click = Recording(), Recording(fails=50027)
    live = LiveMessage(message, lambda: _payload("next prompt"), token_only=True)
    live.mark_shown(1, via=click)
    await _show(live, 2)
    assert live.closed and message.calls == [] and live.edits == 0


async def test_a_private_hand_is_edited_through_each_newer_click_s_token():
    message, first, second = Recording(), Recording(age=13 * 60), Recording()
    live = LiveMessage(message, lambda: _payload("next prompt"), token_only=True)
    live.mark_shown(1, via=first)
    await _show(live, 2)
    live.mark_shown(3, via=second)  # a click on it: its answer showed version 3, its token is fresh
    await _show(live, 4)
    assert [c[0] for c in first.calls] == ["next prompt"] and [c[0] for c in second.calls] == ["next prompt"]
    assert not live.closed and message.calls == []


async def test_an_edit_that_would_show_what_the_message_shows_is_not_sent():
    message = Recording()
    live = LiveMessage(message, lambda: _payload("same"))
    await _show(live, 1)
    await _show(live, 2)
    assert len(message.calls) == 1 and live.skipped == 1


async def test_an_unchanged_picture_is_kept_instead_of_uploaded_again():
    message = Recording()
    texts = iter(["your turn", "waiting"])
    live = LiveMessage(message, lambda: _payload(next(texts), png=b"same picture"))
    await _show(live, 1)
    await _show(live, 2)
    first, second = (attachments for _, attachments in message.calls)
    assert isinstance(first[0], discord.File) and not isinstance(second[0], discord.File)


async def _payload(content: str, png: bytes | None = None) -> Payload:
    return Payload(content=content, png=png)


async def test_pictures_nobody_waits_for_are_drawn_a_few_at_a_time_and_prompts_never_queue_behind_them():
    budget = EditBudget(per_second=1e6, reserve=0, pictures=2)
    drawing = {"now": 0, "most": 0, "prompt_waited": None}

    async def table_picture():
        drawing["now"] += 1
        drawing["most"] = max(drawing["most"], drawing["now"])
        await asyncio.sleep(0.05)
        drawing["now"] -= 1
        return Payload(content="table")

    async def prompt():
        drawing["prompt_waited"] = drawing["now"]  # built while the tables are still drawing
        return Payload(content="your turn")

    tables = [LiveMessage(Recording(), table_picture, budget=budget) for _ in range(6)]
    dm = LiveMessage(Recording(), prompt, budget=budget, rank=PROMPT)
    for live in tables:
        live.want(1)
    await asyncio.sleep(0.01)
    dm.want(1)
    await asyncio.wait([t for live in [*tables, dm] if (t := live.pending()) is not None])
    assert drawing["most"] == 2 and drawing["prompt_waited"] == 2


async def test_a_promoted_turn_is_next_in_the_pictures_line_and_a_given_up_turn_is_passed_on():
    turns = PictureTurns(1)
    drawing = turns.ask()
    assert drawing.done(), "a free turn is given at once"
    first, second, third = turns.ask(), turns.ask(), turns.ask()
    turns.promote(third)  # a finished hand's last table picture: the next deal waits for it
    turns.give_back()
    assert third.done() and not first.done() and not second.done()
    turns.drop(third)  # given, then its asker gave up: the turn goes on to the line's head
    assert first.done() and not second.done()
    turns.drop(second)  # never given: it just leaves the line
    turns.give_back()
    assert turns.free == 1 and not turns.line and not turns.first


async def test_a_finished_hands_table_picture_is_drawn_next_not_at_once():
    """Hurried (endings.settle_messages), the last table picture of a hand goes to the head of the line of
    pictures drawn a few at a time, bot-wide; it does not draw beside them (which gave bench.cluster a tail
    of 26-41 s hand ends at 100 tables)."""
    budget = EditBudget(per_second=1e6, reserve=0, pictures=1)
    order: list[str] = []
    release = asyncio.Event()

    def table(name: str):
        async def build() -> Payload:
            order.append(name)
            if name == "drawing":
                await release.wait()
            return Payload(content=name)
        return LiveMessage(Recording(), build, budget=budget)

    lives = [table(name) for name in ("drawing", "a", "b", "hand over")]
    for live in lives:
        live.want(1)
        for _ in range(3):
            await asyncio.sleep(0)
    lives[-1].hurry()
    for _ in range(3):
        await asyncio.sleep(0)
    assert order == ["drawing"], "the rest wait for their turn, the hurried one too"
    release.set()
    await asyncio.wait_for(asyncio.wait([t for live in lives if (t := live.pending()) is not None]), 30.0)
    assert order == ["drawing", "hand over", "a", "b"]


async def test_a_hurried_edit_goes_with_the_posts_and_the_hurry_lasts_for_the_edits_under_way_only():
    """A private hand (DMs closed) lives on into the next hand: hurried at a hand's end, ahead of the
    pictures; its later edits wait with the pictures again while its person owes nothing."""
    budget = EditBudget(per_second=1e-6, reserve=4, capacity=10)
    budget.tokens = 3.0  # enough for a post, not for a picture
    shown = {"v": 0}

    async def build() -> Payload:
        shown["v"] += 1
        return Payload(content=f"v{shown['v']}")

    private = LiveMessage(Recording(), build, budget=budget, rank=lambda: PICTURE)
    private.want(1)
    for _ in range(5):
        await asyncio.sleep(0)
    assert private.message.calls == [], "a picture nobody waits for"
    private.hurry()
    await asyncio.wait_for(asyncio.wait([private.pending()]), 30.0)
    assert [c[0] for c in private.message.calls] == ["v1"]
    budget.tokens = 3.0
    private.want(2)  # the next hand's AI discard: nobody waits for it
    assert await _waits(asyncio.wait_for(asyncio.shield(private.pending()), 30.0))
    assert [c[0] for c in private.message.calls] == ["v1"]
    private.close(abort=True)


async def test_an_edit_waits_for_the_click_answer_that_replaces_the_message_then_shows_what_came_after():
    """The answer (built at v1) and an edit (v2, wanted while the answer was on its way) must land in that
    order: the other way round the older answer would cover the newer prompt."""
    message = FakeMessage()
    state = {"v": 1}

    async def build():
        return Payload(content=f"v{state['v']}")

    live = LiveMessage(message, build)
    live.hold()  # the click's answer, showing v1, is on its way
    state["v"] = 2
    live.want(2)
    await asyncio.sleep(0.05)
    assert message.edits == []  # nothing lands under the answer
    live.answered(1, edits_before=0)
    await asyncio.sleep(0.05)
    assert message.edits == ["v2"] and live.shown == 2


async def test_an_edit_that_raced_the_answer_is_made_again_and_a_failed_answer_lets_edits_go_on():
    message = FakeMessage(delay=0.0)
    state = {"v": 3}

    async def build():
        return Payload(content=f"v{state['v']}")

    live = LiveMessage(message, build)
    live.want(3)
    await asyncio.sleep(0.01)  # an edit of v3 lands while an answer built at v1 is still on its way
    assert message.edits == ["v3"]
    live.answered(1, edits_before=0)  # the answer then replaced it with v1: v3 is edited in again
    await asyncio.sleep(0.01)
    assert message.edits == ["v3", "v3"]
    live.hold()
    state["v"] = 4
    live.want(4)
    await asyncio.sleep(0.01)
    assert message.edits == ["v3", "v3"]
    live.released()
    await asyncio.sleep(0.01)
    assert message.edits[-1] == "v4"


class StampedBudget(EditBudget):
    """Records when each token is taken."""

    def __init__(self) -> None:
        super().__init__(per_second=1000.0, reserve=0)
        self.taken: list[float] = []

    async def take(self, rank: Rank) -> None:
        await super().take(rank)
        self.taken.append(time.monotonic())


async def test_a_token_is_taken_when_the_edit_is_sent_not_before_its_picture_is_drawn():
    """Tokens taken before slow renders would be spent in a burst when the renders finish, past the
    global limit; an edit that would change nothing takes none."""
    budget, drawn = StampedBudget(), []

    async def build():
        await asyncio.sleep(0.05)  # the picture
        drawn.append(time.monotonic())
        return Payload(content="same")

    message = Recording()
    live = LiveMessage(message, build, budget=budget, rank=PROMPT)
    await _show(live, 1)
    await _show(live, 2)  # shows what the message already shows: skipped
    assert len(drawn) == 2 and len(message.calls) == 1
    assert len(budget.taken) == 1 and budget.taken[0] >= drawn[0]


async def test_an_edit_still_in_flight_when_the_answer_lands_is_followed_by_the_answer_s_version():
    """The edit (built at v1 before the click) lands after the click's answer (v2) and covers it; the
    message must not be left showing the prompt just answered."""
    message = FakeMessage(delay=0.05)
    state = {"v": 1}

    async def build():
        return Payload(content=f"v{state['v']}")

    live = LiveMessage(message, build)
    live.want(1)
    await asyncio.sleep(0.01)  # its edit is on its way
    assert live.pending() is not None
    live.hold()
    state["v"] = 2
    edits_before = live.edits
    message.edits.append("answer v2")  # the click's answer, in place
    live.answered(2, edits_before=edits_before)
    await asyncio.sleep(0.2)
    assert message.edits == ["answer v2", "v1", "v2"] and live.shown == 2


async def test_closing_a_message_never_cancels_the_edit_already_under_way():
    """Issue 37, item 10: a new hand's message replaced the last one while its last edit was on its way,
    and the old message stayed frozen mid-hand."""
    message = FakeMessage(delay=0.05)
    state = {"v": "playing"}

    async def build():
        return Payload(content=state["v"])

    live = LiveMessage(message, build, min_interval=0.2)
    state["v"] = "hand over"
    live.want(1)
    await asyncio.sleep(0.01)  # the edit is on its way
    live.close()  # the next hand's message takes over
    live.want(2)  # and nothing more is asked of this one
    pending = live.pending()
    assert pending is not None
    await asyncio.wait_for(pending, 1)
    assert message.edits == ["hand over"]


async def test_a_closed_message_that_finishes_makes_the_edit_it_was_asked_for():
    message = FakeMessage(delay=0.01)
    seen = {"v": 0}

    async def build():
        return Payload(content=f"v{seen['v']}")

    live = LiveMessage(message, build, min_interval=0.05)
    live.want(1)
    await asyncio.sleep(0.03)  # the first edit has landed; the message now waits out its pace
    seen["v"] = 2
    live.want(2)  # the hand's end, asked for while it waits
    live.close(finish=True)
    pending = live.pending()
    assert pending is not None
    await asyncio.wait_for(pending, 1)
    assert message.edits == ["v0", "v2"]


async def test_aborting_a_message_stops_its_edit_at_once():
    message = FakeMessage(delay=0.5)

    async def build():
        return Payload(content="x")

    live = LiveMessage(message, build)
    live.want(1)
    await asyncio.sleep(0.01)
    live.close(abort=True)  # the bot shuts down
    await asyncio.sleep(0)
    assert live.pending() is None or live.pending().cancelling()
    await asyncio.sleep(0.01)
    assert message.edits == []


class Channel:
    """Where a message lives: a fresh one is posted here."""

    def __init__(self) -> None:
        self.posted: list[Recording] = []

    async def send(self, **kwargs) -> Recording:
        message = Recording()
        message.id = 100 + len(self.posted)
        message.channel = self
        message.posted = kwargs["content"]
        message.attachments = []
        self.posted.append(message)
        return message


class OldMessage(Recording):
    """A message Discord refuses to edit (30046) once it is over an hour old and edited often."""

    def __init__(self) -> None:
        super().__init__()
        self.channel = Channel()
        self.tries = 0

    async def edit(self, **kwargs) -> SimpleNamespace:
        self.tries += 1
        response = SimpleNamespace(status=429, reason="Too Many Requests")
        raise discord.HTTPException(response, {"code": 30046, "message": "Maximum number of edits"})


async def test_a_message_past_its_hour_is_not_edited_but_posted_afresh_and_the_fresh_one_kept_up_to_date():
    from cogs.mahjong.live import FRESH_AFTER

    message = Recording()
    message.channel = Channel()
    texts = iter(["your turn", "waiting"])
    replaced = []
    live = LiveMessage(
        message, lambda: _payload(next(texts)), born=time.monotonic() - FRESH_AFTER - 1, on_replaced=replaced.append
    )
    await _show(live, 1)
    await _show(live, 2)
    fresh = message.channel.posted
    assert message.calls == [] and [m.posted for m in fresh] == ["your turn"] and replaced == fresh
    assert live.message is fresh[0] and [c[0] for c in fresh[0].calls] == ["waiting"] and not live.closed


async def test_discords_old_message_limit_posts_the_version_afresh_at_once_and_never_tries_that_edit_again():
    message = OldMessage()
    live = LiveMessage(message, lambda: _payload("your turn"))
    await _show(live, 1)
    assert message.tries == 1 and [m.posted for m in message.channel.posted] == ["your turn"]
    assert not live.closed and live.message is message.channel.posted[0] and live.shown == 1
