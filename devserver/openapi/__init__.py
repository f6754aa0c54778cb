"""Request bodies checked against Discord's own OpenAPI description of its REST API.

The stand-in's hand-written rules (devserver.limits) cover what the bot is likely to get wrong; this check
covers the rest of the shape: every JSON body (or multipart `payload_json`) the bot sends to a route the
stand-in serves is validated against that operation's request schema in the pinned copy of
discord/discord-api-spec (discord-api.json beside this file; README.md says where it came from). A body that
does not validate is recorded as an `openapi` violation (code 50035, Invalid Form Body, what Discord answers)
and the request is still carried out: the spec is a preview that Discord itself says may be wrong, so a
mismatch fails the test at teardown without turning into a cascade of bot errors that would hide it.

Discord parses integer-valued strings for integers and integers for snowflakes (the spec's README says so,
and discord.py sends ids as Python ints), so two leniencies are applied to the schemas when they are loaded:
a string of digits is accepted wherever an integer is, checked as that integer against the same schema
(enum, minimum, int32 range), and an integer is accepted wherever a snowflake string is, checked as its
decimal string. Nothing else is relaxed; exceptions for the spec's own quirks are listed in SPEC_QUIRKS.

Validators are compiled once per operation per process and shared by every DevServer of a test run.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker, ValidationError, validators
from jsonschema.exceptions import best_match

SPEC_PATH = Path(__file__).with_name("discord-api.json")
_COMPONENT = "#/components/schemas/"
_INTEGER_STRING = re.compile(r"-?(0|[1-9][0-9]*)")
_NOT_SCHEMAS = ("enum", "const", "default", "example", "examples")  # keywords whose values are data
DETAIL_CHARS = 300
ANSWERS_KEPT = 4096

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
def _integer_string(validator: Any, schema: Any, instance: Any, _: Any) -> Iterator[ValidationError]:
    """A string Discord reads as an integer: valid when the integer is valid under the same schema."""
    if not isinstance(instance, str):
        return  # the branch's "type": "string" says so
    if not _INTEGER_STRING.fullmatch(instance):
        yield ValidationError(f"{_short(instance)} is not an integer nor a string of one")
        return
    yield from validator.descend(int(instance), schema)


def _snowflake_integer(validator: Any, schema: Any, instance: Any, _: Any) -> Iterator[ValidationError]:
    """An integer id, as discord.py sends them: valid when its decimal string is a valid snowflake."""
    if type(instance) is not int:
        return  # the branch's "type": "integer" says so
    if not 0 <= instance < 1 << 64:
        yield ValidationError(f"{_short(instance)} is not a 64-bit snowflake")
        return
    yield from validator.descend(str(instance), schema)


def _types(node: dict[str, Any]) -> tuple[str, ...]:
    kind = node.get("type")
    if isinstance(kind, str):
        return (kind,)
    if isinstance(kind, list) and all(isinstance(k, str) for k in kind):
        return tuple(kind)
    return ()


def lenient(node: Any, *, widen: bool = True) -> Any:
    """The schema with Discord's two parsings added (see the module docstring); the input is not changed.

    A union that already offers both (a nonce is an integer or a string) is left as it is: widening one of
    its branches would make a string of digits match two branches of a oneOf.

    >>> lenient({"type": "integer", "enum": [4, 5]})["anyOf"][1]
    {'type': 'string', 'x-integer-string': {'type': 'integer', 'enum': [4, 5]}}
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
    if not widen:
        return out
    if "integer" in types and "string" not in types:
        return {"anyOf": [out, {"type": "string", "x-integer-string": out}]}
    if out.get("format") == "snowflake" and "integer" not in types:
        return {"anyOf": [out, {"type": "integer", "x-snowflake-integer": out}]}
    return out


# speed ---------------------------------------------------------------------------
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


def streamline(node: Any, schemas: Mapping[str, Any]) -> Any:
    """The same schema, cheaper to check: a union of `const`s becomes an `enum`, and a union of objects told
    apart by their `type` (components, command options, callbacks) goes straight to its one branch instead
    of trying every branch (a oneOf must, to be sure no second one matches). Only unions where that gives the
    same answer are rewritten: every branch is an object that requires `type`, and no value of it selects two
    branches."""
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
                by_kind = {v: original for original, k in zip(value, kinds, strict=True) for v in k or ()}
                out["x-discriminator"] = {"property": "type", "branches": by_kind}
                continue
        out[key] = value
    return out


