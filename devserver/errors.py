"""Discord's error codes and the JSON error shape, so the bot sees exactly what Discord would send."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

UNKNOWN_CHANNEL = 10003
UNKNOWN_MEMBER = 10007
UNKNOWN_MESSAGE = 10008
UNKNOWN_WEBHOOK = 10015
UNKNOWN_USER = 10013
UNKNOWN_APPLICATION = 10002
UNKNOWN_INTERACTION = 10062
ALREADY_ACKNOWLEDGED = 40060
OLD_MESSAGE_EDITS = 30046
OPENING_DMS_TOO_FAST = 40003
REQUEST_TOO_LARGE = 40005
CANNOT_SEND_EMPTY = 50006
CANNOT_DM_USER = 50007
INVALID_WEBHOOK_TOKEN = 50027
INVALID_FORM_BODY = 50035
INTERACTION_TYPE_MISMATCH = 40043  # responding with a type the interaction does not allow
WRONG_CHANNEL_TYPE = 50024  # "Cannot execute action on this channel type" (a thread off a thread or a DM)
THREAD_ARCHIVED = 50083  # "Operation cannot be performed on an archived thread"

MESSAGES = {
    UNKNOWN_CHANNEL: "Unknown Channel",
    UNKNOWN_MEMBER: "Unknown Member",
    UNKNOWN_MESSAGE: "Unknown Message",
    UNKNOWN_WEBHOOK: "Unknown Webhook",
    UNKNOWN_USER: "Unknown User",
    UNKNOWN_APPLICATION: "Unknown Application",
    UNKNOWN_INTERACTION: "Unknown interaction",
    ALREADY_ACKNOWLEDGED: "Interaction has already been acknowledged.",
    OLD_MESSAGE_EDITS: "Maximum number of edits to messages older than 1 hour reached. Try again later.",
    OPENING_DMS_TOO_FAST: "You are opening direct messages too fast.",
    REQUEST_TOO_LARGE: "Request entity too large",
    CANNOT_SEND_EMPTY: "Cannot send an empty message",
    CANNOT_DM_USER: "Cannot send messages to this user",
    50001: "Missing Access",
    50013: "Missing Permissions",
    50083: "Operation cannot be performed on an archived thread",
    160005: "Thread is locked",
    INVALID_WEBHOOK_TOKEN: "Invalid Webhook Token",
    INVALID_FORM_BODY: "Invalid Form Body",
    INTERACTION_TYPE_MISMATCH: "Invalid interaction response type for this interaction",
    WRONG_CHANNEL_TYPE: "Cannot execute action on this channel type",
    THREAD_ARCHIVED: "Thread is archived",
}


@dataclass
class DiscordError(Exception):
    """An API error: raised anywhere in a handler, turned into Discord's JSON error response."""

    status: int
    code: int
    detail: str = ""
    errors: dict[str, Any] = field(default_factory=dict)
    # Faults the test asked for (refused DMs) are Discord behaving normally, not the bot breaking a rule.
    expected: bool = False
    retry_after: float | None = None  # for the special 429s (30046) that carry one in the body
    headers: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        super().__init__(f"{self.status} {self.code} {self.message}")

    @property
    def message(self) -> str:
        return MESSAGES.get(self.code, "Error")

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            out["errors"] = self.errors
        if self.retry_after is not None:
            out["retry_after"] = self.retry_after
            out["global"] = False
        return out


def form_error(path: str, message: str, code: str = "BASE_TYPE_INVALID") -> DiscordError:
    """A 50035 Invalid Form Body naming one offending field, nested the way Discord nests it."""
    node: dict[str, Any] = {"_errors": [{"code": code, "message": message}]}
    for part in reversed(path.split(".")):
        node = {part: node}
    return DiscordError(400, INVALID_FORM_BODY, detail=f"{path}: {message}", errors=node)
