"""The bot's permissions per channel, as Discord enforces them on the channel routes.

Interaction answers need none of them (that is why a bot can answer a slash command in a channel where
it cannot post); posts and edits through the bot token do: no View Channel is 403 50001, no Send
Messages (or Attach Files for a file) is 403 50013, and embeds without Embed Links are dropped (a message
left with nothing to show is refused with 50013). ``app_permissions`` of an interaction says the same.
"""

from __future__ import annotations

from typing import Any

from .errors import DiscordError
from .state import DM_CHANNEL, Channel

VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
BY_NAME = {
    "view_channel": VIEW_CHANNEL,
    "send_messages": SEND_MESSAGES,
    "embed_links": EMBED_LINKS,
    "attach_files": ATTACH_FILES,
    "read_message_history": READ_MESSAGE_HISTORY,
    "create_private_threads": CREATE_PRIVATE_THREADS,
    "send_messages_in_threads": SEND_MESSAGES_IN_THREADS,
}
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013


def bits(names: tuple[str, ...] | list[str]) -> int:
    return sum(BY_NAME[name] for name in names)


def check_write(
    permissions: int, channel: Channel, body: dict[str, Any], uploads: list[Any], *, creating: bool
) -> None:
    """Raise as Discord would for a post (``creating``) or an edit in ``channel``; drop embeds it may not show."""
    if channel.type == DM_CHANNEL:
        return
    if not permissions & VIEW_CHANNEL:
        raise DiscordError(403, MISSING_ACCESS, detail=f"the bot cannot see #{channel.name}", expected=True)
    if creating and not permissions & SEND_MESSAGES:
        raise DiscordError(403, MISSING_PERMISSIONS, detail=f"no Send Messages in #{channel.name}", expected=True)
    if uploads and not permissions & ATTACH_FILES:
        raise DiscordError(403, MISSING_PERMISSIONS, detail=f"no Attach Files in #{channel.name}", expected=True)
    if body.get("embeds") and not permissions & EMBED_LINKS:
        body["embeds"] = []
        if creating and not (body.get("content") or body.get("components") or uploads):
            raise DiscordError(403, MISSING_PERMISSIONS, detail=f"no Embed Links in #{channel.name}", expected=True)
