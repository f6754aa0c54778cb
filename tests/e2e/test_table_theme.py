"""The channel picture's theme as a table option (issue 39 item 7): chosen at /mahjong create, said in the
lobby, drawn in the table's picture once the match starts, and kept across a restart; felt goes unsaid."""

from __future__ import annotations

import io
import math

import pytest
from PIL import Image

from render.theme import FELT, SAKURA

from .tablebot import FAST, build_bot, table_runner


def _cloth(png: bytes) -> tuple[int, int, int]:
    """The colour of the table picture's cloth just inside its top-left corner (outside the plates)."""
    im = Image.open(io.BytesIO(png)).convert("RGB")
    return im.getpixel((im.width // 2, 3))


@pytest.mark.devserver(members=("alice",))
async def test_a_sakura_table_says_so_draws_its_picture_in_sakura_and_keeps_it_after_a_restart(
    harness, devserver, tmp_path
):
    database = str(tmp_path / "theme.sqlite")
    first = await harness.start(build_bot(timing=FAST, database=database))
    alice = devserver.member("alice")
    lobby = await (await alice.slash("mahjong create", theme="sakura")).message()
    assert "🎨 Sakura" in lobby.text
    await (await alice.click(lobby, "Start")).response()
    table = await devserver.wait_for_message(
        channel="general", predicate=lambda m: any(a.filename == "table.png" for a in m.attachments), timeout=30
    )
    cloth = _cloth(next(a.data for a in table.attachments if a.filename == "table.png"))
    assert math.dist(cloth, SAKURA.felt) < math.dist(cloth, FELT.felt)
    assert math.dist(cloth, SAKURA.felt) < 40
    await harness.stop(first)
    second = await harness.start(build_bot(timing=FAST, database=database))
    assert table_runner(second, devserver).state.settings.theme == "sakura"


@pytest.mark.devserver(members=("alice",))
async def test_a_theme_not_offered_is_refused_politely_and_felt_goes_unsaid(harness, devserver):
    await harness.start(build_bot())
    alice = devserver.member("alice")
    refused = await alice.slash("mahjong create", theme="neon", forged=True)  # an outdated or modified client
    answer = await refused.message()
    assert answer.ephemeral_to == alice.id and "theme" in answer.text
    lobby = await (await alice.slash("mahjong create")).message()
    assert "🎨" not in lobby.text
