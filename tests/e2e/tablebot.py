"""Helpers for the table bot's end-to-end tests: the real bot with fast timers, and the checks every
test makes on what people saw."""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

import bot as entry
import render
from devserver import DevServer, Message
from devserver.messages import Messages
from table.timing import Timing

FAST = Timing(ai_delay=0.0, hand_pause=0.0, edit_interval=0.0, timer_scale=1.0)


def build_bot(timing: Timing = FAST, seed: int | None = 7, database: str = ":memory:") -> entry.MahjongBot:
    config = entry.Config(token="test-token", database=database, timing=timing, seed=seed)
    return entry.MahjongBot(config, guild_ready_timeout=0.05)


def table_runner(bot: entry.MahjongBot, devserver: DevServer, channel: str = "general"):
    return bot.get_cog("Mahjong").registry.in_channel(devserver.channel(channel).id)


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
    hand, dm, table = render.render_hand, render.render_dm, render.render_table
    monkeypatch.setattr(render, "render_hand", lambda view, *a, **k: _stamp(hand(view, *a, **k), view.viewer))
    monkeypatch.setattr(render, "render_dm", lambda screen, *a, **k: _stamp(dm(screen, *a, **k), screen.view.viewer))
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
        seat_of = {who.user_id: seat for seat, who in enumerate(runner.session.seating.by_seat) if who.user_id}
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
    from devserver.people import code_of, point_of, steady
    from engine.policy import SimpleAI
    from table.codes import code_of as action_code

    ai = SimpleAI()

    def choose(message, buttons):
        codes = {code_of(b): b for b in buttons}
        if kongs:
            for code, button in codes.items():
                if code[:1] in ("n", "x", "k"):
                    return button
        point = point_of(buttons[0])
        seat = point.seat if point is not None else -1
        game = runner.session.game
        if game is None or seat not in game.to_act():
            return steady(message, buttons)
        wanted = action_code(ai.choose(game.view(seat), game.legal_actions(seat)))
        return codes.get(wanted) or steady(message, buttons)

    return choose


@dataclass
class PlayedMatch:
    runner: object
    standings: Message
    lobby: Message
    person: object

    @property
    def history(self):
        return self.runner.session.match.history


async def play_match(bot, devserver: DevServer, privacy: PrivacyWatch, **create) -> PlayedMatch:
    """alice opens a table with ``create``'s options, starts it (three AI join) and plays it to the
    standings; the checks every match must pass are made here: one score sheet a hand, every seat
    dealt at least once, zero-sum scores, four standings lines, no one shown another's tiles."""
    import asyncio

    from devserver.people import Person

    alice = devserver.member("alice")
    lobby = await (await alice.slash("mahjong create", **create)).message()
    assert "alice" in lobby.text and lobby.button("Start")
    await (await alice.click(lobby, "Start")).response()
    runner = table_runner(bot, devserver)
    assert runner.session.match.rules == create.get("rules", "taiwan16")
    done = asyncio.Event()
    person = Person(alice)
    play = asyncio.create_task(person.play(done, timeout=30))
    standings = await devserver.wait_for_message(
        channel="general",
        predicate=lambda m: any("Match over" in (e.get("title") or "") for e in m.embeds),
        timeout=120,
    )
    done.set()
    await play
    hands = len(runner.session.match.history)
    sheets = [m for m in devserver.channel_messages() if m.attachments and m.attachments[0].filename == "score.png"]
    assert hands >= 4 and len(sheets) == hands
    assert sum(runner.session.match.scores) == 0
    lines = standings.embeds[0]["description"].splitlines()
    assert len(lines) == 4 and "alice" in standings.embeds[0]["description"]
    assert person.clicks, "the person played"
    assert privacy.check(runner) > hands
    assert not devserver.recorder.get(lobby.id).buttons()  # the lobby says the match started
    return PlayedMatch(runner, standings, lobby, person)
