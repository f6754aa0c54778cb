"""Interactions a simulated user started: their tokens, deadlines and responses, and what a test awaits."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import UNKNOWN_INTERACTION, UNKNOWN_WEBHOOK, DiscordError
from .recorder import Message

if TYPE_CHECKING:
    from .server import DevServer

APPLICATION_COMMAND = 2
COMPONENT = 3
MODAL_SUBMIT = 5

CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE = 6
UPDATE_MESSAGE = 7
MODAL = 9
LAUNCH_ACTIVITY = 12  # only for an app with an Activity (devserver/oauth.py)
ALLOWED_RESPONSES = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL, LAUNCH_ACTIVITY},
    COMPONENT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL, LAUNCH_ACTIVITY},
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, LAUNCH_ACTIVITY},
}


@dataclass
class Response:
    """The initial response: its type, and the message it created or updated (or the modal it opened)."""

    type: int
    message: Message | None = None
    modal: dict[str, Any] | None = None
    activity_instance: str | None = None  # LAUNCH_ACTIVITY: the Activity instance it started

    @property
    def ephemeral(self) -> bool:
        return self.message is not None and self.message.ephemeral


class Interaction:
    """One interaction: the server's record of it, and the test's handle to await what the bot did."""

    def __init__(
        self,
        server: DevServer,
        *,
        id: int,
        type: int,
        user_id: int,
        channel_id: int,
        data: dict[str, Any],
        source_message_id: int | None = None,
    ) -> None:
        self.server = server
        self.id = id
        self.token = f"tok{id}"
        self.type = type
        self.user_id = user_id
        self.channel_id = channel_id
        self.data = data
        self.source_message_id = source_message_id
        self.created_at = server.clock.now()
        self.initial: Response | None = None
        self.original_message_id: int | None = None
        self.followup_ids: list[int] = []
        self.response_seq = 0  # recorder sequence when the initial response landed
        self.deadline_missed = False
        self.delivered_at: float | None = None  # server clock when the bot was sent it (None: not yet)
        self.answered_at: float | None = None  # server clock when the initial response landed
        self.requested_at: float | None = None  # server clock when its request left the bot (no network)
        self.failed: str | None = None  # what the person saw instead of an answer, if anything went wrong
        self.opened_by: Interaction | None = None  # for a modal submit: the interaction that opened the modal
        self._timer: asyncio.TimerHandle | None = None

    def __repr__(self) -> str:
        what = self.data.get("name") or self.data.get("custom_id")
        return f"<Interaction {self.id} type={self.type} {what!r} by {self.user_id}>"

    # lifetime ------------------------------------------------------------
    @property
    def age(self) -> float:
        return self.server.clock.now() - self.created_at

    @property
    def failure_text(self) -> str:
        """What the Discord client shows when no answer comes: slash commands and components differ."""
        if self.type == APPLICATION_COMMAND:
            return "The application did not respond"
        return "This interaction failed"

    def _check_failed(self) -> None:
        if self.failed is not None and self.initial is None:
            raise AssertionError(f"{self!r} failed: the user saw {self.failed!r}")

    @property
    def delivered_late(self) -> bool:
        """Discord handed it to the bot with no time left to answer (slow delivery, a RESUME's replay)."""
        deadline = self.server.config.response_deadline
        return self.delivered_at is not None and self.delivered_at - self.created_at >= deadline

    @property
    def answered_late(self) -> bool:
        """Delivered in time, yet not answered within the deadline: the bot's fault."""
        if self.delivered_at is None or self.delivered_late:
            return False
        deadline = self.server.config.response_deadline
        if self.answered_at is None:
            return self.age > deadline
        return self.answered_at - self.created_at > deadline

    @property
    def bot_seconds(self) -> float | None:
        """How long the bot held it: from its delivery to the bot to the answer's request leaving the bot
        (the modelled network on both sides left out)."""
        if self.delivered_at is None or self.requested_at is None:
            return None
        return self.requested_at - self.delivered_at

    def token_alive(self) -> bool:
        return self.age <= self.server.config.token_lifetime

    # what Discord writes on the messages it created ------------------------
    @property
    def command_name(self) -> str:
        """The full name of a slash command, subcommands included ("table open")."""
        parts, options = [self.data.get("name", "")], self.data.get("options") or []
        while options and options[0].get("type") in (1, 2):
            parts.append(options[0]["name"])
            options = options[0].get("options") or []
        return " ".join(parts)

    def metadata(self) -> dict[str, Any]:
        """The message interaction object (interaction_metadata) for messages this interaction created."""
        world = self.server.world
        out: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "user": world.user(self.user_id).payload(),
            "authorizing_integration_owners": {"0": str(world.guild_id)},
        }
        if self.type == APPLICATION_COMMAND:
            out["name"], out["command_type"] = self.command_name, 1
        elif self.type == COMPONENT and self.source_message_id is not None:
            out["interacted_message_id"] = str(self.source_message_id)
        elif self.type == MODAL_SUBMIT and self.opened_by is not None:
            out["triggering_interaction_metadata"] = self.opened_by.metadata()
        return out

    def message_fields(self, message_id: int) -> dict[str, Any]:
        """Type and origin of a message this interaction created: a component's answer is a reply (type 19)
        to the clicked message; a command's is type 20 with the legacy `interaction` object as well."""
        meta = self.metadata()
        if self.original_message_id is not None and message_id != self.original_message_id:
            meta["original_response_message_id"] = str(self.original_message_id)
        out: dict[str, Any] = {"interaction_metadata": meta}
        if self.type == COMPONENT and self.source_message_id is not None:
            reference = {
                "type": 0,
                "message_id": str(self.source_message_id),
                "channel_id": str(self.channel_id),
            }
            channel = self.server.world.channel(self.channel_id)
            if channel.guild_id is not None:
                reference["guild_id"] = str(channel.guild_id)
            out["type"], out["message_reference"] = 19, reference
        else:
            out["type"] = 20
            out["interaction"] = {
                "id": str(self.id),
                "type": self.type,
                "name": self.command_name
                if self.type == APPLICATION_COMMAND
                else self.data.get("custom_id", ""),
                "user": meta["user"],
            }
        return out

    # what the test awaits ------------------------------------------------
    async def response(self, timeout: float | None = None) -> Response:
        """The initial response, once the bot has sent it."""

        def check() -> Response | None:
            self._check_failed()
            return self.initial

        return await self.server.recorder.wait_until(
            check, self.server.timeout(timeout), lambda: f"a response to {self!r}"
        )

    async def message(self, timeout: float | None = None) -> Message:
        """The message the response shows: created, or updated for components; deferred ones once filled in."""

        def check() -> Message | None:
            self._check_failed()
            if self.initial is None:
                return None
            if self.initial.type in (DEFERRED_UPDATE, UPDATE_MESSAGE) and self.source_message_id is not None:
                message = self.server.recorder.get(self.source_message_id)
                if (
                    self.initial.type == DEFERRED_UPDATE
                    and message
                    and message.updated_seq <= self.response_seq
                ):
                    return None  # nothing visible changed until the bot edits the original
            elif self.original_message_id is not None:
                message = self.server.recorder.get(self.original_message_id)
            else:
                return None
            return message if message is not None and not message.loading else None

        return await self.server.recorder.wait_until(
            check, self.server.timeout(timeout), lambda: f"the response message of {self!r}"
        )

    async def followup(self, index: int = 0, timeout: float | None = None) -> Message:
        """The index-th follow-up message the bot sent on this interaction's token."""

        def check() -> Message | None:
            if len(self.followup_ids) > index:
                return self.server.recorder.get(self.followup_ids[index])
            return None

        return await self.server.recorder.wait_until(
            check, self.server.timeout(timeout), lambda: f"follow-up #{index} of {self!r}"
        )

    async def modal(self, timeout: float | None = None) -> dict[str, Any]:
        """The modal the bot opened in response (response type 9)."""
        response = await self.response(timeout)
        if response.modal is None:
            raise AssertionError(f"{self!r} was answered with type {response.type}, not a modal")
        return response.modal


