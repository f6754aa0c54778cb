"""The app's Activity as Discord runs it: the launch response, the Discord client's side of the Embedded
App SDK, and the OAuth2 code exchange an Activity's server makes to learn who is playing.

* ``Config.activity_url`` is the app's Activity (its URL mapping's root, ``/`` → that address). None: the
  app has no Activity (no entry point in the Developer Portal) and an interaction answered with
  ``LAUNCH_ACTIVITY`` (type 12) is refused, 400 50035 on ``type``, as Discord refuses a response type an app
  may not use; the interaction stays unanswered, so the bot can still answer it another way.
* A launch (:class:`Launch`) is an Activity instance in the interaction's channel for its user; the callback's
  ``?with_response`` body says ``resource: {type: 12, activity_instance: {id}}``.
* ``discordsays_url`` is Discord's proxy in front of the Activity (``https://<app id>.discordsays.com``, here
  a port of its own, so the Activity's origin is not the client's): ``/.proxy/<path>`` and any other
  ``/<path>`` go to ``activity_url`` + ``/<path>``, WebSockets included.
* ``GET /activity/{instance}`` is the Discord client's frame around the Activity: a page that embeds
  the proxy's root in an iframe with the query Discord gives it (``frame_id``, ``instance_id``, ``platform``,
  ``channel_id``, ``guild_id``) and speaks the SDK's postMessage protocol to it: ``[0, handshake]`` →
  ``[1, DISPATCH READY]``; ``[1, {cmd: AUTHORIZE, args, nonce}]`` → ``[1, {cmd: AUTHORIZE, data: {code},
  nonce}]`` (the person approves at once), or ``evt: ERROR`` (4007 for another app's client id). Its codes
  come from ``POST /activity/{instance}/authorize`` (the client asking Discord for one for its user).
* ``POST /api/v10/oauth2/token`` (form-encoded ``grant_type=authorization_code``, ``code``, ``client_id``,
  ``client_secret``, or HTTP Basic): a code this server issued, once, within ``Config.code_lifetime`` →
  ``{access_token, token_type: "Bearer", expires_in, refresh_token, scope}``. A wrong client or secret → 401
  ``{"error": "invalid_client"}``; an unknown, used or expired code → 400 ``{"error": "invalid_grant"}``, as
  Discord answers. ``GET /api/v10/users/@me`` with ``Authorization: Bearer …`` → that person's user (with
  ``locale``: the ``identify`` scope's); a token that is unknown or expired → 401.

Codes and tokens are counted on the server clock (``DevServer.clock``: tests ``advance()`` it).
"""

from __future__ import annotations

import asyncio
import base64
import json
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import aiohttp
from aiohttp import WSMsgType, web

from .errors import form_error
from .replies import json_response

if TYPE_CHECKING:
    from .server import DevServer

LAUNCH_ACTIVITY = 12
NO_ACTIVITY = "This application does not have an Activity (no entry point): it cannot launch one"
TOKEN_LIFETIME = 604800.0  # Discord's access tokens last a week


@dataclass
class Launch:
    """One Activity instance a LAUNCH_ACTIVITY response started for a person in a channel."""

    instance_id: str
    user_id: int
    channel_id: int
    guild_id: int | None
    interaction_id: int


@dataclass
class Grant:
    user_id: int
    scopes: tuple[str, ...]
    expires: float


