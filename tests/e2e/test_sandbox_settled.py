"""The sandbox's person reads a prompt only once the bot's deliveries to their DM have landed
(devserver/settled.py), and a run says so when the clock played one of the person's decisions (each one
a prompt the person never had to answer: the run has become another game than its seed's)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from cogs.mahjong.dms import DmSlot
from cogs.mahjong.live import PROMPT, LiveMessage, Payload
from devserver import DevServer
from devserver.people import Person, move_of, prompt_buttons
from devserver.recorder import Message
from devserver.sandbox import ClockWatch
from devserver.settled import dm_settled
from engine.actions import Action, Kind
from engine.position import position

USER = 42


class SlowMessage:
    """A DM whose edits land when the test lets them (``landing``)."""

    id = 7

    def __init__(self) -> None:
        self.landing = asyncio.Event()
        self.edited = 0

    async def edit(self, **kwargs: object) -> None:
        await self.landing.wait()
        self.edited += 1


def hand_message(slow: SlowMessage) -> tuple[LiveMessage, SimpleNamespace]:
    async def build() -> Payload:
        return Payload(content="your turn")

    live = LiveMessage(slow, build, rank=PROMPT)  # type: ignore[arg-type]
    return live, SimpleNamespace(hands=SimpleNamespace(slots={0: DmSlot(USER, live=live), 1: DmSlot(USER + 1)}))


async def settles_within(settle, seconds: float = 0.2) -> bool:
    try:
        await asyncio.wait_for(settle(), seconds)
    except TimeoutError:
        return False
    return True


async def test_the_dm_is_settled_only_once_the_edit_in_flight_has_landed():
    slow = SlowMessage()
    live, runner = hand_message(slow)
    settle = dm_settled(runner, USER)
    assert await settles_within(settle)  # nothing on its way
    live.want(1)
    assert not await settles_within(settle, 0.05)
    slow.landing.set()
    assert await settles_within(settle) and slow.edited == 1 and live.shown == 1


async def test_the_dm_is_not_settled_while_a_clicks_answer_is_taken_in():
    slow = SlowMessage()
    live, runner = hand_message(slow)
    settle = dm_settled(runner, USER)
    live.hold()  # the click's in-place answer is on its way
    assert not await settles_within(settle, 0.05)
    waiting = asyncio.ensure_future(settle())
    live.answered(3, live.edits)
    await asyncio.wait_for(waiting, 1)


async def test_another_persons_dm_on_its_way_does_not_hold_this_person():
    slow = SlowMessage()
    live, runner = hand_message(slow)
    runner.hands.slots[1].sending = True  # seat 1's first DM is still being sent
    live.want(1)
    slow.landing.set()
    assert await settles_within(dm_settled(runner, USER))
    assert not await settles_within(dm_settled(runner, USER + 1), 0.05)


def prompt_components(move: int, codes: list[str]) -> list[dict]:
    buttons = [
        {"type": 2, "style": 2, "label": code, "custom_id": f"mj:a:1:1:0:{move}:{code}"} for code in codes
    ]
    return [{"type": 1, "components": buttons}]


async def test_the_person_reads_the_prompt_as_it_stands_once_its_delivery_has_landed():
    """The DM shows decision 5; an edit on its way replaces it with decision 6 (the bot moved on): the
    person answers 6, never the 5 they first saw."""
    server = DevServer(members=("alice",))
    alice = server.member("alice")
    payload = {"content": "claim it?", "components": prompt_components(5, ["p5z", "s"])}
    message: Message = server.messages.create(alice.dm_channel, payload, [])
    settles = []

    async def settle() -> None:
        settles.append(move_of(prompt_buttons(message)[0]))
        if len(settles) == 1:  # the edit in flight lands
            edit = {"content": "your turn", "components": prompt_components(6, ["d1m", "d2m"])}
            server.messages.edit(message, edit, [])

    person = Person(alice, settle=settle)
    read = await person.next_prompt(1)
    assert read is message and settles == ["1:1:0:5", "1:1:0:6"]
    assert [b.custom_id for b in prompt_buttons(read)] == ["mj:a:1:1:0:6:d1m", "mj:a:1:1:0:6:d2m"]


def watched_table(seat: int = 1) -> SimpleNamespace:
    people = [SimpleNamespace(user_id=USER if s == seat else None) for s in range(4)]
    game = position(hands={seat: "123456789m123p44p67s9s"}, turn=seat, drawn="9s")
    session = SimpleNamespace(seating=SimpleNamespace(by_seat=people), match=SimpleNamespace(history=[]), game=game)
    return SimpleNamespace(session=session)


async def test_the_clock_playing_a_persons_decision_is_counted_and_nothing_else_is():
    runner = watched_table(seat=1)
    game = runner.session.game

    def others_let_their_clocks_run() -> None:  # AI seats' timeouts are not the person's
        while 1 not in game.to_act():
            game.apply(Action(game.to_act()[0], Kind.TIMEOUT))

    game.apply(Action(1, Kind.TIMEOUT))  # before this run's play began: not this run's
    others_let_their_clocks_run()
    watch = ClockWatch.start(runner, USER)
    game.apply(game.legal_actions(1)[0])  # the person's own answer
    others_let_their_clocks_run()
    assert watch.timeouts() == 0
    game.apply(Action(1, Kind.TIMEOUT))
    assert watch.timeouts() == 1
    finished = SimpleNamespace(number=game.hand_number, log=tuple(str(a) for a in game.log))
    runner.session.match.history.append(finished)  # the hand recorded: counted once, from its record
    assert watch.timeouts() == 1
