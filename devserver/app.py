"""The REST API routes discord.py calls, with Discord's error shapes and the violation bookkeeping."""

from __future__ import annotations

import asyncio
import email.utils
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import openapi
from .callbacks import InteractionRoutes
from .errors import INVALID_FORM_BODY, OPENING_DMS_TOO_FAST, DiscordError, form_error
from .faults import ErrorFault
from .messages import read_body
from .permissions import check_write
from .recorder import EPHEMERAL, Message
from .replies import ARRIVED, BODY, json_response, no_content, snowflake
from .threads import ThreadRoutes

if TYPE_CHECKING:
    from .server import DevServer

_log = logging.getLogger(__name__)
API = "/api/v10"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

RULES = {
    10003: "unknown_channel",
    10004: "unknown_guild",
    10007: "unknown_member",
    10008: "unknown_message",
    10013: "unknown_user",
    10015: "unknown_webhook",
    10062: "unknown_interaction",
    30046: "old_message_edit_limit",
    40003: "dm_open_too_fast",
    40005: "attachment_too_large",
    40060: "already_acknowledged",
    50006: "empty_message",
    50027: "token_expired",
    50035: "invalid_form_body",
    50083: "thread_archived",
    160005: "thread_locked",
}


class Api:
    """Route handlers; each turns a request into state changes on the server and a Discord-shaped reply."""

    def __init__(self, server: DevServer) -> None:
        self.server = server

    # plumbing ------------------------------------------------------------
    def build(self) -> web.Application:
        app = web.Application(middlewares=[self.middleware], client_max_size=64 * 1024 * 1024)
        app.on_response_prepare.append(self.date_header)
        r = app.router
        r.add_get(f"{API}/users/@me", self.get_me)
        r.add_get(f"{API}/oauth2/applications/@me", self.get_application)
        r.add_get(f"{API}/gateway", self.get_gateway)
        r.add_get(f"{API}/gateway/bot", self.get_gateway)
        r.add_get(f"{API}/applications/{{application_id}}/commands", self.get_commands)
        r.add_put(f"{API}/applications/{{application_id}}/commands", self.put_commands)
        r.add_get(f"{API}/applications/{{application_id}}/guilds/{{guild_id}}/commands", self.get_commands)
        r.add_put(f"{API}/applications/{{application_id}}/guilds/{{guild_id}}/commands", self.put_commands)
        r.add_post(f"{API}/users/@me/channels", self.open_dm)
        r.add_get(f"{API}/users/{{user_id}}", self.get_user)
        r.add_get(f"{API}/guilds/{{guild_id}}", self.get_guild)
        r.add_get(f"{API}/guilds/{{guild_id}}/members/{{user_id}}", self.get_member)
        r.add_get(f"{API}/channels/{{channel_id}}", self.get_channel)
        r.add_post(f"{API}/channels/{{channel_id}}/typing", self.typing)
        r.add_get(f"{API}/channels/{{channel_id}}/thread-members/{{user_id}}", self.get_thread_member)
        r.add_get(f"{API}/channels/{{channel_id}}/messages", self.get_messages)
        r.add_post(f"{API}/channels/{{channel_id}}/messages", self.post_message)
        r.add_get(f"{API}/channels/{{channel_id}}/messages/{{message_id}}", self.get_message)
        r.add_patch(f"{API}/channels/{{channel_id}}/messages/{{message_id}}", self.patch_message)
        r.add_delete(f"{API}/channels/{{channel_id}}/messages/{{message_id}}", self.delete_message)
        InteractionRoutes(self.server).register(r, API)
        ThreadRoutes(self.server).register(r, API)
        self.server.oauth.register(r, API)
        r.add_get("/gateway", self.server.gateway.handle)
        r.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self.get_attachment)
        r.add_route("*", API + "/{tail:.*}", self.unsupported)
        return app

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        route = self._route_template(request)
        line = f"{request.method} {route}"
        self.server.recorder.log.append(line)
        request[ARRIVED] = self.server.clock.now()  # before the modelled network: the bot's own time ends here
        if not request.path.startswith(API):
            return await handler(request)
        before, after = self.server.delays.rest(request.content_length or 0)
        if before:
            await asyncio.sleep(before)
        response = await self._admit(request, handler, route, line)
        if after:
            await asyncio.sleep(after)
        self.server.invalid_requests.record(response.status)
        return response

    async def date_header(self, request: web.Request, response: web.StreamResponse) -> None:
        """Every reply (REST, and the gateway's handshake) dates itself to the second by Discord's clock
        (``Config.clock_offset``): what a bot can measure its own clock by."""
        offset = self.server.config.clock_offset + self.server.clock.skipped
        response.headers["Date"] = email.utils.formatdate(time.time() + offset, usegmt=True)

    async def _admit(
        self, request: web.Request, handler: Handler, route: str, line: str
    ) -> web.StreamResponse:
        for fault in self.server.faults:
            if fault.matches(request.method, route):
                if isinstance(fault, ErrorFault):
                    return fault.response(request.path, request)
                return fault.response(request.path)
        unauthenticated = route.startswith(("/interactions/", "/webhooks/")) or route == "/oauth2/token"
        if route == "/users/@me" and request.headers.get("Authorization", "").startswith("Bearer "):
            grant = self.server.oauth.bearer(request)  # a person's OAuth2 token (oauth.py), not the bot's
            if grant is None:
                return json_response({"message": "401: Unauthorized", "code": 0}, 401)
            return self.server.oauth.me(grant)
        if not unauthenticated and request.headers.get("Authorization") != f"Bot {self.server.config.token}":
            return json_response({"message": "401: Unauthorized", "code": 0}, 401)
        admission = self.server.limiter.admit(request.method, route, request.match_info)
        if admission.refused is not None:
            self.server.recorder.violation(
                admission.rule, None, f"429 despite the headers: {admission.reason}", line
            )
            return admission.refused
        response = await self._handle(request, handler, line)
        response.headers.update(admission.headers)
        return response

    async def _handle(self, request: web.Request, handler: Handler, line: str) -> web.StreamResponse:
        try:
            response = await handler(request)
        except DiscordError as error:
            if not error.expected:
                rule = RULES.get(error.code, f"error_{error.code}")
                self.server.recorder.violation(rule, error.code, error.detail or error.message, line)
            else:
                self._check_body(request, line)
            return json_response(error.body(), error.status, error.headers)
        except web.HTTPException:
            raise
        except ConnectionResetError:  # the bot went away mid-request (a slow upload at shutdown)
            return json_response({"message": "connection lost", "code": 0}, 400)
        except Exception:
            # A bug in the stand-in itself: fail loudly (ERROR log fails the test) and fast (no 5xx retries).
            _log.exception("devserver failed on %s", line)
            return json_response({"message": "devserver internal error", "code": 0}, 400)
        self._check_body(request, line)
        return response

    def _check_body(self, request: web.Request, line: str) -> None:
        """The body against Discord's OpenAPI description (devserver.openapi): an `openapi` violation if it
        does not validate. Skipped when the stand-in's own rules refused the request: their violation names
        the problem more precisely, and Discord refuses a request once."""
        if BODY not in request or not self.server.config.openapi:
            return
        problem = openapi.spec().check(
            request.method, self._route_template(request), request.path[len(API) :], request[BODY]
        )
        if problem is not None:
            self.server.recorder.violation("openapi", INVALID_FORM_BODY, str(problem), line)

    @staticmethod
    def _route_template(request: web.Request) -> str:
        resource = request.match_info.route.resource
        canonical = resource.canonical if resource is not None else request.path
        return canonical[len(API) :] if canonical.startswith(API) else canonical

    async def unsupported(self, request: web.Request) -> web.Response:
        line = f"{request.method} {request.path}"
        self.server.recorder.violation(
            "unsupported_route", None, f"the stand-in does not implement {line}", line
        )
        return json_response({"message": "404: Not Found", "code": 0}, 404)

    # identity --------------------------------------------------------------
    async def get_me(self, request: web.Request) -> web.Response:
        world = self.server.world
        return json_response(world.bot.payload() | {"verified": True, "mfa_enabled": False, "flags": 0})

    async def get_application(self, request: web.Request) -> web.Response:
        return json_response(self.server.world.application_payload())

    async def get_gateway(self, request: web.Request) -> web.Response:
        starts = self.server.gateway.starts  # devserver/identify.py
        return json_response(
            {
                "url": self.server.gateway_url,
                "shards": starts.recommended_shards,
                "session_start_limit": starts.limit_payload(),
            }
        )

    def _guild(self, request: web.Request) -> int:
        guild_id = snowflake(request, "guild_id")
        if guild_id != self.server.world.guild_id:
            raise DiscordError(404, 10004, detail=f"guild {guild_id}")
        if self.server.bot_removed:  # a server the bot is no longer in: Missing Access
            raise DiscordError(403, 50001, detail=f"the bot is not in guild {guild_id}", expected=True)
        return guild_id

    async def get_user(self, request: web.Request) -> web.Response:
        return json_response(self.server.world.user(snowflake(request, "user_id")).payload())

    async def get_guild(self, request: web.Request) -> web.Response:
        self._guild(request)
        world = self.server.world
        guild = world.guild_payload(with_members=False)
        for key in (
            "members",
            "channels",
            "threads",
            "voice_states",
            "presences",
            "joined_at",
            "member_count",
        ):
            guild.pop(key, None)
        return json_response(guild)

    async def get_member(self, request: web.Request) -> web.Response:
        self._guild(request)
        world = self.server.world
        return json_response(world.member_payload(world.member(snowflake(request, "user_id")).id))

    # commands --------------------------------------------------------------
    def _command_scope(self, request: web.Request) -> int | None:
        if snowflake(request, "application_id") != self.server.world.application_id:
            raise DiscordError(403, 50001, detail="not this application")
        if "guild_id" not in request.match_info:
            return None
        return self._guild(request)

    async def get_commands(self, request: web.Request) -> web.Response:
        return json_response(self.server.commands.all(self._command_scope(request)))

    async def put_commands(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        body, _ = await read_body(request)
        return json_response(self.server.commands.overwrite(body.get("_list", []), scope))

    # channels and messages -----------------------------------------------
    async def open_dm(self, request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        try:
            user_id = int(body["recipient_id"])
        except (KeyError, TypeError, ValueError):
            raise form_error("recipient_id", "This field is required", "BASE_TYPE_REQUIRED") from None
        opening = user_id not in self.server.world.dm_by_user  # an existing DM is handed back, not opened
        if opening and self.server.limiter.hidden("dm_open", "") is not None:
            window = self.server.config.rate_limits.dm_open
            raise DiscordError(
                403, OPENING_DMS_TOO_FAST, detail=f"more than {window.limit} in {window.seconds}s"
            )
        channel = self.server.world.dm_channel(user_id)
        return json_response(channel.payload(self.server.world))

    async def get_channel(self, request: web.Request) -> web.Response:
        channel = self.server.world.channel(snowflake(request, "channel_id"))
        return json_response(channel.payload(self.server.world))

    async def get_thread_member(self, request: web.Request) -> web.Response:
        """A thread's member, or 404 10007 for someone who has not joined it (how a bot learns it is not in a
        private thread). A private thread the bot is not in is 403 50001 to it without Manage Threads."""
        thread = self.server.world.channel(snowflake(request, "channel_id"))
        user_id = snowflake(request, "user_id")
        if not thread.is_thread:
            raise form_error("channel_id", "Not a thread")
        if user_id not in thread.members:
            raise DiscordError(404, 10007, detail=f"user {user_id} is not in thread {thread.name}", expected=True)
        return json_response(
            {"id": str(thread.id), "user_id": str(user_id), "join_timestamp": "2025-01-01T00:00:00+00:00", "flags": 0}
        )

    async def typing(self, request: web.Request) -> web.Response:
        self.server.world.channel(snowflake(request, "channel_id"))
        return no_content()

    async def get_messages(self, request: web.Request) -> web.Response:
        channel = self.server.world.channel(snowflake(request, "channel_id"))
        limit = int(request.query.get("limit", 50))
        found = [m for m in self.server.recorder.in_channel(channel.id) if not m.ephemeral]
        return json_response([self.payload(m) for m in reversed(found)][:limit])

    async def post_message(self, request: web.Request) -> web.Response:
        channel = self.server.world.channel(snowflake(request, "channel_id"))
        body, uploads = await read_body(request)
        if body.get("flags", 0) & EPHEMERAL:
            raise form_error("flags", "Ephemeral messages exist only as interaction responses")
        check_write(
            self.server.bot_permissions(channel), channel, body, uploads, creating=True, bot_id=self.server.world.bot.id
        )
        message = self.server.messages.create(channel, body, uploads)
        return json_response(self.payload(message))

    async def get_message(self, request: web.Request) -> web.Response:
        channel = self.server.world.channel(snowflake(request, "channel_id"))
        return json_response(
            self.payload(self.server.messages.in_channel(channel, snowflake(request, "message_id")))
        )

    async def patch_message(self, request: web.Request) -> web.Response:
        channel = self.server.world.channel(snowflake(request, "channel_id"))
        message = self.server.messages.in_channel(channel, snowflake(request, "message_id"))
        body, uploads = await read_body(request)
        check_write(
            self.server.bot_permissions(channel), channel, body, uploads, creating=False, bot_id=self.server.world.bot.id
        )
        return json_response(self.payload(self.server.messages.edit(message, body, uploads)))

    async def delete_message(self, request: web.Request) -> web.Response:
        channel = self.server.world.channel(snowflake(request, "channel_id"))
        self.server.messages.delete(
            self.server.messages.in_channel(channel, snowflake(request, "message_id"))
        )
        return no_content()

    async def get_attachment(self, request: web.Request) -> web.Response:
        attachment_id = int(request.match_info["attachment_id"])
        for message in self.server.recorder.messages.values():
            for attachment in message.attachments:
                if attachment.id == attachment_id:
                    return web.Response(body=attachment.data, content_type="application/octet-stream")
        return web.Response(status=404, text="no such attachment")

    def payload(self, message: Message) -> dict[str, Any]:
        return message.payload(self.server.base_url)
