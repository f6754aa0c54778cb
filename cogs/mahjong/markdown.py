"""Names people chose, put into Discord messages as they look, never as markup: a nickname such as
``<@&123>``, ``@everyone``, ``# Big`` or ``> quote`` must neither ping nor change a message's layout."""

from __future__ import annotations

import discord


def shown_name(name: str) -> str:
    """``name`` escaped for message content and embeds (pictures take the raw name)."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(name)).replace("\n", " ")


def shown_names(names: list[str]) -> list[str]:
    return [shown_name(name) for name in names]
