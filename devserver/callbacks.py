"""Interaction routes: the initial response (callback) and the webhook routes of follow-ups and @original."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from .errors import INVALID_WEBHOOK_TOKEN, UNKNOWN_MESSAGE, UNKNOWN_WEBHOOK, DiscordError, form_error
from .interactions import (
    ALLOWED_RESPONSES,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE,
    LAUNCH_ACTIVITY,
    MODAL,
    UPDATE_MESSAGE,
    Interaction,
    Response,
)
from .limits import check_modal
from .messages import read_body, unknown_message
from .recorder import EPHEMERAL, LOADING, Message
from .replies import ARRIVED, json_response, no_content, snowflake

if TYPE_CHECKING:
    from .server import DevServer


class InteractionRoutes:
    """What the bot does with an interaction: answer it once, in time, then follow up on its token."""

    def __init__(self, server: DevServer) -> None:
        self.server = server

    def register(self, router: web.UrlDispatcher, api: str) -> None:
        router.add_post(f"{api}/interactions/{{interaction_id}}/{{token}}/callback", self.callback)
        router.add_post(f"{api}/webhooks/{{application_id}}/{{token}}", self.followup)
        message = f"{api}/webhooks/{{application_id}}/{{token}}/messages/{{message_id}}"
        router.add_get(message, self.get_webhook_message)
        router.add_patch(message, self.patch_webhook_message)
        router.add_delete(message, self.delete_webhook_message)

    def payload(self, message: Message) -> dict[str, Any]:
        return message.payload(self.server.base_url)

    async def callback(self, request: web.Request) -> web.Response:
        """The initial response: once, within the deadline, of a type this interaction allows."""
        server = self.server
        interaction = server.interactions.for_callback(
            snowflake(request, "interaction_id"), request.match_info["token"]
        )
        body, uploads = await read_body(request)
        if interaction.age > server.config.response_deadline:
            if interaction.delivered_late:  # it came too late to answer: the bot must cope, no rule broken
                raise DiscordError(404, 10062, detail=f"{interaction!r} expired", expected=True)
            if not interaction.deadline_missed:
                interaction.deadline_missed = True
                server.recorder.violation(
                    "response_deadline", 10062, f"{interaction!r}: answered after {interaction.age:.2f}s"
                )
            raise DiscordError(404, 10062, detail=f"{interaction!r} expired", expected=True)
        if interaction.initial is not None:
            raise DiscordError(400, 40060, detail=f"{interaction!r} was already answered")
        kind = body.get("type")
        if kind not in ALLOWED_RESPONSES.get(interaction.type, set()):
            raise form_error(
                "type", f"response type {kind} is not allowed for interaction type {interaction.type}"
            )
        data = body.get("data") or {}
        response = self._respond(interaction, kind, data, uploads)
        interaction.initial = response
        interaction.answered_at = server.clock.now()
        interaction.requested_at = request.get(ARRIVED)
        interaction.response_seq = server.recorder.bump()
        return json_response(self._callback_payload(interaction, response))

    def _respond(
        self, interaction: Interaction, kind: int, data: dict[str, Any], uploads: list[Any]
    ) -> Response:
        server = self.server
        channel = server.world.channel(interaction.channel_id)
        if kind == CHANNEL_MESSAGE:
            message = server.messages.create(
                channel, data, uploads, interaction=interaction, ephemeral_to=interaction.user_id
            )
            interaction.original_message_id = message.id
            return Response(kind, message)
        if kind == DEFERRED_CHANNEL_MESSAGE:
            flags = (data.get("flags") or 0) & EPHEMERAL
            message = server.messages.create(
                channel,
                {"flags": flags},
                [],
                interaction=interaction,
                ephemeral_to=interaction.user_id,
                extra_flags=LOADING,
                validate=False,
            )
            interaction.original_message_id = message.id
            return Response(kind, message)
        if kind in (UPDATE_MESSAGE, DEFERRED_UPDATE):
            source = server.recorder.get(interaction.source_message_id or 0)
            if source is None or source.deleted:
                raise DiscordError(404, UNKNOWN_MESSAGE, detail="the component's message is gone")
            if kind == UPDATE_MESSAGE:
                server.messages.edit(source, data, uploads, by_request=False)
            return Response(kind, source)
        if kind == LAUNCH_ACTIVITY:  # refused (50035) for an app without an Activity: devserver/oauth.py
            return Response(kind, None, activity_instance=server.oauth.launch(interaction).instance_id)
        assert kind == MODAL
        check_modal(data)
        return Response(kind, None, modal=data)

    def _callback_payload(self, interaction: Interaction, response: Response) -> dict[str, Any]:
        """The ?with_response=1 shape: {interaction: {...}, resource: {type, message?}}."""
        message = response.message
        info: dict[str, Any] = {
            "id": str(interaction.id),
            "type": interaction.type,
            "response_message_loading": bool(message and message.loading),
            "response_message_ephemeral": bool(message and message.ephemeral),
        }
        resource: dict[str, Any] = {"type": response.type}
        if response.activity_instance is not None:
            resource["activity_instance"] = {"id": response.activity_instance}
        if message is not None:
            info["response_message_id"] = str(message.id)
            if response.type != DEFERRED_UPDATE:
                resource["message"] = self.payload(message)
        return {"interaction": info, "resource": resource}

    # webhooks (follow-ups and the original response) ------------------------
    def _webhook_interaction(self, request: web.Request) -> Interaction:
        interaction = self.server.interactions.for_webhook(
            snowflake(request, "application_id"), request.match_info["token"]
        )
        if not interaction.token_alive():
            raise DiscordError(
                401, INVALID_WEBHOOK_TOKEN, detail=f"{interaction!r}: token older than its lifetime"
            )
        if interaction.initial is None:
            raise DiscordError(404, UNKNOWN_WEBHOOK, detail=f"{interaction!r}: not acknowledged yet")
        return interaction

    def _webhook_message(self, request: web.Request, interaction: Interaction) -> Message:
        raw = request.match_info["message_id"]
        assert interaction.initial is not None
        if raw == "@original":
            kind = interaction.initial.type
            if kind in (UPDATE_MESSAGE, DEFERRED_UPDATE):
                message_id = interaction.source_message_id
            else:
                message_id = interaction.original_message_id
        else:
            message_id = snowflake(request, "message_id")
            allowed = {interaction.original_message_id, *interaction.followup_ids}
            if message_id not in allowed:
                message_id = None
        message = self.server.recorder.get(message_id or 0)
        if message is None or message.deleted:
            raise unknown_message(message, f"webhook message {raw} of {interaction!r}")
        return message

    async def followup(self, request: web.Request) -> web.Response:
        interaction = self._webhook_interaction(request)
        body, uploads = await read_body(request)
        original = self.server.recorder.get(interaction.original_message_id or 0)
        if original is not None and original.loading and original.deleted:
            raise unknown_message(original, f"the 'thinking…' placeholder of {interaction!r} is gone")
        if original is not None and original.loading:
            # The first follow-up after a deferred 'thinking' response replaces that placeholder.
            message = self.server.messages.edit(original, body, uploads, by_request=False)
        else:
            message = self.server.messages.create(
                self.server.world.channel(interaction.channel_id),
                body,
                uploads,
                interaction=interaction,
                ephemeral_to=interaction.user_id,
            )
        interaction.followup_ids.append(message.id)
        self.server.recorder.bump()
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(self.payload(message))
        return no_content()

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        interaction = self._webhook_interaction(request)
        return json_response(self.payload(self._webhook_message(request, interaction)))

    async def patch_webhook_message(self, request: web.Request) -> web.Response:
        interaction = self._webhook_interaction(request)
        message = self._webhook_message(request, interaction)
        body, uploads = await read_body(request)
        return json_response(self.payload(self.server.messages.edit(message, body, uploads)))

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        interaction = self._webhook_interaction(request)
        self.server.messages.delete(self._webhook_message(request, interaction))
        return no_content()
