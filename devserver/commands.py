"""Application commands the bot synced, and turning "table open" + keyword options into interaction data."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

from .errors import form_error

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
CHAT_INPUT = 1
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2  # interaction contexts a command may be used in
NAME_RE = re.compile(r"^[-_\w]{1,32}$")
COMMANDS_MAX = 100
OPTIONS_MAX = 25
CHOICES_MAX = 25


def _check_options(options: list[dict[str, Any]], path: str) -> None:
    if len(options) > OPTIONS_MAX:
        raise form_error(
            f"{path}.options", f"Must be {OPTIONS_MAX} or fewer in length.", "BASE_TYPE_MAX_LENGTH"
        )
    optional_seen = False
    for i, option in enumerate(options):
        _check_named(option, f"{path}.options.{i}")
        if len(option.get("choices") or []) > CHOICES_MAX:
            raise form_error(
                f"{path}.options.{i}.choices", "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH"
            )
        if option.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
            _check_options(option.get("options") or [], f"{path}.options.{i}")
            continue
        if option.get("required"):
            if optional_seen:
                raise form_error(
                    f"{path}.options.{i}", "Required options must be placed before non-required options"
                )
        else:
            optional_seen = True


def _check_named(item: dict[str, Any], path: str) -> None:
    name = item.get("name") or ""
    if not NAME_RE.match(name) or name != name.lower():
        raise form_error(f"{path}.name", "Command name is invalid", "APPLICATION_COMMAND_INVALID_NAME")
    description = item.get("description") or ""
    if item.get("type", CHAT_INPUT) in (CHAT_INPUT, SUB_COMMAND, SUB_COMMAND_GROUP) or "options" not in item:
        if not 1 <= len(description) <= 100:
            raise form_error(
                f"{path}.description", "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH"
            )


class CommandRegistry:
    """Commands as Discord stores them after a bulk overwrite (PUT), global or per guild."""

    def __init__(self, next_id: Callable[[], int], application_id: int) -> None:
        self._next_id = next_id
        self._application_id = application_id
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self._ids: dict[tuple[int | None, str, int], int] = {}
        self.overwrites: list[int | None] = []  # the scope of every bulk overwrite, in order (None: global)

    def overwrite(self, payload: list[dict[str, Any]], guild_id: int | None) -> list[dict[str, Any]]:
        if len(payload) > COMMANDS_MAX:
            raise form_error("_root", "Must be 100 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
        stored = []
        for i, command in enumerate(payload):
            _check_named(command, str(i))
            _check_options(command.get("options") or [], str(i))
            stored.append(self._store(command, guild_id))
        self.overwrites.append(guild_id)
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        return copy.deepcopy(stored)

    def _store(self, command: dict[str, Any], guild_id: int | None) -> dict[str, Any]:
        kind = command.get("type", CHAT_INPUT)
        key = (guild_id, command["name"], kind)
        if key not in self._ids:  # Discord keeps a command's id across re-syncs
            self._ids[key] = self._next_id()
        out = {
            "options": [],
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            **copy.deepcopy(command),
            "id": str(self._ids[key]),
            "application_id": str(self._application_id),
            "version": str(self._ids[key]),
            "type": kind,
        }
        if guild_id is not None:
            out["guild_id"] = str(guild_id)
        return out

    def all(self, guild_id: int | None) -> list[dict[str, Any]]:
        return copy.deepcopy(
            self.global_commands if guild_id is None else self.guild_commands.get(guild_id, [])
        )

    def names(self) -> list[str]:
        commands = self.global_commands + [c for cs in self.guild_commands.values() for c in cs]
        return sorted({c["name"] for c in commands})

    def find(self, name: str, guild_id: int | None) -> dict[str, Any]:
        """A chat-input command by name: the guild's own first, then global (as the client lists them)."""
        for command in [*self.guild_commands.get(guild_id or 0, []), *self.global_commands]:
            if command["name"] == name and command["type"] == CHAT_INPUT:
                return command
        raise LookupError(f"the bot never synced a slash command {name!r}; synced: {self.names()}")


Resolver = Callable[[int, Any], tuple[str, dict[str, Any]]]


def build_invocation(
    command: dict[str, Any], path: list[str], values: dict[str, Any], resolve: Resolver, *, forged: bool = False
) -> dict[str, Any]:
    """The `data` of a slash-command interaction, validated the way the Discord client validates input.

    forged: a modified or outdated client, which Discord does not stop: any value of the option's type
    goes through, outside its choices and its min/max too."""
    data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": CHAT_INPUT}
    if "guild_id" in command:
        data["guild_id"] = command["guild_id"]
    schema = command.get("options") or []
    container = data
    for part in path:
        option = next(
            (o for o in schema if o["name"] == part and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)), None
        )
        if option is None:
            raise LookupError(f"/{command['name']} has no subcommand {part!r} (path {path})")
        child: dict[str, Any] = {"name": part, "type": option["type"], "options": []}
        container.setdefault("options", []).append(child)
        container = child
        schema = option.get("options") or []
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in schema):
        raise LookupError(
            f"/{command['name']} {' '.join(path)} needs a subcommand: {[o['name'] for o in schema]}"
        )
    resolved: dict[str, dict[str, Any]] = {}
    given = []
    for name, value in values.items():
        option = next((o for o in schema if o["name"] == name), None)
        if option is None:
            raise TypeError(f"unknown option {name!r}; options: {[o['name'] for o in schema]}")
        given.append(
            {"name": name, "type": option["type"], "value": _coerce(option, value, resolve, resolved, forged)}
        )
    missing = [o["name"] for o in schema if o.get("required") and o["name"] not in values]
    if missing:
        raise TypeError(f"missing required options {missing}")
    container["options"] = given
    if resolved:
        data["resolved"] = resolved
    return data


def _coerce(
    option: dict[str, Any], value: Any, resolve: Resolver, resolved: dict[str, dict[str, Any]], forged: bool = False
) -> Any:
    kind, name = option["type"], option["name"]
    if kind in (USER, CHANNEL, ROLE, MENTIONABLE):
        key, entries = resolve(kind, value)
        for section, items in entries.items():
            resolved.setdefault(section, {}).update(items)
        return key
    if kind == BOOLEAN:
        if not isinstance(value, bool):
            raise TypeError(f"option {name!r} takes a bool")
        return value
    if kind == INTEGER:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"option {name!r} takes an int")
    elif kind == NUMBER:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TypeError(f"option {name!r} takes a number")
    elif kind == STRING:
        value = str(value)
        if forged:
            return value
        if not option.get("min_length", 0) <= len(value) <= option.get("max_length", 6000):
            raise ValueError(f"option {name!r}: length out of range")
    else:
        raise TypeError(f"option type {kind} of {name!r} is not simulated")
    if forged:
        return value
    choices = option.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise ValueError(f"option {name!r} must be one of {[c['value'] for c in choices]}, got {value!r}")
    if kind in (INTEGER, NUMBER):
        if (
            "min_value" in option
            and value < option["min_value"]
            or "max_value" in option
            and value > option["max_value"]
        ):
            raise ValueError(f"option {name!r} out of range")
    return value
