"""Threads, as Discord does them: a bot starts a thread off a text channel (``POST /channels/{id}/threads``,
no starter message), adds and removes members (``PUT`` / ``DELETE /channels/{thread}/thread-members/{user}``)
and posts in it like any channel.

The rules Discord applies and the stand-in enforces:

- a thread is started off a guild text channel only (a DM or another thread: 400 50024); a private thread
  (type 12) needs Create Private Threads, a public one (type 11) Create Public Threads, in the parent (403 50013);
- the thread's name is 1-100 characters; ``auto_archive_duration`` is 60, 1440, 4320 or 10080 minutes;
- posting in a thread needs Send Messages in Threads (not Send Messages) in the parent, and in a private
  thread the bot must be a member (403 50001); a post in an archived thread unarchives it;
- a member is added only to a thread that is not archived (400 50083), and only a member of the server
  (404 10007); the creator of a private thread may remove its members;
- ``PATCH /channels/{thread}`` archives or reopens it: its creator or Manage Threads archives it, only
  Manage Threads locks it or reopens a locked one (403 50013); Discord sends THREAD_UPDATE;
- a private thread's messages are seen by its members only (``Message.audience``); deleting the parent
  channel deletes its threads.

Discord sends THREAD_CREATE to the thread's creator (the guilds intent), which the stand-in does too.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .errors import THREAD_ARCHIVED, UNKNOWN_MEMBER, WRONG_CHANNEL_TYPE, DiscordError, form_error
from .messages import read_body
from .replies import json_response, no_content, snowflake
from .state import PRIVATE_THREAD, PUBLIC_THREAD, TEXT_CHANNEL, Channel

if TYPE_CHECKING:
    from .server import DevServer

VIEW_CHANNEL = 1 << 10
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)


def check_thread_write(permissions: int, thread: Channel, bot_id: int) -> None:
    """Raise as Discord does for a post in ``thread`` (permissions: the bot's in the parent channel)."""
    if not permissions & VIEW_CHANNEL or (
        thread.type == PRIVATE_THREAD and bot_id not in thread.members and not permissions & MANAGE_THREADS
    ):
        raise DiscordError(403, 50001, detail=f"the bot cannot see thread {thread.name}", expected=True)
    if not permissions & SEND_MESSAGES_IN_THREADS:
        raise DiscordError(403, 50013, detail=f"no Send Messages in Threads in {thread.name}", expected=True)


class ThreadRoutes:
    def __init__(self, server: DevServer) -> None:
        self.server = server

    def register(self, router: web.UrlDispatcher, api: str) -> None:
        router.add_post(f"{api}/channels/{{channel_id}}/threads", self.start_thread)
        member = f"{api}/channels/{{channel_id}}/thread-members/{{user_id}}"
        router.add_put(member, self.add_member)
        router.add_delete(member, self.remove_member)
        router.add_get(f"{api}/channels/{{channel_id}}/thread-members", self.list_members)
        router.add_patch(f"{api}/channels/{{channel_id}}", self.modify_thread)

    def _thread(self, request: web.Request) -> Channel:
        channel = self.server.world.channel(snowflake(request, "channel_id"))
        if not channel.is_thread:
            raise DiscordError(400, WRONG_CHANNEL_TYPE, detail=f"#{channel.name} is not a thread")
        return channel

    async def start_thread(self, request: web.Request) -> web.Response:
        world = self.server.world
        parent = world.channel(snowflake(request, "channel_id"))
        body, _ = await read_body(request)
        if parent.type != TEXT_CHANNEL:
            raise DiscordError(400, WRONG_CHANNEL_TYPE, detail=f"no thread can start off channel {parent.id}")
        kind = body.get("type", PRIVATE_THREAD)
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
            raise form_error("type", "Value must be one of {11, 12}.", "BASE_TYPE_CHOICES")
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise form_error("name", "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH")
        duration = body.get("auto_archive_duration", 4320)
        if duration not in ARCHIVE_DURATIONS:
            raise form_error("auto_archive_duration", "Value must be one of (60, 1440, 4320, 10080).", "BASE_TYPE_CHOICES")
        permissions = self.server.bot_permissions(parent)
        if not permissions & VIEW_CHANNEL:
            raise DiscordError(403, 50001, detail=f"the bot cannot see #{parent.name}", expected=True)
        needed = CREATE_PRIVATE_THREADS if kind == PRIVATE_THREAD else CREATE_PUBLIC_THREADS
        if not permissions & needed:
            what = "Create Private Threads" if kind == PRIVATE_THREAD else "Create Public Threads"
            raise DiscordError(403, 50013, detail=f"no {what} in #{parent.name}", expected=True)
        thread = Channel(
            self.server.ids.next(),
            name,
            type=kind,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=world.bot.id,
            members={world.bot.id},
            auto_archive_duration=duration,
            invitable=bool(body.get("invitable", True)) if kind == PRIVATE_THREAD else True,
        )
        world.channels[thread.id] = thread
        payload = thread.payload(world)
        with contextlib.suppress(RuntimeError):  # no bot on the gateway (a REST call alone): nobody to tell
            await self.server.dispatch("THREAD_CREATE", payload | {"newly_created": True})
        return json_response(payload, 201)

    async def modify_thread(self, request: web.Request) -> web.Response:
        """Modify Channel, for a thread's ``archived`` and ``locked`` (the stand-in models no other channel's)."""
        thread = self._thread(request)
        body, _ = await read_body(request)
        archived, locked = body.get("archived"), body.get("locked")
        manages = bool(self._parent_permissions(thread) & MANAGE_THREADS)
        owns = thread.owner_id == self.server.world.bot.id
        if locked is not None and locked != thread.locked and not manages:
            raise DiscordError(403, 50013, detail=f"only Manage Threads locks or unlocks {thread.name}", expected=True)
        if archived is not None and archived != thread.archived:
            if thread.locked and not manages:
                raise DiscordError(403, 50013, detail=f"{thread.name} is locked: only Manage Threads reopens it", expected=True)
            if archived and not (owns or manages):
                raise DiscordError(403, 50013, detail=f"only its creator or Manage Threads archives {thread.name}", expected=True)
        await self.server.set_thread(
            thread, archived=None if archived is None else bool(archived), locked=None if locked is None else bool(locked)
        )
        return json_response(thread.payload(self.server.world))

    async def add_member(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        user_id = snowflake(request, "user_id")
        if thread.archived:
            raise DiscordError(400, THREAD_ARCHIVED, detail=f"thread {thread.name} is archived")
        if user_id not in self.server.world.members and user_id != self.server.world.bot.id:
            raise DiscordError(404, UNKNOWN_MEMBER, detail=f"member {user_id}")
        check_thread_write(self._parent_permissions(thread), thread, self.server.world.bot.id)
        thread.members.add(user_id)
        return no_content()

    async def remove_member(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        user_id = snowflake(request, "user_id")
        bot = self.server.world.bot.id
        permissions = self._parent_permissions(thread)
        if thread.archived:
            raise DiscordError(400, THREAD_ARCHIVED, detail=f"thread {thread.name} is archived")
        if thread.type == PRIVATE_THREAD and thread.owner_id != bot and not permissions & MANAGE_THREADS:
            raise DiscordError(403, 50013, detail=f"only the creator or Manage Threads removes members of {thread.name}")
        if user_id not in thread.members:
            raise DiscordError(404, UNKNOWN_MEMBER, detail=f"{user_id} is not in thread {thread.name}")
        thread.members.discard(user_id)
        return no_content()

    async def list_members(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        return json_response([self._member(thread, user) for user in sorted(thread.members)])

    def _parent_permissions(self, thread: Channel) -> int:
        assert thread.parent_id is not None
        return self.server.bot_permissions(self.server.world.channel(thread.parent_id))

    @staticmethod
    def _member(thread: Channel, user_id: int) -> dict[str, Any]:
        return {
            "id": str(thread.id),
            "user_id": str(user_id),
            "join_timestamp": "2025-01-01T00:00:00+00:00",
            "flags": 0,
        }
