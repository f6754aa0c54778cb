"""The stand-in's OAuth2 endpoints as Discord answers them (devserver/oauth.py): an authorization code is
exchanged once, within its lifetime, by the app's own client id and secret (in the form or HTTP Basic);
the access token it gives reads that person's /users/@me, and nothing else does."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from devserver import Config, DevServer
from devserver.errors import DiscordError


@pytest_asyncio.fixture
async def server() -> AsyncIterator[DevServer]:
    async with DevServer(Config(), members=("alice",)) as running:
        yield running


def form(server: DevServer, code: str, **changes: str) -> dict[str, str]:
    fields = {"grant_type": "authorization_code", "code": code,
              "client_id": str(server.world.application_id), "client_secret": server.config.client_secret}
    return fields | changes


async def post_token(server: DevServer, data: Any, headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as client:
        async with client.post(f"{server.api_url}/oauth2/token", data=data, headers=headers) as answer:
            return answer.status, await answer.json()


async def me(server: DevServer, token: str) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as client:
        async with client.get(f"{server.api_url}/users/@me", headers={"Authorization": f"Bearer {token}"}) as answer:
            return answer.status, await answer.json()


async def test_a_code_is_exchanged_once_for_a_token_that_reads_its_person(server: DevServer) -> None:
    alice = server.member("alice")
    code = server.oauth.issue(alice.id)
    status, granted = await post_token(server, form(server, code))
    assert status == 200 and granted["token_type"] == "Bearer" and granted["scope"] == "identify"
    status, user = await me(server, granted["access_token"])
    assert status == 200 and user["id"] == str(alice.id) and user["locale"] == "en-US" and user["bot"] is False
    status, refused = await post_token(server, form(server, code))
    assert (status, refused["error"]) == (400, "invalid_grant")


async def test_the_client_may_authenticate_with_http_basic(server: DevServer) -> None:
    code = server.oauth.issue(server.member("alice").id)
    basic = base64.b64encode(f"{server.world.application_id}:{server.config.client_secret}".encode()).decode()
    fields = {"grant_type": "authorization_code", "code": code}
    status, granted = await post_token(server, fields, {"Authorization": f"Basic {basic}"})
    assert status == 200 and "access_token" in granted


async def test_a_wrong_secret_or_client_is_invalid_client_and_spends_no_code(server: DevServer) -> None:
    code = server.oauth.issue(server.member("alice").id)
    for wrong in ({"client_secret": "nope"}, {"client_id": "42"}):
        assert await post_token(server, form(server, code, **wrong)) == (401, {"error": "invalid_client"})
    assert (await post_token(server, form(server, code)))[0] == 200  # the code was still good


async def test_an_expired_code_a_json_body_and_another_grant_are_refused(server: DevServer) -> None:
    code = server.oauth.issue(server.member("alice").id)
    assert (await post_token(server, form(server, code, grant_type="client_credentials")))[1]["error"] == "unsupported_grant_type"
    server.clock.advance(server.config.code_lifetime)
    assert (await post_token(server, form(server, code)))[1]["error"] == "invalid_grant"
    async with aiohttp.ClientSession() as client:
        async with client.post(f"{server.api_url}/oauth2/token", json=form(server, server.oauth.issue(1))) as answer:
            assert answer.status == 400 and (await answer.json())["error"] == "invalid_request"


async def test_a_made_up_or_expired_bearer_token_is_unauthorized(server: DevServer) -> None:
    assert (await me(server, "made-up"))[0] == 401
    code = server.oauth.issue(server.member("alice").id)
    token = (await post_token(server, form(server, code)))[1]["access_token"]
    server.clock.advance(7 * 86400)
    assert (await me(server, token))[0] == 401


async def test_a_launch_needs_an_activity(server: DevServer) -> None:
    class Clicked:
        id, user_id, channel_id = 1, server.member("alice").id, server.channel("general").id

    with pytest.raises(DiscordError) as refused:
        server.oauth.launch(Clicked())
    assert refused.value.code == 50035 and server.oauth.launches == {}
    server.config.activity_url = "http://127.0.0.1:9"
    launch = server.oauth.launch(Clicked())
    assert server.oauth.launches == {launch.instance_id: launch} and launch.channel_id == Clicked.channel_id
