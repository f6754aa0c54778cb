"""Request bodies checked against Discord's own OpenAPI description of its REST API.

The stand-in's hand-written rules (devserver.limits) cover what the bot is likely to get wrong; this check
covers the rest of the shape: every JSON body (or multipart `payload_json`) the bot sends to a route the
stand-in serves is validated against that operation's request schema in the pinned copy of
discord/discord-api-spec (discord-api.json beside this file; README.md says where it came from). A body that
does not validate is recorded as an `openapi` violation (code 50035, Invalid Form Body, what Discord answers)
and the request is still carried out: the spec is a preview that Discord itself says may be wrong, so a
mismatch fails the test at teardown without turning into a cascade of bot errors that would hide it.

Discord parses integer-valued strings for integers and integers for snowflakes (the spec's README says so,
and discord.py sends ids as Python ints), so `lenient` adds both to the schemas when they are loaded.
Nothing else is relaxed; exceptions for the spec's own quirks are listed in SPEC_QUIRKS.

The validator is jsonschema-rs (JSON Schema 2020-12, which OpenAPI 3.1 uses): on the 3,173 bodies of
test_hongkong_table it takes 0.035 ms a body where the pure-Python jsonschema took 0.7 (2.2 s, and the
whole file 8 s more CPU and 16 s more wall clock than without a check), and the e2e suite sends tens of
thousands. One validator per operation is compiled when first used and shared by every DevServer of the
process; `streamline` rewrites the unions into equivalent forms whose errors name the wrong field.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jsonschema_rs

SPEC_PATH = Path(__file__).with_name("discord-api.json")
INTEGER_STRING = "^-?(0|[1-9][0-9]*)$"
_NOT_SCHEMAS = ("enum", "const", "default", "example", "examples")  # keywords whose values are data
DETAIL_CHARS = 300

# (operationId, JSON path of the field, indices as [*]) -> why Discord accepts there what the spec refuses.
SPEC_QUIRKS: dict[tuple[str, str], str] = {}
_INDEX = re.compile(r"\[\d+\]")


def _short(value: Any) -> str:
    """A value for a message: long strings (a 5000-character content) shortened."""
    text = repr(value)
    if len(text) <= 60:
        return text
    return text[:40] + (f"… ({len(value)} long)" if hasattr(value, "__len__") else "…")


def _is_param(segment: str) -> bool:
    return segment.startswith("{") and segment.endswith("}")


def spec_paths_for(template: str, spec_paths: Mapping[str, Any]) -> list[str]:
    """The spec's paths a stand-in route template can reach, most literal segments first.

    Parameter names differ (`/webhooks/{application_id}/{token}` is `/webhooks/{webhook_id}/{webhook_token}`),
    and a stand-in parameter also serves the spec's aliases (`{message_id}` serves `@original` too).

    >>> spec_paths_for("/webhooks/{a}/{t}/messages/{m}", {"/webhooks/{w}/{x}/messages/{message_id}": 0,
    ...     "/webhooks/{w}/{x}/messages/@original": 0, "/webhooks/{w}/{x}": 0})
    ['/webhooks/{w}/{x}/messages/@original', '/webhooks/{w}/{x}/messages/{message_id}']
    """
    ours = template.strip("/").split("/")
    found = []
    for path in spec_paths:
        theirs = path.strip("/").split("/")
        if len(theirs) == len(ours) and all(
            o == t or _is_param(o) and (_is_param(t) or t.startswith("@"))
            for o, t in zip(ours, theirs, strict=True)
        ):
            found.append(path)
    return sorted(found, key=lambda p: (-sum(not _is_param(s) for s in p.split("/")), p))


def _matches(spec_path: str, path: str) -> bool:
    theirs = spec_path.strip("/").split("/")
    actual = path.strip("/").split("/")
    return len(theirs) == len(actual) and all(
        _is_param(t) or t == a for t, a in zip(theirs, actual, strict=True)
    )


# leniencies -------------------------------------------------------------------
def _types(node: dict[str, Any]) -> tuple[str, ...]:
    kind = node.get("type")
    if isinstance(kind, str):
        return (kind,)
    if isinstance(kind, list) and all(isinstance(k, str) for k in kind):
        return tuple(kind)
    return ()


_BOUNDS = {"int32": 31, "int64": 63}


def lenient(node: Any, *, widen: bool = True) -> Any:
    """The schema with Discord's two parsings added (see the module docstring); the input is not changed.

    A string where an integer is expected must be a string of digits (and one of the enum's values, if the
    schema has one; a numeric range is checked for real integers only). An integer where a snowflake string
    is expected must be a non-negative 64-bit integer. `int32`/`int64` become the ranges they name. A union
    that already offers both (a nonce is an integer or a string) is not widened: a string of digits would
    then match two branches of a oneOf.

    >>> lenient({"type": "integer", "enum": [4, 5]})
    {'if': {'type': 'string'}, 'then': {'pattern': '^-?(0|[1-9][0-9]*)$', 'enum': ['4', '5']}, 'else': {'type': 'integer', 'enum': [4, 5]}}
    >>> lenient({"oneOf": [{"type": "integer"}, {"type": "string"}]})
    {'oneOf': [{'type': 'integer'}, {'type': 'string'}]}
    """
    if isinstance(node, list):
        return [lenient(value) for value in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _NOT_SCHEMAS:
            out[key] = value
        elif key in ("oneOf", "anyOf") and isinstance(value, list):
            kinds = {kind for branch in value if isinstance(branch, dict) for kind in _types(branch)}
            both = {"integer", "string"} <= kinds
            out[key] = [lenient(branch, widen=not both) for branch in value]
        else:
            out[key] = lenient(value)
    types = _types(out)
    if "integer" in types and out.get("format") in _BOUNDS:
        bits = _BOUNDS[out["format"]]
        out["minimum"] = max(out.get("minimum", -(1 << bits)), -(1 << bits))
        out["maximum"] = min(out.get("maximum", (1 << bits) - 1), (1 << bits) - 1)
    if not widen:
        return out
    if "integer" in types and "string" not in types:
        digits: dict[str, Any] = {"pattern": INTEGER_STRING}
        if isinstance(out.get("enum"), list):
            digits["enum"] = [str(v) for v in out["enum"]]
        return {"if": {"type": "string"}, "then": digits, "else": out}
    if out.get("format") == "snowflake" and "integer" not in types:
        return {"if": {"type": "integer"}, "then": {"minimum": 0, "maximum": (1 << 64) - 1}, "else": out}
    return out


# speed and clearer messages ----------------------------------------------------
def _resolve(node: Any, schemas: Mapping[str, Any]) -> Any:
    while isinstance(node, dict) and isinstance(node.get("$ref"), str):
        node = schemas[node["$ref"].rsplit("/", 1)[-1]]
    return node


def _kind_of(branch: Any) -> list[int] | None:
    """The values of `type` that select this branch of a union, if it is an object that requires one."""
    if not isinstance(branch, dict) or branch.get("type") != "object":
        return None
    if "type" not in branch.get("required", ()):
        return None
    values = branch.get("properties", {}).get("type", {}).get("enum")
    if not isinstance(values, list) or not all(type(v) is int for v in values):
        return None
    return values


_ENUMERATION_KEYS = {"type", "format", "enum", "oneOf", "title", "description"}


def _values_of(schema: Any) -> set[Any] | None:
    """The values an enumeration schema allows (an `enum`, or a union of `const`s), else None."""
    if not isinstance(schema, dict) or set(schema) - _ENUMERATION_KEYS:
        return None
    if isinstance(schema.get("enum"), list):
        return set(schema["enum"])
    branches = schema.get("oneOf")
    if isinstance(branches, list) and all(isinstance(b, dict) and "const" in b for b in branches):
        return {b["const"] for b in branches}
    return None


def _implied(node: dict[str, Any], all_of: Any, schemas: Mapping[str, Any]) -> bool:
    """Whether `allOf` only repeats what the node's own `enum` already says: a component's `type` is
    `{"enum": [2], "allOf": [MessageComponentTypes]}`, and 2 is one of MessageComponentTypes."""
    own = node.get("enum")
    if not isinstance(own, list) or not isinstance(all_of, list):
        return False
    for part in all_of:
        target = _resolve(part, schemas)
        allowed = _values_of(target)
        if allowed is None or not set(own) <= allowed or target.get("type") != node.get("type"):
            return False
    return True


def _with_strings(values: list[int]) -> list[Any]:
    return [*values, *(str(v) for v in values)]  # a string of digits selects as its integer (lenient)


def _by_kind(branches: list[Any], kinds: list[list[int]]) -> list[dict[str, Any]]:
    """A union of objects told apart by `type`, as one check of `type` and one if/then per branch."""
    every = [v for values in kinds for v in values]
    selector = {
        "type": "object",
        "required": ["type"],
        "properties": {"type": {"enum": _with_strings(every)}},
    }
    chosen = [
        {"if": {"properties": {"type": {"enum": _with_strings(values)}}}, "then": branch}
        for branch, values in zip(branches, kinds, strict=True)
    ]
    return [selector, *chosen]


def _nullable(branches: list[Any], schemas: Mapping[str, Any]) -> Any:
    """X of a `oneOf: [null, X]` whose X never accepts null, else None."""
    if len(branches) != 2 or {"type": "null"} not in branches:
        return None
    other = branches[1] if branches[0] == {"type": "null"} else branches[0]
    types = _types(_resolve(other, schemas)) if isinstance(_resolve(other, schemas), dict) else ()
    return other if types and "null" not in types else None


def streamline(node: Any, schemas: Mapping[str, Any]) -> Any:
    """The same schema in a form that is faster to check and whose errors point at the field that is wrong.

    A union of `const`s becomes an `enum`; an `allOf` that repeats the node's own `enum` goes; a union of
    objects told apart by their `type` (components, command options, callbacks) checks `type` and then only
    the branch it selects, instead of every branch (as a oneOf must, to be sure no second one matches) with
    a message that says only "not valid under any of the schemas"; `oneOf: [null, X]` becomes "null, or else
    X". Only where that gives the same answer: every branch an object that requires `type`, no value of it
    selecting two branches; X never null."""
    if isinstance(node, list):
        return [streamline(value, schemas) for value in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _NOT_SCHEMAS:
            out[key] = value
            continue
        if key == "allOf" and _implied(node, value, schemas):
            continue
        value = streamline(value, schemas)
        if key in ("oneOf", "anyOf") and isinstance(value, list) and value:
            branches = [_resolve(b, schemas) for b in value]
            if "enum" not in node and all(
                isinstance(b, dict) and "const" in b and set(b) <= {"const", "title", "description"}
                for b in branches
            ):
                out["enum"] = [b["const"] for b in branches]
                continue
            kinds = [_kind_of(b) for b in branches]
            selected = [v for k in kinds for v in (k or ())]
            if all(kinds) and len(selected) == len(set(selected)):
                out["allOf"] = [*out.get("allOf", []), *_by_kind(value, [k or [] for k in kinds])]
                continue
            other = _nullable(value, schemas)
            if other is not None and not {"if", "then", "else"} & set(node):
                out["if"], out["else"] = {"type": "null"}, other
                continue
        out[key] = value
    return out


# the checker --------------------------------------------------------------------
@dataclass(frozen=True)
class Problem:
    """Why one body does not validate: the operation, where in the body, and the schema's complaint."""

    operation: str
    where: str
    message: str

    def __str__(self) -> str:
        text = f"{self.operation}: {self.where}: {self.message}"
        return text if len(text) <= DETAIL_CHARS else text[: DETAIL_CHARS - 1] + "…"