def _discriminator(validator: Any, spec: Any, instance: Any, _: Any) -> Iterator[ValidationError]:
    """The branch a union's `type` selects (a string of digits read as its integer, as elsewhere)."""
    if not isinstance(instance, dict):
        yield ValidationError(f"{_short(instance)} is not an object")
        return
    name = spec["property"]
    value = instance.get(name)
    if isinstance(value, str) and _INTEGER_STRING.fullmatch(value):
        value = int(value)
    branch = spec["branches"].get(value) if type(value) is int else None
    if branch is None:
        yield ValidationError(
            f"{_short(instance.get(name))} is not one of {sorted(spec['branches'])}",
            path=[name],
            validator="enum",
        )
        return
    yield from validator.descend(instance, branch)


def inline_refs(document: dict[str, Any]) -> None:
    """Put each component schema where it is `$ref`erenced, in place (recursive components make the result
    a graph with cycles, which jsonschema walks only as deep as the body goes). Validating then never looks
    a reference up: about a third faster than resolving them through a registry on every use."""
    schemas = document["components"]["schemas"]
    done: set[int] = set()

    def visit(node: Any) -> None:
        if id(node) in done:
            return
        done.add(id(node))
        if isinstance(node, dict):
            keys: Iterable[Any] = [k for k in node if k not in _NOT_SCHEMAS]
        elif isinstance(node, list):
            keys = range(len(node))
        else:
            return
        for key in keys:
            value = node[key]
            ref = value.get("$ref") if isinstance(value, dict) else None
            if isinstance(ref, str):
                if not ref.startswith(_COMPONENT) or set(value) - {"$ref", "description"}:
                    raise ValueError(f"cannot inline {value}: only plain component references are expected")
                node[key] = value = schemas[ref[len(_COMPONENT) :]]
            visit(value)

    visit(document)


Validator = validators.extend(
    Draft202012Validator,
    {
        "x-integer-string": _integer_string,
        "x-snowflake-integer": _snowflake_integer,
        "x-discriminator": _discriminator,
    },
)
FORMATS = FormatChecker(formats=())


@FORMATS.checks("int32")
def _int32(instance: object) -> bool:
    return not isinstance(instance, int) or -(1 << 31) <= instance < 1 << 31


@FORMATS.checks("int64")
def _int64(instance: object) -> bool:
    return not isinstance(instance, int) or -(1 << 63) <= instance < 1 << 63


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


class Spec:
    """The pinned spec with its leniencies, and one compiled validator per operation, made when first used."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = lenient(streamline(document, document["components"]["schemas"]))
        inline_refs(self.document)
        self.paths: dict[str, Any] = self.document["paths"]
        self._validators: dict[tuple[str, str], Any] = {}
        self._candidates: dict[tuple[str, str], list[str]] = {}
        # answers by body: every bot of a test run syncs the same commands (a 47 KB body, 65 ms to check),
        # and many DM opens, deferrals and edits repeat word for word
        self._answers: dict[tuple[str, str, str], Problem | None] = {}

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

    def _validator(self, method: str, spec_path: str) -> Any:
        key = (method, spec_path)
        validator = self._validators.get(key)
        if validator is None:
            schema = self.paths[spec_path][method]["requestBody"]["content"]["application/json"]["schema"]
            validator = Validator(schema, format_checker=FORMATS)
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
        key = (method.lower(), spec_path, json.dumps(body, sort_keys=True, separators=(",", ":")))
        if key in self._answers:
            return self._answers[key]
        answer = self._check(method.lower(), spec_path, operation, body)
        if len(self._answers) >= ANSWERS_KEPT:
            del self._answers[next(iter(self._answers))]  # the oldest
        self._answers[key] = answer
        return answer

    def _check(self, method: str, spec_path: str, operation: dict[str, Any], body: Any) -> Problem | None:
        validator = self._validator(method, spec_path)
        if validator.is_valid(body):
            return None
        name = operation.get("operationId", f"{method} {spec_path}")
        for error in sorted(validator.iter_errors(body), key=lambda e: e.json_path):
            error = best_match([error])
            if (name, _INDEX.sub("[*]", error.json_path)) not in SPEC_QUIRKS:
                return Problem(name, error.json_path, _message(error))
        return None


def _message(error: ValidationError) -> str:
    """jsonschema's message with the value shortened and the limit named ("… is too long (maxLength 4000)")."""
    text = error.message
    if isinstance(error.validator, str):
        full = repr(error.instance)
        if len(full) > 60:
            text = text.replace(full, _short(error.instance))
        if error.validator.startswith(("max", "min")):
            text += f" ({error.validator} {error.validator_value})"
    return text


@functools.cache
def spec() -> Spec:
    """The pinned spec, loaded once per process."""
    return Spec(json.loads(SPEC_PATH.read_text(encoding="utf-8")))
