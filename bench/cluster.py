"""Several bot processes on one PostgreSQL database, through the stand-in with Discord's rate limits on,
and one of them SIGKILLed mid-hand.

    python -m bench.cluster --processes 2 --tables 100 --hands 1

Starts a throw-away PostgreSQL server (tests/pgcluster.py) and the stand-in, then N real bot processes
(devserver/process.py): process 0 runs shard 0, which Discord sends every DM click to; process 1 runs the
shard of the stand-in's guild, so it creates and owns every table; the others run the remaining shards.
Each table has one simulated person clicking their DM prompts as fast as they arrive (each click reaches
process 0 and is forwarded to the owner) and pressing *Show my hand* on the table message every few
seconds (a channel click, to the guild's shard). Once every person has made a few moves, process 1 is
SIGKILLed; the others take its tables over when the leases run out; then it is started again (as its
supervisor would) and its channel clicks are forwarded to the new owner.

Printed as one JSON object on the last line:

* ``p50_ms``/``p99_ms``: click → interaction response, every answered click; ``dm_*`` and ``channel_*``
  the DM clicks and the channel clicks apart; ``steady_p99_ms`` the clicks before the kill;
* ``forwarded_p50_ms``/``forwarded_p99_ms``: the extra cost of a forwarded click, from its receipt by the
  process Discord gave it to to its delivery in the owner (measured inside the processes);
* ``errors``: ERROR lines the bot processes logged, and Discord rules the stand-in saw broken, but for
  ``unanswered_at_kill`` (clicks that were on their way to the killed process: Discord says "the
  application did not respond" for those, as it would);
* ``takeover_s``: from the SIGKILL until the last table answered a move again (the largest over the kills);
* ``dm_gap_s``: the longest time after a kill, until every table plays again, in which no DM click at any
  table was answered with its move made (the largest over the kills; ``kills`` has each kill's own);
* ``lost_moves``: moves whose click was answered but that are not in the database afterwards (must be 0);
* ``steady_idle_s``: before any kill, the longest a person went between two clicks (p99, max) — what a
  table goes without a move anyway; ``hand_gap_s``: from a hand's last click to the next hand's first prompt;
* ``unchanged_answers``: prompt clicks answered by an update still asking the same decision (the person
  presses again; should be 0);
* ``moving_answers``: clicks between the death and the takeover, answered with "press again";
* ``baseline_p99_ms`` and ``p99_ratio``: the same tables and people on one bot process on SQLite, no kill
  (``--no-baseline`` skips it);
* ``takeover_timeline``: for the tables taken over, seconds after the kill (p50 and max over the tables) of
  each step of a table's takeover: its lease ``claimed`` and its moves ``replayed`` (told by the new
  owner), the ``channel_told`` and the ``table_posted``, the ``prompt_sent`` (the person's fresh DM) and
  the ``first_move`` clicked and made (these four read off the stand-in); the slowest tables' own
  timelines go to stderr;
* ``error_kinds``: the errors by kind (late answers, 429s, ...), ``errors_after_kill`` those from the kill on.

``--kill home|shard0|all``: which process is SIGKILLed — ``home`` (process 1, the guild's shard: the
owner of every table, the default), ``shard0`` (process 0, whose shard Discord sends every DM click to;
every other process runs a standby session of shard 0, so DM play goes on), or ``all`` (home, then once
it is back, every table has gone home to it and plays there again, shard 0's).
``--graceful`` stops the process with SIGTERM instead: a clean shutdown hands its tables to the others at once.
``--think S``: each person takes S seconds on average before a DM click (by default they click at once).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

from cogs.i18n import t
from devserver import Config, DevServer, Latency, RateLimits
from devserver.fixtures import Harness
from devserver.gateway import shard_of
from devserver.interactions import Interaction
from devserver.people import Person, code_of, is_mode_switch, move_of, prompt_buttons
from devserver.process import BotProcess
from devserver.recorder import Message
from table.codes import to_action

from .tables import REAL, percentile

MOVING = 4  # answered with a private message (a prompt button's answer is an update of its DM)
MADE = (6, 7)  # a prompt's click answered by updating the DM (at once, or deferred): the move was made
MOVING_WORDS = t("en", "err.table_moving")  # "press again in a few seconds": the table is being taken over
RESUMED_WORDS = t("en", "play.resumed", n=0).rsplit(" ", 1)[0]  # the channel told a table plays on
RUN_LIMIT = 900.0  # seconds of play: tables still short of their hands by then are reported
TAKEOVER_LIMIT = 60.0  # seconds: a table not playing again by then is reported, and the run goes on
END_GRACE = 20.0  # seconds the people get to finish their last click once the run is over
STEPS = ("claimed", "replayed", "channel_told", "table_posted", "prompt_sent", "first_move")
NEVER_TOLD = "\0never told"  # _after_deferral: no answer after the acknowledgement
DEFERRED_PATIENCE = 10.0  # seconds a person looks at an acknowledged click that changed nothing
PATIENCE = 3.5  # seconds a person waits for a DM click's answer: Discord has said "did not respond" by then
KILL_AFTER_MOVES = 3  # every person has made this many moves: every table is in a hand


@dataclass
class Player(Person):
    """A person at a phone: DM prompts only (not the private copies Show my hand brings), pressed again
    after "press again", and every answered move remembered to check against the database."""

    moves: list[tuple[int, int, str, float]] = field(default_factory=list)  # (table, hand, action, clicked)
    dm_latencies: list[float] = field(default_factory=list)
    made_at: list[float] = field(default_factory=list)  # when each DM click that made its move was answered
    channel_latencies: list[float] = field(default_factory=list)
    unanswered: list[float] = field(default_factory=list)  # when each click that got no answer was made
    moving: int = 0
    unchanged: int = 0  # clicks answered by an update that still asked the same decision
    failures: list[str] = field(default_factory=list)  # what went wrong for the simulated person
    refused: Counter[str] = field(default_factory=Counter)  # private refusals of a prompt click, by words
    timed: list[tuple[float, float]] = field(default_factory=list)  # (clicked at, seconds) of every answer
    taken_back: set[tuple[int, int]] = field(default_factory=set)  # (message, version) whose Take back was pressed
    outcomes: list[tuple[float, str]] = field(default_factory=list)  # (clicked at, what came of it): DM prompts
    stale: set[tuple[int, int]] = field(default_factory=set)  # (message, version) refused as no longer current
    prompted: list[tuple[float, str]] = field(default_factory=list)  # (wall time, move) each prompt was seen
    doing: str = ""  # where they are in a click, for the report of a table that stopped
    think: float = 0.0  # mean seconds before answering a prompt (0.2–1.8 ×, as bench.tables's people)
    rng: random.Random = field(default_factory=random.Random)

    def _pending(self, message: Message) -> bool:
        if message.dm_with != self.user.id or (message.id, message.updated_seq) in self.stale:
            return False
        return super()._pending(message) or self._take_back(message) is not None

    def _take_back(self, message: Message) -> str | None:
        """A DM saying the table plays this seat (a clock that ran out while the owner was away): its
        Take back button, once per version of the message."""
        if (message.id, message.updated_seq) in self.taken_back or prompt_buttons(message):
            return None
        return next((b.custom_id for b in message.buttons() if (b.custom_id or "").endswith(":back")), None)

    async def act_once(self, timeout: float = 10.0) -> None:  # type: ignore[override]
        try:
            await self._act(timeout)
        except Exception as error:  # noqa: BLE001 - reported, and the person plays on
            self.failures.append(repr(error))
            await asyncio.sleep(0.2)

    async def _act(self, timeout: float) -> None:
        self.doing = "waiting for a prompt"
        message = await self.next_prompt(timeout)
        self.prompted.append((time.time(), asked(message) or "take back?"))
        self.doing = f"thinking about {message.id}"
        if self.think:
            await asyncio.sleep(self.think * self.rng.uniform(0.2, 1.8))
        back = self._take_back(message)
        if back is not None:
            self.taken_back.add((message.id, message.updated_seq))
            try:
                await (await self.user.click(message, back)).response(min(timeout, PATIENCE))
            except AssertionError:  # "did not respond" (its process died under it): they press again
                self.taken_back.discard((message.id, message.updated_seq))
            return
        buttons = prompt_buttons(message)
        if not buttons:  # the prompt went while they thought (their clock ran out): they look again
            return
        move = move_of(buttons[0])
        self.answered.add(move)
        answer = self.choose(message, buttons)
        if answer is None or not hasattr(answer, "custom_id"):
            return
        custom_id = answer.custom_id or ""
        version = (message.id, message.updated_seq)
        clicked_at, started = time.time(), time.perf_counter()
        self.doing = f"clicking {custom_id}"
        interaction = await self.user.click(message, custom_id)
        self.doing = f"waiting for the answer to {custom_id}"
        try:  # Discord shows "did not respond" after 3 s, and a person presses again then, not after 10
            response = await interaction.response(min(timeout, PATIENCE))
        except AssertionError:  # no answer in Discord's 3 s (its process died under it)
            self.unanswered.append(clicked_at)
            self.outcomes.append((clicked_at, "unanswered"))
            self.answered.discard(move)
            return
        elapsed = time.perf_counter() - started
        self.doing = f"answered {custom_id} with type {response.type}"
        # acknowledged in time, then told privately that the table moved: no move was made (journal.py)
        told = await _after_deferral(interaction, move, timeout, self._newer_prompt(message)) if response.type == MADE[0] else None
        if told is NEVER_TOLD:  # its process died between the acknowledgement and the answer: they look again
            self.outcomes.append((clicked_at, "deferred, never told"))
            self.answered.discard(move)
            return
        if response.type == MADE[1] and not is_mode_switch(answer) and self._still_asks(interaction, move):  # the same buttons, shown again
            self.outcomes.append((clicked_at, "unchanged"))
            self.unchanged += 1
            self.answered.discard(move)  # a person sees their prompt still there and presses again
            return
        self.outcomes.append((clicked_at, "made" if response.type in MADE and told is None else "private"))
        if response.type not in MADE or told is not None:  # a private word instead of the updated hand: no move
            words = told if told is not None else await self._words(interaction, message, timeout)
            if words is NEVER_TOLD:  # "thinking…" from a process that died before its words: they look again
                self.outcomes[-1] = (clicked_at, "deferred, never told")
                self.answered.discard(move)
                return
            if MOVING_WORDS in words:
                self.moving += 1
                await asyncio.sleep(2.0)  # and pressed again, as it says, "in a few seconds"
            else:  # e.g. a prompt of a move the dead process had not yet stored: its DM is brought up to date
                self.refused[words[:60]] += 1
                self.stale.add(version)  # told so, a person looks at their latest hand, not at this one again
                await asyncio.sleep(0.3)
            self.answered.discard(move)  # the decision is still to be made, whatever the prompt's id
            return
        self.latencies.append(elapsed)
        self.dm_latencies.append(elapsed)
        self.made_at.append(clicked_at + elapsed)
        self.timed.append((clicked_at, elapsed))
        code = code_of(answer)
        if code:
            _, _, table, hand, seat, _, _ = custom_id.split(":")
            self.moves.append((int(table), int(hand), str(to_action(int(seat), code)), clicked_at))

    def waits(self, before: float | None) -> list[tuple[float, float]]:
        """(from, seconds) between two things happening to them (a prompt seen, a click), before ``before``."""
        times = sorted(at for at, _ in [*self.outcomes, *self.prompted] if before is None or at < before)
        return [(a, b - a) for a, b in zip(times, times[1:], strict=False)]

    def around(self, origin: float, start: float, end: float) -> str:
        """Their clicks and the prompts they saw between ``start`` and ``end``, in seconds from ``origin``."""
        clicks = [(round(at - origin, 2), what) for at, what in self.outcomes if start < at < end]
        seen = [(round(at - origin, 2), move) for at, move in self.prompted if start < at < end]
        return f"clicks {clicks[:8]}, prompts seen {seen[:8]}"

    def dm_versions(self, origin: float, start: float, end: float) -> list[tuple[float, str]]:
        """Each version of their DMs that began to show between ``start`` and ``end`` (the stand-in's clock),
        in seconds from ``origin``: what it said first, ▶ marking one with prompt buttons."""
        shown = []
        for message in self.user.server.recorder.private_to(self.user.id):
            if message.dm_with != self.user.id:
                continue
            for version in [*message.history, message.snapshot()]:
                if start < version["at"] < end:
                    buttons = [c.get("custom_id", "") for row in version["components"] for c in row.get("components", [])]
                    prompt = "▶" if any(b.startswith("mj:a:") for b in buttons) else " "
                    shown.append((round(version["at"] - origin, 2), prompt + version["content"][:70].replace("\n", " | ")))
        return sorted(shown)

    def _still_asks(self, interaction: Interaction, move: str) -> bool:
        """An update of the clicked DM (type 7) that still asks the decision clicked: no move was made,
        whatever the answer's type says (counted: ``unchanged_answers``)."""
        shown = self.user.server.recorder.get(interaction.source_message_id or 0)
        return shown is not None and asked(shown) == move

    def report(self, task: asyncio.Task[None]) -> None:
        """Where a person whose table stopped is, for the run's log: down to the await their play is in."""
        print(f"{self.user.name}: failures {self.failures[-3:]}, last clicks {self.outcomes[-3:]}", file=sys.stderr)
        print(f"  now {self.doing!r}; their DMs: {self.dm_summary()}", file=sys.stderr)
        task.print_stack(limit=12, file=sys.stderr)

    def dm_summary(self) -> list[tuple[int, bool, str, bool, str, list[str]]]:
        """Their last DMs, for a table that stopped: (id, deleted, first prompt button's move, answered?,
        the words' start, the buttons)."""
        dms = [m for m in self.user.server.recorder.private_to(self.user.id) if m.dm_with == self.user.id and m.attachments][-3:]
        moves = [asked(m) or "" for m in dms]
        return [
            (m.id, m.deleted, move, move in self.answered, m.content[:50], [b.custom_id or "" for b in m.buttons()][:4])
            for m, move in zip(dms, moves, strict=True)
        ]

    async def _words(self, interaction: Interaction, clicked: Message, timeout: float) -> str:
        """The private answer's words, or NEVER_TOLD when a newer prompt or ``DEFERRED_PATIENCE`` comes first
        (a deferred message, type 5, that its process never filled in)."""
        words = asyncio.ensure_future(interaction.message(_patient(timeout)))
        if await _unless_moved([words], self._newer_prompt(clicked)) is None:
            return NEVER_TOLD
        return str(words.result().content)

    async def _newer_prompt(self, clicked: Message) -> None:
        """Until a prompt newer than the one clicked is in their DMs (Discord notifies a new message): a
        table taken over after its dead process acknowledged a click sends its hand afresh."""
        def newer() -> bool:
            return any(
                m.created_seq > clicked.created_seq and not m.deleted and prompt_buttons(m)
                for m in self.user.server.recorder.private_to(self.user.id)
                if m.dm_with == self.user.id
            )
        await self.user.server.recorder.wait_private(self.user.id, newer, DEFERRED_PATIENCE, lambda: "a newer prompt")

    async def peek(self, channel: str, stop: asyncio.Event, every: float, paused: asyncio.Event) -> None:
        """Show my hand on the table message now and then: a click in the guild's channel."""
        server = self.user.server
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), every)
            if stop.is_set():
                return
            if paused.is_set():
                continue
            shows = [
                (m, b.custom_id)
                for m in server.channel_messages(channel)
                for b in m.buttons()
                if (b.custom_id or "").startswith("mj:t:") and (b.custom_id or "").endswith(":show")
            ]
            if not shows:
                continue
            message, custom_id = shows[-1]
            clicked_at, started = time.time(), time.perf_counter()
            interaction = await self.user.click(message, custom_id or "")
            try:
                response = await interaction.response(10)
            except AssertionError:
                self.unanswered.append(clicked_at)
                continue
            elapsed = time.perf_counter() - started
            if response.type != MOVING or MOVING_WORDS not in (await interaction.message(10)).content:
                self.channel_latencies.append(elapsed)
                self.latencies.append(elapsed)
                self.timed.append((clicked_at, elapsed))


