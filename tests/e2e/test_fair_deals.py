"""Fair play through the stand-in (issue 36): a seated player's export while the match runs holds no
key and no seed in any encoding; the seat draw shows the commitment, the standings reveal the key, and
the export after the match verifies (``python -m engine.log verify``) — and stops verifying when one
move or the key is changed."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import subprocess
import sys

import pytest

from devserver.config import RateLimits
from devserver.people import Person
from engine import fairness

from .tablebot import build_bot, table_runner

QUICK = RateLimits(time_scale=0.02)


def encodings(key: bytes, hands: int) -> list[str]:
    """The key and every hand's seed as decimal, hex and base64 text."""
    out = [key.hex(), key.hex().upper(), base64.b64encode(key).decode(), str(int.from_bytes(key, "big"))]
    for number in range(1, hands + 8):
        seed = fairness.hand_seed(key, number)
        raw = seed.to_bytes(8, "big")
        out += [str(seed), f"{seed:x}", f"{seed:X}", base64.b64encode(raw).decode().rstrip("="), raw.hex()]
    return out


def verify(path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.log", "verify", str(path)], capture_output=True, text=True, timeout=120
    )


@pytest.mark.devserver(members=("alice", "bob"), rate_limits=QUICK)
async def test_an_export_during_the_match_holds_no_seed_and_the_one_after_it_verifies(harness, devserver, tmp_path):
    bot = await harness.start(build_bot(seed=31))
    alice, bob = devserver.member("alice"), devserver.member("bob")
    lobby = await (await alice.slash("mahjong create", rounds=1)).message()
    await (await alice.click(lobby, "Start")).response()
    runner = table_runner(bot, devserver)
    key = runner.session.match.key
    assert key is not None
    seat_draw = await devserver.wait_for_message(channel="general", predicate=lambda m: "抓位" in m.content)
    assert hashlib.sha256(key).hexdigest() in seat_draw.content  # the commitment, before any tile is drawn
    assert key.hex() not in seat_draw.content

    stop = asyncio.Event()
    play = asyncio.create_task(Person(alice).play(stop, timeout=30))
    await devserver.recorder.wait_until(lambda: len(runner.session.match.history) >= 1, 120, lambda: "a finished hand")
    during = await (await alice.slash("mahjong export", match=runner.session.table_id)).message()
    raw = during.attachments[0].data.decode()
    assert during.ephemeral_to == alice.id
    for secret in encodings(key, len(runner.session.match.history)):
        assert secret not in raw, f"the export during the match holds {secret!r}"
    assert json.loads(raw)["matches"][0]["commitment"] == hashlib.sha256(key).hexdigest()
    nothing = await (await bob.slash("mahjong export", match=runner.session.table_id)).message()
    assert not nothing.attachments  # and someone not seated gets nothing at all

    standings = await devserver.wait_for_message(
        channel="general",
        predicate=lambda m: any("Match over" in (e.get("title") or "") for e in m.embeds),
        timeout=150,
    )
    stop.set()
    await play
    assert key.hex() in json.dumps(standings.embeds)  # the key, revealed once the match is over

    after = await (await bob.slash("mahjong export", match=runner.session.table_id)).message()
    document = json.loads(after.attachments[0].data)
    assert document["matches"][0]["key"] == key.hex()
    path = tmp_path / "match.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    fair = verify(path)
    assert fair.returncode == 0, fair.stdout + fair.stderr
    assert fair.stdout.startswith("fair:")

    moved = json.loads(json.dumps(document))  # one move changed: a discard of another tile
    hand = moved["matches"][0]["hands"][-1]
    k = next(i for i, m in enumerate(hand["moves"]) if " discard " in m)
    seat, _, tile = hand["moves"][k].split()
    hand["moves"][k] = f"{seat} discard {'1m' if tile != '1m' else '2m'}"
    path.write_text(json.dumps(moved), encoding="utf-8")
    unfair = verify(path)
    assert unfair.returncode == 1 and unfair.stdout.startswith("not fair:"), unfair.stdout + unfair.stderr

    rekeyed = json.loads(json.dumps(document))  # the key changed
    other = bytes([key[0] ^ 1]) + key[1:]
    rekeyed["matches"][0]["key"] = other.hex()
    path.write_text(json.dumps(rekeyed), encoding="utf-8")
    unfair = verify(path)
    assert unfair.returncode == 1 and "commitment" in unfair.stdout, unfair.stdout + unfair.stderr
