"""``python bot.py --sandbox OUTDIR``: the real bot against the local stand-in, with one simulated person
(who plays to win: devserver/winner.py) and three AI seats, writing what that person saw — a markdown
transcript of the channel, their DMs, their private answers and what they pressed, and every image —
into OUTDIR (devserver/transcript.py).

``hands`` counts the table's finished hands. With ``--db FILE`` the table is stored in FILE; run again
with the same FILE after the process died (even killed mid-hand) and the table resumes where it stopped
(the cut-off hand replayed from its stored moves) and plays until it has ``hands`` finished hands — the
same command finishes the job. Which OUTDIR a run may use: devserver/outdir.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from discord.ext import commands

from engine.view import GameView

from .config import Config, RateLimits
from .fixtures import Harness
from .outdir import Outdir
from .people import Person, point_of, prompt_buttons
from .recorder import Message
from .server import DevServer
from .settled import dm_settled
from .transcript import Transcript
from .users import SimUser
from .winner import PlaysToWin, See

log = logging.getLogger(__name__)

PERSON = "小明 Ming 🀄"  # a name in two scripts and an emoji: the images draw it as written
LOCALES = {"en": "en-US", "zh-TW": "zh-TW", "zh-CN": "zh-CN"}  # --lang: the Discord locale it sets
# a new table's seed when none is given: one per rule set whose first hand shows the person claiming
# (吃/碰) and winning — taiwan16 with 換牌, 聽 and a 槓 too (tests/e2e/test_sandbox_person.py holds them to it)
SHOWCASE_SEEDS = {"taiwan16": 84, "taiwan13": 6, "hongkong": 111, "guangdong": 2}


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


def picture_view(runner: Any) -> See:
    """What the hand picture of a prompt shows, as the engine view of the person's seat: the picture
    and the buttons of one message are drawn at one decision point, and nothing the seat can see
    changes within a decision point (every change is an event, and each event opens a new one), so the
    seat's view at the decision the buttons name is the picture's. None for a prompt gone stale."""

    def see(message: Message) -> GameView | None:
        buttons = prompt_buttons(message)
        game = runner.session.game
        if game is None or not buttons:
            return None
        point = point_of(buttons[0])
        if point is None or (point.table, point.hand, point.move) != (runner.session.table_id, game.hand_number, runner.session.decision):
            return None
        return game.view(point.seat)

    return see


@dataclass
class ClockWatch:
    """Counts the person's decisions that their clock played during this run (the engine logs each as
    ``<seat> timeout``). The sandbox's person answers every live prompt it is shown, so each one is a
    decision whose prompt it never had to answer, and the run has become another game than its seed's."""

    runner: Any
    user_id: int
    hand: int  # the hand in play when the run's play began, and how many of its moves were made before
    moves: int

    @classmethod
    def start(cls, runner: Any, user_id: int) -> ClockWatch:
        game = runner.session.game
        return cls(runner, user_id, game.hand_number if game is not None else 0, len(game.log) if game else 0)

    def timeouts(self) -> int:
        seats = {str(seat) for seat, who in enumerate(self.runner.session.seating.by_seat) if who.user_id == self.user_id}
        match, game = self.runner.session.match, self.runner.session.game
        logs = {record.number: record.log for record in (match.history if match is not None else [])}
        if game is not None and game.hand_number not in logs:  # the hand in play, not yet recorded
            logs[game.hand_number] = tuple(str(action) for action in game.log)
        count = 0
        for number, log in logs.items():
            if number >= self.hand:
                for move in log[self.moves :] if number == self.hand else log:
                    seat, _, kind = move.partition(" ")
                    count += kind == "timeout" and seat in seats
        return count


def table_options(rules: str) -> dict[str, Any]:
    """``/mahjong create`` as the person types it: four rounds, and 換牌 on where the rule set has it."""
    return {"rules": rules, "rounds": 4, **({"exchange": True} if rules == "taiwan16" else {})}


# the bot to run, given the stand-in's token, the database and the seed: bot.py hands its own in,
# so the stand-in never imports the product it stands beside
MakeBot = Callable[[str, str, int], commands.Bot]  # the database: a file, :memory: or a postgresql:// URL


