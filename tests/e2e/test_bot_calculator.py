"""The real bot (bot.MahjongBot) logs into the stand-in, syncs /tai and answers it."""

from __future__ import annotations

import bot as entry


def build_bot() -> entry.MahjongBot:
    config = entry.Config(token="test-token", database=entry.Path(":memory:"))
    return entry.MahjongBot(config, guild_ready_timeout=0.05)


async def test_tai_command_counts_a_ping_hu_hand(harness, devserver):
    await harness.start(build_bot())
    alice = devserver.member("alice")
    reply = await (await alice.slash("tai", hand="123456789m456p3455s", win="2s")).message()
    assert reply.ephemeral_to == alice.id
    embed = reply.embeds[0]
    assert embed["title"] == "3 台"
    assert "平胡 (all chows) — 2 台" in embed["description"] and "門清 (concealed hand) — 1 台" in embed["description"]
    # nobody else sees someone's calculator query
    assert reply not in devserver.member("bob").seen()


async def test_tai_command_answers_bad_notation_politely(harness, devserver):
    await harness.start(build_bot())
    alice = devserver.member("alice")
    reply = await (await alice.slash("tai", hand="12x", win="2s")).message()
    assert reply.ephemeral_to == alice.id
    assert "could not read that hand" in reply.content


async def test_tai_command_says_when_a_hand_does_not_win(harness, devserver):
    await harness.start(build_bot())
    reply = await (await devserver.member("bob").slash("tai", hand="123456789m456p3459s", win="1z")).message()
    assert reply.embeds[0]["title"] == "Not a winning hand"


async def test_tai_takes_every_calculator_input_and_the_rule_set(harness, devserver):
    await harness.start(build_bot())
    alice = devserver.member("alice")
    # 槓上開花 on a self-drawn replacement, as the command-line calculator reads it
    reply = await (
        await alice.slash("tai", hand="123456789m456p3455s", win="2s", self_drawn=True, kong_replacement=True)
    ).message()
    assert "槓上開花 (win on a kong's replacement) — 1 台" in reply.embeds[0]["description"]
    robbed = await (await alice.slash("tai", hand="123456789m456p3455s", win="5s", robbing_kong=True)).message()
    assert "could not read" in robbed.content  # the robbed 碰 would need a fifth 5s: refused, not scored
    flowers = await (await alice.slash("tai", flowers="f1f2f3f4f5f6f7f8", flower_win="八仙過海")).message()
    assert "八仙過海" in flowers.embeds[0]["description"]
    fan = await (
        await alice.slash("tai", rules="hongkong", hand="111222333m4445p", win="5p", self_drawn=True)
    ).message()
    assert "番" in fan.embeds[0]["title"]


async def test_tai_reads_the_preset_the_hand_size_and_a_flower_bonus_taken(harness, devserver):
    await harness.start(build_bot())
    alice = devserver.member("alice")
    sixteen = await (
        await alice.slash("tai", rules="hongkong", hand="123m456m789m123p456p1s", win="1s", flowers="f1", hand_size=16)
    ).message()
    assert "平胡" in sixteen.embeds[0]["description"]
    eight = await (await alice.slash("tai", hand="123m456m789m123p456p1s", win="1s", flowers="f1f2f3f4f5f6f7f8")).message()
    assert eight.embeds[0]["title"].startswith("8 ") and "八仙過海" in eight.embeds[0]["description"]
    paid = await (
        await alice.slash("tai", hand="123m456m789m123p456p1s", win="1s", flowers="f1f2f3f4f5f6f7f8", flower_bonus_taken=True)
    ).message()
    assert "八仙過海" not in paid.embeds[0]["description"] and "花槓" not in paid.embeds[0]["description"]
    online = await (await alice.slash("tai", hand="123p234m567m345s45s11z", win="6s", seat_wind="S", preset="online")).message()
    assert "門清" in online.embeds[0]["description"]


async def test_tai_takes_single_house_rules_and_the_facts_they_score(harness, devserver):
    await harness.start(build_bot())
    alice = devserver.member("alice")
    # 字一色 with 東 pungs at seat 東 in the 東 round: the document leaves 風牌 out, 字一色計風台 counts it
    hand = dict(hand="111z222z333z555z666z7z", win="7z", seat_wind="S")
    plain = await (await alice.slash("tai", **hand)).message()
    assert "風牌" not in plain.embeds[0]["description"]
    winds = await (await alice.slash("tai", **hand, house_rules="字一色計風台, 天胡 24")).message()
    assert "風牌 (wind pung) — 2 台" in winds.embeds[0]["description"]
    ready = dict(hand="123p234m567m345s45s11z", win="6s", seat_wind="S", house_rules="heavenly_ready_tai=8, 閒家天聽限配牌聽")
    later = await (await alice.slash("tai", **ready, facts="heavenly_ready")).message()
    dealt = await (await alice.slash("tai", **ready, facts="dealt_ready")).message()
    assert "天聽" not in later.embeds[0]["description"] and "天聽 (ready on the first discard) — 8 台" in dealt.embeds[0]["description"]
    wrong = await (await alice.slash("tai", **hand, house_rules="天胡 20")).message()
    assert "must be one of 16, 24" in wrong.content and wrong.ephemeral_to == alice.id


async def test_tai_bounds_its_notation_and_refuses_a_forged_long_one_in_one_line(harness, devserver):
    """The client keeps to each string's max_length; a modified client sends anything, and a hand of
    thousands of characters is refused politely (it would otherwise end in an embed Discord refuses)."""
    await harness.start(build_bot())
    options = {o["name"]: o for o in devserver.commands.find("tai", None)["options"]}
    assert {name: options[name].get("max_length") for name in ("hand", "win", "melds", "flowers")} == {
        "hand": 64, "win": 4, "melds": 100, "flowers": 32
    }
    alice = devserver.member("alice")
    spelled = " ".join(f"{n}m" for n in "1112345678999") + " 5p 5p 5p"  # 16 tiles one by one: still fits
    assert "台" in (await (await alice.slash("tai", hand=spelled, win="5m")).message()).embeds[0]["title"]
    reply = await (await alice.slash("tai", hand="1m" * 3000, win="2s", forged=True)).message()
    assert reply.ephemeral_to == alice.id and reply.content == "`hand` is at most 64 characters long."
