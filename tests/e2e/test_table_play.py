"""Four people at a table through the stand-in: claims, kongs, wins, timeouts, 代打, closed DMs, stale and
foreign clicks. Every test also checks that nobody was ever shown another player's concealed tiles."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from devserver.config import RateLimits
from devserver.people import Person, code_of, move_of, point_of, prompt_buttons
from devserver.state import MEMBER_PERMISSIONS
from engine.match import Match
from engine.position import position
from table.timing import Timing

from .tablebot import FAST, PrivacyWatch, build_bot, smart, table_runner

FOUR = ("alice", "bob", "carol", "dave")
QUICK = RateLimits(time_scale=0.02)


async def open_full_table(devserver, **options):
    """alice opens a table, the other three join with the lobby button, alice starts."""
    alice, *others = devserver.members(*FOUR)
    lobby = await (await alice.slash("mahjong create", **options)).message()
    for person in others:
        await (await person.click(lobby, "Join")).response()
    started = await alice.click(lobby, "Start")
    await started.response()
    return lobby


def person_at(devserver, runner, seat):
    user_id = runner.session.seating.by_seat[seat].user_id
    return next(u for u in devserver.members(*FOUR) if u.id == user_id)


async def table_message(devserver):
    """The newest table message (the picture with the Show my hand button)."""

    def newest():
        found = [m for m in devserver.channel_messages() if m.attachments and m.buttons()]
        return found[-1] if found else None

    return await devserver.recorder.wait_until(newest, 5, lambda: "the table message")


def deal_once(monkeypatch, game):
    """The match's next hand is ``game`` (a position written in tile notation); later hands are dealt."""
    real = Match.new_hand
    queue = [game]
    monkeypatch.setattr(Match, "new_hand", lambda self: queue.pop() if queue else real(self))


def pick(code):
    return lambda message, buttons: next(b for b in buttons if code_of(b) == code)


async def wait_seated(bot, devserver):
    runner = table_runner(bot, devserver)
    await devserver.recorder.wait_until(lambda: runner.session.game is not None, 5, lambda: "the first hand")
    return runner


@pytest.mark.devserver(members=FOUR, rate_limits=QUICK)
async def test_chi_with_a_choice_loses_to_pon_on_the_same_discard(harness, devserver, monkeypatch):
    privacy = PrivacyWatch(monkeypatch)
    scripted = position(
        hands={0: "4m 8s 111p 222p 333p 444p 55p 9s", 1: "2356m 111s 222s 333s 444s", 2: "44m 555s 666s 777s 999m 12z"},
        turn=0,
    )
    deal_once(monkeypatch, scripted)
    bot = await harness.start(build_bot())
    await open_full_table(devserver)
    runner = await wait_seated(bot, devserver)
    discarder, chooser, poner = (Person(person_at(devserver, runner, s)) for s in (0, 1, 2))

    discarder.choose = pick("d4m")
    await discarder.act_once()
    # the next player sees three ways to 吃 the 4萬, the player across sees 碰
    # the 吃 is pressed first and waits for the 碰 decision (in the other order the 碰 settles the discard at
    # once, and a loaded machine may not have shown the 吃 prompt by then: it never needs to be)
    chooser.choose = pick("c3m")
    poner.choose = pick("p4m")
    await chooser.act_once()
    await poner.act_once()
    codes = dict(chooser.seen_prompts)[chooser.seen_prompts[0][0]]
    assert sorted(c for c in codes if c.startswith("c")) == ["c2m", "c3m", "c4m"] and "s" in codes
    assert "p4m" in poner.seen_prompts[0][1]
    # 碰 outranks 吃: the tile goes to the poner, who must now discard; the chooser's 吃 is not taken
    await devserver.recorder.wait_until(lambda: runner.session.game.turn == 2, 5, lambda: "the pon to resolve")
    assert [str(m) for m in runner.session.game.melds[2]] == ["pon:444m"] and runner.session.game.melds[1] == []
    turn_prompt = await poner.next_prompt(5)
    assert all(code_of(b).startswith("d") for b in prompt_buttons(turn_prompt))
    assert "d4m" not in {code_of(b) for b in prompt_buttons(turn_prompt)}
    assert privacy.check(runner) > 0


