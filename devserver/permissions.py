"""The bot's permissions per channel, as Discord enforces them on the channel routes.

Interaction answers need none of them (that is why a bot can answer a slash command in a channel where
it cannot post); posts and edits through the bot token do: no View Channel is 403 50001, no Send
Messages (or Attach Files for a file) is 403 50013, and embeds without Embed Links are dropped (a message
left with nothing to show is refused with 50013). ``app_permissions`` of an interaction says the same.

In a thread (which has its channel's permissions) posting needs Send Messages in Threads, not Send
Messages; a private thread the bot has not joined is 403 50001 without Manage Threads; a locked thread is
403 160005 without Manage Threads; an archived one is unarchived by a post and refuses an edit with 400
50083.
"""

from __future__ import annotations

from typing import Any

from .errors import DiscordError
from .state import DM_CHANNEL, PRIVATE_THREAD, Channel

VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
CREATE_PRIVATE_THREADS = 1 << 36
MANAGE_THREADS = 1 << 34
SEND_MESSAGES_IN_THREADS = 1 << 38
BY_NAME = {
    "view_channel": VIEW_CHANNEL,
    "send_messages": SEND_MESSAGES,
    "embed_links": EMBED_LINKS,
    "attach_files": ATTACH_FILES,
    "read_message_history": READ_MESSAGE_HISTORY,
    "create_private_threads": CREATE_PRIVATE_THREADS,
    "manage_threads": MANAGE_THREADS,
    "send_messages_in_threads": SEND_MESSAGES_IN_THREADS,
}
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
THREAD_ARCHIVED = 50083
THREAD_LOCKED = 160005


def bits(names: tuple[str, ...] | list[str]) -> int:
    return sum(BY_NAME[name] for name in names)


def check_write(
    permissions: int, channel: Channel, body: dict[str, Any], uploads: list[Any], *, creating: bool, bot_id: int = 0
) -> None:
    """Raise as Discord would for a post (``creating``) or an edit in ``channel``; drop embeds it may not show."""
    if channel.type == DM_CHANNEL:
        return
    if not permissions & VIEW_CHANNEL:
        raise DiscordError(403, MISSING_ACCESS, detail=f"the bot cannot see #{channel.name}", expected=True)
    if channel.is_thread:
        _check_thread(permissions, channel, creating=creating, bot_id=bot_id)
    elif creating and not permissions & SEND_MESSAGES:
        raise DiscordError(403, MISSING_PERMISSIONS, detail=f"no Send Messages in #{channel.name}", expected=True)
    if uploads and not permissions & ATTACH_FILES:
        raise DiscordError(403, MISSING_PERMISSIONS, detail=f"no Attach Files in #{channel.name}", expected=True)
    if body.get("embeds") and not permissions & EMBED_LINKS:
        body["embeds"] = []
        if creating and not (body.get("content") or body.get("components") or uploads):
            raise DiscordError(403, MISSING_PERMISSIONS, detail=f"no Embed Links in #{channel.name}", expected=True)


def _check_thread(permissions: int, thread: Channel, *, creating: bool, bot_id: int) -> None:
    moderator = bool(permissions & MANAGE_THREADS)
    if thread.type == PRIVATE_THREAD and bot_id not in thread.members and not moderator:
        raise DiscordError(403, MISSING_ACCESS, detail=f"the bot is not in private thread {thread.name}", expected=True)
    if thread.locked and not moderator:
        raise DiscordError(403, THREAD_LOCKED, detail=f"thread {thread.name} is locked", expected=True)
    if creating and not permissions & SEND_MESSAGES_IN_THREADS:
        raise DiscordError(
            403, MISSING_PERMISSIONS, detail=f"no Send Messages in Threads in {thread.name}", expected=True
        )
    if thread.archived and not creating:
        raise DiscordError(400, THREAD_ARCHIVED, detail=f"thread {thread.name} is archived", expected=True)
    if thread.archived:  # a post reopens an archived (unlocked) thread
        thread.archived = False
