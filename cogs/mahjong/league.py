"""Running a tournament's rounds: every step reads the tournament afresh from the store and does what is
due, so a start, a table's end and a restart all take the one path (``advance``): record the tables of the
round that have finished, and once the round is over post its standings (and, with duplicate walls, the
round's key, which may show now: ``Tournament.key_may_show``), seat the next round and open its tables as
系統桌 (forming.py), each dealt from ``Tournament.table_key``; after the last round, the final standings.
table/tournament.py decides; this carries it out.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import discord

from data import EntrantRecord, RoundTable, SeatRecord, TableRecord, TournamentRecord
from data.tournaments import CHECKED_IN, DROPPED
from engine.house_rules import HouseRules
from ranking.standings import Standing
from ranking.swiss import Seating
from render.standings import StandingRow, render_standings
from table.lobby import TableError, TableSettings
from table.screens import TABLE
from table.session import Deal
from table.tournament import Tournament

from ..i18n import t
from .forming import Sitter, open_system
from .live import PICTURE, POST
from .runner import NETWORK_ERRORS
from .system import system_settings

if TYPE_CHECKING:
    from .tables import Mahjong

log = logging.getLogger(__name__)
NO_PINGS = discord.AllowedMentions.none()


@dataclass
class Field:
    """One tournament as stored: its record, entrants, round tables, and the value they make."""

    record: TournamentRecord
    entrants: list[EntrantRecord]
    tables: list[RoundTable]
    tournament: Tournament

    def names(self) -> dict[int, str]:
        return {e.user_id: e.name for e in self.entrants}

    def current_tables(self) -> list[RoundTable]:
        return [rt for rt in self.tables if rt.round == self.tournament.current]


def rebuild(
    record: TournamentRecord, entrants: Sequence[EntrantRecord], tables: Sequence[RoundTable],
    byes: dict[int, tuple[int, ...]],
) -> Tournament:  # fmt: skip
    """The tournament value its rows describe: who plays (checked in, or dropped after playing), every
    seated round, every recorded table."""
    played = [e for e in entrants if e.status == CHECKED_IN or (e.status == DROPPED and (e.dropped_round or 0) > 0)]
    tournament = Tournament(
        key=record.key,
        entrants=tuple(sorted(e.user_id for e in played)),
        rounds=record.rounds,
        duplicate=record.duplicate,
        ai_seats=record.ai_fill,
        dropped={e.user_id for e in played if e.status == DROPPED},
    )
    for number in sorted(byes):
        seats = tuple(rt.seats for rt in tables if rt.round == number)
        tournament.seatings.append(Seating(seats, byes[number]))
    for rt in tables:
        if rt.points is not None:
            tournament.record(rt.round, rt.table_no, rt.points)
    return tournament


def standings_text(standings: Sequence[Standing], names: dict[int, str], locale: str, *, duplicate: bool) -> str:
    """The standings as a text table: rank, player, points, duplicate score, placements."""
    header = t(locale, "tn.table_header")
    rows = [header, "-" * len(header)]
    for row in standings:
        name = names.get(row.entrant, str(row.entrant))[:14]
        dup = f"{row.duplicate:+.1f}" if duplicate else "-"
        places = " ".join(map(str, row.places)) or "-"
        rows.append(f"{row.rank:>2}  {name:<14} {row.points:>7} {dup:>8}  {places}")
    return "```\n" + "\n".join(rows)[:1800] + "\n```" + tie_break(locale, duplicate=duplicate)


def tie_break(locale: str, *, duplicate: bool) -> str:
    """The ranking and its tie-break, as the text table and the picture both state it."""
    return t(locale, "tn.tie_break_duplicate" if duplicate else "tn.tie_break_points")


def standings_picture(standings: Sequence[Standing], names: dict[int, str], title: str, locale: str, *, duplicate: bool) -> bytes:
    """The standings as a picture (render/standings.py): the text table's rows and tie-break."""
    rows = [
        StandingRow(s.rank, names.get(s.entrant, str(s.entrant)), s.points, s.duplicate if duplicate else None, tuple(s.places))
        for s in standings
    ]  # fmt: skip
    return render_standings(rows, title, tie_break(locale, duplicate=duplicate), locale)