@pytest.mark.devserver(members=FOUR, rate_limits=QUICK)
async def test_four_people_chi_pon_every_kong_and_both_kinds_of_win(harness, devserver, monkeypatch):
    privacy = PrivacyWatch(monkeypatch)
    bot = await harness.start(build_bot(seed=4))
    await open_full_table(devserver, rounds=4, may_pass_win=True)
    runner = await wait_seated(bot, devserver)
    people = [Person(u, smart(runner)) for u in devserver.members(*FOUR)]
    stop = asyncio.Event()
    players = [asyncio.create_task(p.play(stop)) for p in people]
    await devserver.recorder.wait_until(lambda: len(runner.session.match.history) >= 6, 120, lambda: "six hands")
    stop.set()
    await asyncio.gather(*players)
    clicked = Counter(code[:1] for p in people for code, _ in p.clicks)
    offered = [codes for p in people for _, codes in p.seen_prompts]
    assert any(sum(c.startswith("c") for c in codes) >= 2 for codes in offered)  # 吃 with a choice
    assert all(clicked[k] for k in "cpknxw"), clicked  # 吃 碰 明槓 暗槓 加槓 胡
    assert any("w" in codes and "s" in codes for codes in offered)  # 胡 on a discard (with 過 beside it)
    assert any("w" in codes and any(c.startswith("d") for c in codes) for codes in offered)  # 自摸
    results = [h.result for h in runner.session.match.history]
    assert any(r.winner is not None and r.self_drawn for r in results)
    assert any(r.winner is not None and not r.self_drawn for r in results)
    assert sum(runner.session.match.scores) == 0
    assert privacy.check(runner) > 50
    await runner.close()


@pytest.mark.devserver(members=FOUR, rate_limits=QUICK)
async def test_time_outs_pass_claims_and_three_missed_turns_switch_on_auto_play_until_taken_back(
    harness, devserver, monkeypatch
):
    privacy = PrivacyWatch(monkeypatch)
    timing = Timing(ai_delay=0.02, hand_pause=0, edit_interval=0, timer_scale=0.02)  # turn 0.4 s, claims 0.16 s
    bot = await harness.start(build_bot(timing))
    alice = devserver.member("alice")
    lobby = await (await alice.slash("mahjong create", rounds=4)).message()
    await (await alice.click(lobby, "Start")).response()
    runner = await wait_seated(bot, devserver)
    seat = runner.session.seating.seat_of_user(alice.id)
    # alice never answers: her own turns time out (代打 discards for her), her claim prompts lapse as 過
    auto_dm = await alice.wait_for_dm(lambda m: any(b.label == "Take back control" for b in m.buttons()), timeout=60)
    assert "auto-played" in auto_dm.content or "Hand over" in auto_dm.content
    game = runner.session.game
    assert seat in game.auto_seats()  # mid-hand, or between hands (the next hand starts auto-played)
    hands = [*(h.log for h in runner.session.match.history), tuple(str(a) for a in game.log)]
    assert any(entry == f"{seat} timeout" for log in hands for entry in log), "the clock played for her"
    await devserver.wait_for_message(channel="general", predicate=lambda m: "alice is now auto-played" in m.content)
    back = await alice.click(auto_dm, "Take back control")
    await back.response()
    await devserver.recorder.wait_until(
        lambda: seat not in runner.session.game.auto_seats(), 5, lambda: "control back"
    )
    person = Person(alice)
    await person.act_once(timeout=30)  # she is prompted again and plays
    assert person.clicks
    assert privacy.check(runner) > 0
    await runner.close()


@pytest.mark.devserver(members=FOUR, rate_limits=QUICK)
async def test_a_player_whose_dms_are_closed_plays_through_show_my_hand(harness, devserver, monkeypatch):
    privacy = PrivacyWatch(monkeypatch)
    bot = await harness.start(build_bot())
    alice, bob = devserver.members("alice", "bob")
    devserver.refuse_dms(bob)
    lobby = await (await alice.slash("mahjong create")).message()
    await (await bob.click(lobby, "Join")).response()
    await (await alice.click(lobby, "Start")).response()
    notice = await devserver.wait_for_message(channel="general", predicate=lambda m: bob.mention in m.content)
    assert "Show my hand" in notice.content and "auto-played" in notice.content
    runner = table_runner(bot, devserver)
    table = await table_message(devserver)
    shown = await (await bob.click(table, "Show my hand")).message()
    assert shown.ephemeral_to == bob.id and shown.attachments[0].is_png
    assert [b.label for b in shown.buttons()] == ["Take back control"]
    taken = await (await bob.click(shown, "Take back control")).message()
    assert taken.ephemeral_to == bob.id
    seat = runner.session.seating.seat_of_user(bob.id)
    assert seat not in runner.session.game.auto_seats() or runner.session.game.is_over
    # from now on he opens a fresh hand each time and plays with its buttons (alice plays her DMs
    # meanwhile: her turns do not wait out their clocks)
    stop = asyncio.Event()
    alice_plays = asyncio.create_task(Person(alice).play(stop))
    person = Person(bob)
    for _ in range(2):
        await devserver.recorder.wait_until(
            lambda: runner.session.game.is_over or seat in runner.session.game.to_act(), 30, lambda: "bob's turn"
        )
        if runner.session.game.is_over:
            break
        table = await table_message(devserver)
        await (await bob.click(table, "Show my hand")).message()
        await person.act_once(timeout=10)
    stop.set()
    await alice_plays
    assert person.clicks
    assert not [m for m in bob.seen() if m.dm_with == bob.id]  # nothing ever reached his closed DMs
    assert privacy.check(runner) > 0
    await runner.close()


