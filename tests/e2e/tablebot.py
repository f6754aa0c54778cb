"""Helpers for the table bot's end-to-end tests: the real bot with fast timers, and people who play."""

from __future__ import annotations

import bot as entry
from cogs.mahjong.runner import Timing
from devserver import DevServer, Message, SimUser

FAST = Timing(ai_delay=0.0, hand_pause=0.0, edit_interval=0.0, timer_scale=1.0)


def build_bot(timing: Timing = FAST) -> entry.MahjongBot:
    config = entry.Config(token="test-token", database=entry.Path(":memory:"), timing=timing)
    return entry.MahjongBot(config, guild_ready_timeout=0.05)


def prompt_buttons(message: Message) -> list:
    """The action buttons of a hand message (custom ids mj:a / mj:m)."""
    return [b for b in message.buttons() if b.custom_id and b.custom_id.startswith(("mj:a:", "mj:m:"))]


def latest_dm(server: DevServer, user: SimUser) -> Message | None:
    dms = [m for m in user.dms() if m.attachments]
    return dms[-1] if dms else None