def table_settings(record: TournamentRecord, server_turn: int) -> TableSettings:
    """Every table of a tournament plays these: the 系統桌's, with the tournament's turn and claim times
    (stored at create; a tournament from before migration 0012 has the server's 系統桌 turn and the rule
    set's claim time) and its house rules, and enough 圈 for its hands (a 圈 has four at least)."""
    settings = system_settings(
        record.rules, record.turn_seconds or server_turn, claim_seconds=record.claim_seconds,
        house_rules=HouseRules(record.house_rules),
    )  # fmt: skip
    if record.hands:  # the match ends after that many hands
        settings = replace(settings, rounds=min(4, -(-record.hands // 4)))
    return settings


class League:
    """Tournaments' rounds for the tables cog of this process."""

    def __init__(self, tables: Mahjong) -> None:
        self.tables = tables
        self.store = tables.store
        self.locks: dict[int, asyncio.Lock] = {}

    def lock(self, tournament_id: int) -> asyncio.Lock:
        return self.locks.setdefault(tournament_id, asyncio.Lock())

    async def read(self, tournament_id: int) -> Field | None:
        record = await self.store.tournament(tournament_id)
        if record is None:
            return None
        entrants = await self.store.entrants(tournament_id)
        tables = await self.store.round_tables(tournament_id)
        byes = await self.store.round_byes(tournament_id)
        return Field(record, entrants, tables, rebuild(record, entrants, tables, byes))

    async def advance(self, tournament_id: int) -> None:
        """Do whatever is due now (idempotent: called at the start, at each table's end, after a restart)."""
        async with self.lock(tournament_id):
            if self.tables.bot.is_closed():  # shutting down: its tables stop, they have not ended
                return
            field = await self.read(tournament_id)
            if field is None or field.record.phase != "playing":
                return
            if await self._record_finished(field):
                field = await self.read(tournament_id)
                assert field is not None
            # a round is over: the next one is seated (again at once for a round of byes only, no table)
            while field.tournament.current == 0 or field.tournament.round_over(field.tournament.current):
                tournament = field.tournament
                if tournament.current:
                    await self._post_round(field)
                if tournament.is_over:
                    await self.store.set_tournament(tournament_id, phase="over")
                    await self.post(field.record, t(field.record.locale, "tn.over", name=field.record.name))
                    return
                seating = tournament.seat_next_round()
                await self.store.seat_round(tournament_id, tournament.current, seating.tables, seating.byes)
                field = await self.read(tournament_id)
                assert field is not None
                await self._post_seating(field, seating)
            for rt in field.current_tables():
                if rt.table_id is not None and rt.points is None and self._gone(rt.table_id):
                    await self.store.reopen_tournament_table(tournament_id, rt.round, rt.table_no)
                    rt = replace(rt, table_id=None)
                if rt.table_id is None:
                    await self._open_table(field, rt)

    async def end_round(self, tournament_id: int) -> int:
        """The organiser ends the round now. The stated rule: a table still playing counts the points as
        they stand after its last settled hand (the hand in play is not counted), and closes; how many did."""
        settled = []
        async with self.lock(tournament_id):
            field = await self.read(tournament_id)
            if field is None or field.record.phase not in ("playing", "paused") or not field.tournament.current:
                return 0
            for rt in field.current_tables():
                runner = self.tables.registry.get(rt.table_id) if rt.table_id is not None else None
                if rt.points is None and runner is not None:
                    scores = runner.session.screen(TABLE).scores  # by seat, after the last settled hand
                    points = field.tournament.points_of(rt.round, rt.table_no, scores, field.record.rules)
                    await self.store.record_table(tournament_id, rt.round, rt.table_no, points)
                    settled.append(runner)
        for runner in settled:
            self.tables.shut(runner)  # recorded first: its end does not open it again
            self.tables.background(runner.close())
        await self.advance(tournament_id)
        return len(settled)

    async def replace(self, tournament_id: int, old: int, new: int, name: str, locale: str) -> RoundTable | None:
        """``new`` (an entrant not seated this round, or anyone) takes ``old``'s seat at the table of the
        round being played, mid-match: stored first (``replace_entrant``: the seat's result of this round
        counts for ``new``), then seated at the running table, which sends them their hand. The table
        replaced at, or None when ``old`` sits at no running table of the round or ``new`` cannot sit."""
        async with self.lock(tournament_id):
            field = await self.read(tournament_id)
            if field is None or field.record.phase not in ("playing", "paused") or old == new:
                return None
            rt = next((rt for rt in field.current_tables() if old in rt.seats and rt.points is None), None)
            runner = self.tables.registry.get(rt.table_id) if rt is not None and rt.table_id is not None else None
            left = {e.user_id for e in field.entrants if e.status == DROPPED and (e.dropped_round or 0) > 0}
            seated = {u for table in field.current_tables() for u in table.seats}
            if rt is None or runner is None or runner.session.phase.closed or new in seated or new in left:
                return None
            if field.record.duplicate and new in self._spectators(field):  # they saw this round's walls played
                raise TableError("tn.replace_watched", new=name, name=field.record.name)
            try:  # the session refuses when no hand follows (the match's last hand is over)
                await runner.substitute(old, new, name, locale)
            except TableError:
                return None
            await self.store.replace_entrant(tournament_id, rt.round, rt.table_no, old, new, name, locale)
            registry = self.tables.registry
            registry.stand(field.record.guild_id, old)
            registry.sit(field.record.guild_id, new, runner.state.channel_id)
            if rt.thread_id is not None:  # their table's thread: they are added as its players were
                try:
                    await self.tables.bot.http.add_user_to_thread(rt.thread_id, new)
                except NETWORK_ERRORS as error:
                    log.info("tournament %s: %s not added to thread %s: %s", tournament_id, new, rt.thread_id, error)
            return rt

    def _spectators(self, field: Field) -> set[int]:
        """Who follows a table of the round in play (a delayed table's spectator thread shows each finished
        hand face up): with duplicate walls every table of the round deals the same hands."""
        watchers = self.tables.registry.watchers
        tables = [rt.table_id for rt in field.current_tables() if rt.table_id is not None]
        return {user for table in tables if table in watchers for user in watchers[table].spectators}

    def _gone(self, table_id: int) -> bool:
        """A round's 系統桌 that runs nowhere any more and did not finish (``_record_finished`` saw no final
        scores): closed by a manager, or not restorable after a restart (stopped before its match was
        stored). The stated rule: the table is played again from its start, dealt as before."""
        registry = self.tables.registry
        return registry.get(table_id) is None and not registry.moving(table_id)

    async def _record_finished(self, field: Field) -> bool:
        """Record the current round's tables whose matches are over in the store; whether any was."""
        record, tournament = field.record, field.tournament
        recorded = False
        for rt in field.current_tables():
            if rt.points is not None or rt.table_id is None:
                continue
            stored = await self.store.match_standings(record.guild_id, rt.table_id)
            if stored is None:
                continue
            points = tournament.points_of(rt.round, rt.table_no, stored.scores, record.rules)
            if await self.store.record_table(record.id, rt.round, rt.table_no, points):
                recorded = True
                if rt.thread_id is not None:
                    await self._archive_thread(record, rt.thread_id)
        return recorded

    async def _archive_thread(self, record: TournamentRecord, thread_id: int) -> None:
        """A finished table's thread is archived (its creator may): the channel's thread list shows the
        round still in play, and the thread stays readable (a post would reopen it). Refused, it archives
        itself after a day without messages."""
        try:
            await self.tables.budget.take(PICTURE)
            await self.tables.bot.http.edit_channel(thread_id, archived=True)
        except NETWORK_ERRORS as error:
            log.info("tournament %s: thread %s not archived: %s", record.id, thread_id, error)

    async def _open_table(self, field: Field, rt: RoundTable) -> None:
        record, tournament = field.record, field.tournament
        locales = {e.user_id: e.locale for e in field.entrants}
        names = field.names()
        people = [None if u is None else Sitter(u, names.get(u, str(u)), locales.get(u, record.locale)) for u in rt.seats]
        turn = (await self.tables.queues.guild_settings(record.guild_id)).system_turn_seconds
        channel_id = record.channel_id
        if record.threads:  # its own thread under the tournament's channel (kept when opened again)
            channel_id = rt.thread_id or await self._open_thread(record, rt) or record.channel_id

        async def store_table(host_id: int, options: dict, seats: list[SeatRecord], rounds: int) -> TableRecord:
            options = {**options, "tournament": record.id}
            return await self.store.open_tournament_table(
                record.id, rt.round, rt.table_no, guild_id=record.guild_id, channel_id=channel_id,
                host_id=host_id, rules=record.rules, rounds=rounds, options=options, seats=seats,
            )  # fmt: skip

        deal = Deal(tournament.table_key(rt.round, rt.table_no), duplicate=record.duplicate, hands=record.hands)
        await open_system(
            self.tables, people, guild_id=record.guild_id, channel_id=channel_id,
            settings=table_settings(record, turn), locale=record.locale, store_table=store_table, deal=deal,
        )  # fmt: skip

    async def _open_thread(self, record: TournamentRecord, rt: RoundTable) -> int | None:
        """A public thread for a round's table under the tournament's channel ("Round 2 · Table 3"), with
        its players added (Discord adds nobody to a thread a bot starts); None when Discord refused it (the
        table then opens in the channel itself, and the channel is told why)."""
        name = t(record.locale, "tn.thread_name", round=rt.round, table=rt.table_no + 1)
        http = self.tables.bot.http
        try:
            await self.tables.budget.take(POST)
            thread = await http.start_thread_without_message(
                record.channel_id, name=name, auto_archive_duration=1440, type=discord.ChannelType.public_thread.value
            )  # fmt: skip
        except NETWORK_ERRORS as error:
            log.warning("tournament %s: no thread for round %s table %s: %s", record.id, rt.round, rt.table_no, error)
            await self.post(record, t(record.locale, "tn.no_thread", table=rt.table_no + 1))
            return None
        thread_id = int(thread["id"])
        await self.store.set_table_thread(record.id, rt.round, rt.table_no, thread_id)
        for user_id in (u for u in rt.seats if u is not None):
            try:
                await self.tables.budget.take(PICTURE)
                await http.add_user_to_thread(thread_id, user_id)
            except NETWORK_ERRORS as error:  # the table's post mentions them in the thread all the same
                log.info("tournament %s: %s not added to thread %s: %s", record.id, user_id, thread_id, error)
        return thread_id

    async def _post_seating(self, field: Field, seating: Seating) -> None:
        record, names = field.record, field.names()
        locale = record.locale
        lines = [t(locale, "tn.round_seated", name=record.name, round=field.tournament.current, rounds=record.rounds)]
        for n, seats in enumerate(seating.tables, start=1):
            who = ", ".join(t(locale, "tn.ai_seat") if u is None else names.get(u, str(u)) for u in seats)
            lines.append(t(locale, "tn.table_line", table=n, people=who))
        if seating.byes:
            lines.append(t(locale, "tn.byes", people=", ".join(names.get(u, str(u)) for u in seating.byes)))
        await self.post(record, "\n".join(lines))

    async def _post_round(self, field: Field) -> None:
        """A round is over: its standings so far, and (duplicate walls) its key, which may show now."""
        record, tournament = field.record, field.tournament
        number, locale = tournament.current, record.locale
        final = number == record.rounds
        title = t(locale, "tn.final" if final else "tn.round_over", name=record.name, round=number)
        standings, names = tournament.standings(), field.names()
        text = standings_text(standings, names, locale, duplicate=record.duplicate)
        if record.duplicate and tournament.key_may_show(number):
            text += "\n" + t(locale, "tn.round_key", round=number, hex=tournament.table_key(number, 0).hex())
        picture = await asyncio.to_thread(standings_picture, standings, names, title, locale, duplicate=record.duplicate)
        await self.post(record, f"**{title}**\n{text}", picture=(f"standings-{record.id}-{number}.png", picture))

    async def post(self, record: TournamentRecord, content: str, *, picture: tuple[str, bytes] | None = None) -> None:
        """A message in the tournament's channel that pings nobody (with a picture, when given)."""
        channel = self.tables.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
        files = [] if picture is None else [discord.File(io.BytesIO(picture[1]), picture[0])]
        try:
            await self.tables.budget.take(POST)
            await channel.send(content=content[:2000], allowed_mentions=NO_PINGS, files=files)
        except NETWORK_ERRORS as error:
            log.warning("tournament %s could not post: %s", record.id, error)
        except RuntimeError:  # the bot stopped meanwhile (its HTTP session is closed)
            if not self.tables.bot.is_closed():
                raise
