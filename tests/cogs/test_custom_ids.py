"""Buttons posted before a restart (or before an upgrade) must still work: every custom id the bot has
ever written for the table, lobby, hall, replay, review, watch and rematch buttons is matched by exactly one registered
template, and parses into the typed item it was made from; making that item again writes the same id."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.mahjong import DYNAMIC_ITEMS
from cogs.mahjong.buttons import (
    ActButton,
    ExchangeSelect,
    LobbyButton,
    LobbyOp,
    Mode,
    ModeButton,
    PromptPoint,
    TableButton,
    TableOp,
)
from cogs.mahjong.hallbuttons import JoinListedButton, PageButton, QueueButton
from cogs.mahjong.rematch import RematchButton
from cogs.mahjong.replay_buttons import (
    ReplayFrame,
    ReplayOpenButton,
    ReplaySeatSelect,
    ReplayStepButton,
    StepOp,
    WatchButton,
)
from cogs.mahjong.review import ReviewOpenButton, ReviewShare, ReviewShareButton, ReviewStep, ReviewStepButton

REGISTERED = DYNAMIC_ITEMS  # as Mahjong.cog_load registers them

# (custom id as written by the bot before the items were typed, the class, its typed attributes)
OLD_IDS: list[tuple[str, type, dict[str, Any]]] = [
    ("mj:l:7:join", LobbyButton, {"table": 7, "op": LobbyOp.JOIN}),
    ("mj:l:7:leave", LobbyButton, {"table": 7, "op": LobbyOp.LEAVE}),
    ("mj:l:7:ai", LobbyButton, {"table": 7, "op": LobbyOp.AI}),
    ("mj:l:7:start", LobbyButton, {"table": 7, "op": LobbyOp.START}),
    ("mj:l:7:close", LobbyButton, {"table": 7, "op": LobbyOp.CLOSE}),
    ("mj:a:7:3:2:41:d5m", ActButton, {"point": PromptPoint(table=7, hand=3, seat=2, move=41), "code": "d5m"}),
    ("mj:a:7:1:0:0:s", ActButton, {"point": PromptPoint(7, 1, 0, 0), "code": "s"}),
    ("mj:a:12:2:3:9:c4s", ActButton, {"point": PromptPoint(12, 2, 3, 9), "code": "c4s"}),
    ("mj:a:12:2:3:9:w", ActButton, {"point": PromptPoint(12, 2, 3, 9), "code": "w"}),
    ("mj:m:7:3:1:41:ready", ModeButton, {"point": PromptPoint(7, 3, 1, 41), "mode": Mode.READY}),
    ("mj:m:7:3:1:41:main", ModeButton, {"point": PromptPoint(7, 3, 1, 41), "mode": Mode.MAIN}),
    ("mj:t:7:show", TableButton, {"table": 7, "op": TableOp.SHOW}),
    ("mj:t:7:back", TableButton, {"table": 7, "op": TableOp.BACK}),
    ("mj:t:7:eyeask", TableButton, {"table": 7, "op": TableOp.EYE_ASK}),
    ("mj:t:7:eye", TableButton, {"table": 7, "op": TableOp.EYE}),
    ("mj:t:7:resume", TableButton, {"table": 7, "op": TableOp.RESUME}),
    ("mj:e:7:3:0:1", ExchangeSelect, {"point": PromptPoint(7, 3, 0, 1)}),
    ("mj:q:leave", QueueButton, {}),
    ("mj:h:j:41", JoinListedButton, {"table": 41}),
    ("mj:h:p:3:all", PageButton, {"page": 3, "rules": None}),
    ("mj:h:p:2:taiwan13", PageButton, {"page": 2, "rules": "taiwan13"}),
    ("mj:r:17:2:35:next", ReplayStepButton, {"frame": ReplayFrame(17, 2, 35), "op": StepOp.NEXT}),
    ("mj:r:17:0:0:claim", ReplayStepButton, {"frame": ReplayFrame(17, 0, 0), "op": StepOp.CLAIM}),
    ("mj:r:9:3:12:nh", ReplayStepButton, {"frame": ReplayFrame(9, 3, 12), "op": StepOp.NEXT_HAND}),
    ("mj:r:9:1:12:ph", ReplayStepButton, {"frame": ReplayFrame(9, 1, 12), "op": StepOp.PREV_HAND}),
    ("mj:rs:17:35", ReplaySeatSelect, {"hand": 17, "step": 35}),
    ("mj:rp:5:2", ReplayOpenButton, {"table": 5, "hand_no": 2}),
    ("mj:w:5", WatchButton, {"table": 5}),
    ("mj:vr:5:2:1:48", ReviewStepButton, {"at": ReviewStep(table=5, hand_no=2, seat=1, step=48)}),
    ("mj:vs:5:0:123456789012345678", ReviewShareButton, {"share": ReviewShare(5, None, 123456789012345678)}),
    ("mj:vs:5:3:42", ReviewShareButton, {"share": ReviewShare(5, 3, 42)}),
    ("mj:vo:5", ReviewOpenButton, {"table": 5}),
    ("mj:r:12", RematchButton, {"table": 12}),
]


def component_for(kind: type, custom_id: str) -> discord.ui.Item[Any]:
    """The component as discord.py rebuilds it from the clicked message."""
    if issubclass(kind, (ReplaySeatSelect, ExchangeSelect)):
        return discord.ui.Select(custom_id=custom_id, options=[discord.SelectOption(label="x", value="0")])
    return discord.ui.Button(custom_id=custom_id, label="x")


async def parsed(kind: Any, custom_id: str) -> Any:
    match = kind.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None, f"{kind.__name__} no longer matches {custom_id}"
    return await kind.from_custom_id(None, component_for(kind, custom_id), match)


@pytest.mark.parametrize(("custom_id", "kind", "fields"), OLD_IDS, ids=[c for c, _, _ in OLD_IDS])
def test_an_old_custom_id_reaches_exactly_one_item(custom_id: str, kind: type, fields: dict[str, Any]) -> None:
    matching = [item for item in REGISTERED if item.__discord_ui_compiled_template__.fullmatch(custom_id)]
    assert matching == [kind]


@pytest.mark.parametrize(("custom_id", "kind", "fields"), OLD_IDS, ids=[c for c, _, _ in OLD_IDS])
async def test_an_old_custom_id_parses_to_the_same_typed_item(
    custom_id: str, kind: type, fields: dict[str, Any]
) -> None:
    item = await parsed(kind, custom_id)
    assert type(item) is kind and item.custom_id == custom_id
    assert {name: getattr(item, name) for name in fields} == fields


MADE = [
    ("mj:l:7:join", lambda: LobbyButton.make(7, LobbyOp.JOIN, "Join", discord.ButtonStyle.primary)),
    ("mj:l:7:close", lambda: LobbyButton.make(7, LobbyOp.CLOSE, "Close", discord.ButtonStyle.danger)),
    ("mj:a:7:3:2:41:d5m", lambda: ActButton.make(7, 3, 2, 41, "d5m", "5m", discord.ButtonStyle.secondary, 0)),
    ("mj:a:7:1:0:0:s", lambda: ActButton.make(7, 1, 0, 0, "s", "Pass", discord.ButtonStyle.secondary, 4)),
    ("mj:m:7:3:1:41:ready", lambda: ModeButton.make(7, 3, 1, 41, Mode.READY, "Ready…", discord.ButtonStyle.danger, 4)),
    ("mj:m:7:3:1:41:main", lambda: ModeButton.make(7, 3, 1, 41, Mode.MAIN, "Back", discord.ButtonStyle.secondary, 1)),
    ("mj:t:7:show", lambda: TableButton.make(7, TableOp.SHOW, "My hand", discord.ButtonStyle.secondary)),
    ("mj:t:7:eyeask", lambda: TableButton.make(7, TableOp.EYE_ASK, "眼牌", discord.ButtonStyle.danger)),
    ("mj:t:7:resume", lambda: TableButton.make(7, TableOp.RESUME, "Resume", discord.ButtonStyle.success)),
    ("mj:e:7:3:0:1", lambda: ExchangeSelect.make(7, 3, 0, 1, [("5m.0", "5m"), ("5m.1", "5m")], "Give back")),
    ("mj:q:leave", lambda: QueueButton.make("Leave queue")),
    ("mj:h:j:41", lambda: JoinListedButton.make(41, "Join 1", 0)),
    ("mj:h:p:3:all", lambda: PageButton.make(3, None, "Next", disabled=False, row=2)),
    ("mj:h:p:2:taiwan13", lambda: PageButton.make(2, "taiwan13", "Previous", disabled=True, row=2)),
    ("mj:r:17:2:35:next", lambda: ReplayStepButton.make(17, 2, 35, StepOp.NEXT, "▶", 0)),
    ("mj:r:9:3:12:nh", lambda: ReplayStepButton.make(9, 3, 12, StepOp.NEXT_HAND, "Hand ▶", 1)),
    ("mj:rs:17:35", lambda: ReplaySeatSelect.make(17, 35, 2, ["a", "b", "c", "d"], "Seat")),
    ("mj:rp:5:2", lambda: ReplayOpenButton.make(5, 2, "▶ Replay")),
    ("mj:w:5", lambda: WatchButton.make(5, "👀 Watch")),
    ("mj:vr:5:2:1:48", lambda: ReviewStepButton.make(5, 2, 1, 48, "▶ Hand 2 · move 30")),
    ("mj:vs:5:0:42", lambda: ReviewShareButton.make(5, None, 42, "📣 Share")),
    ("mj:vs:5:3:42", lambda: ReviewShareButton.make(5, 3, 42, "📣 Share")),
    ("mj:vo:5", lambda: ReviewOpenButton.make(5, "🔍 Review my play")),
    ("mj:r:12", lambda: RematchButton.make(12, "🔁 Rematch")),
]


@pytest.mark.parametrize(("custom_id", "make"), MADE, ids=[c for c, _ in MADE])
async def test_a_made_item_writes_the_custom_id_it_parses_back_from(custom_id: str, make: Any) -> None:
    made = make()
    assert made.custom_id == custom_id
    again = await parsed(type(made), custom_id)
    typed = {name: value for name, value in vars(made).items() if not name.startswith("_") and name != "item"}
    assert {name: getattr(again, name) for name in typed} == typed


async def test_a_page_of_a_rule_set_no_longer_offered_lists_every_rule_set() -> None:
    item = await parsed(PageButton, "mj:h:p:4:riichi")
    assert (item.page, item.rules) == (4, None)


@pytest.mark.parametrize(("values", "seat"), [(["2"], 2), (["0"], 0), (["3"], 3), (["7"], 0), ([], 0)])
async def test_the_seat_select_turns_to_the_seat_chosen(values: list[str], seat: int) -> None:
    select = await parsed(ReplaySeatSelect, "mj:rs:17:35")
    select.item._refresh_state(None, {"values": values})  # what discord.py does before the callback
    assert select.seat == seat


@pytest.mark.parametrize(
    "custom_id",
    [
        "mj:l:7:kick",
        "mj:a:7:3:4:41:d5m",
        "mj:a:7:3:2:41:",
        "mj:m:7:3:1:41:riichi",
        "mj:t:7:eyes",
        "mj:e:7:3:0",
        "mj:a:7:3:2:41:q5m",
        "mj:r:17:4:35:next",
        "mj:r:17:2:35:jump",
        "mj:rs:17",
        "mj:vr:5:2:9:48",
        "mj:h:p:x:all",
        "mj:w:",
    ],
)
def test_a_custom_id_outside_the_grammar_reaches_no_item(custom_id: str) -> None:
    assert not [item for item in REGISTERED if item.__discord_ui_compiled_template__.fullmatch(custom_id)]


async def test_a_select_is_never_taken_for_a_button() -> None:
    match = WatchButton.__discord_ui_compiled_template__.fullmatch("mj:w:5")
    select = discord.ui.Select(custom_id="mj:w:5", options=[discord.SelectOption(label="x", value="0")])
    with pytest.raises(TypeError):
        await WatchButton.from_custom_id(None, select, match)


async def test_the_exchange_select_hands_on_the_tiles_chosen() -> None:
    select = await parsed(ExchangeSelect, "mj:e:7:3:0:1")
    select.item._refresh_state(None, {"values": ["5m.0", "5m.1"]})  # what discord.py does before the callback
    assert select.values == ["5m.0", "5m.1"]
