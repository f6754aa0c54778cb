"""Discord's size limits on messages, embeds, components and modals, checked as Discord checks them."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from .emoji import is_unicode_emoji
from .errors import CANNOT_SEND_EMPTY, REQUEST_TOO_LARGE, DiscordError, form_error

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
ACTION_ROWS_MAX = 5
BUTTONS_PER_ROW_MAX = 5
SELECT_OPTIONS_MAX = 25
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
SELECT_PLACEHOLDER_MAX = 150
OPTION_TEXT_MAX = 100
MODAL_TITLE_MAX = 45
MODAL_COMPONENTS_MAX = 5
TEXT_INPUT_LABEL_MAX = 45
ATTACHMENTS_MAX = 10

BUTTON = 2
BUTTON_STYLES = {1, 2, 3, 4, 5, 6}  # primary, secondary, success, danger, link, premium
LINK_STYLE, PREMIUM_STYLE = 5, 6
SELECT_TYPES = {3, 5, 6, 7, 8}  # string, user, role, mentionable, channel selects
STRING_SELECT = 3
TEXT_INPUT = 4
ACTION_ROW = 1
LABEL = 18
COMPONENTS_V2_FLAG = 1 << 15


def _max_len(value: Any, limit: int, path: str) -> int:
    text = "" if value is None else str(value)
    if len(text) > limit:
        raise form_error(path, f"Must be {limit} or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    return len(text)


def check_embeds(embeds: Sequence[dict[str, Any]]) -> None:
    """Per-field limits, at most 10 embeds, and 6000 characters across all of them."""
    if len(embeds) > EMBEDS_MAX:
        raise form_error("embeds", f"Must be {EMBEDS_MAX} or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    total = 0
    for i, embed in enumerate(embeds):
        base = f"embeds.{i}"
        total += _max_len(embed.get("title"), EMBED_TITLE_MAX, f"{base}.title")
        total += _max_len(embed.get("description"), EMBED_DESCRIPTION_MAX, f"{base}.description")
        total += _max_len((embed.get("footer") or {}).get("text"), EMBED_FOOTER_MAX, f"{base}.footer.text")
        total += _max_len((embed.get("author") or {}).get("name"), EMBED_AUTHOR_MAX, f"{base}.author.name")
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS_MAX:
            raise form_error(
                f"{base}.fields", f"Must be {EMBED_FIELDS_MAX} or fewer in length.", "BASE_TYPE_MAX_LENGTH"
            )
        for j, fld in enumerate(fields):
            total += _max_len(fld.get("name"), EMBED_FIELD_NAME_MAX, f"{base}.fields.{j}.name")
            total += _max_len(fld.get("value"), EMBED_FIELD_VALUE_MAX, f"{base}.fields.{j}.value")
    if total > EMBED_TOTAL_MAX:
        raise form_error(
            "embeds", f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}", "MAX_EMBED_SIZE_EXCEEDED"
        )


def _min_len(value: Any, path: str) -> None:
    if value is not None and len(str(value)) < 1:
        raise form_error(path, "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH")


def _check_emoji(emoji: Any, path: str, known: Collection[int]) -> None:
    """A real Unicode emoji by name, or a custom emoji this bot can use (by id)."""
    if emoji is None:
        return
    if not isinstance(emoji, dict):
        raise form_error(path, "Must be an emoji object", "MODEL_TYPE_CONVERT")
    if emoji.get("id") is not None:
        try:
            emoji_id = int(emoji["id"])
        except (TypeError, ValueError):
            raise form_error(f"{path}.id", "Value is not snowflake.", "NUMBER_TYPE_COERCE") from None
        if emoji_id not in known:
            raise form_error(f"{path}.id", "Invalid emoji", "BUTTON_COMPONENT_INVALID_EMOJI")
        return
    if not is_unicode_emoji(emoji.get("name") or ""):
        raise form_error(f"{path}.name", "Invalid emoji", "BUTTON_COMPONENT_INVALID_EMOJI")


def _check_custom_id(component: dict[str, Any], path: str, seen: set[str]) -> None:
    custom_id = component.get("custom_id")
    if custom_id is None:
        raise form_error(f"{path}.custom_id", "This field is required", "BASE_TYPE_REQUIRED")
    _min_len(custom_id, f"{path}.custom_id")
    _max_len(custom_id, CUSTOM_ID_MAX, f"{path}.custom_id")
    if custom_id in seen:
        raise form_error(
            f"{path}.custom_id", "Component custom id cannot be duplicated", "COMPONENT_CUSTOM_ID_DUPLICATED"
        )
    seen.add(custom_id)


def _check_select(select: dict[str, Any], path: str, seen: set[str], known: Collection[int] = ()) -> None:
    _check_custom_id(select, path, seen)
    _max_len(select.get("placeholder"), SELECT_PLACEHOLDER_MAX, f"{path}.placeholder")
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not 0 <= low <= SELECT_OPTIONS_MAX or not 1 <= high <= SELECT_OPTIONS_MAX or low > high:
        raise form_error(f"{path}.max_values", "Invalid min_values/max_values", "BASE_TYPE_BAD_INT")
    if select.get("type") != STRING_SELECT:
        return
    options = select.get("options") or []
    if not 1 <= len(options) <= SELECT_OPTIONS_MAX:
        raise form_error(
            f"{path}.options",
            f"Must be between 1 and {SELECT_OPTIONS_MAX} in length.",
            "BASE_TYPE_BAD_LENGTH",
        )
    if high > len(options):
        raise form_error(
            f"{path}.max_values", "max_values exceeds the number of options", "BASE_TYPE_BAD_INT"
        )
    defaults = [k for k, option in enumerate(options) if option.get("default")]
    if len(defaults) > high:
        raise form_error(
            f"{path}.options.{defaults[high]}.default",
            f"A select taking {high} value(s) cannot have {len(defaults)} defaults",
            "SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES",
        )
    values: set[str] = set()
    for k, option in enumerate(options):
        for key in ("label", "value", "description"):
            _max_len(option.get(key), OPTION_TEXT_MAX, f"{path}.options.{k}.{key}")
        for key in ("label", "value"):
            if not option.get(key):
                raise form_error(
                    f"{path}.options.{k}.{key}",
                    "Must be between 1 and 100 in length.",
                    "BASE_TYPE_BAD_LENGTH",
                )
        _check_emoji(option.get("emoji"), f"{path}.options.{k}.emoji", known)
        if option.get("value") in values:
            raise form_error(
                f"{path}.options.{k}.value",
                "Option values must be unique",
                "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
            )
        values.add(option.get("value"))


def _check_button(button: dict[str, Any], path: str, seen: set[str], known: Collection[int] = ()) -> None:
    style = button.get("style")
    if style not in BUTTON_STYLES:
        raise form_error(
            f"{path}.style", f"Value must be one of {sorted(BUTTON_STYLES)}.", "ENUM_TYPE_COERCE"
        )
    if style == PREMIUM_STYLE:  # premium buttons carry a sku_id and nothing else
        return
    label = button.get("label")
    if label is not None and len(str(label)) < 1:
        raise form_error(f"{path}.label", "Must be between 1 and 80 in length.", "BASE_TYPE_BAD_LENGTH")
    _max_len(label, BUTTON_LABEL_MAX, f"{path}.label")
    _check_emoji(button.get("emoji"), f"{path}.emoji", known)
    if label is None and button.get("emoji") is None:
        raise form_error(
            path, "A button needs a label or an emoji", "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED"
        )
    if style == LINK_STYLE:  # link buttons carry a url, never a custom_id
        if not button.get("url"):
            raise form_error(f"{path}.url", "This field is required", "BASE_TYPE_REQUIRED")
        if button.get("custom_id") is not None:
            raise form_error(
                f"{path}.custom_id",
                "A link button cannot have a custom id",
                "BUTTON_COMPONENT_CUSTOM_ID_INVALID",
            )
        return
    if button.get("url") is not None:
        raise form_error(f"{path}.url", "Only link buttons have a url", "BUTTON_COMPONENT_URL_INVALID")
    _check_custom_id(button, path, seen)


def check_components(
    components: Sequence[dict[str, Any]], flags: int = 0, known_emoji: Collection[int] = ()
) -> None:
    """At most 5 action rows; each holds 1-5 buttons or exactly one select; custom ids short and unique."""
    if flags & COMPONENTS_V2_FLAG:
        return  # layout components (v2) are accepted without checking; the bot does not use them
    if len(components) > ACTION_ROWS_MAX:
        raise form_error(
            "components", f"Must be {ACTION_ROWS_MAX} or fewer in length.", "BASE_TYPE_MAX_LENGTH"
        )
    seen: set[str] = set()
    for i, row in enumerate(components):
        path = f"components.{i}"
        if row.get("type") != ACTION_ROW:
            raise form_error(f"{path}.type", "Top-level components must be action rows", "UNION_TYPE_CHOICES")
        children = row.get("components") or []
        if not children:
            raise form_error(
                f"{path}.components", "Must be between 1 and 5 in length.", "BASE_TYPE_BAD_LENGTH"
            )
        selects = [c for c in children if c.get("type") in SELECT_TYPES]
        if selects and len(children) != 1:
            raise form_error(
                f"{path}.components",
                "A select must be alone in its action row",
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            )
        if len(children) > BUTTONS_PER_ROW_MAX:
            raise form_error(
                f"{path}.components",
                f"Must be {BUTTONS_PER_ROW_MAX} or fewer in length.",
                "BASE_TYPE_MAX_LENGTH",
            )
        for j, child in enumerate(children):
            child_path = f"{path}.components.{j}"
            if child.get("type") == BUTTON:
                _check_button(child, child_path, seen, known_emoji)
            elif child.get("type") in SELECT_TYPES:
                _check_select(child, child_path, seen, known_emoji)
            else:
                raise form_error(f"{child_path}.type", "Not allowed in an action row", "UNION_TYPE_CHOICES")


def check_message(
    payload: dict[str, Any],
    files: Sequence[tuple[str, bytes]],
    size_limit: int,
    *,
    partial: bool = False,
    known_emoji: Collection[int] = (),
) -> None:
    """Everything Discord checks on a message create (or, with partial, an edit)."""
    content = payload.get("content")
    _max_len(content, CONTENT_MAX, "content")
    embeds = payload.get("embeds") or []
    check_embeds(embeds)
    check_components(payload.get("components") or [], payload.get("flags") or 0, known_emoji)
    if len(files) > ATTACHMENTS_MAX:
        raise form_error("files", f"Must be {ATTACHMENTS_MAX} or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    total = sum(len(data) for _, data in files)
    if total > size_limit:
        raise DiscordError(413, REQUEST_TOO_LARGE, detail=f"{total} bytes of attachments > {size_limit}")
    if not partial and not (
        content or embeds or files or payload.get("components") or payload.get("sticker_ids")
    ):
        raise DiscordError(400, CANNOT_SEND_EMPTY)


def check_modal(data: dict[str, Any]) -> None:
    """A modal: short title, 1-5 rows or labels, each wrapping one text input or select."""
    _max_len(data.get("title"), MODAL_TITLE_MAX, "data.title")
    if not data.get("title"):
        raise form_error("data.title", "This field is required", "BASE_TYPE_REQUIRED")
    seen: set[str] = set()
    _max_len(data.get("custom_id"), CUSTOM_ID_MAX, "data.custom_id")
    components = data.get("components") or []
    if not 1 <= len(components) <= MODAL_COMPONENTS_MAX:
        raise form_error("data.components", "Must be between 1 and 5 in length.", "BASE_TYPE_BAD_LENGTH")
    for i, outer in enumerate(components):
        path = f"data.components.{i}"
        inner = (
            outer.get("components") or []
            if outer.get("type") == ACTION_ROW
            else [outer.get("component") or {}]
        )
        for child in inner:
            if child.get("type") == TEXT_INPUT:
                _check_custom_id(child, path, seen)
                _max_len(child.get("label"), TEXT_INPUT_LABEL_MAX, f"{path}.label")
            elif child.get("type") in SELECT_TYPES:
                _check_select(child, path, seen)
        if outer.get("type") == LABEL:
            _max_len(outer.get("label"), TEXT_INPUT_LABEL_MAX, f"{path}.label")
