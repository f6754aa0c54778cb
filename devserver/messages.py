"""Creating, editing and deleting messages: the checks Discord makes and the bookkeeping the recorder needs."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .errors import (
    CANNOT_DM_USER,
    CANNOT_SEND_EMPTY,
    OLD_MESSAGE_EDITS,
    UNKNOWN_MESSAGE,
    DiscordError,
    form_error,
)
from .gateway import DIRECT_MESSAGES_INTENT, GUILD_MESSAGES_INTENT
from .limits import ATTACHMENTS_MAX, check_message
from .media import content_type
from .mentions import pings_of
from .recorder import EPHEMERAL, LOADING, Attachment, Message
from .replies import BODY
from .state import DM_CHANNEL, PRIVATE_THREAD, Channel

if TYPE_CHECKING:
    from .interactions import Interaction
    from .server import DevServer


@dataclass
class Upload:
    """One file part of a multipart request (`files[n]`)."""

    index: int
    filename: str
    data: bytes


async def read_body(request: web.Request) -> tuple[dict[str, Any], list[Upload]]:
    """JSON body, or multipart with payload_json plus files[n], as discord.py sends them."""
    if request.content_type.startswith("multipart/"):
        payload: dict[str, Any] = {}
        uploads: list[Upload] = []
        reader = await request.multipart()
        async for part in reader:
            name = getattr(part, "name", None) or ""
            if name == "payload_json":
                payload = json.loads(await part.text())  # type: ignore[union-attr]
                request[BODY] = payload
            elif name.startswith("files[") and name.endswith("]"):
                data = await part.read(decode=False)  # type: ignore[union-attr]
                uploads.append(Upload(int(name[6:-1]), getattr(part, "filename", None) or name, bytes(data)))
            else:
                raise form_error(name or "_root", "Unexpected multipart field")
        return payload, sorted(uploads, key=lambda u: u.index)
    if request.body_exists:
        body = await request.json()
        request[BODY] = body
        return (body if isinstance(body, dict) else {"_list": body}), []
    return {}, []


class Messages:
    """Message operations shared by the channel routes, interaction callbacks and webhooks."""

    def __init__(self, server: DevServer) -> None:
        self.server = server

    def _attachments(
        self, payload: dict[str, Any], uploads: list[Upload], keep: list[Attachment]
    ) -> list[Attachment]:
        meta = {str(a.get("id")): a for a in payload.get("attachments") or []}
        out: list[Attachment] = []
        if "attachments" in payload:
            kept_ids = {str(a.get("id")) for a in payload["attachments"]}
            out = [a for a in keep if str(a.id) in kept_ids]
        else:
            out = list(keep)
        for up in uploads:
            info = meta.get(str(up.index), {})
            filename = info.get("filename") or up.filename
            out.append(
                Attachment(
                    self.server.ids.next(),
                    filename,
                    up.data,
                    content_type(filename, up.data),
                    info.get("description"),
                )
            )
        return out

    def check(self, payload: dict[str, Any], uploads: list[Upload], *, partial: bool = False) -> None:
        files = [(u.filename, u.data) for u in uploads]
        known = set(self.server.world.emojis)
        check_message(
            payload, files, self.server.config.attachment_size_limit, partial=partial, known_emoji=known
        )

    def create(
        self,
        channel: Channel,
        payload: dict[str, Any],
        uploads: list[Upload],
        *,
        interaction: Interaction | None = None,
        ephemeral_to: int | None = None,
        extra_flags: int = 0,
        validate: bool = True,
    ) -> Message:
        """A new message by the bot in a channel; DMs the bot starts to users who refuse them fail with
        50007 (answers to their interactions do not)."""
        world = self.server.world
        if validate:
            self.check(payload, uploads)
        # Discord applies a person's DM settings (closed DMs, a blocked bot) to messages the bot starts;
        # an interaction's answer or follow-up answers the person's own click and is delivered anyway
        if interaction is None and channel.type == DM_CHANNEL and channel.recipient_id in self.server.refused_dms:
            raise DiscordError(
                403, CANNOT_DM_USER, detail=f"user {channel.recipient_id} refuses DMs", expected=True
            )
        flags = (payload.get("flags") or 0) | extra_flags
        message = Message(
            id=self.server.ids.next(),
            channel_id=channel.id,
            author=world.bot.payload(),
            content=payload.get("content") or "",
            embeds=copy.deepcopy(payload.get("embeds") or []),
            components=copy.deepcopy(payload.get("components") or []),
            attachments=self._attachments(payload, uploads, []),
            flags=flags,
            guild_id=channel.guild_id,
            dm_with=channel.recipient_id if channel.type == DM_CHANNEL else None,
            ephemeral_to=ephemeral_to if flags & EPHEMERAL else None,
            interaction_id=interaction.id if interaction is not None else None,
            webhook_id=world.application_id if interaction is not None else None,
            created_at=self.server.clock.now(),
            audience=channel.members if channel.type == PRIVATE_THREAD else None,
        )
        message.pings = pings_of(
            message.content, payload.get("allowed_mentions"), by_interaction=interaction is not None
        )
        if interaction is not None:
            message.origin = interaction.message_fields(message.id)
        self.server.recorder.add(message)
        self._announce("MESSAGE_CREATE", message)
        return message

    def edit(
        self, message: Message, payload: dict[str, Any], uploads: list[Upload], *, by_request: bool = True
    ) -> Message:
        """Apply a PATCH: only the fields sent change; the earlier version goes to history.

        by_request: a PATCH on a channel message or webhook message, which Discord limits for hour-old messages;
        interaction responses (UPDATE_MESSAGE, filling in 'thinking…') are not.
        """
        self.check(payload, uploads, partial=True)
        content = (payload["content"] or "") if "content" in payload else message.content
        embeds = (payload["embeds"] or []) if "embeds" in payload else message.embeds
        components = (payload["components"] or []) if "components" in payload else message.components
        attachments = message.attachments
        if "attachments" in payload or uploads:
            attachments = self._attachments(payload, uploads, message.attachments)
        if len(attachments) > ATTACHMENTS_MAX:
            raise form_error(
                "attachments", f"Must be {ATTACHMENTS_MAX} or fewer in length.", "BASE_TYPE_MAX_LENGTH"
            )
        if not (content or embeds or components or attachments):
            raise DiscordError(400, CANNOT_SEND_EMPTY, detail=f"the edit leaves message {message.id} empty")
        if by_request:
            self._old_message_edit(message)
        message.history.append(message.snapshot())
        message.edited_at = self.server.clock.now()
        message.content = content
        message.embeds = copy.deepcopy(embeds)
        message.components = copy.deepcopy(components)
        message.attachments = attachments
        if "flags" in payload and payload["flags"] is not None:
            # only suppress-embeds may change; ephemeral and loading are fixed by the response type
            message.flags = (message.flags & (EPHEMERAL | LOADING)) | (
                payload["flags"] & ~(EPHEMERAL | LOADING)
            )
        was_loading = message.loading
        message.flags &= ~LOADING
        message.edited = not was_loading
        self.server.recorder.touched(message)
        self._announce("MESSAGE_UPDATE", message)
        return message

    def _old_message_edit(self, message: Message) -> None:
        """Discord allows few edits of hour-old messages per channel: 30046 past them (as a 429)."""
        age = self.server.clock.now() - message.created_at
        if age <= self.server.config.old_message_age:
            return
        wait = self.server.limiter.hidden("old_message_edit", str(message.channel_id))
        if wait is not None:
            raise DiscordError(
                429,
                OLD_MESSAGE_EDITS,
                detail=f"message {message.id} is {age:.0f}s old; {self.server.config.rate_limits.old_message_edit}",
                retry_after=round(wait, 3),
            )

    def delete(self, message: Message, *, by: str = "bot") -> None:
        """Delete a message; by 'user' (dismissed ephemeral) or 'moderator' the bot's later calls get 10008."""
        message.deleted = True
        message.deleted_by = by
        self.server.recorder.touched(message)
        self._announce("MESSAGE_DELETE", message)

    def _announce(self, event: str, message: Message) -> None:
        """The gateway event Discord sends for this change: never for ephemerals, only with the intent."""
        gateway = self.server.gateway
        intent = DIRECT_MESSAGES_INTENT if message.dm_with is not None else GUILD_MESSAGES_INTENT
        if message.ephemeral or not gateway.wants(intent):
            return
        if event == "MESSAGE_DELETE":
            data = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
        else:
            data = message.payload(self.server.base_url)
        gateway.emit(event, data)

    def in_channel(self, channel: Channel, message_id: int) -> Message:
        """A message the bot may address through the channel routes (ephemeral ones are not there)."""
        message = self.server.recorder.get(message_id)
        if message is None or message.deleted or message.channel_id != channel.id or message.ephemeral:
            raise unknown_message(message, f"message {message_id} in channel {channel.id}")
        return message


def unknown_message(message: Message | None, detail: str) -> DiscordError:
    """10008; a rule broken by the bot unless a person deleted the message under it (nothing to avoid)."""
    deleted_by = message.deleted_by if message is not None else None
    by_someone_else = deleted_by not in (None, "bot")
    return DiscordError(
        404,
        UNKNOWN_MESSAGE,
        detail=f"{detail} (deleted by {deleted_by})" if by_someone_else else detail,
        expected=by_someone_else,
    )
