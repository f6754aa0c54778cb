"""taiwan16's own actions through the stand-in: 換牌 as a select in the DM (the clock keeps the hand), and the
眼牌 / Miji button, after which only the declarer's DM lists the other hands."""

from __future__ import annotations

import pytest

from devserver.people import Person
from engine.events import Phase
from engine.tiles import format_tiles, parse_tiles
from table.timing import Timing

from .tablebot import PrivacyWatch, build_bot, table_runner
from .test_table_play import FOUR, QUICK, open_full_table, person_at, wait_seated

OTHERS = "the other hands"  # the English line above the list of other hands


def latest_dm(user):
    dms = [m for m in user.dms() if m.attachments]
    return dms[-1] if dms else None


@pytest.mark.devserver(members=FOUR, rate_limits=QUICK)
async def test_exchange_is_a_select_in_the_dm_and_the_clock_keeps_the_hand(harness, devserver, monkeypatch):
    privacy = PrivacyWatch(monkeypatch)
    timing = Timing(ai_delay=0.02, hand_pause=0, edit_interval=0, timer_scale=0.1)  # 換牌 window 2 s
    bot = await harness.start(build_bot(timing))
    await open_full_table(devserver, exchange=True)
    runner = await wait_seated(bot, devserver)
    game = runner.session.game
    assert game.phase is Phase.EXCHANGE
    seats = {name: runner.session.seating.seat_of_user(devserver.member(name).id) for name in FOUR}
    alice, bob, carol = devserver.members("alice", "bob", "carol")

    async def exchange_dm(user):
        return await user.wait_for_dm(lambda m: bool(m.selects()), timeout=10)

    dm = await exchange_dm(alice)
    menu = dm.select()
    alice_values = menu.values[:2]
    assert len(menu.values) == len(game.hand(seats["alice"])) and menu.max_values == 3
    assert "換牌" in dm.content
    await (await alice.select(dm, menu.custom_id, alice_values)).response()
    await (await bob.click(await exchange_dm(bob), "Keep my hand (exchange none)")).response()
    carol_dm = await exchange_dm(carol)
    carol_values = carol_dm.select().values[-3:]
    await (await carol.select(carol_dm, None, carol_values)).response()
    # dave never answers: his time runs out and he keeps his hand (the document's words)
    await devserver.recorder.wait_until(lambda: game.phase is not Phase.EXCHANGE, 10, lambda: "the exchange")
    log = [str(a) for a in game.log]

    def chosen(values):
        return format_tiles(sorted(parse_tiles("".join(v.split(".")[0] for v in values))))

    assert f"{seats['alice']} exchange {chosen(alice_values)}" in log
    assert f"{seats['bob']} exchange" in log
    assert f"{seats['carol']} exchange {chosen(carol_values)}" in log
    assert f"{seats['dave']} timeout" in log
    game.check_invariants()
    assert privacy.check(runner) > 0
    await runner.close()