class OAuth:
    """The codes the Discord client issued, the tokens they were exchanged for, and the launches."""

    def __init__(self, server: DevServer) -> None:
        self.server = server
        self.codes: dict[str, Grant] = {}
        self.tokens: dict[str, Grant] = {}
        self.launches: dict[str, Launch] = {}
        self.exchanges: list[tuple[str, int]] = []  # (code's outcome, status) per token request, in order
        self._proxy: web.AppRunner | None = None
        self._http: aiohttp.ClientSession | None = None
        self.proxy_port = 0

    # Discord's proxy (discordsays.com) ------------------------------------------
    async def open_proxy(self) -> None:
        app = web.Application()
        app.router.add_route("*", "/{path:.*}", self.forward)
        self._proxy = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._proxy.setup()
        await web.TCPSite(self._proxy, "127.0.0.1", 0).start()
        self.proxy_port = self._proxy.addresses[0][1]
        self._http = aiohttp.ClientSession()

    async def close_proxy(self) -> None:
        if self._http is not None:
            await self._http.close()
        if self._proxy is not None:
            await self._proxy.cleanup()
        self._proxy = self._http = None

    @property
    def discordsays_url(self) -> str:
        return f"http://127.0.0.1:{self.proxy_port}"

    async def forward(self, request: web.Request) -> web.StreamResponse:
        """The URL mapping ``/`` → ``activity_url``: ``/.proxy/x`` and ``/x`` both reach ``activity_url/x``."""
        target = self.server.config.activity_url
        if target is None or self._http is None:
            raise web.HTTPNotFound()
        path = request.path[len("/.proxy") :] if request.path.startswith("/.proxy/") else request.path
        url = target.rstrip("/") + path + (f"?{request.query_string}" if request.query_string else "")
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return await self._socket(request, "ws" + url[len("http") :])
        headers = {k: v for k, v in request.headers.items() if k in ("Content-Type", "Accept-Language")}
        async with self._http.request(request.method, url, data=await request.read(), headers=headers) as answer:
            body = await answer.read()
            kept = {k: v for k, v in answer.headers.items() if k in ("Content-Type", "Cache-Control")}
            return web.Response(status=answer.status, body=body, headers=kept)

    async def _socket(self, request: web.Request, url: str) -> web.StreamResponse:
        assert self._http is not None
        try:
            upstream = await self._http.ws_connect(url)
        except aiohttp.WSServerHandshakeError as refused:
            return web.Response(status=refused.status)
        down = web.WebSocketResponse()
        await down.prepare(request)

        async def pump(source: Any, sink: Any) -> None:
            async for message in source:
                if message.type is WSMsgType.TEXT:
                    await sink.send_str(message.data)
                elif message.type is WSMsgType.BINARY:
                    await sink.send_bytes(message.data)
            await sink.close()

        await asyncio.gather(pump(upstream, down), pump(down, upstream), return_exceptions=True)
        await upstream.close()
        return down

    def register(self, router: web.UrlDispatcher, api: str) -> None:
        router.add_post(f"{api}/oauth2/token", self.token)
        router.add_get("/activity/{instance}", self.frame)
        router.add_post("/activity/{instance}/authorize", self.authorize_for)

    # the launch response ------------------------------------------------------
    def launch(self, interaction: Any) -> Launch:
        """What ``LAUNCH_ACTIVITY`` does; raises the refusal where the app has no Activity."""
        if self.server.config.activity_url is None:
            raise form_error("type", NO_ACTIVITY)
        return self.start(interaction.user_id, interaction.channel_id, interaction.id)

    def start(self, user_id: int, channel_id: int, interaction_id: int | None = None) -> Launch:
        """An Activity instance for ``user_id`` in a channel: from a launch response, or (no interaction) the
        person opening the app from Discord's App Launcher, which never asks the bot."""
        channel = self.server.world.channel(channel_id)
        number = self.server.ids.next()
        launch = Launch(
            f"i-{number}-gc-{channel.guild_id or 0}-{channel.id}",
            user_id, channel.id, channel.guild_id, interaction_id or number,
        )
        self.launches[launch.instance_id] = launch
        return launch

    def launches_for(self, user_id: int) -> list[Launch]:
        return [one for one in self.launches.values() if one.user_id == user_id]

    def frame_url(self, launch: Launch) -> str:
        return f"{self.server.base_url}/activity/{launch.instance_id}"

    # codes (the Discord client's AUTHORIZE) ----------------------------------------
    def issue(self, user_id: int, scopes: tuple[str, ...] = ("identify",)) -> str:
        """A fresh authorization code for ``user_id``, as the client hands an approved AUTHORIZE."""
        code = secrets.token_urlsafe(22)
        self.codes[code] = Grant(user_id, scopes, self.server.clock.now() + self.server.config.code_lifetime)
        return code

    def bearer(self, request: web.Request) -> Grant | None:
        """The grant of the request's ``Bearer`` token, or None (absent, unknown, expired)."""
        header = request.headers.get("Authorization", "")
        if not header.startswith("Bearer "):
            return None
        grant = self.tokens.get(header[len("Bearer ") :])
        if grant is None or grant.expires <= self.server.clock.now():
            return None
        return grant

    def me(self, grant: Grant) -> web.Response:
        if "identify" not in grant.scopes:
            return json_response({"message": "401: Unauthorized", "code": 0}, 401)
        record = self.server.world.user(grant.user_id)
        return json_response(record.payload() | {"locale": record.locale, "mfa_enabled": False, "flags": 0})

    # routes -------------------------------------------------------------------
    async def token(self, request: web.Request) -> web.Response:
        if request.content_type != "application/x-www-form-urlencoded":
            return self._answer("not_form", 400, {"error": "invalid_request", "error_description": "form body expected"})
        form = await request.post()
        client_id, secret = str(form.get("client_id", "")), str(form.get("client_secret", ""))
        basic = request.headers.get("Authorization", "")
        if basic.startswith("Basic "):
            try:
                client_id, _, secret = base64.b64decode(basic[6:]).decode().partition(":")
            except ValueError:
                client_id = secret = ""
        if client_id != str(self.server.world.application_id) or secret != self.server.config.client_secret:
            return self._answer("invalid_client", 401, {"error": "invalid_client"})
        if form.get("grant_type") != "authorization_code":
            return self._answer("unsupported_grant_type", 400, {"error": "unsupported_grant_type"})
        code = str(form.get("code", ""))
        grant = self.codes.pop(code, None)  # once: a second exchange of the same code is refused
        if grant is None or grant.expires <= self.server.clock.now():
            return self._answer(
                "invalid_grant", 400, {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'}
            )
        access = secrets.token_urlsafe(22)
        self.tokens[access] = Grant(grant.user_id, grant.scopes, self.server.clock.now() + TOKEN_LIFETIME)
        return self._answer("ok", 200, {
            "access_token": access, "token_type": "Bearer", "expires_in": int(TOKEN_LIFETIME),
            "refresh_token": secrets.token_urlsafe(22), "scope": " ".join(grant.scopes),
        })

    def _answer(self, outcome: str, status: int, body: dict[str, Any]) -> web.Response:
        self.exchanges.append((outcome, status))
        return json_response(body, status)

    async def authorize_for(self, request: web.Request) -> web.Response:
        """The client's AUTHORIZE for the person who launched this instance: a code (the person approves)."""
        launch = self.launches.get(request.match_info["instance"])
        if launch is None:
            return json_response({"code": 4010, "message": "unknown activity instance"}, 404)
        body = await request.json()
        if str(body.get("client_id")) != str(self.server.world.application_id):
            return json_response({"code": 4007, "message": "Invalid client id"}, 400)
        scopes = tuple(str(s) for s in body.get("scope") or ())
        return json_response({"code": self.issue(launch.user_id, scopes)})

    async def frame(self, request: web.Request) -> web.Response:
        launch = self.launches.get(request.match_info["instance"])
        if launch is None or self.server.config.activity_url is None:
            raise web.HTTPNotFound()
        query = {
            "instance_id": launch.instance_id, "frame_id": f"f{launch.interaction_id}", "platform": "desktop",
            "channel_id": str(launch.channel_id), "location_id": f"gc-{launch.guild_id or 0}-{launch.channel_id}",
        }
        if launch.guild_id is not None:
            query["guild_id"] = str(launch.guild_id)
        page = _FRAME.replace("$CONFIG", json.dumps({
            "target": self.discordsays_url + "/", "query": query, "client_id": str(self.server.world.application_id),
            "instance": launch.instance_id, "user": str(launch.user_id),
        }))
        return web.Response(text=page, content_type="text/html")


# The Discord client's side of the SDK protocol, in the parent frame: HANDSHAKE → READY, AUTHORIZE → a code.
# Every message the Activity sent is kept in `window.activity.heard` for the tests.
_FRAME = """<!doctype html>
<html><head><meta charset="utf-8"><title>Discord (stand-in)</title>
<style>html,body{margin:0;height:100%}iframe{border:0;width:100%;height:100%}</style></head>
<body><iframe id="app" allow="autoplay"></iframe>
<script>
"use strict";
const config = $CONFIG;
const frame = document.getElementById("app");
const target = new URL(config.target);
const heard = [];
window.activity = { heard, handshakes: 0, authorized: 0, refused: 0 };
const reply = (payload) => frame.contentWindow.postMessage([1, payload], target.origin);
window.addEventListener("message", async (event) => {
  if (event.source !== frame.contentWindow || event.origin !== target.origin || !Array.isArray(event.data)) return;
  const [opcode, payload] = event.data;
  heard.push([opcode, payload]);
  if (opcode === 0) {
    if (payload.v !== 1 || payload.encoding !== "json" || payload.client_id !== config.client_id
        || payload.frame_id !== config.query.frame_id) {
      frame.contentWindow.postMessage([2, { code: 4000, message: "Invalid handshake" }], target.origin);
      return;
    }
    window.activity.handshakes += 1;
    reply({ cmd: "DISPATCH", evt: "READY", nonce: null,
            data: { v: 1, config: { cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api",
                                    environment: "production" } } });
  } else if (opcode === 1 && payload.cmd === "AUTHORIZE") {
    const asked = await fetch("/activity/" + config.instance + "/authorize", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(payload.args || {}) });
    const body = await asked.json();
    if (asked.ok) { window.activity.authorized += 1; reply({ cmd: "AUTHORIZE", evt: null, nonce: payload.nonce, data: { code: body.code } }); }
    else { window.activity.refused += 1; reply({ cmd: "AUTHORIZE", evt: "ERROR", nonce: payload.nonce, data: body }); }
  } else if (opcode === 1) {
    reply({ cmd: payload.cmd, evt: "ERROR", nonce: payload.nonce, data: { code: 4002, message: "Invalid command" } });
  }
});
const src = new URL(target.href);
Object.entries(config.query).forEach(([k, v]) => src.searchParams.set(k, v));
frame.src = src.href;
</script></body></html>
"""
