"""The simulated world: bot and application identity, one guild, its channels, members and DM channels."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import UNKNOWN_CHANNEL, UNKNOWN_MEMBER, UNKNOWN_USER, DiscordError
from .snowflake import Snowflakes

TEXT_CHANNEL = 0
DM_CHANNEL = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREADS = (PUBLIC_THREAD, PRIVATE_THREAD)
# Everything but administrator: enough for a bot or a member to do what the tests need.
# An everyday member: view channels, send messages, embed links, attach files, read history, use
# application commands; no Manage Server (1 << 5).
MEMBER_PERMISSIONS = str((1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31))
ALL_PERMISSIONS = str((1 << 50) - 1 - 8)
# What a bot may do in a DM (app_permissions there): add reactions, view, send, embed links, attach files,
# read history, mention everyone, external emojis, application commands, external stickers, voice messages,
# polls, external apps, pin messages. No managing messages and no threads, as in discord.py's DM model.
DM_APP_PERMISSIONS = str(sum(1 << bit for bit in (6, 10, 11, 14, 15, 16, 17, 18, 31, 37, 46, 49, 50, 51)))


@dataclass
class UserRecord:
    """A Discord account (a person or the bot)."""

    id: int
    name: str
    bot: bool = False
    permissions: str | None = None  # in guild channels; None: everything but administrator
    locale: str = "en-US"  # the language their Discord client is set to
    roles: list[int] = field(default_factory=list)  # the guild roles they hold (besides @everyone)

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass
class Channel:
    """A guild text channel, a DM channel with one recipient, or a thread off a text channel (its
    ``parent_id``; a private thread is seen by its ``members`` only, devserver/threads.py)."""

    id: int
    name: str
    type: int = TEXT_CHANNEL
    guild_id: int | None = None
    recipient_id: int | None = None
    position: int = 0
    # a thread: its channel, who created it, who joined it (a private thread is seen and written in by its
    # members only, or with Manage Threads), whether a moderator archived or locked it
    parent_id: int | None = None
    owner_id: int | None = None
    members: set[int] = field(default_factory=set)
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    invitable: bool = True

    @property
    def is_thread(self) -> bool:
        return self.type in THREADS

    def payload(self, world: World) -> dict[str, Any]:
        if self.is_thread:
            return {
                "id": str(self.id),
                "type": self.type,
                "guild_id": str(self.guild_id),
                "parent_id": str(self.parent_id),
                "owner_id": str(self.owner_id if self.owner_id is not None else world.owner.id),
                "name": self.name,
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "message_count": 0,
                "member_count": min(len(self.members), 50),
                "total_message_sent": 0,
                "flags": 0,
                "thread_metadata": {
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": "2025-01-01T00:00:00+00:00",
                    "locked": self.locked,
                    "invitable": self.invitable,
                    "create_timestamp": "2025-01-01T00:00:00+00:00",
                },
            }
        if self.type == DM_CHANNEL:
            assert self.recipient_id is not None
            return {
                "id": str(self.id),
                "type": DM_CHANNEL,
                "last_message_id": None,
                "recipients": [world.user(self.recipient_id).payload()],
            }
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "parent_id": None,
        }


@dataclass
class World:
    """Who and where: the guild, its text channels, every user, and DM channels opened so far."""

    ids: Snowflakes
    guild_name: str = "Mahjong Club"
    bot_name: str = "mahjong-bot"
    locale: str = "en-US"  # the server's language (a Community server's primary language, guild_locale)
    guild_id: int = 0
    bot: UserRecord = field(init=False)
    application_id: int = field(init=False)
    owner: UserRecord = field(init=False)
    users: dict[int, UserRecord] = field(default_factory=dict)
    members: list[int] = field(default_factory=list)
    channels: dict[int, Channel] = field(default_factory=dict)
    deleted_channels: set[int] = field(default_factory=set)
    dm_by_user: dict[int, int] = field(default_factory=dict)
    emojis: dict[int, str] = field(default_factory=dict)  # the guild's custom emojis: id -> name
    roles: dict[int, str] = field(default_factory=dict)  # the guild's roles besides @everyone: id -> name

    def __post_init__(self) -> None:
        self.guild_id = self.ids.next()
        self.application_id = self.ids.next()
        self.bot = UserRecord(self.application_id, self.bot_name, bot=True)
        self.users[self.bot.id] = self.bot
        self.owner = self.add_member("owner")

    # people and places -------------------------------------------------
    def add_member(self, name: str) -> UserRecord:
        user = UserRecord(self.ids.next(), name)
        self.users[user.id] = user
        self.members.append(user.id)
        return user

    def add_role(self, name: str, *holders: UserRecord) -> int:
        """A guild role (no permissions of its own) held by ``holders``; its id. Made before the bot
        connects, GUILD_CREATE lists it, as Discord does for roles that exist."""
        role_id = self.ids.next()
        self.roles[role_id] = name
        for user in holders:
            user.roles.append(role_id)
        return role_id

    def role_payload(self, role_id: int) -> dict[str, Any]:
        everyone = role_id == self.guild_id
        return {
            "id": str(role_id), "name": "@everyone" if everyone else self.roles[role_id],
            "permissions": str(ALL_PERMISSIONS) if everyone else "0", "position": 0 if everyone else 1,
            "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0,
        }  # fmt: skip

    def add_channel(self, name: str) -> Channel:
        channel = Channel(self.ids.next(), name, guild_id=self.guild_id, position=len(self.channels))
        self.channels[channel.id] = channel
        return channel

    def add_thread(self, name: str, parent: Channel, *, private: bool = False, members: tuple[int, ...] = ()) -> Channel:
        """A thread of ``parent``, started by the owner; ``members`` joined it (the bot too, if named)."""
        thread = Channel(
            self.ids.next(),
            name,
            type=PRIVATE_THREAD if private else PUBLIC_THREAD,
            guild_id=self.guild_id,
            parent_id=parent.id,
            members={self.owner.id, *members},
        )
        self.channels[thread.id] = thread
        return thread

    def add_emoji(self, name: str) -> int:
        emoji_id = self.ids.next()
        self.emojis[emoji_id] = name
        return emoji_id

    def member(self, user_id: int) -> UserRecord:
        """A member of the guild (the bot included); 10007 Unknown Member for anyone else."""
        if user_id != self.bot.id and user_id not in self.members:
            raise DiscordError(404, UNKNOWN_MEMBER, detail=f"member {user_id}")
        return self.users[user_id]

    def member_by_name(self, name: str) -> UserRecord | None:
        return next((self.users[i] for i in self.members if self.users[i].name == name), None)

    def channel_by_name(self, name: str) -> Channel | None:
        return next((c for c in self.channels.values() if c.type == TEXT_CHANNEL and c.name == name), None)

    def user(self, user_id: int) -> UserRecord:
        try:
            return self.users[user_id]
        except KeyError:
            raise DiscordError(404, UNKNOWN_USER, detail=str(user_id)) from None

    def channel(self, channel_id: int) -> Channel:
        try:
            return self.channels[channel_id]
        except KeyError:
            if channel_id - 1 in self.users and not self.users[channel_id - 1].bot:
                return self.dm_channel(channel_id - 1)  # a DM channel exists on Discord once ever opened
            # a channel deleted under the bot is Discord's doing, not the bot's mistake
            gone = channel_id in self.deleted_channels
            raise DiscordError(404, UNKNOWN_CHANNEL, detail=str(channel_id), expected=gone) from None

    def dm_channel(self, user_id: int) -> Channel:
        """The bot's DM channel with a user, opened on first use as Discord does. Its id is the same
        for that user in every run of the stand-in (user id + 1: generated ids have zero low bits), as a
        DM channel's id stays the same on Discord: a bot that stored it (the sandbox's --db) reuses it."""
        self.user(user_id)
        if user_id not in self.dm_by_user:
            channel = Channel(user_id + 1, f"dm-{user_id}", type=DM_CHANNEL, recipient_id=user_id)
            self.channels[channel.id] = channel
            self.dm_by_user[user_id] = channel.id
        return self.channels[self.dm_by_user[user_id]]

    # payloads ----------------------------------------------------------
    def member_payload(self, user_id: int, *, with_user: bool = True) -> dict[str, Any]:
        user = self.users.get(user_id)
        out: dict[str, Any] = {
            "roles": [str(r) for r in user.roles] if user is not None else [],
            "joined_at": "2025-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "communication_disabled_until": None,
            "premium_since": None,
        }
        if with_user:
            out["user"] = self.user(user_id).payload()
        return out

    def guild_payload(self, *, with_members: bool = True) -> dict[str, Any]:
        """GUILD_CREATE: roles, channels and members (all of them only with the members intent), with flags."""
        member_ids = [self.bot.id, *self.members]
        listed = member_ids if with_members else [self.bot.id]
        return {
            "id": str(self.guild_id),
            "name": self.guild_name,
            "icon": None,
            "owner_id": str(self.owner.id),
            "unavailable": False,
            "large": False,
            "member_count": len(member_ids),
            "roles": [self.role_payload(r) for r in (self.guild_id, *self.roles)],
            "channels": [c.payload(self) for c in self.channels.values() if c.type == TEXT_CHANNEL],
            "members": [self.member_payload(i) for i in listed],
            # the active threads the bot can see: public ones, and private ones it joined
            "threads": [
                c.payload(self) for c in self.channels.values()
                if c.type == PUBLIC_THREAD or (c.type == PRIVATE_THREAD and self.bot.id in c.members)
            ],
            "emojis": [
                {
                    "id": str(i),
                    "name": n,
                    "roles": [],
                    "require_colons": True,
                    "managed": False,
                    "animated": False,
                    "available": True,
                }
                for i, n in self.emojis.items()
            ],
            "stickers": [],
            "features": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "preferred_locale": self.locale,
            "system_channel_id": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "joined_at": "2025-01-01T00:00:00+00:00",
        }

    def application_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": self.bot_name,
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.payload(),
            "verify_key": "0" * 64,
            "flags": 0,
            "team": None,
            "summary": "",
            "rpc_origins": [],
        }
