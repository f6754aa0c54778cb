"""Helpers for the table bot's end-to-end tests: the real bot with fast timers, and the checks every
test makes on what people saw."""

from __future__ import annotations

import struct
import zlib

import bot as entry
import render
from cogs.mahjong.runner import Timing
from devserver import DevServer
from devserver.messages import Messages

FAST = Timing(ai_delay=0.0, hand_pause=0.0, edit_interval=0.0, timer_scale=1.0)


def build_bot(timing: Timing = FAST, seed: int | None = 7, database: str = ":memory:") -> entry.MahjongBot:
    config = entry.Config(token="test-token", database=entry.Path(database), timing=timing, seed=seed)
    return entry.MahjongBot(config, guild_ready_timeout=0.05)


def table_runner(bot: entry.MahjongBot, devserver: DevServer, channel: str = "general"):
    return bot.get_cog("Mahjong").tables[devserver.channel(channel).id]


# ---------------------------------------------------------------- who was shown whose tiles

def _stamp(png: bytes, viewer: object) -> bytes:
    """Add a tEXt chunk naming the view an image was drawn from (PNG readers ignore it)."""
    data = b"viewer\0" + str(viewer).encode()
    chunk = struct.pack(">I", len(data)) + b"tEXt" + data + struct.pack(">I", zlib.crc32(b"tEXt" + data))
    return png[:33] + chunk + png[33:]  # right after IHDR


def stamped_viewer(png: bytes) -> str | None:
    marker = png.find(b"tEXtviewer\0")
    if marker < 0:
        return None
    length = struct.unpack(">I", png[marker - 4 : marker])[0]
    return png[marker + 4 + 7 : marker + 4 + length].decode()


def watch_views(monkeypatch) -> None:
    """Every hand and table image says which view it was drawn from (seat number, or None)."""
    hand, table = render.render_hand, render.render_table
    monkeypatch.setattr(render, "render_hand", lambda view, *a, **k: _stamp(hand(view, *a, **k), view.viewer))
    monkeypatch.setattr(render, "render_table", lambda view, *a, **k: _stamp(table(view, *a, **k), view.viewer))


class PrivacyWatch:
    """Checks every image the bot ever uploaded (first posts and every edit): a hand image a person saw
    was drawn from their own seat's view, and every public image from the public view."""

    def __init__(self, monkeypatch) -> None:
        watch_views(monkeypatch)
        self.shown: list[tuple[int | None, int | None, str]] = []  # (dm_with, ephemeral_to, viewer)
        create, edit = Messages.create, Messages.edit

        def record(message):
            for attachment in message.attachments:
                viewer = stamped_viewer(attachment.data)
                if viewer is not None:
                    self.shown.append((message.dm_with, message.ephemeral_to, viewer))
            return message

        monkeypatch.setattr(Messages, "create", lambda s, *a, **k: record(create(s, *a, **k)))
        monkeypatch.setattr(Messages, "edit", lambda s, *a, **k: record(edit(s, *a, **k)))

    def check(self, runner) -> int:
        seat_of = {who.user_id: seat for seat, who in enumerate(runner.seating.by_seat) if who.user_id}
        for dm_with, ephemeral_to, viewer in self.shown:
            reader = dm_with or ephemeral_to
            expected = "None" if reader is None else str(seat_of[reader])
            assert viewer == expected, f"{reader} was shown the view of {viewer}"
        return len(self.shown)


def png_size(png: bytes) -> tuple[int, int]:
    return struct.unpack(">II", png[16:24])




def smart(runner, *, kongs: bool = True):
    """A competent person: does what the built-in AI would do in their seat (wins, sensible discards),
    always takes a kong when offered. Test-only: it reads the engine to decide, then clicks a button."""
    from cogs.mahjong.codes import code_of as action_code
    from devserver.people import code_of, steady
    from engine.policy import SimpleAI

    ai = SimpleAI()

    def choose(message, buttons):
        codes = {code_of(b): b for b in buttons}
        if kongs:
            for code, button in codes.items():
                if code[:1] in ("n", "x", "k"):
                    return button
        seat = int((buttons[0].custom_id or "").split(":")[4])
        game = runner.game
        if game is None or seat not in game.to_act():
            return steady(message, buttons)
        wanted = action_code(ai.choose(game.view(seat), game.legal_actions(seat)))
        return codes.get(wanted) or steady(message, buttons)

    return choose