@pytest.mark.devserver(members=FOUR, rate_limits=QUICK)
async def test_eye_button_lists_the_other_hands_in_the_declarers_dm_only(harness, devserver, monkeypatch):
    privacy = PrivacyWatch(monkeypatch)
    bot = await harness.start(build_bot())
    await open_full_table(devserver)
    runner = await wait_seated(bot, devserver)
    game = runner.session.game
    declarer = next(s for s in range(4) if s not in game.to_act())  # not their turn: 眼牌 any time
    user = person_at(devserver, runner, declarer)
    dm = await user.wait_for_dm(lambda m: any(b.label == "眼牌 · Miji" for b in m.buttons()), timeout=10)
    confirm = await (await user.click(dm, "眼牌 · Miji")).message()
    assert "cannot be taken back" in confirm.text and "1 台" in confirm.text  # what it does and costs
    assert not game.eye[declarer]  # nothing declared yet
    await (await user.click(confirm, "Declare Miji")).response()
    assert game.eye[declarer] and game.miji[declarer]  # in the window the 眼牌 button declares Miji
    names = runner.session.seating.names()
    text = latest_dm(user).content
    assert OTHERS in text
    for seat in range(4):
        line = f"{names[seat]}: {format_tiles(game.hand(seat))}"
        assert (line in text) == (seat != declarer)
    assert not any(b.label and "眼牌" in b.label for b in latest_dm(user).buttons())  # once a hand
    for seat in range(4):
        if seat != declarer:
            other = person_at(devserver, runner, seat)
            assert all(OTHERS not in m.content for m in other.dms())
    await devserver.wait_for_message(channel="general", predicate=lambda m: "declares Miji" in m.content)
    # the hand plays on: the declarer's draws are discarded by the engine (摸到什麼打什麼)
    people = [Person(person_at(devserver, runner, s)) for s in range(4) if s != declarer]
    for _ in range(6):
        for person in people:
            if runner.session.game is game and not game.is_over and person.user.id in {
                runner.session.seating.by_seat[s].user_id for s in game.to_act()
            }:
                await person.act_once(timeout=10)
    assert game.rivers[declarer] or game.is_over
    assert privacy.check(runner) > 0
    await runner.close()


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_exchange_select_posted_before_a_restart_still_exchanges(harness, devserver, monkeypatch, tmp_path):
    privacy = PrivacyWatch(monkeypatch)
    database = str(tmp_path / "mahjong.sqlite3")
    first = await harness.start(build_bot(database=database, seed=5))
    alice = devserver.member("alice")
    lobby = await (await alice.slash("mahjong create", rounds=1, exchange=True)).message()
    await (await alice.click(lobby, "Start")).response()  # three AI seats: they keep their hands
    dm = await alice.wait_for_dm(lambda m: bool(m.selects()), timeout=10)
    values = dm.select().values[:3]

    await harness.stop(first)
    second = await harness.start(build_bot(database=database, seed=5))
    runner = table_runner(second, devserver)
    game = runner.session.game
    seat = runner.session.seating.seat_of_user(alice.id)
    assert game.phase is Phase.EXCHANGE and seat in game.to_act()
    answer = await (await alice.select(dm, None, values)).response()
    assert answer.type == 7, "the old select still plays"
    tiles = format_tiles(sorted(parse_tiles("".join(v.split(".")[0] for v in values))))
    assert f"{seat} exchange {tiles}" in [str(a) for a in game.log]
    await devserver.recorder.wait_until(lambda: game.phase is not Phase.EXCHANGE, 5, lambda: "the exchange")
    assert privacy.check(runner) > 0
    await harness.stop(second)


def test_eye_button_fits_beside_the_fullest_prompt():
    """17 different tiles to discard, 自摸, two kongs and 聽… still leave room for 眼牌 on some row."""
    from dataclasses import replace

    from cogs.mahjong.prompts import action_view, add_eye_button
    from engine.actions import Action, Kind
    from engine.game import Game
    from engine.prompt import Ask, Prompt

    hand = parse_tiles("123456789m1234567p9s")
    legal = [Action(0, Kind.DISCARD, t) for t in hand] + [
        Action(0, Kind.WIN),
        Action(0, Kind.ANKONG, hand[0]),
        Action(0, Kind.ADDKONG, hand[1]),
        Action(0, Kind.READY, hand[2]),
    ]
    prompt = Prompt(0, Ask.DISCARD, Phase.TURN, tuple(legal))
    seen = replace(Game().view(0), drawn=hand[-1])
    view = action_view(table=1, hand=1, move=3, prompt=prompt, view=seen, locale="en")
    view = add_eye_button(view, 1, miji=True, locale="en")
    rows = [item.row for item in view.children]
    assert all(rows.count(r) <= 5 for r in range(5))
    assert len(view.children) == 17 + 1 + 2 + 1 + 1  # discards, 自摸, kongs, 聽…, 眼牌
    [eye] = [item for item in view.children if getattr(item, "custom_id", "") == "mj:t:1:eyeask"]
    discard_rows = {item.row for item in view.children[:17]}
    assert eye.row not in discard_rows  # 眼牌 is never among the discards