@pytest.mark.devserver(members=("bob",), rate_limits=QUICK)
async def test_one_show_my_hand_press_keeps_the_private_hand_live_across_his_decisions(harness, devserver, monkeypatch):
    """DMs closed (issue 39, item 6): after one press the ephemeral hand is edited in place through the
    click tokens, so each of his decisions reaches him on it (his next draw can only arrive by such an
    edit: the AI seats play between his clicks) and he never presses Show my hand again."""
    privacy = PrivacyWatch(monkeypatch)
    bot = await harness.start(build_bot())
    bob = devserver.member("bob")
    devserver.refuse_dms(bob)
    lobby = await (await bob.slash("mahjong create", turn_seconds=60)).message()
    await (await bob.click(lobby, "Start")).response()  # three AI seats fill the table
    await devserver.wait_for_message(channel="general", predicate=lambda m: bob.mention in m.content)
    runner = table_runner(bot, devserver)
    shown = await (await bob.click(await table_message(devserver), "Show my hand")).message()  # the one press
    taken = await (await bob.click(shown, "Take back control")).message()
    assert taken.id == shown.id, "answered in place on the private hand"
    seat = runner.session.seating.seat_of_user(bob.id)
    live = runner.hands.private[seat]

    def current_prompt():
        """His private hand's buttons, when they are for the decision he owes now (read with the table's
        state in one step: nothing runs between this and the click's start)."""
        game = runner.session.game
        if game.is_over or seat not in runner.session.needs_buttons() or live.pending() is not None or live.held:
            return None
        buttons = prompt_buttons(devserver.recorder.get(shown.id))
        point = point_of(buttons[0]) if buttons else None
        if point is None or (point.hand, point.move) != (game.hand_number, runner.session.decision):
            return None
        return next((b for b in buttons if code_of(b) == "s"), buttons[0])  # pass a claim, else discard

    clicked = 0
    while clicked < 3:
        await devserver.recorder.wait_until(current_prompt, 30, lambda n=clicked: f"his decision {n + 1} on the hand")
        button = current_prompt()
        if button is None:  # the table moved on between the wait's end and now: look again
            continue
        interaction = await bob.click(shown, button.custom_id or "")
        response = await interaction.response()
        assert response.type == 7 and response.message.id == shown.id, "answered in place on the same message"
        clicked += 1
    assert live.edits > 0, "the table's moves reached his private hand by edits between his clicks"
    assert live is runner.hands.private[seat] and not live.closed
    assert [m.id for m in bob.seen() if m.ephemeral_to == bob.id and m.attachments] == [shown.id]  # one hand
    assert not [m for m in bob.seen() if m.dm_with == bob.id]  # nothing ever reached his closed DMs
    assert privacy.check(runner) > 0
    await runner.close()


@pytest.mark.devserver(members=(*FOUR, "erin"), rate_limits=QUICK)
async def test_stale_double_and_foreign_clicks_are_answered_privately_and_change_nothing(
    harness, devserver, monkeypatch
):
    PrivacyWatch(monkeypatch)
    bot = await harness.start(build_bot())
    alice, erin = devserver.members("alice", "erin")
    erin.record.permissions = MEMBER_PERMISSIONS  # an everyday member, without Manage Server
    lobby = await (await alice.slash("mahjong create")).message()
    # someone who is not the host cannot start the table or add AI
    for label in ("Start", "Add AI"):
        refused = await (await erin.click(lobby, label)).message()
        assert refused.ephemeral_to == erin.id and "Only the host" in refused.content
    await (await alice.click(lobby, "Start")).response()
    runner = await wait_seated(bot, devserver)
    table = await table_message(devserver)
    foreign = await (await erin.click(table, "Show my hand")).message()
    assert foreign.ephemeral_to == erin.id and "not seated" in foreign.content

    person = Person(alice)
    prompt = await person.next_prompt(10)
    button = prompt_buttons(prompt)[-1]
    seat = runner.session.seating.seat_of_user(alice.id)
    mine = sum(a.seat == seat for a in runner.session.game.log)
    first = await alice.click(prompt, button.custom_id)
    await first.response()
    # the click is answered outside the table lock, so robots may already have played after it
    assert sum(a.seat == seat for a in runner.session.game.log) == mine + 1
    mine += 1
    # the same button again (a double click, or an old message): refused, nothing applied
    showing = {b.custom_id for b in prompt_buttons(devserver.recorder.get(prompt.id))}
    again = await alice.click(prompt.id, button.custom_id) if button.custom_id in showing else None
    if again is None:  # the message no longer shows the button: click the stale id through an old copy
        again = await _click_stale(alice, devserver, prompt, button.custom_id)
    answer = await again.message()
    assert answer.ephemeral_to == alice.id and "no longer current" in answer.content
    assert sum(a.seat == seat for a in runner.session.game.log) == mine and move_of(button)
    await runner.close()