class InteractionBook:
    """All interactions by id and token; arms the 3-second timer that catches a bot that never answers."""

    def __init__(self, server: DevServer) -> None:
        self.server = server
        self.by_id: dict[int, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}

    def add(self, interaction: Interaction) -> Interaction:
        self.by_id[interaction.id] = interaction
        self.by_token[interaction.token] = interaction
        if interaction.failed is not None:
            return interaction  # never delivered: no deadline to watch
        loop = asyncio.get_running_loop()
        interaction._timer = loop.call_later(
            self.server.config.response_deadline, self._deadline, interaction
        )
        return interaction

    def _deadline(self, interaction: Interaction) -> None:
        if interaction.initial is None:
            interaction.deadline_missed = True
            interaction.failed = interaction.failure_text
            if interaction.delivered_at is None or interaction.delivered_late:
                return  # Discord's delay, not the bot's: it fails for the person, no rule was broken
            self.server.recorder.violation(
                "response_deadline",
                UNKNOWN_INTERACTION,
                f"{interaction!r}: no response within {self.server.config.response_deadline}s "
                "(Discord shows 'The application did not respond')",
            )

    def for_callback(self, interaction_id: int, token: str) -> Interaction:
        interaction = self.by_id.get(interaction_id)
        if interaction is None or interaction.token != token:
            raise DiscordError(404, UNKNOWN_INTERACTION, detail=f"interaction {interaction_id}")
        return interaction

    def for_webhook(self, application_id: int, token: str) -> Interaction:
        interaction = self.by_token.get(token)
        if interaction is None or application_id != self.server.world.application_id:
            raise DiscordError(404, UNKNOWN_WEBHOOK, detail=f"webhook {application_id}/{token}")
        return interaction

    def close(self) -> None:
        for interaction in self.by_id.values():
            if interaction._timer is not None:
                interaction._timer.cancel()
