"""The stand-in checks request bodies against Discord's OpenAPI description (devserver/openapi)."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest

from devserver import DevServer
from devserver.fixtures import Harness
from devserver.openapi import SPEC_PATH, Spec, spec
from devserver.openapi.prune import prune, served_routes

from .tinybot import build_bot, png_bytes

MESSAGES = "/channels/{channel_id}/messages"


async def post(devserver: DevServer, body: dict[str, Any], *, files: int = 0) -> int:
    """POST a message to #general as the bot would: JSON, or multipart with payload_json and files[n]."""
    url = f"{devserver.api_url}/channels/{devserver.channel('general').id}/messages"
    headers = {"Authorization": f"Bot {devserver.config.token}"}
    data: Any
    if files:
        data = aiohttp.FormData()
        data.add_field("payload_json", json.dumps(body), content_type="application/json")
        for index in range(files):
            data.add_field(f"files[{index}]", png_bytes(), filename=f"p{index}.png", content_type="image/png")
    else:
        data, headers["Content-Type"] = json.dumps(body), "application/json"
    async with aiohttp.ClientSession() as session, session.post(url, data=data, headers=headers) as reply:
        return reply.status


async def test_a_nonce_longer_than_the_spec_allows_is_a_violation(
    harness: Harness, devserver: DevServer
) -> None:
    """A limit only the spec knows (the stand-in's own rules say nothing about nonces): the message is still
    posted, and the violation names the operation, the field and the limit."""
    assert await post(devserver, {"content": "c", "nonce": "n" * 26}) == 200
    assert [m.content for m in devserver.channel_messages()] == ["c"]
    [violation] = devserver.take_violations("openapi")
    assert violation.code == 50035 and violation.route == f"POST {MESSAGES}"
    assert violation.detail.startswith("create_message: $.nonce: ")
    assert "maxLength 25" in violation.detail


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"content": "c", "tts": "yes"}, "$.tts"),
        ({"content": "c", "embeds": [{"title": "t", "color": "red"}]}, "$.embeds[0].color"),
        (
            {"content": "c", "allowed_mentions": {"parse": ["everyone", "nobody"]}},
            "$.allowed_mentions.parse[1]",
        ),
        ({"content": "c", "sticker_ids": ["mahjong"]}, "$.sticker_ids[0]"),
        ({"content": "c", "message_reference": {"message_id": -1}}, "$.message_reference.message_id"),
    ],
    ids=[
        "bool as a word",
        "colour as a word",
        "unknown mention type",
        "a word for a sticker id",
        "negative id",
    ],
)
async def test_a_wrong_type_is_a_violation(
    harness: Harness, devserver: DevServer, body: dict[str, Any], where: str
) -> None:
    await post(devserver, body)
    [violation] = devserver.take_violations("openapi")
    assert violation.detail.startswith(f"create_message: {where}: "), violation.detail


async def test_the_payload_json_of_a_multipart_upload_is_checked(
    harness: Harness, devserver: DevServer
) -> None:
    body = {"content": "c", "attachments": [{"id": 0, "filename": "p0.png", "description": "d" * 1025}]}
    assert await post(devserver, body, files=1) == 200
    [violation] = devserver.take_violations("openapi")
    assert "$.attachments[0].description" in violation.detail and "maxLength 1024" in violation.detail


async def test_integers_and_integer_valued_strings_are_read_as_discord_reads_them(
    harness: Harness, devserver: DevServer
) -> None:
    """discord.py sends ids as ints (attachment ids, users to mention, the message replied to) where the spec
    says snowflake strings, and Discord reads a string of digits where the spec says integer."""
    first = {"content": "first", "embeds": [{"title": "t", "color": "16711680"}]}
    assert await post(devserver, first) == 200
    replied = devserver.channel_messages()[0].id
    second = {
        "content": "second",
        "attachments": [{"id": 0, "filename": "p0.png"}],
        "allowed_mentions": {"parse": [], "users": [devserver.member("alice").id], "replied_user": False},
        "message_reference": {"message_id": replied, "fail_if_not_exists": False},
    }
    assert await post(devserver, second, files=1) == 200
    assert devserver.violations == []


async def test_the_bots_own_requests_validate(harness: Harness, devserver: DevServer) -> None:
    """discord.py's real bodies (command sync, a deferral, a DM opened and a picture posted with a view, a
    follow-up): the harness fails the test on any openapi violation."""
    await harness.start(build_bot(devserver))
    alice, bob = devserver.members("alice", "bob")
    sent = await alice.slash("hand", player=bob)
    await bob.wait_for_dm(lambda m: bool(m.attachments))
    assert (await sent.message()).content == "sent"  # the follow-up too: the test ends with nothing in flight
    assert devserver.take_violations() == []


