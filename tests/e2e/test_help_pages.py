"""/mahjong help through the stand-in (issue 23): a private answer whose select turns to the pages of
what each 台/番 item means, in the clicker's language, and still works after the bot restarts."""

from __future__ import annotations

import pytest

from cogs import i18n
from engine.scoring import get_rules

from .tablebot import build_bot


@pytest.mark.devserver(members=("alice", "bob"))
async def test_the_help_select_turns_to_each_items_meaning_in_the_readers_language(harness, devserver):
    await harness.start(build_bot(seed=1))
    alice = devserver.member("alice")
    alice.record.locale = "zh-TW"
    answer = await (await alice.slash("mahjong help", rules="taiwan16")).message()
    assert answer.ephemeral_to == alice.id and "怎麼玩" in answer.text
    menu = answer.select("mj:hp:taiwan16")
    assert len(menu.options) >= 3
    seen = ""
    for option in menu.options[1:]:
        turned = await alice.select(answer, "mj:hp:taiwan16", [option["value"]])
        assert (await turned.response()).type == 7  # the same private message turns its page
        answer = await turned.message()
        seen += answer.text
    for item in get_rules("taiwan16").items:
        assert f"**{item.name}**" in seen and i18n.t("zh-TW", f"item.taiwan16.{item.name}") in seen
    back = await (await alice.select(answer, "mj:hp:taiwan16", ["0"])).message()
    assert "怎麼玩" in back.text and "門清 1台" in back.text


@pytest.mark.devserver(members=("alice",))
async def test_a_help_page_select_still_answers_after_a_restart(harness, devserver):
    first = await harness.start(build_bot(seed=1))
    alice = devserver.member("alice")
    answer = await (await alice.slash("mahjong help", rules="guangdong")).message()
    await harness.stop(first)
    await harness.start(build_bot(seed=1))
    turned = await alice.select(answer, "mj:hp:guangdong", ["1"])
    page = await turned.message()
    assert "**七小对** 6倍 — Seven pairs, self-drawn" in page.text
