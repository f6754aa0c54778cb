"""The base of the /mahjong cog's mixins (hall.py, ranked.py, replay.py, review.py, watch.py, help.py),
whose commands join the one /mahjong group of ``Mahjong`` (cogs/mahjong/__init__.py).

To the type checker a mixin is a ``commands.Cog``, as the class it is mixed into is: discord.py's
command decorators take methods of a cog or a group only. At run time it is a plain class, so that
discord.py's cog machinery sees one cog, ``Mahjong``. Each mixin declares what it uses of that cog.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from discord.ext.commands import Cog as CogMixin
else:
    CogMixin = object

__all__ = ["CogMixin"]