def asked(message: Message) -> str | None:
    """The decision a DM's prompt asks (its first prompt button's move), or None: no prompt on it."""
    return next((move_of(b) for b in prompt_buttons(message)), None)


def _patient(timeout: float) -> float:
    """A wait bounded as the person's patience is: Python 3.11's wait_for (the stand-in's waits) can lose a
    cancel when a change lands in the same turn, and such a wait then ran its whole timeout."""
    return min(timeout, DEFERRED_PATIENCE + 1)


async def _unless_moved(waits: list[asyncio.Future[Any]], elsewhere: Awaitable[None]) -> set[asyncio.Future[Any]] | None:
    """The first of ``waits`` to end (the rest cancelled), or None when ``elsewhere`` (a newer prompt, or the
    person's patience) ended first and alone."""
    moved = asyncio.ensure_future(elsewhere)
    done, pending = await asyncio.wait({*waits, moved}, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    if moved in done:
        moved.exception()  # retrieved: a patience that ran out says the same as a newer prompt
        if not any(wait in done for wait in waits):
            return None
    return done


async def _after_deferral(interaction: Interaction, move: str, timeout: float, elsewhere: Awaitable[None]) -> str | None:
    """What a deferred update (a click acknowledged while its move was being stored) came to: None when
    the DM was edited in place to a later decision than ``move`` (the move made), else the words of the
    private follow-up sent instead; NEVER_TOLD when neither came before a newer prompt did, or before
    ``DEFERRED_PATIENCE`` (a person does not look at an unchanged message for ever: its process may have
    died under the click). An edit still asking ``move`` (a new owner's fresh picture of the same
    decision) is not the answer: a person sees their prompt still there."""
    recorder = interaction.server.recorder

    def answered() -> tuple[str, Message] | None:
        if interaction.followup_ids and (words := recorder.get(interaction.followup_ids[0])) is not None:
            return "followed", words
        shown = recorder.get(interaction.source_message_id) if interaction.source_message_id is not None else None
        if shown is None or shown.loading or shown.updated_seq <= interaction.response_seq:
            return None
        return None if asked(shown) == move else ("edited", shown)

    came = asyncio.ensure_future(recorder.wait_until(answered, _patient(timeout), lambda: "the answer of a deferred click"))
    if await _unless_moved([came], elsewhere) is None or came.exception() is not None:
        return NEVER_TOLD
    how, message = came.result()
    return str(message.content) if how == "followed" else None


@dataclass
class Kill:
    """One SIGKILL of the run: whom, when (wall and stand-in clocks), and what came of it."""

    victim: int
    at: float
    clock: float
    problems_before: int
    ended: set[str] = field(default_factory=set)  # the people whose table's match was over at the kill
    stuck: set[str] = field(default_factory=set)  # the people whose table made no move TAKEOVER_LIMIT after it
    takeover_s: float | None = None
    playing_at: float | None = None  # wall time every table played again
    dm_gap_s: float | None = None


def steady_gaps(people: list[Player], before: float | None) -> tuple[list[float], list[float]]:
    """Before the first kill: the seconds between each person's consecutive clicks (what a table goes
    without a move with nothing killed: ``takeover_s``'s yardstick), and from a hand's last click to the
    first prompt of the next hand (a hand's end, its score sheet and the next deal)."""
    idle: list[float] = []
    hand_gaps: list[float] = []
    for person in people:
        clicks = [at for at, _ in person.outcomes if before is None or at < before]
        idle += [b - a for a, b in zip(clicks, clicks[1:], strict=False)]
        last_hand = None
        for at, move in person.prompted:
            if before is not None and at >= before:
                break
            hand = move.split(":")[1] if move.count(":") == 3 else None
            if hand is not None and last_hand is not None and hand != last_hand:
                last_click = max((c for c in clicks if c < at), default=None)
                if last_click is not None:
                    hand_gaps.append(at - last_click)
            last_hand = hand or last_hand
    return idle, hand_gaps


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def channel_tail(server: DevServer, channel: str, count: int = 5) -> list[tuple[float, str, bool]]:
    """A table channel's last messages (stand-in clock, the words' start, edited since), for a table that stopped."""
    return [
        (round(m.created_at, 1), (m.content or next((e.get("title") or "" for e in m.embeds), ""))[:60], m.edited)
        for m in server.channel_messages(channel)[-count:]
    ]


def settled(person: Player, since: float, homes: dict[int, tuple[float, float]] | None) -> bool:
    """Playing as before the last kill: a move made since the restart, and after their table went home
    when ``homes`` (the restarted process's takeovers) are given: each kill of ``--kill all`` is of a
    cluster at rest, not of one still handing its tables back."""
    after = since
    if homes is not None and person.moves:
        home = homes.get(person.moves[0][0])
        if home is None:
            return False
        after = max(since, home[1])
    return len(person.moves) >= KILL_AFTER_MOVES and any(m[3] > after for m in person.moves)


def dm_gap(made: list[float], start: float, end: float) -> float:
    """The longest time from ``start`` to ``end`` in which no DM click was answered with its move made
    (``made``: when each answer arrived, sorted).

    >>> dm_gap([1.0, 2.5, 3.0, 9.0], 2.0, 10.0)
    6.0
    """
    times = [start, *(at for at in made if start < at < end), end]
    return round(max(b - a for a, b in zip(times, times[1:], strict=False)), 2)


def shard_plan(guild_id: int, processes: int) -> tuple[int, list[tuple[int, ...]]]:
    """The shard count and each process's shards: 0 first (DMs), the guild's second (its tables)."""
    if processes == 1:
        return 1, [(0,)]
    count = next(c for c in range(max(2, processes), 4096) if shard_of(guild_id, c) != 0)
    guild = shard_of(guild_id, count)
    rest = [s for s in range(count) if s not in (0, guild)]
    plan: list[list[int]] = [[0], [guild]] + [[] for _ in range(processes - 2)]
    for index, shard in enumerate(rest):
        plan[2 + index % (processes - 2) if processes > 2 else 0].append(shard)
    return count, [tuple(sorted(p)) for p in plan]


def takeover_timeline(
    server: DevServer, people: list[Player], channels: tuple[str, ...], killed_at: float, kill_clock: float,
    taken: dict[int, tuple[float, float]],
) -> tuple[dict[str, dict[str, float | None]], list[tuple[int, dict[str, float | None]]]]:
    """Each taken-over table's steps, in seconds after the kill: the new owner's claim and replay, then
    what the stand-in saw (the channel told, the table posted, the person's fresh DM) and the first move."""
    tables: list[tuple[int, dict[str, float | None]]] = []
    for person, channel in zip(people, channels, strict=True):
        if not person.moves or person.moves[0][0] not in taken:
            continue
        table = person.moves[0][0]
        claimed, replayed = taken[table]
        posts = [m for m in server.channel_messages(channel) if m.created_at > kill_clock]
        claimed_clock = kill_clock + claimed - killed_at
        dms = [m for m in server.recorder.private_to(person.user.id) if m.dm_with and m.created_at > claimed_clock]

        def first(times: list[float]) -> float | None:
            return round(min(times) - kill_clock, 2) if times else None

        moves = [m[3] - killed_at for m in person.moves if m[3] > killed_at]
        tables.append((table, {
            "claimed": round(claimed - killed_at, 2),
            "replayed": round(replayed - killed_at, 2),
            "channel_told": first([m.created_at for m in posts if RESUMED_WORDS in m.content]),
            "table_posted": first([m.created_at for m in posts if any(a.filename == "table.png" for a in m.attachments)]),
            "prompt_sent": first([m.created_at for m in dms]),
            "first_move": round(min(moves), 2) if moves else None,
        }))  # fmt: skip
        clicks = Counter(what for at, what in person.outcomes if claimed <= at and (not moves or at < killed_at + min(moves)))
        tables[-1][1].update({f"clicks_{k}": v for k, v in clicks.items()})  # before the first move, since the claim
        seen = sorted([(m.created_at, "dm" if m.dm_with else (m.content[:12] or m.attachments[0].filename if m.attachments else "?"))
                       for m in [*posts, *dms]])[:6]  # fmt: skip
        tables[-1][1]["first_messages"] = [f"{at - kill_clock:.2f} {what}" for at, what in seen]  # type: ignore[assignment]
    summary: dict[str, dict[str, float | None]] = {}
    for step in STEPS:
        values = [float(v) for _, steps in tables if (v := steps[step]) is not None]  # type: ignore[arg-type]
        summary[step] = {
            "p50": round(statistics.median(values), 2) if values else None,
            "max": round(max(values), 2) if values else None,
            "tables": len(values),
        }
    slowest = sorted(tables, key=lambda item: -(item[1]["first_move"] or 1e9))[:5]
    return summary, slowest


def error_kind(line: str) -> str:
    """What broke, from a problem line or a bot's ERROR line: the stand-in's rule name, else the logger."""
    if "Discord rule broken:" in line:
        return line.split("Discord rule broken:", 1)[1].split()[0]
    if " ERROR " in line:
        return "bot: " + line.split(" ERROR ", 1)[1].split(":", 1)[0]
    return line[:40]


def ms(values: list[float], q: float | None = None) -> float | None:
    if not values:
        return None
    return round(1000 * (statistics.median(values) if q is None else percentile(values, q)), 1)


@contextlib.asynccontextmanager
async def _reaped(bots: list[BotProcess]) -> AsyncIterator[None]:
    """A run that ends early (Ctrl-C, an error) SIGKILLs the bot processes it started: left running, each
    kept calling the stand-in that had gone, for the minutes its start-up retries last."""
    try:
        yield
    finally:
        for bot in bots:
            bot.kill()


async def stored_moves(database: str) -> Counter[tuple[int, int, str]]:
    connection = await asyncpg.connect(database)
    try:
        rows = await connection.fetch(
            "SELECT h.table_id, h.hand_no, m.action FROM moves m JOIN hands h ON h.id = m.hand_id"
        )
    finally:
        await connection.close()
    return Counter((int(r[0]), int(r[1]), str(r[2])) for r in rows)


async def run(
    processes: int,
    tables: int,
    hands: int,
    *,
    database: str,
    kill: bool,
    latency: bool = False,
    lease_seconds: float = 8.0,
    peek_every: float = 15.0,
    graceful: bool = False,
    think: float = 0.0,
    kill_which: str = "home",
    picture_workers: int = 0,
) -> dict:
    names = [f"player{i}" for i in range(tables)]
    channels = tuple(f"table-{i}" for i in range(tables))
    config = Config(
        rate_limits=RateLimits(), wait_timeout=900, latency=REAL if latency else Latency(), real_time_ids=latency,
        openapi=False,  # the bodies' schema check is the tests' cost, not the bot's: the bench measures the bot
    )
    server = DevServer(config, channels=channels, members=tuple(names))
    spawned: list[BotProcess] = []  # every bot process of the run (killed should the run end early)
    async with Harness(server) as harness, _reaped(spawned):
        count, plan = shard_plan(server.world.guild_id, processes)
        where = (server.api_url, server.gateway_url, server.config.token)

        def process(index: int) -> BotProcess:
            sharded = processes > 1
            spawned.append(bot := BotProcess(
                *where, database=database, shards=plan[index] if sharded else None,
                shard_count=count if sharded else None, name=f"bench-{index}",
                lease_seconds=lease_seconds, edit_interval=1.0, seed=1,
                shard0_standby=sharded and index != 0,  # DM clicks reach it too: shard 0 may die
                picture_workers=picture_workers,
            ))  # fmt: skip
            return bot

        bots = [process(i) for i in range(processes)]
        retired: list[BotProcess] = []
        for bot in bots:  # one at a time: the first syncs the commands
            await bot.start(timeout=120)
        people = [Player(server.member(n), think=think, rng=random.Random(i)) for i, n in enumerate(names)]
        for person, channel in zip(people, channels, strict=True):
            await (await person.user.slash("mahjong create", channel=channel, rounds=4)).message()
            await (await person.user.slash("mahjong start", channel=channel)).message()
        stop, paused = asyncio.Event(), asyncio.Event()
        started = time.perf_counter()
        playing = [asyncio.create_task(p.play(stop, timeout=900)) for p in people]
        peeking = [
            asyncio.create_task(p.peek(c, stop, peek_every, paused)) for p, c in zip(people, channels, strict=True)
        ]

        def match_over(channel: str) -> bool:
            return any("Match over" in (e.get("title") or "") for m in server.channel_messages(channel) for e in m.embeds)

        def finished(channel: str) -> int:
            return sum(
                1 for m in server.channel_messages(channel) if any(a.filename == "score.png" for a in m.attachments)
            )

        # the processes SIGKILLed in turn (--kill): 1 runs the guild's shard and so owns every table (home),
        # 0 runs shard 0, which Discord sends every DM click to (and 1 a standby session of it)
        victims = ({"home": [1], "shard0": [0], "all": [1, 0]}[kill_which] if kill and processes > 1 else [])
        kills: list[Kill] = []
        stuck = 0
        since = 0.0  # wall time the last restarted process was back: the next kill waits for moves after it
        while True:
            await asyncio.sleep(0.5)
            current = kills[-1] if kills else None
            if len(kills) < len(victims) and (current is None or current.takeover_s is not None):
                homes = bots[1].taken if current is not None and current.victim == 1 else None
                lagging = [(p, c) for p, c in zip(people, channels, strict=True)
                           if not settled(p, since, homes) and (current is None or p.user.name not in current.ended | current.stuck)]  # fmt: skip
                if current is not None and len(lagging) <= 3:  # a match over since the last kill plays no more
                    current.ended |= {p.user.name for p, c in lagging if match_over(c)}
                    lagging = [(p, c) for p, c in lagging if p.user.name not in current.ended]
                if current is not None and lagging and time.time() - since > TAKEOVER_LIMIT:
                    current.ended |= {p.user.name for p, c in lagging if match_over(c)}
                    lagging = [(p, c) for p, c in lagging if p.user.name not in current.ended]
                if current is not None and lagging and time.time() - since > TAKEOVER_LIMIT:
                    print(f"no move since the restart for {len(lagging)} tables: killing all the same", file=sys.stderr)
                    for person, channel in lagging[:2]:
                        person.report(playing[people.index(person)])
                        print(f"  their table's channel at {server.clock.now():.1f}: {channel_tail(server, channel)}", file=sys.stderr)
                    current.stuck |= {p.user.name for p, _ in lagging}
                    lagging = []
                if not lagging:
                    victim = victims[len(kills)]
                    if victim == 1:
                        paused.set()  # the guild's shard goes down with it: no channel clicks can arrive
                    before = len(harness.problems()) + sum(len(b.errors) for b in bots)
                    bots[victim].terminate() if graceful else bots[victim].kill()
                    earlier = current.stuck if current is not None else set()
                    current = Kill(victim, time.time(), server.clock.now(), before, stuck=earlier)
                    current.ended = {p.user.name for p, c in zip(people, channels, strict=True) if match_over(c)}
                    current.ended |= earlier  # reported at the last kill: not measured again
                    kills.append(current)
                    print(f"killed bench-{victim} at {time.perf_counter() - started:.1f} s", file=sys.stderr)
            if current is not None and current.takeover_s is None:
                killed_at, ended = current.at, current.ended
                # the first move clicked after the kill and made: only a live owner makes a move
                # (a table whose match was over before the kill, or that the takeover found over, has nothing
                # to play again)
                idle_now = [(p, c) for p, c in zip(people, channels, strict=True)
                            if p.user.name not in ended and not any(m[3] > killed_at for m in p.moves)]  # fmt: skip
                if len(idle_now) <= 3:  # the last few only: reading a channel's messages scans them all
                    ended |= {p.user.name for p, c in idle_now if match_over(c)}
                again = [min((m[3] for m in p.moves if m[3] > killed_at), default=None) for p in people
                         if p.user.name not in ended]  # fmt: skip
                if time.time() - killed_at > TAKEOVER_LIMIT and any(a is None for a in again):
                    waiting = [p for p in people if p.user.name not in ended]
                    idle = [p.user.name for p, a in zip(waiting, again, strict=True) if a is None]
                    print(f"no move since the kill for {len(idle)} tables: {idle[:10]}", file=sys.stderr)
                    current.stuck |= set(idle)  # reported: the next kill does not wait for them
                    for person in people:
                        if person.user.name in idle[:2]:
                            person.report(playing[people.index(person)])
                    print("\n".join(bots[0].log[-30:]), file=sys.stderr)
                    again = [a if a is not None else time.time() for a in again]
                if all(a is not None for a in again):
                    current.takeover_s = round(max(again, default=killed_at) - killed_at, 2)  # type: ignore[type-var]
                    waiting = [p for p in people if p.user.name not in ended]
                    for gap, person in sorted(zip(again, waiting, strict=True), key=lambda g: -g[0])[:3]:
                        seen = person.around(killed_at, killed_at - 5, gap + 1)
                        print(f"  slowest: {person.user.name} after {gap - killed_at:.2f} s, {seen}", file=sys.stderr)
                        for at, what in person.dm_versions(current.clock, current.clock - 1, current.clock + gap - killed_at + 1):
                            print(f"    DM at {at:6.2f} {what}", file=sys.stderr)
                    current.playing_at = time.time()
                    print(f"every table plays again after {current.takeover_s} s", file=sys.stderr)
                    victim = current.victim
                    retired.append(bots[victim])  # started again, as its supervisor would
                    bots[victim] = process(victim)
                    await bots[victim].start(timeout=120)
                    since = time.time()
                    paused.clear()
            done = all(finished(c) >= hands for c in channels)
            if done and len(kills) == len(victims) and all(k.takeover_s is not None for k in kills):
                break
            if time.perf_counter() - started > RUN_LIMIT:
                behind = [c for c in channels if finished(c) < hands]
                print(f"stopped after {RUN_LIMIT:g} s; tables short of {hands} hands: {behind[:10]}", file=sys.stderr)
                stuck = len(behind)
                break
        seconds = time.perf_counter() - started
        await asyncio.sleep(peek_every + 1)  # channel clicks to the restarted process
        stop.set()
        _, late = await asyncio.wait([*playing, *peeking], timeout=END_GRACE)
        if late:  # a click still waiting for its answer: reported, not waited for
            print(f"{len(late)} people still waiting {END_GRACE:g} s after the end", file=sys.stderr)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        await asyncio.gather(*(bot.stop() for bot in bots))  # at once: none hands its tables to another
        problems = harness.problems()
        server.recorder.violations.clear()  # reported here, not raised by the harness
        harness.errors.records.clear()
    answered = Counter((t, h, a) for p in people for t, h, a, _ in p.moves)
    stored = await stored_moves(database) if database.startswith("postgresql://") else answered
    lost = sum(max(0, n - stored[key]) for key, n in answered.items())
    unanswered = [at for p in people for at in p.unanswered]
    at_kill = [at for at in unanswered if any(k.at - 3.5 <= at <= k.at + 0.5 for k in kills)]
    deadline_misses = sum(1 for line in problems if "response_deadline" in line)
    child_errors = [line for bot in (*bots, *retired) for line in bot.errors]
    if os.environ.get("MAHJONG_BENCH_LOGS"):  # every line each bot process logged, for a closer look
        folder = Path(os.environ["MAHJONG_BENCH_LOGS"])
        folder.mkdir(parents=True, exist_ok=True)
        for number, bot in enumerate((*bots, *retired)):
            (folder / f"{number}-{bot.name}.log").write_text("\n".join(bot.log))
    failures = [f for p in people for f in p.failures]
    refused = sum((p.refused for p in people), Counter())
    if refused:
        print("refused clicks:", dict(refused), file=sys.stderr)
    for failure in failures[:5]:
        print("person:", failure, file=sys.stderr)
    for line in [*child_errors, *problems][:8]:
        print("problem:", line, file=sys.stderr)
    for violation in server.violations[:8]:  # when, among the kills (a 429's cause is in what happened then)
        nearest = min(kills, key=lambda k: abs(violation.at - k.at), default=None)
        when = f"{violation.at - nearest.at:+.1f} s from killing bench-{nearest.victim}" if nearest else "no kill"
        print(f"problem {violation.rule} at {when}", file=sys.stderr)
    errors = len(child_errors) + len(problems) - min(deadline_misses, len(at_kill))
    kinds = Counter(error_kind(line) for line in [*child_errors, *problems])
    timelines: list[dict] = []
    made = sorted(at for p in people for at in p.made_at)
    for number, kill in enumerate(kills):
        later = kills[number + 1].at if number + 1 < len(kills) else float("inf")
        taken: dict[int, tuple[float, float]] = {}  # the first takeover after the kill (not the way home)
        for bot in (*bots, *retired):
            for table, (claimed, replayed) in bot.taken.items():
                if kill.at <= claimed < later and (table not in taken or claimed < taken[table][0]):
                    taken[table] = (claimed, replayed)
        timeline, slowest = takeover_timeline(server, people, channels, kill.at, kill.clock, taken)
        timelines.append(timeline)
        for table, steps in slowest:
            print(f"table {table} after killing bench-{kill.victim}:", json.dumps(steps), file=sys.stderr)
        kill.dm_gap_s = dm_gap(made, kill.at, kill.playing_at or time.time())
    killed_at = kills[0].at if kills else None
    forwarded = [s for bot in (*bots, *retired) for s in bot.forwarded]
    dm = [x for p in people for x in p.dm_latencies]
    channel = [x for p in people for x in p.channel_latencies]
    every = dm + channel
    steady = [x for p in people for at, x in p.timed if killed_at is None or at < killed_at]
    idle, hand_gaps = steady_gaps(people, killed_at)
    longest = max(((gap, since, p) for p in people for since, gap in p.waits(killed_at)), key=lambda w: w[0], default=None)
    if longest is not None:
        gap, since, person = longest
        print(f"longest steady wait: {person.user.name} {gap:.2f} s from {since - (killed_at or since):.1f} s after the"
              f" first kill; {person.around(since, since - 5, since + gap + 1)}", file=sys.stderr)  # fmt: skip
    return {
        "processes": processes,
        "tables": tables,
        "clicks": len(every),
        "p50_ms": ms(every),
        "p99_ms": ms(every, 0.99),
        "steady_p99_ms": ms(steady, 0.99),
        "dm_clicks": len(dm),
        "dm_p50_ms": ms(dm),
        "dm_p99_ms": ms(dm, 0.99),
        "channel_clicks": len(channel),
        "channel_p50_ms": ms(channel),
        "channel_p99_ms": ms(channel, 0.99),
        "forwarded_clicks": len(forwarded),
        "forwarded_p50_ms": ms(forwarded),
        "forwarded_p99_ms": ms(forwarded, 0.99),
        "errors": errors,
        "kill": [("shard0" if k.victim == 0 else "home") for k in kills],
        "steady_idle_s": {"p99": _round(percentile(idle, 0.99)), "max": _round(max(idle, default=None))},
        "hand_gap_s": {"p50": _round(percentile(hand_gaps, 0.5)), "max": _round(max(hand_gaps, default=None))},
        "takeover_s": max((k.takeover_s for k in kills if k.takeover_s is not None), default=None),
        "dm_gap_s": max((k.dm_gap_s for k in kills if k.dm_gap_s is not None), default=None),
        "kills": [
            {"victim": f"bench-{k.victim}", "takeover_s": k.takeover_s, "dm_gap_s": k.dm_gap_s, "stuck": len(k.stuck)}
            for k in kills
        ],
        "lost_moves": lost,
        "unchanged_answers": sum(p.unchanged for p in people),
        "unanswered_at_kill": len(at_kill),
        "unanswered_other": len(unanswered) - len(at_kill),
        "moving_answers": sum(p.moving for p in people),
        "person_failures": len(failures),
        "tables_short": stuck,
        "refused_clicks": sum(refused.values()),
        "answered_moves": sum(answered.values()),
        "seconds": round(seconds, 1),
        "error_kinds": dict(kinds),
        "errors_after_kill": max(0, errors - kills[0].problems_before) if kills else 0,
        "takeover_timeline": timelines[0] if timelines else {},
        "takeover_timelines": timelines if len(timelines) > 1 else None,
    }


async def cluster_run(args: argparse.Namespace) -> dict:
    from tests.pgcluster import Cluster

    cluster = Cluster.create()
    try:
        database = cluster.url(await cluster.create_database())
        return await run(
            args.processes, args.tables, args.hands, database=database, kill=not args.no_kill, kill_which=args.kill,
            latency=args.latency, lease_seconds=args.lease_seconds, graceful=args.graceful, peek_every=args.peek_every,
            think=args.think, picture_workers=args.render_processes,
        )  # fmt: skip
    finally:
        cluster.destroy()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.cluster", description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--hands", type=int, default=1, help="finished hands every table plays at least")
    parser.add_argument("--lease-seconds", type=float, default=8.0, help="the bot's default lease (data/leases.py)")
    parser.add_argument("--latency", action="store_true", help="the stand-in's latency model on (bench.tables's)")
    parser.add_argument("--no-kill", action="store_true", help="no process is killed")
    parser.add_argument(
        "--kill", choices=("home", "shard0", "all"), default="home",
        help="which process is SIGKILLed: the tables' owner (home), shard 0's (shard0), or each in turn (all)",
    )  # fmt: skip
    parser.add_argument("--graceful", action="store_true", help="SIGTERM instead of SIGKILL: a clean shutdown")
    parser.add_argument("--peek-every", type=float, default=15.0, help="seconds between a person's channel clicks")
    parser.add_argument("--think", type=float, default=0.0, help="each person's mean seconds before a DM click")
    parser.add_argument("--no-baseline", action="store_true", help="skip the one-process SQLite run")
    parser.add_argument(
        "--render-processes", type=int, default=None,
        help="each bot's picture_workers: its pictures drawn in N worker processes (default: as the bot, 1 on 2+ cores)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.render_processes is None:  # as bot.py starts (Config.from_env), not the test processes' threads
        from cogs.mahjong.pictures import default_workers

        args.render_processes = default_workers()
    if args.processes < 1 or args.tables < 1 or args.hands < 1:
        parser.error("--processes, --tables and --hands are at least 1")
    logging.basicConfig(level=logging.WARNING)
    result = asyncio.run(cluster_run(args))
    if not args.no_baseline:
        with tempfile.TemporaryDirectory() as folder:
            baseline = asyncio.run(
                run(1, args.tables, args.hands, database=str(Path(folder) / "one.sqlite3"), kill=False,
                    latency=args.latency, peek_every=args.peek_every, think=args.think,
                    picture_workers=args.render_processes)
            )  # fmt: skip
        print("one process on SQLite:", json.dumps(baseline), file=sys.stderr)
        result["baseline_p50_ms"] = baseline["p50_ms"]
        result["baseline_p99_ms"] = baseline["p99_ms"]
        result["baseline_errors"] = baseline["errors"]
        if baseline["p99_ms"]:
            result["p99_ratio"] = round((result["p99_ms"] or 0) / baseline["p99_ms"], 2)
            result["steady_p99_ratio"] = round((result["steady_p99_ms"] or 0) / baseline["p99_ms"], 2)
    print(json.dumps(result))
    return 0 if result["errors"] == 0 and result["lost_moves"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
