from __future__ import annotations

import pytest

from .tablebot import build_bot, prompt_buttons


@pytest.mark.devserver(members=("alice",), response_deadline=3.0)
async def test_smoke(harness, devserver):
    await harness.start(build_bot())
    alice = devserver.member("alice")
    created = await alice.slash("mahjong create", rules="taiwan16")
    lobby = await created.message()
    print(lobby.embeds)
    start = await alice.click(lobby, "Start")
    await start.response()
    dm = await alice.wait_for_dm(lambda m: bool(prompt_buttons(m)), timeout=10)
    print(dm.content, [b.label for b in dm.buttons()])