async def _click_stale(user, devserver, message, custom_id):
    """Press a button of a prompt as it was before the bot replaced it (a slow phone shows old buttons)."""
    from devserver.interactions import COMPONENT

    current = devserver.recorder.get(message.id)
    versions = [h["components"] for h in reversed(current.history)] if current.history else []
    # the newest earlier version that showed the button (robots may have edited the message since)
    old = next((c for c in versions if custom_id in repr(c)), message.components)
    saved = current.components
    current.components = old
    try:
        return await user.click(current, custom_id)
    finally:
        current.components = saved
        assert COMPONENT


@pytest.mark.devserver(members=FOUR)
async def test_a_password_table_refuses_a_wrong_password_without_saying_more(harness, devserver):
    await harness.start(build_bot())
    alice, bob, carol = devserver.members("alice", "bob", "carol")
    opening = await alice.slash("mahjong create", password=True)
    created = await alice.submit_modal(opening, {"password": "0427"})
    lobby = await created.message()
    assert "🔒" in lobby.text
    asked = await bob.click(lobby, "Join")
    wrong = await bob.submit_modal(asked, {"password": "1234"})
    answer = await wrong.message()
    assert answer.ephemeral_to == bob.id and answer.content == "That password is not right."
    assert "0427" not in answer.content and "bob" not in devserver.recorder.get(lobby.id).text
    right = await bob.submit_modal(await bob.click(lobby, "Join"), {"password": "0427"})
    assert (await right.message()).content == "You sit at the table."
    await devserver.recorder.wait_until(
        lambda: "bob" in devserver.recorder.get(lobby.id).text, 5, lambda: "bob in the lobby"
    )
    typed = await (await carol.slash("mahjong join", password="9999")).message()
    assert typed.content == "That password is not right."
    typed = await (await carol.slash("mahjong join", password="0427")).message()
    assert typed.content == "You sit at the table."


@pytest.mark.devserver(members=FOUR, channels=("general", "second"))
async def test_one_table_per_channel_one_seat_per_person_host_only_settings(harness, devserver):
    await harness.start(build_bot())
    alice, bob = devserver.members("alice", "bob")
    bob.record.permissions = MEMBER_PERMISSIONS
    await (await alice.slash("mahjong create")).message()
    again = await (await bob.slash("mahjong create")).message()
    assert "already has a table" in again.content
    elsewhere = await (await alice.slash("mahjong create", channel="second")).message()
    assert "already sit at a table" in elsewhere.content
    assert "Only the host" in (await (await bob.slash("mahjong ai add")).message()).content
    await (await alice.slash("mahjong ai add", level="strong")).message()
    await (await alice.slash("mahjong ai remove")).message()
    assert "no AI seat" in (await (await alice.slash("mahjong ai remove")).message()).content
    await (await bob.slash("mahjong join")).message()
    assert "You left" in (await (await bob.slash("mahjong leave")).message()).content
    assert "not seated" in (await (await bob.slash("mahjong leave")).message()).content
    closed = await (await alice.slash("mahjong close")).message()
    assert closed.content == "The table is closed."
    fresh = await (await bob.slash("mahjong create", channel="second")).message()
    assert fresh.embeds and "bob" in fresh.text


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_the_table_rides_out_429s_on_its_channel_and_dms(harness, devserver, monkeypatch):
    PrivacyWatch(monkeypatch)
    bot = await harness.start(build_bot(FAST))
    alice = devserver.member("alice")
    lobby = await (await alice.slash("mahjong create")).message()
    devserver.inject_429("POST", "/channels/{channel_id}/messages", times=3)
    devserver.inject_429("PATCH", "/channels/{channel_id}/messages/{message_id}", times=3)
    await (await alice.click(lobby, "Start")).response()
    runner = await wait_seated(bot, devserver)
    person = Person(alice)
    stop = asyncio.Event()
    play = asyncio.create_task(person.play(stop))
    await devserver.recorder.wait_until(lambda: len(runner.session.match.history) >= 1, 60, lambda: "a hand to finish")
    stop.set()
    await play
    sheet = await devserver.wait_for_message(
        channel="general", predicate=lambda m: bool(m.attachments) and m.attachments[0].filename == "score.png"
    )
    assert sheet.attachments[0].is_png  # the hand finished and its sheet was posted despite the 429s
    devserver.take_violations("rate_limited")  # the injected 429s; discord.py waited and retried
    await runner.close()