def json_path(location: Iterable[str | int]) -> str:
    """`$.components[0].label` for ["components", 0, "label"]."""
    return "$" + "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in location)


class Spec:
    """The pinned spec made checkable, and one compiled validator per operation, made when first used."""

    def __init__(self, document: dict[str, Any], *, fast: bool = True) -> None:
        if fast:
            document = streamline(document, document["components"]["schemas"])
        self.document = lenient(document) | {"$schema": "https://json-schema.org/draft/2020-12/schema"}
        self.paths: dict[str, Any] = self.document["paths"]
        self._validators: dict[tuple[str, str], jsonschema_rs.Validator] = {}
        self._candidates: dict[tuple[str, str], list[str]] = {}

    def operation(self, method: str, template: str, path: str) -> tuple[str, dict[str, Any]] | None:
        """The spec path and operation of a request (the stand-in's route template and the actual path)."""
        key = (method.lower(), template)
        candidates = self._candidates.get(key)
        if candidates is None:
            candidates = [p for p in spec_paths_for(template, self.paths) if key[0] in self.paths[p]]
            self._candidates[key] = candidates
        for spec_path in candidates:
            if _matches(spec_path, path):
                return spec_path, self.paths[spec_path][key[0]]
        return None

    def _validator(self, method: str, spec_path: str) -> jsonschema_rs.Validator:
        """The request body's schema of one operation, its `$ref`s resolved within the whole document."""
        key = (method, spec_path)
        validator = self._validators.get(key)
        if validator is None:
            escaped = quote(spec_path.replace("~", "~0").replace("/", "~1"), safe="~@")
            pointer = f"#/paths/{escaped}/{method}/requestBody/content/application~1json/schema"
            validator = jsonschema_rs.validator_for(self.document | {"$ref": pointer})
            self._validators[key] = validator
        return validator

    def check(self, method: str, template: str, path: str, body: Any) -> Problem | None:
        """None when the body validates (or the spec has no JSON body for the route); else the first problem."""
        found = self.operation(method, template, path)
        if found is None:
            return None
        spec_path, operation = found
        if "application/json" not in operation.get("requestBody", {}).get("content", {}):
            return None
        validator = self._validator(method.lower(), spec_path)
        if validator.is_valid(body):
            return None
        name = operation.get("operationId", f"{method} {spec_path}")
        for error in validator.iter_errors(body):
            error = _closest(error)
            where = json_path(error.instance_path)
            if (name, _INDEX.sub("[*]", where)) not in SPEC_QUIRKS:
                return Problem(name, where, _message(error))
        return None


