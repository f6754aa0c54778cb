"""DevServer: wires world, recorder, interactions, REST and gateway together on 127.0.0.1, port 0."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aiohttp import web

from .app import Api
from .clock import Clock
from .commands import CommandRegistry
from .config import Config
from .faults import ErrorFault, RateLimitFault
from .gateway import Gateway
from .interactions import Interaction, InteractionBook
from .latency import Delays, InvalidRequests
from .messages import Messages
from .oauth import OAuth
from .permissions import bits
from .ratelimits import RateLimiter
from .recorder import Message, Recorder, Violation
from .snowflake import Snowflakes
from .state import ALL_PERMISSIONS, Channel, World
from .users import SimUser


class DevServer:
    """A local Discord for one test: start() it, point discord.py at it, drive it through SimUsers."""

    def __init__(
        self,
        config: Config | None = None,
        *,
        channels: tuple[str, ...] = ("general",),
        members: tuple[str, ...] = (),
    ) -> None:
        self.config = config or Config()
        self.clock = Clock()
        self.ids = Snowflakes(
            skipped=lambda: self.clock.skipped, real_time=self.config.real_time_ids, offset=self.config.clock_offset
        )
        self.delays = Delays(self.config.latency)
        self.invalid_requests = InvalidRequests()
        self.limiter = RateLimiter(self.config.rate_limits, self.clock)
        self.world = World(self.ids)
        self.recorder = Recorder()
        self.commands = CommandRegistry(self.ids.next, self.world.application_id)
        self.interactions = InteractionBook(self)
        self.messages = Messages(self)
        self.oauth = OAuth(self)  # the Activity: launches, OAuth2 codes and tokens (oauth.py)
        self.gateway = Gateway(self)
        self.faults: list[RateLimitFault | ErrorFault] = []
        self.bot_removed = False
        self.channel_permissions: dict[int, int] = {}  # channel id -> the bot's permissions there (default: all)
        self.refused_dms: set[int] = set()
        self._users: dict[int, SimUser] = {}
        self._pending_events: list[tuple[str, dict[str, Any]]] = []
        self._runner: web.AppRunner | None = None
        self.port = 0
        for name in channels:
            self.world.add_channel(name)
        for name in members:
            self.member(name)

    # lifecycle -------------------------------------------------------------
    async def start(self) -> DevServer:
        self._runner = web.AppRunner(Api(self).build(), handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        await self.oauth.open_proxy()  # Discord's proxy in front of the app's Activity
        return self

    async def close(self) -> None:
        self.interactions.close()
        await self.gateway.close()
        await self.oauth.close_proxy()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> DevServer:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_url(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def timeout(self, value: float | None) -> float:
        return self.config.wait_timeout if value is None else value

    # the simulated world ---------------------------------------------------
    def member(self, name: str) -> SimUser:
        """The member called name, joining the guild (GUILD_MEMBER_ADD) if new."""
        record = self.world.member_by_name(name)
        if record is None:
            record = self.world.add_member(name)
            if self.gateway.identified.is_set() and self.gateway.members_intent:
                payload = self.world.member_payload(record.id) | {"guild_id": str(self.world.guild_id)}
                self._pending_events.append(("GUILD_MEMBER_ADD", payload))
        if record.id not in self._users:
            self._users[record.id] = SimUser(self, record)
        return self._users[record.id]

    def members(self, *names: str) -> list[SimUser]:
        return [self.member(n) for n in names]

    def channel(self, name: str = "general") -> Channel:
        """The guild text channel called name, created (CHANNEL_CREATE) if new."""
        channel = self.world.channel_by_name(name)
        if channel is None:
            channel = self.world.add_channel(name)
            if self.gateway.identified.is_set():
                self._pending_events.append(("CHANNEL_CREATE", channel.payload(self.world)))
        return channel

    def thread(
        self,
        name: str,
        parent: Channel | str = "general",
        *,
        private: bool = False,
        members: tuple[SimUser, ...] = (),
        bot_joined: bool = False,
    ) -> Channel:
        """A thread of ``parent``, which ``members`` (and the bot, if ``bot_joined``) joined. Make it before the
        bot connects: GUILD_CREATE lists the threads the bot can see (public ones, private ones it is in)."""
        channel = self.channel(parent) if isinstance(parent, str) else parent
        joined = tuple(m.id for m in members) + ((self.world.bot.id,) if bot_joined else ())
        return self.world.add_thread(name, channel, private=private, members=joined)

    async def set_thread(self, thread: Channel, *, archived: bool | None = None, locked: bool | None = None) -> None:
        """A moderator archives, locks (or reopens) a thread: THREAD_UPDATE goes out to a connected bot."""
        if archived is not None:
            thread.archived = archived
        if locked is not None:
            thread.locked = locked
        if self.gateway.connected:
            await self.dispatch("THREAD_UPDATE", thread.payload(self.world))

    def refuse_dms(self, *users: SimUser | str) -> None:
        """These users have DMs closed: the bot's DM sends fail with 403 / 50007."""
        for user in users:
            self.refused_dms.add((self.member(user) if isinstance(user, str) else user).id)

    def inject_429(
        self, method: str, route: str, *, times: int = 1, retry_after: float = 0.05
    ) -> RateLimitFault:
        """The next `times` requests to METHOD route (a template like /channels/{channel_id}/messages) get 429."""
        fault = RateLimitFault(method, route, times, retry_after)
        self.faults.append(fault)
        return fault

    def set_bot_permissions(self, channel: Channel | str, *, deny: tuple[str, ...] = (), allow: tuple[str, ...] = ()) -> None:
        """Change what the bot may do in one channel (names as in devserver.permissions.BY_NAME), as a
        channel override or a role change would; interactions report it as app_permissions."""
        target = self.channel(channel) if isinstance(channel, str) else channel
        value = self.bot_permissions(target) & ~bits(deny) | bits(allow)
        self.channel_permissions[target.id] = value

    def bot_permissions(self, channel: Channel) -> int:
        if self.bot_removed:
            return 0  # every channel route answers 403 50001 Missing Access
        if channel.parent_id is not None and channel.id not in self.channel_permissions:  # a thread: its channel's
            return self.channel_permissions.get(channel.parent_id, int(ALL_PERMISSIONS))
        return self.channel_permissions.get(channel.id, int(ALL_PERMISSIONS))

    def threads_of(self, channel: Channel | str) -> list[Channel]:
        """The threads started off a channel, oldest first (devserver/threads.py)."""
        parent = self.channel(channel) if isinstance(channel, str) else channel
        return [c for c in self.world.channels.values() if c.parent_id == parent.id]

    async def delete_channel(self, channel: Channel | str) -> None:
        """A moderator deletes a channel: CHANNEL_DELETE goes out, later requests there get 404 10003."""
        target = self.channel(channel) if isinstance(channel, str) else channel
        payload = target.payload(self.world)
        for thread in self.threads_of(target):  # its threads go with it
            del self.world.channels[thread.id]
            self.world.deleted_channels.add(thread.id)
        del self.world.channels[target.id]
        self.world.deleted_channels.add(target.id)
        await self.dispatch("CHANNEL_DELETE", payload)

    async def member_leaves(self, user: SimUser | str) -> None:
        """A member leaves the server. Without the members intent the bot hears nothing (no
        GUILD_MEMBER_REMOVE); it finds out when a DM to them fails with 50007, as they now share no
        server with the bot."""
        target = self.member(user) if isinstance(user, str) else user
        self.world.members.remove(target.id)
        self.refused_dms.add(target.id)
        if self.gateway.members_intent:
            await self.dispatch(
                "GUILD_MEMBER_REMOVE", {"guild_id": str(self.world.guild_id), "user": target.record.payload()}
            )

    async def remove_bot_from_guild(self, *, announce: bool = True) -> None:
        """The bot is kicked: GUILD_DELETE goes out (to a bot that is connected, unless ``announce`` is
        False: an event another process of the bot received, say), channel routes and GET /guilds/{id}
        answer 403 50001, DMs to the members (who share no other server with the bot) 403 50007, and a
        later READY lists the guild no more (a kick while the bot was offline)."""
        self.bot_removed = True
        self.refused_dms.update(user.id for user in self.world.users.values() if not user.bot)
        if announce and self.gateway.connected:
            await self.dispatch("GUILD_DELETE", {"id": str(self.world.guild_id)})

    def inject_error(
        self, method: str, route: str, *, status: int = 503, code: int = 0, times: int = 1
    ) -> ErrorFault:
        """The next `times` requests to METHOD route fail with `status`/`code` (status 0: the connection drops)."""
        fault = ErrorFault(method, route, status, code, times)
        self.faults.append(fault)
        return fault

    def add_emoji(self, name: str) -> str:
        """A custom emoji of the guild (sent in GUILD_CREATE, so connect the bot after); its `<:name:id>`."""
        return f"<:{name}:{self.world.add_emoji(name)}>"

    def delete_message(self, message: Message) -> None:
        """A moderator deletes a message (MESSAGE_DELETE goes out); the bot's later edits get 10008."""
        self.messages.delete(message, by="moderator")

    def request_count(self, bucket: str, where: Channel | str | SimUser | Interaction | None = None) -> int:
        """Requests the bot made in a rate-limit bucket, e.g. ("message_edit", "general") for edits there.

        bucket: a Config.rate_limits window name (message_create, message_edit, message_delete, webhook) or
        "METHOD /route/{template}" for any other route. where: a channel (or its name), a SimUser for their DM
        channel, an Interaction for its webhook token, or None for the sum over all of them.
        """
        major: str | None
        if where is None:
            major = None
        elif isinstance(where, Interaction):
            major = where.token
        elif isinstance(where, SimUser):
            major = str(where.dm_channel.id)
        else:
            major = str((self.channel(where) if isinstance(where, str) else where).id)
        return self.limiter.count(bucket, major)

    async def flush(self) -> None:
        """Send member/channel events queued by member() and channel() since the bot connected."""
        while self._pending_events:
            await self.gateway.dispatch(*self._pending_events.pop(0))

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a gateway event, after any member/channel events still waiting to go out."""
        await self.flush()
        await self.gateway.dispatch(event, data)

    async def wait_until_connected(self, timeout: float | None = None) -> None:
        await self.recorder.wait_until(
            self.gateway.identified.is_set,
            self.timeout(timeout),
            lambda: "the bot to IDENTIFY on the gateway",
        )

    async def wait_until_disconnected(self, timeout: float | None = None) -> None:
        """Until no bot is on the gateway (clicks from now on fail with "This interaction failed")."""
        await self.recorder.wait_until(
            lambda: not self.gateway.connected,
            self.timeout(timeout),
            lambda: "the bot to leave the gateway",
        )

    # what happened -----------------------------------------------------------
    def mark(self) -> int:
        return self.recorder.mark()

    def seen_by(self, user: SimUser) -> list[Message]:
        return self.recorder.seen_by(user.id)

    def channel_messages(self, channel: Channel | str = "general") -> list[Message]:
        """Messages everyone in the channel sees (ephemeral ones excluded)."""
        target = self.channel(channel) if isinstance(channel, str) else channel
        return [m for m in self.recorder.in_channel(target.id) if m.ephemeral_to is None and not m.loading]

    async def wait_for_message(
        self,
        *,
        channel: Channel | str | None = None,
        user: SimUser | None = None,
        predicate: Callable[[Message], bool] | None = None,
        since: int = 0,
        timeout: float | None = None,
    ) -> Message:
        """The earliest message matching everything given (visible to user, in channel, changed after since)."""
        target = self.channel(channel) if isinstance(channel, str) else channel
        channel_id = target.id if target is not None else None

        def check() -> Message | None:
            return self.recorder.find(
                channel_id=channel_id, user_id=user.id if user else None, predicate=predicate, since=since
            )

        def describe() -> str:
            seen = (
                self.recorder.in_channel(channel_id) if channel_id else list(self.recorder.messages.values())
            )
            return f"a message (channel={channel_id}, user={user}, since={since}); messages so far: {seen}"

        return await self.recorder.wait_until(check, self.timeout(timeout), describe)

    @property
    def violations(self) -> list[Violation]:
        return list(self.recorder.violations)

    def take_violations(self, rule: str | None = None, *, code: int | None = None) -> list[Violation]:
        """Remove and return the violations a test expected, so the teardown check ignores them."""
        taken = [
            v
            for v in self.recorder.violations
            if (rule is None or v.rule == rule) and (code is None or v.code == code)
        ]
        self.recorder.violations = [v for v in self.recorder.violations if v not in taken]
        return taken

    async def wait_for_violation(self, rule: str, timeout: float | None = None) -> Violation:
        return await self.recorder.wait_until(
            lambda: next((v for v in self.recorder.violations if v.rule == rule), None),
            self.timeout(timeout),
            lambda: f"a {rule!r} violation; violations so far: {self.recorder.violations}",
        )

    def late_answers(self) -> list[Interaction]:
        """Interactions delivered in time that the bot did not answer within the deadline (Discord showed
        "This interaction failed"); ones delivered too late to answer are not the bot's doing."""
        return [i for i in self.interactions.by_id.values() if i.answered_late]

    async def reconnect_gateway(self, hold: float) -> None:
        """Discord asks the bot to reconnect (op 7) and takes `hold` seconds to accept its RESUME;
        interactions started meanwhile are replayed after the RESUME, already that much older."""
        await self.gateway.request_reconnect(hold)

    async def drop_gateway(self, shard: int = 0) -> None:
        """The shard's gateway session drops and stays down until ``restore_gateway`` (Gateway.drop)."""
        await self.gateway.drop(shard)

    def restore_gateway(self, shard: int = 0, *, resume: bool = True) -> None:
        """The dropped shard reconnects: RESUMED, or (``resume`` False) a fresh READY (Gateway.restore)."""
        self.gateway.restore(shard, resume=resume)

    def interaction(self, interaction_id: int) -> Interaction:
        return self.interactions.by_id[interaction_id]