def test_every_served_route_with_a_body_has_its_operation_pinned() -> None:
    routes = served_routes()
    for method, template in routes:
        if method in ("post", "put", "patch"):
            assert spec().operation(method, template, template) is not None, (method, template)
    pinned = json.loads(SPEC_PATH.read_text(encoding="utf-8"))
    commit = pinned["info"]["x-pinned"]["source"].split("/blob/")[1].split("/")[0]
    assert prune(pinned, routes, commit) == pinned  # nothing missing, nothing the stand-in does not serve


def test_aliases_map_to_their_own_operation() -> None:
    template = "/webhooks/{application_id}/{token}/messages/{message_id}"
    assert spec().operation("PATCH", template, "/webhooks/1/t/messages/@original") is not None
    assert spec().operation("PATCH", template, "/webhooks/1/t/messages/@original")[0].endswith("/@original")
    assert spec().operation("PATCH", template, "/webhooks/1/t/messages/22")[0].endswith("/{message_id}")


# the bodies below, valid and not, decide the same under the spec as published (every union tried in full)
# and as the checker rewrites it (devserver.openapi.streamline)
BUTTON = {"type": 2, "style": 1, "label": "Join", "custom_id": "join"}
SAME_VERDICTS: list[tuple[str, dict[str, Any]]] = [
    (MESSAGES, {"content": "c", "components": [{"type": 1, "components": [BUTTON]}]}),
    (MESSAGES, {"components": [{"type": 1, "components": [BUTTON | {"style": 9}]}]}),
    (MESSAGES, {"components": [{"type": 1, "components": [BUTTON | {"type": 4}]}]}),
    (MESSAGES, {"components": [{"type": 99}]}),
    (MESSAGES, {"components": [{"type": 1, "components": [{"type": 3, "custom_id": "s", "options": []}]}]}),
    (MESSAGES, {"components": [{"type": 1, "components": [BUTTON | {"emoji": {"id": 5, "name": "e"}}]}]}),
    (MESSAGES, {"components": ["row"]}),
    (MESSAGES, {"components": [{"components": [BUTTON]}]}),
    (MESSAGES, {"components": [{"type": "1", "components": [BUTTON | {"style": "2", "type": "2"}]}]}),
    (MESSAGES, {"components": [{"type": 1, "components": [BUTTON | {"id": 1 << 33}]}]}),
    (MESSAGES, {"embeds": [{"footer": None}]}),
    (MESSAGES, {"embeds": [{"footer": {"text": "f"}}]}),
    (MESSAGES, {"embeds": [{"footer": {"text": 5}}]}),
    (MESSAGES, {"message_reference": {"message_id": 123}}),
    (MESSAGES, {"message_reference": {"message_id": -1}}),
    (MESSAGES, {"nonce": "12345"}),
    (MESSAGES, {"nonce": 12345}),
    ("/interactions/{interaction_id}/{interaction_token}/callback", {"type": 6}),
    ("/interactions/{interaction_id}/{interaction_token}/callback", {"type": 5, "data": {"flags": 64}}),
    ("/interactions/{interaction_id}/{interaction_token}/callback", {"type": 3}),
    ("/interactions/{interaction_id}/{interaction_token}/callback", {"type": "7", "data": {"content": "c"}}),
    ("/interactions/{interaction_id}/{interaction_token}/callback", {"type": 7, "data": {"content": 7}}),
]


@pytest.fixture(scope="module")
def both() -> tuple[Spec, Spec]:
    """The checker's spec, and the published one with only the leniencies added."""
    document = json.loads(SPEC_PATH.read_text(encoding="utf-8"))
    return Spec(document), Spec(document, fast=False)


@pytest.mark.parametrize(("path", "body"), SAME_VERDICTS)
def test_the_faster_schemas_decide_as_the_published_ones(
    both: tuple[Spec, Spec], path: str, body: dict[str, Any]
) -> None:
    fast, published = both
    assert (fast.check("POST", path, path, body) is None) == (
        published.check("POST", path, path, body) is None
    )


def test_the_sample_bodies_include_refused_ones(both: tuple[Spec, Spec]) -> None:
    verdicts = [both[0].check("POST", path, path, body) is None for path, body in SAME_VERDICTS]
    assert verdicts.count(True) >= 5 and verdicts.count(False) >= 5
