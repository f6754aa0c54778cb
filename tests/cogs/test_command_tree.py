"""The slash commands people see are pinned: names, options, descriptions and every translation, in the
order Discord is sent them. The bot syncs only when this payload changes (bot.command_fingerprint), so a
refactor of the cogs that moved a command, reordered a group or lost a localization would resync every
server and change what people type. A change made on purpose updates the digest here."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import bot as entry
from data import Store

# sha256 of the translated payload of every command, as bot.command_fingerprint reads it (without the application)
PINNED = "98718be6bd3e824cdcfb2147647142cb817957d102009fe79e4a12ed6440d884"  # + /mahjong create theme; + tournament create turn_seconds, claim_seconds, preset, house_rules, threads; tournament replace; setup organisers; + /mahjong settings, create bank=, the group offered in DMs (issue 39); + setup web_board (issue 43)


async def command_payload(database: Path) -> list[dict]:
    """What a global sync would send, from a bot with its extensions loaded (no gateway, no Discord)."""
    bot = entry.MahjongBot(entry.Config(token="test-token", database=database))
    bot.store = await Store.open(database)
    try:
        await bot.tree.set_translator(entry.CatalogueTranslator())
        for extension in entry.EXTENSIONS:
            await bot.load_extension(extension)
        translator = bot.tree.translator
        assert translator is not None
        return [await command.get_translated_payload(bot.tree, translator) for command in bot.tree.get_commands()]
    finally:
        for extension in tuple(bot.extensions):
            await bot.unload_extension(extension)
        await bot.store.close()
        await bot.painter.close()


async def test_the_command_tree_people_see_is_unchanged(tmp_path):
    payload = await command_payload(tmp_path / "mahjong.sqlite3")
    digest = hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
    names = [c["name"] for c in payload]
    mahjong = next(c for c in payload if c["name"] == "mahjong")
    assert names == ["tai", "mahjong"]
    assert [o["name"] for o in mahjong["options"]][:3] == ["help", "watch", "review"]
    assert digest == PINNED
