"""Creating, editing and deleting messages: the checks Discord makes and the bookkeeping the recorder needs."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .errors import CANNOT_DM_USER, UNKNOWN_MESSAGE, DiscordError, form_error
from .gateway import DIRECT_MESSAGES_INTENT, GUILD_MESSAGES_INTENT
from .limits import check_message
from .recorder import EPHEMERAL, LOADING, Attachment, Message
from .state import DM_CHANNEL, Channel

if TYPE_CHECKING:
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
            elif name.startswith("files[") and name.endswith("]"):
                data = await part.read(decode=False)  # type: ignore[union-attr]
                uploads.append(Upload(int(name[6:-1]), getattr(part, "filename", None) or name, bytes(data)))
            else:
                raise form_error(name or "_root", "Unexpected multipart field")
        return payload, sorted(uploads, key=lambda u: u.index)
    if request.body_exists:
        body = await request.json()
        return (body if isinstance(body, dict) else {"_list": body}), []
    return {}, []


def _content_type(filename: str, data: bytes) -> str | None:
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data[:3] == b"\xff\xd8\xff":
        return "image/jpeg"
    if filename.endswith(".txt"):
        return "text/plain; charset=utf-8"
    return None


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
                    _content_type(filename, up.data),
                    info.get("description"),
                )
            )
        return out

    def check(self, payload: dict[str, Any], uploads: list[Upload], *, partial: bool = False) -> None:
        files = [(u.filename, u.data) for u in uploads]
        check_message(payload, files, self.server.config.attachment_size_limit, partial=partial)

    def create(
        self,
        channel: Channel,
        payload: dict[str, Any],
        uploads: list[Upload],
        *,
        interaction_id: int | None = None,
        ephemeral_to: int | None = None,
        extra_flags: int = 0,
        validate: bool = True,
    ) -> Message:
        """A new message by the bot in a channel; DMs to users who refuse them fail with 50007."""
        world = self.server.world
        if validate:
            self.check(payload, uploads)
        if channel.type == DM_CHANNEL and channel.recipient_id in self.server.refused_dms:
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
            interaction_id=interaction_id,
            webhook_id=world.application_id if interaction_id is not None else None,
        )
        self.server.recorder.add(message)
        self._announce("MESSAGE_CREATE", message)
        return message

    def edit(self, message: Message, payload: dict[str, Any], uploads: list[Upload]) -> Message:
        """Apply a PATCH: only the fields sent change; the earlier version goes to history."""
        self.check(payload, uploads, partial=True)
        message.history.append(message.snapshot())
        if "content" in payload:
            message.content = payload["content"] or ""
        if "embeds" in payload:
            message.embeds = copy.deepcopy(payload["embeds"] or [])
        if "components" in payload:
            message.components = copy.deepcopy(payload["components"] or [])
        if "attachments" in payload or uploads:
            message.attachments = self._attachments(payload, uploads, message.attachments)
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

    def delete(self, message: Message) -> None:
        message.deleted = True
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
            raise DiscordError(404, UNKNOWN_MESSAGE, detail=f"message {message_id} in channel {channel.id}")
        return message