@pytest.mark.devserver(members=FOUR)
async def test_each_person_reads_the_table_in_their_discord_language(harness, devserver):
    await harness.start(build_bot())
    alice, bob, carol = devserver.members("alice", "bob", "carol")
    bob.record.locale, carol.record.locale = "zh-TW", "zh-CN"
    bob.record.permissions = carol.record.permissions = MEMBER_PERMISSIONS
    lobby = await (await alice.slash("mahjong create")).message()
    assert lobby.button("Join") and "Seats" in lobby.text
    refused = await (await bob.click(lobby, "Start")).message()
    assert refused.content == "只有桌主（或有「管理伺服器」權限的成員）可以這樣做。"
    refused = await (await carol.click(lobby, "Start")).message()
    assert refused.content == "只有桌主（或有「管理服务器」权限的成员）可以这样做。"
    await (await bob.click(lobby, "Join")).response()
    await (await alice.click(lobby, "Start")).response()
    dm = await bob.wait_for_dm(lambda m: m.attachments)
    assert "台灣十六張" in dm.content and "第 1 局" in dm.content


@pytest.mark.devserver(members=FOUR)
async def test_the_host_picks_a_preset_and_flips_a_house_rule_the_lobby_shows_it(harness, devserver):
    bot = await harness.start(build_bot())
    alice, bob = devserver.members("alice", "bob")
    bob.record.permissions = MEMBER_PERMISSIONS
    lobby = await (await alice.slash("mahjong create", preset="common")).message()
    assert "House rules common" in lobby.text and "天胡 24" in lobby.text and "河底撈魚" in lobby.text
    refused = await (await bob.slash("mahjong houserule", switch="heavenly_tai", value="16")).message()
    assert "Only the host" in refused.content
    wrong = await (await alice.slash("mahjong houserule", switch="heavenly_tai", value="20")).message()
    assert "must be one of 16, 24" in wrong.content
    done = await (await alice.slash("mahjong houserule", switch="river_bottom_tai", value="0")).message()
    assert "House rules now" in done.content
    runner = table_runner(bot, devserver)
    rules = runner.state.settings.options.house_rules
    assert rules["heavenly_tai"] == 24 and rules["river_bottom_tai"] == 0
    await devserver.recorder.wait_until(
        lambda: "河底撈魚" not in devserver.recorder.get(lobby.id).text, 5, lambda: "the lobby to update"
    )


@pytest.mark.devserver(members=("alice",))
async def test_create_takes_single_house_rules_on_top_of_the_preset(harness, devserver):
    bot = await harness.start(build_bot())
    alice = devserver.member("alice")
    wrong = await (await alice.slash("mahjong create", house_rules="字一色計風台, 天胡")).message()
    assert "needs a value" in wrong.content and wrong.ephemeral_to == alice.id  # no table opened
    lobby = await (await alice.slash("mahjong create", preset="common", house_rules="八仙過海可不胡, 天胡 16")).message()
    assert "八仙過海可不胡" in lobby.text and "天胡 24" not in lobby.text
    rules = table_runner(bot, devserver).state.settings.options.house_rules
    assert rules["flower_win_optional"] and rules["heavenly_tai"] == 16 and rules["earthly_tai"] == 16


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_a_click_for_a_table_no_longer_run_here_is_answered_that_it_has_finished(harness, devserver):
    bot = await harness.start(build_bot(FAST))
    alice = devserver.member("alice")
    lobby = await (await alice.slash("mahjong create")).message()
    await (await alice.click(lobby, "Start")).response()
    runner = await wait_seated(bot, devserver)
    table = await table_message(devserver)
    await runner.close()  # as when the table is gone from this process: its buttons stay on the messages
    answer = await (await alice.click(table, "Show my hand")).message()
    assert answer.ephemeral_to == alice.id and answer.content == "That table has finished."
