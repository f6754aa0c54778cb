"""Command arguments as a forged or outdated client may send them: Discord's client keeps to an option's
choices and range, Discord itself does not, and discord.py passes the value on. Every command checks
what it takes and answers anything else with one line naming the accepted values."""

from __future__ import annotations

from collections.abc import Sequence

from table.lobby import TableError


def accepted(name: str, value: object, values: Sequence[object]) -> None:
    """Refuse ``value`` unless it is one of ``values`` (a TableError the cog answers privately)."""
    if value in values:
        return
    if isinstance(values, range) and len(values) > 10:
        shown = f"{values.start}–{values.stop - 1}"
    else:
        shown = ", ".join(str(v) for v in values)
    raise TableError("err.bad_option", name=name, accepted=shown)
