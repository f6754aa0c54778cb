"""Simulated people: they run slash commands, click, choose, fill in modals and read their DMs."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .commands import BOT_DM, CHANNEL, ROLE, USER, build_invocation
from .interactions import APPLICATION_COMMAND, COMPONENT, MODAL_SUBMIT, Interaction
from .limits import ACTION_ROW, BUTTON, LABEL, SELECT_TYPES, TEXT_INPUT
from .recorder import Message
from .state import ALL_PERMISSIONS, DM_APP_PERMISSIONS, DM_CHANNEL, Channel, UserRecord

if TYPE_CHECKING:
    from .server import DevServer


class SimUser:
    """One member of the simulated guild, acting only in ways the Discord client allows."""

    def __init__(self, server: DevServer, record: UserRecord) -> None:
        self.server = server
        self.record = record

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def name(self) -> str:
        return self.record.name

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def __repr__(self) -> str:
        return f"<SimUser {self.name} {self.id}>"

    # acting --------------------------------------------------------------
    async def slash(
        self, command: str, *, channel: Channel | str = "general", forged: bool = False, **options: Any
    ) -> Interaction:
        """Run `/command [subcommand…]` with options given as keywords, like typing it in the client
        (``forged``: like a modified client, which sends values outside an option's choices and range)."""
        name, *path = command.strip().lstrip("/").split()
        target = self.server.channel(channel) if isinstance(channel, str) else channel
        in_dm = target.type == DM_CHANNEL
        if in_dm and target.recipient_id != self.id:
            raise PermissionError(f"{self.name} cannot type in someone else's DM with the bot")
        guild_id = target.guild_id if not in_dm else None
        definition = self.server.commands.find(name, guild_id)
        if in_dm and (
            BOT_DM not in (definition.get("contexts") or [BOT_DM]) or definition.get("dm_permission") is False
        ):
            raise PermissionError(f"/{name} is guild-only: the Discord client does not offer it in DMs")
        data = build_invocation(definition, path, options, self._resolve, forged=forged)
        return await self._start(APPLICATION_COMMAND, target, data)

    async def click(self, message: Message | int, label_or_custom_id: str) -> Interaction:
        """Click a button (by label or custom_id) on a message this user can see."""
        current = self._visible(message)
        button = current.button(label_or_custom_id)
        if button.disabled:
            raise PermissionError(
                f"{self.name} cannot click disabled button {label_or_custom_id!r} on {current!r}"
            )
        if button.custom_id is None:
            raise PermissionError(
                f"{label_or_custom_id!r} is a link button: it opens {button.url}, no interaction"
            )
        data = {"custom_id": button.custom_id, "component_type": BUTTON}
        return await self._start(COMPONENT, self._channel_of(current), data, current)

    async def select(self, message: Message | int, custom_id: str | None, values: list[str]) -> Interaction:
        """Choose values in a select menu (custom_id None: the message's only select)."""
        current = self._visible(message)
        menu = current.select(custom_id)
        if menu.disabled:
            raise PermissionError(f"{self.name} cannot use disabled select {menu.custom_id!r}")
        if not menu.min_values <= len(values) <= menu.max_values:
            raise ValueError(f"select {menu.custom_id!r} takes {menu.min_values}..{menu.max_values} values")
        if menu.type == 3:
            unknown = [v for v in values if v not in menu.values]
            if unknown:
                raise ValueError(
                    f"select {menu.custom_id!r} has no options {unknown}; options: {menu.values}"
                )
        data = {"custom_id": menu.custom_id, "component_type": menu.type, "values": list(values)}
        return await self._start(COMPONENT, self._channel_of(current), data, current)

    async def submit_modal(self, opened_by: Interaction, values: dict[str, Any] | None = None) -> Interaction:
        """Fill in and submit the modal the bot opened in answer to `opened_by`; values by custom_id."""
        modal = await opened_by.modal()
        if opened_by.user_id != self.id:
            raise PermissionError(f"{self.name} never saw the modal shown to user {opened_by.user_id}")
        values = dict(values or {})
        components = [self._fill(outer, values) for outer in modal.get("components") or []]
        if values:
            raise ValueError(f"modal {modal.get('custom_id')!r} has no inputs {sorted(values)}")
        data = {"custom_id": modal["custom_id"], "components": components}
        channel = self.server.world.channel(opened_by.channel_id)
        source = self.server.recorder.get(opened_by.source_message_id or 0)
        return await self._start(MODAL_SUBMIT, channel, data, source, opened_by=opened_by)

    def dismiss(self, message: Message | Interaction) -> None:
        """Click "Dismiss message" on an ephemeral (an Interaction: its response, e.g. a 'thinking…' one).

        The bot is not told; its later edits or follow-ups on that message get 10008 Unknown Message.
        """
        if isinstance(message, Interaction):
            found = self.server.recorder.get(message.original_message_id or 0)
            if found is None:
                raise LookupError(f"{message!r} has no response message to dismiss")
            message = found
        if message.ephemeral_to != self.id or message.deleted:
            raise PermissionError(
                f"{self.name} can only dismiss their own ephemeral messages, not {message!r}"
            )
        self.server.messages.delete(message, by="user")

    # seeing ----------------------------------------------------------------
    def seen(self) -> list[Message]:
        """Everything this user saw, in order, as it stands now (edits applied)."""
        return self.server.recorder.seen_by(self.id)

    def dms(self) -> list[Message]:
        """Open their DMs with the bot: the messages there, oldest first."""
        return [m for m in self.server.recorder.private_to(self.id) if m.dm_with == self.id and not m.deleted]

    def ephemerals(self) -> list[Message]:
        return [
            m
            for m in self.server.recorder.private_to(self.id)
            if m.ephemeral_to == self.id and not m.loading and not m.deleted
        ]

    def failures(self) -> list[Interaction]:
        """This user's interactions that ended in "This interaction failed" (or "did not respond")."""
        return [i for i in self.server.interactions.by_id.values() if i.user_id == self.id and i.failed]

    @property
    def dm_channel(self) -> Channel:
        """This user's DM with the bot (to run slash commands there: slash(..., channel=user.dm_channel))."""
        return self.server.world.dm_channel(self.id)

    async def wait_for_dm(
        self,
        predicate: Callable[[Message], bool] | None = None,
        *,
        since: int = 0,
        timeout: float | None = None,
    ) -> Message:
        return await self.wait_for_message(
            lambda m: m.dm_with == self.id and (predicate is None or predicate(m)),
            since=since,
            timeout=timeout,
        )

    async def wait_for_message(
        self,
        predicate: Callable[[Message], bool] | None = None,
        *,
        since: int = 0,
        timeout: float | None = None,
    ) -> Message:
        """The earliest message this user can see (channel, ephemeral or DM) that matches."""
        return await self.server.wait_for_message(
            user=self, predicate=predicate, since=since, timeout=timeout
        )

    # plumbing ----------------------------------------------------------------
    def _visible(self, message: Message | int) -> Message:
        message_id = message if isinstance(message, int) else message.id
        current = self.server.recorder.get(message_id)
        if current is None or not current.visible_to(self.id):
            raise PermissionError(f"{self.name} cannot see message {message_id}")
        return current

    def _channel_of(self, message: Message) -> Channel:
        return self.server.world.channel(message.channel_id)

    def _resolve(self, kind: int, value: Any) -> tuple[str, dict[str, Any]]:
        world = self.server.world
        if kind == USER:
            user = value if isinstance(value, SimUser) else self.server.member(str(value))
            member = world.member_payload(user.id, with_user=False) | {"permissions": ALL_PERMISSIONS}
            return str(user.id), {
                "users": {str(user.id): user.record.payload()},
                "members": {str(user.id): member},
            }
        if kind == CHANNEL:
            channel = value if isinstance(value, Channel) else self.server.channel(str(value))
            info = channel.payload(world) | {"permissions": ALL_PERMISSIONS}
            return str(channel.id), {"channels": {str(channel.id): info}}
        if kind == ROLE:  # a role's id (World.add_role) or its name
            role_id = value if isinstance(value, int) else next(i for i, n in world.roles.items() if n == value)
            return str(role_id), {"roles": {str(role_id): world.role_payload(role_id)}}
        raise TypeError(f"option type {kind} is not simulated")

    def _fill(self, component: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
        kind = component.get("type")
        if kind == ACTION_ROW:
            return {
                "type": ACTION_ROW,
                "components": [self._fill(c, values) for c in component.get("components") or []],
            }
        if kind == LABEL:
            out = {"type": LABEL, "component": self._fill(component["component"], values)}
            if "id" in component:
                out["id"] = component["id"]
            return out
        custom_id: str = component.get("custom_id") or ""
        if kind == TEXT_INPUT:
            text = str(values.pop(custom_id, component.get("value") or ""))
            if component.get("required", True) and not text:
                raise ValueError(f"modal input {custom_id!r} is required")
            if text and not component.get("min_length", 0) <= len(text) <= component.get("max_length", 4000):
                raise ValueError(f"modal input {custom_id!r}: length out of range")
            return {"type": TEXT_INPUT, "custom_id": custom_id, "value": text}
        if kind in SELECT_TYPES:
            chosen = list(values.pop(custom_id, []))
            return {"type": kind, "custom_id": custom_id, "values": chosen}
        return {k: v for k, v in component.items() if k in ("type", "id")}

    async def _start(
        self,
        kind: int,
        channel: Channel,
        data: dict[str, Any],
        source: Message | None = None,
        *,
        opened_by: Interaction | None = None,
    ) -> Interaction:
        """Create the interaction and deliver it; with no bot on the gateway it fails as Discord's would."""
        server = self.server
        interaction = Interaction(
            server,
            id=server.ids.next(),
            type=kind,
            user_id=self.id,
            channel_id=channel.id,
            data=data,
            source_message_id=source.id if source is not None else None,
        )
        interaction.opened_by = opened_by
        payload = self._payload(interaction, channel, source)
        if server.gateway.resuming:  # the bot is reconnecting: Discord replays it after the RESUME
            server.interactions.add(interaction)
            server.gateway.missed.append((interaction, payload))
            return interaction
        if not server.gateway.reaches(payload, "INTERACTION_CREATE"):  # its shard's process may be down
            interaction.failed = interaction.failure_text  # the bot is offline: it never hears of it
            server.interactions.add(interaction)
            server.recorder.bump()
            return interaction
        server.interactions.add(interaction)
        delay = server.delays.interaction()
        if delay:
            await asyncio.sleep(delay)
        interaction.delivered_at = server.clock.now()
        await server.dispatch("INTERACTION_CREATE", payload)
        return interaction

    def _payload(self, interaction: Interaction, channel: Channel, source: Message | None) -> dict[str, Any]:
        """INTERACTION_CREATE with every field discord.py 2.7 reads."""
        world = self.server.world
        in_guild = channel.type != DM_CHANNEL
        payload: dict[str, Any] = {
            "id": str(interaction.id),
            "application_id": str(world.application_id),
            "type": interaction.type,
            "data": interaction.data,
            "channel_id": str(channel.id),
            "channel": channel.payload(world),
            "token": interaction.token,
            "version": 1,
            "app_permissions": str(self.server.bot_permissions(channel)),
            "locale": self.record.locale,
            "entitlements": [],
            "attachment_size_limit": self.server.config.attachment_size_limit,
            "context": 0 if in_guild else 1,
        }
        if in_guild:
            payload["guild_id"] = str(world.guild_id)
            payload["guild_locale"] = world.locale
            payload["guild"] = {"id": str(world.guild_id), "locale": world.locale, "features": []}
            payload["member"] = world.member_payload(self.id) | {
                "permissions": self.record.permissions or ALL_PERMISSIONS
            }
            payload["authorizing_integration_owners"] = {"0": str(world.guild_id)}
        else:
            payload["user"] = self.record.payload()
            payload["app_permissions"] = DM_APP_PERMISSIONS
            payload["authorizing_integration_owners"] = {"0": str(world.guild_id)}
        if source is not None:
            payload["message"] = source.payload(self.server.base_url)
        return payload
