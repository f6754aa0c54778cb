"""``python bot.py --sandbox OUTDIR``: the real bot against the local stand-in, with one simulated person
and three AI seats, writing what that person saw — a markdown transcript of the channel and their DMs,
and every image — into OUTDIR.

With ``--db FILE`` the tables are stored in FILE; run again with the same FILE after the process died
(even killed mid-hand) and the table resumes where it stopped, until the requested hands are played.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from discord.ext import commands

from .config import Config, RateLimits
from .fixtures import Harness
from .people import Person, steady
from .recorder import Message
from .server import DevServer

log = logging.getLogger(__name__)

PERSON = "小明 Ming 🀄"  # a name in two scripts and an emoji: the images draw it as written


@dataclass
class Transcript:
    """Every version of every message the person could see, in order, images saved beside it."""

    out: Path
    person_id: int
    lines: list[str] = field(default_factory=list)
    images: int = 0

    def __post_init__(self) -> None:
        (self.out / "images").mkdir(parents=True, exist_ok=True)
        self.path = self.out / "transcript.md"
        if not self.path.exists():
            self.path.write_text("# Mahjong sandbox transcript\n\n", encoding="utf-8")

    def note(self, text: str) -> None:
        self._write(f"\n## {text}\n\n")

    def seen(self, message: Message, event: str) -> Message:
        if not message.visible_to(self.person_id):
            return message
        where = "DM" if message.dm_with else "only you" if message.ephemeral_to else "#general"
        text = message.text.strip().replace("\n", "\n> ")
        lines = [f"**{where}** · {event} · message {message.id}\n", f"> {text}\n" if text else ""]
        for attachment in message.attachments:
            if attachment.is_png:
                self.images += 1
                name = f"images/{self.images:04d}-{attachment.filename}"
                (self.out / name).write_bytes(attachment.data)
                lines.append(f"\n![{attachment.filename}]({name})\n")
        buttons = [b.label for b in message.buttons() if b.label]
        if buttons:
            lines.append("\nButtons: " + " · ".join(f"`{b}`" for b in buttons) + "\n")
        self._write("".join(lines) + "\n")
        return message

    def _write(self, text: str) -> None:
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(text)


def _watch(server: DevServer, transcript: Transcript) -> None:
    """Record each message as it is created or edited (edits replace images: keep every version)."""
    create, edit = server.messages.create, server.messages.edit

    def created(*args: Any, **kwargs: Any) -> Message:
        return transcript.seen(create(*args, **kwargs), "new")

    def edited(*args: Any, **kwargs: Any) -> Message:
        return transcript.seen(edit(*args, **kwargs), "edited")

    server.messages.create = created  # type: ignore[method-assign]
    server.messages.edit = edited  # type: ignore[method-assign]


def _sheets(server: DevServer) -> list[Message]:
    return [m for m in server.channel_messages() if any(a.filename == "score.png" for a in m.attachments)]


# the bot to run, given the stand-in's token, the database and the seed: bot.py hands its own in,
# so the stand-in never imports the product it stands beside
MakeBot = Callable[[str, str, int], commands.Bot]  # the database: a file, :memory: or a postgresql:// URL


async def run_sandbox(
    out: Path, make_bot: MakeBot, *, hands: int = 1, seed: int = 1, db: str | None = None
) -> int:
    out.mkdir(parents=True, exist_ok=True)
    server = DevServer(Config(rate_limits=RateLimits(time_scale=0.05)), members=(PERSON,))
    person_user = server.member(PERSON)
    transcript = Transcript(out, person_user.id)
    _watch(server, transcript)
    started = time.perf_counter()
    async with Harness(server) as harness:
        bot = await harness.start(make_bot(server.config.token, db or ":memory:", seed))
        cog = bot.get_cog("Mahjong")
        channel = server.channel("general")
        runner = cog.tables.get(channel.id)
        if runner is not None and runner.match is not None:
            transcript.note(f"Resumed at hand {runner.resumed_at} (the bot was stopped mid-match)")
        else:
            transcript.note(f"A new table, {hands} hand(s), seed {seed}")
            if runner is None:
                await (await person_user.slash("mahjong create", rounds=4)).message()
                runner = cog.tables[channel.id]
            await (await person_user.slash("mahjong start")).message()
        person = Person(person_user, steady)
        stop = asyncio.Event()
        play = asyncio.create_task(person.play(stop, timeout=120))
        await server.recorder.wait_until(
            lambda: runner.match is not None and (len(runner.match.history) >= hands or runner.closed),
            600,
            lambda: f"{hands} hands to be played",
        )
        await server.recorder.wait_until(  # the last hand's score sheet is out before the table closes
            lambda: runner.closed or len(_sheets(server)) >= len(runner.match.history), 60, lambda: "the score sheets"
        )
        stop.set()
        with contextlib.suppress(Exception):
            await play
        if not runner.closed:
            await (await person_user.slash("mahjong close")).message()
        transcript.note("The leaderboard")
        await (await person_user.slash("mahjong leaderboard")).message()
        await asyncio.sleep(0.2)
        problems = harness.problems()
    seconds = time.perf_counter() - started
    transcript.note(f"Done: {len(runner.match.history)} hand(s) in {seconds:.1f} s, {transcript.images} images")
    for problem in problems:
        transcript.note(f"Problem: {problem}")
    print(f"wrote {transcript.path} and {transcript.images} images")
    return 1 if problems else 0