def _closest(error: jsonschema_rs.ValidationError) -> jsonschema_rs.ValidationError:
    """For "not valid under any of the schemas" of a union, the error of the one branch whose type fits
    (a 26-character nonce: "longer than 25 characters", not "not of type integer" and "not of type null")."""
    while type(error.kind).__name__ in ("OneOfNotValid", "AnyOf"):
        branches = [errors for errors in getattr(error.kind, "context", None) or [] if errors]
        fitting = [errors for errors in branches if any(type(e.kind).__name__ != "Type" for e in errors)]
        if len(fitting) != 1:
            break
        error = fitting[0][0]
    return error


_SIZES = {
    "MaxLength": "characters, more than maxLength",
    "MinLength": "characters, fewer than minLength",
    "MaxItems": "items, more than maxItems",
    "MinItems": "items, fewer than minItems",
}


def _message(error: jsonschema_rs.ValidationError) -> str:
    """The validator's message, with sizes and enumerations spelt out (a long value is not repeated)."""
    kind = type(error.kind).__name__
    instance = error.instance
    if kind in _SIZES and isinstance(instance, str | list | dict):
        return f"{len(instance)} {_SIZES[kind]} {getattr(error.kind, 'limit', '?')}"
    options = getattr(error.kind, "options", None)
    if kind == "Enum" and isinstance(options, list):
        numbers = [o for o in options if type(o) is int]
        if numbers and len(numbers) * 2 == len(options):  # the integers and their strings (lenient)
            options = sorted(numbers)
        return f"{_short(error.instance)} is not one of {options}"
    text = error.message
    return text if len(text) <= 160 else text[:60] + " … " + text[-90:]


@functools.cache
def spec() -> Spec:
    """The pinned spec, loaded once per process."""
    return Spec(json.loads(SPEC_PATH.read_text(encoding="utf-8")))