async def run_sandbox(
    out: Path,
    make_bot: MakeBot,
    *,
    hands: int = 1,
    seed: int | None = None,
    db: str | None = None,
    rules: str = "taiwan16",
    lang: str = "en",
) -> int:
    """Play until the table has ``hands`` finished hands; 0 when nothing went wrong. OutdirRefused
    (before anything starts) when ``out`` may not be written. Without ``seed``, the rule set's showcase."""
    outdir = Outdir.claim(out, Path(db) if db else None)
    seed = SHOWCASE_SEEDS.get(rules, 1) if seed is None else seed
    server = DevServer(Config(rate_limits=RateLimits(time_scale=0.05)), members=(PERSON,))
    server.world.locale = LOCALES[lang]
    person_user = server.member(PERSON)
    person_user.record.locale = LOCALES[lang]
    transcript = Transcript(out, person_user.id)
    _watch(server, transcript)
    started = time.perf_counter()
    transcript.hold()  # until the heading says whether this run resumes a table
    async with Harness(server) as harness:
        try:
            # a loaded machine may take a while to replay a stored table: the stand-in's 5 s is for tests
            bot = await harness.start(make_bot(server.config.token, db or ":memory:", seed), timeout=60)
            cog: Any = bot.get_cog("Mahjong")  # the product's cog, read as the sandbox's scoreboard
            runner, played_before = await _table(cog, person_user, outdir, transcript, hands, seed, rules, lang)
        finally:
            transcript.release()
        blind = 0  # prompts whose picture did not show the hand their buttons play (a bug)
        clock_played = 0  # the person's decisions their clock played: prompts they never had to answer (a bug)
        if runner is not None:
            outdir.table = runner.session.table_id
            outdir.save(finished=False)
            winner = PlaysToWin(picture_view(runner))
            settle = dm_settled(runner, person_user.id)  # the person reads a prompt once its delivery has landed
            person = Person(person_user, winner, on_choice=transcript.answered, settle=settle)
            watch = ClockWatch.start(runner, person_user.id)
            await _play(server, runner, person, hands, played_before)
            blind, clock_played = winner.blind, watch.timeouts()
            if not runner.session.closed:
                await (await person_user.slash("mahjong close")).message()
        transcript.note("The leaderboard")
        await (await person_user.slash("mahjong leaderboard")).message()
        await asyncio.sleep(0.2)
        problems = harness.problems()
    if blind:
        problems.append(f"{blind} prompt(s) showed a picture that is not of the hand the buttons play")
    if clock_played:
        problems.append(
            f"the clock played {clock_played} of the person's decision(s): no prompt for them was left to answer"
        )
    seconds = time.perf_counter() - started
    played = ""
    if runner is not None and runner.session.match is not None:
        total = len(runner.session.match.history)
        played = f" {total} hand(s) at the table, {total - played_before} in this run,"
    transcript.note(f"Done:{played} in {seconds:.1f} s; {transcript.written} images")
    for problem in problems:
        transcript.note(f"Problem: {problem}")
    outdir.save(finished=True)
    print(f"wrote {transcript.path} and {transcript.written} images")
    return 1 if problems else 0


async def _table(
    cog: Any, person: SimUser, outdir: Outdir, transcript: Transcript, hands: int, seed: int, rules: str, lang: str
) -> tuple[Any, int]:
    """The table to play — resumed from the database, or opened by the person — and how many of its hands
    were finished before this run; no table when the run continued here had already ended."""
    runner = cog.registry.in_channel(person.server.channel("general").id)
    if runner is not None and runner.session.match is not None:
        before = len(runner.session.match.history)
        transcript.note(
            f"Resumed at hand {runner.session.resumed_at} of table {runner.session.table_id} stored in {outdir.db} (the bot was "
            f"stopped mid-match; {before} hand(s) were finished)"
        )
        return runner, before
    if outdir.continuing and outdir.table is not None and outdir.table not in cog.registry:
        transcript.note(f"Nothing to resume: table {outdir.table} stored in {outdir.db} had finished")
        return None, 0
    transcript.note(f"A new table: {rules}, {hands} hand(s), seed {seed}, language {lang}")
    if runner is None:  # (a table stored before its start comes back as a lobby)
        await (await person.slash("mahjong create", **table_options(rules))).message()
        runner = cog.registry.in_channel(person.server.channel("general").id)
    await (await person.slash("mahjong start")).message()
    return runner, 0


async def _play(server: DevServer, runner: Any, person: Person, hands: int, before: int) -> None:
    """The person plays until the table has ``hands`` finished hands (or ends) and this run's last
    score sheet is out."""
    stop = asyncio.Event()
    play = asyncio.create_task(person.play(stop, timeout=120))
    await server.recorder.wait_until(
        lambda: runner.session.match is not None and (len(runner.session.match.history) >= hands or runner.session.closed),
        120 + 60 * hands,
        lambda: f"{hands} hands to be played",
    )
    await server.recorder.wait_until(  # the score sheets of this run's hands are out
        lambda: runner.session.closed or len(_sheets(server)) >= len(runner.session.match.history) - before,
        60,
        lambda: "the score sheets",
    )
    stop.set()
    with contextlib.suppress(Exception):
        await play
