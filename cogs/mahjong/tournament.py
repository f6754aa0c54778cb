"""/mahjong tournament create | start | standings | export | pause | resume | drop | replace | end_round |
cancel: league nights (issue 42). Members with Manage Server, or the server's organisers' role
(organisers.py), create and run them; anyone joins, leaves and checks in on the registration message
(registration.py). The rounds are played as 系統桌 (league.py); the tournament is stored (data/tournaments.py)
and resumed after a restart: its buttons are ``DynamicItem``s, and its round goes on as its tables end.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from data import StoreConflict, StoreError, TournamentRecord
from data.tournaments import CHECKED_IN
from engine.fairness import KEY_BYTES
from engine.rules import PROFILES
from engine.rulesets import DEFAULT_RULES
from table import ids
from table.lobby import TableError, TablePhase

from ..choices import RULE_CHOICES
from ..i18n import locale_of, t
from .arguments import accepted
from .guards import check_bot_permissions
from .league import League, standings_picture, standings_text
from .league_export import results_json, standings_csv
from .live import PICTURE
from .options import CLAIM_CHOICES, PRESET_CHOICES
from .organisers import check_organiser, table_choices
from .refusals import MahjongCog
from .registration import registration_payload
from .settings import SYSTEM_TURN_OPTIONS
from .system import SYSTEM

if TYPE_CHECKING:
    from .runner import TableRunner
    from .tables import Mahjong

log = logging.getLogger(__name__)
MIN_PEOPLE = 2  # with AI seats; without them a table needs four people


class Tournaments(MahjongCog):
    """/mahjong tournament ..., the registration buttons, and each tournament's rounds."""

    tournament_group = app_commands.Group(name=_("tournament"), description=_("League nights: tournaments of 系統桌"))

    def __init__(self, tables: Mahjong) -> None:
        self.tables = tables
        self.store = tables.store
        self.league = League(tables)
        self.edits: dict[int, asyncio.Lock] = {}  # tournament id → its registration message's edits

    async def cog_load(self) -> None:
        """Every tournament still registering or playing goes on: a round whose tables ended while the
        bot was down is recorded, and the next one seated (after the tables have been restored)."""
        for record in await self.store.live_tournaments():
            if record.phase == "playing":
                self.tables.background(self._advance_when_ready(record.id))
            elif record.phase == "registration":
                self.arm_start(record)

    def arm_start(self, record: TournamentRecord) -> None:
        """At its start time a tournament starts by itself (the tables' timer scale shrinks the wait in tests)."""
        if record.starts_at is not None:
            due = record.created_at + (record.starts_at - record.created_at) * self.tables.timing.timer_scale
            self.tables.background(self._start_when_due(record.id, due))

    async def _start_when_due(self, tournament_id: int, due: float) -> None:
        await asyncio.sleep(max(0.0, due - time.time()))
        await self.tables.bot.wait_until_ready()
        record = await self.store.tournament(tournament_id)
        if record is not None and record.phase == "registration":
            try:
                await self.league.post(record, await self.begin(record))
            except TableError as refused:  # too few checked in: the organiser starts it (or cancels)
                await self.league.post(record, t(record.locale, refused.key, **refused.values))
                return
            await self._refresh_and_advance(record.id)

    async def begin(self, record: TournamentRecord) -> str:
        """Close registration and drop who did not check in (``_refresh_and_advance`` then seats round 1);
        what to tell the channel."""
        entrants = await self.store.entrants(record.id)
        checked = sum(e.status == CHECKED_IN for e in entrants)
        if checked < (MIN_PEOPLE if record.ai_fill else 4):
            raise TableError("tn.too_few", count=checked)
        try:
            await self.store.start_tournament(record.id)
        except StoreConflict:
            raise TableError("tn.not_registering") from None
        return t(record.locale, "tn.started", name=record.name, count=checked)

    async def _refresh_and_advance(self, tournament_id: int) -> None:
        await self.refresh(tournament_id)
        await self.league.advance(tournament_id)

    async def _advance_when_ready(self, tournament_id: int) -> None:
        await self.tables.bot.wait_until_ready()
        try:
            await self.league.advance(tournament_id)
        except StoreError as error:  # looked at again when one of its tables ends
            log.warning("tournament %s could not go on: %s", tournament_id, error)

    @commands.Cog.listener("on_mahjong_table_finished")
    async def table_finished(self, runner: TableRunner) -> None:
        """A 系統桌 played to its end (or closed by a manager): if a tournament opened it, its round may
        be over (or the table is opened again: league.py)."""
        if runner.state.kind != SYSTEM or runner.state.phase not in (TablePhase.OVER, TablePhase.CLOSED):
            return
        found = await self.store.tournament_table(runner.session.table_id)
        if found is not None:
            await self._advance_when_ready(found[0])

    async def _organiser(self, interaction: discord.Interaction) -> None:
        """Tournaments are created and run by members with Manage Server or the server's organisers' role."""
        if interaction.guild_id is None:
            raise TableError("tn.need_manage")
        check_organiser(interaction, await self.tables.queues.guild_settings(interaction.guild_id))

    # ------------------------------------------------------------------ commands

    @tournament_group.command(name=_("create"), description=_("Open a tournament's registration here (Manage Server)"))
    @app_commands.describe(
        name=_("The tournament's name"), rules=_("Rule set"), rounds=_("Rounds (each a new seating)"),
        hands=_("Hands a table plays each round; 0: one 東風圈"), duplicate=_("Every table of a round plays the same walls"),
        ai_fill=_("AI take the seats left over (else byes)"), limit=_("Most entrants; 0: no limit"),
        starts_in=_("Minutes until the start (shown as a countdown)"),
        turn_seconds=_("Every table's turn time (default: this server's 系統桌 turn)"),
        claim_seconds=_("Every table's time to answer a discard (default: the rule set's)"),
        preset=_("House rules preset (家規)"), house_rules=_("single house rules on top of the preset, e.g. 字一色計風台, 天胡 24"),
        threads=_("Open each table of a round in its own thread under this channel"),
    )  # fmt: skip
    @app_commands.choices(rules=RULE_CHOICES, preset=PRESET_CHOICES)
    @app_commands.choices(turn_seconds=SYSTEM_TURN_OPTIONS, claim_seconds=CLAIM_CHOICES)  # apart: one value type a call
    @app_commands.rename(rounds=_("round_count"))  # a table's "rounds" are 圈 (/mahjong create)
    async def create(
        self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 60], rounds: app_commands.Range[int, 1, 8],
        rules: str = DEFAULT_RULES, hands: app_commands.Range[int, 0, 16] = 0, duplicate: bool = True,
        ai_fill: bool = True, limit: app_commands.Range[int, 0, 512] = 0, starts_in: app_commands.Range[int, 0, 10080] = 0,
        turn_seconds: int | None = None, claim_seconds: int | None = None, preset: str = "document",
        house_rules: app_commands.Range[str, 0, 200] = "", threads: bool = False,
    ) -> None:  # fmt: skip
        await self._organiser(interaction)
        check_bot_permissions(interaction)
        assert interaction.guild_id is not None and interaction.channel_id is not None
        accepted("rules", rules, list(PROFILES))
        chosen = table_choices(
            rules, await self.tables.queues.guild_settings(interaction.guild_id), turn_seconds=turn_seconds,
            claim_seconds=claim_seconds, preset=preset, house_rules=house_rules,
        )  # fmt: skip
        if threads and (isinstance(interaction.channel, discord.Thread) or not (
            interaction.app_permissions.create_public_threads and interaction.app_permissions.send_messages_in_threads
        )):  # fmt: skip
            raise TableError("tn.no_thread_permission")
        locale = locale_of(interaction.guild_locale or interaction.locale)
        try:
            record = await self.store.create_tournament(
                guild_id=interaction.guild_id, channel_id=interaction.channel_id, organiser_id=interaction.user.id,
                name=name, rules=rules, rounds=rounds, hands=hands or None, duplicate=duplicate, ai_fill=ai_fill,
                max_entrants=limit or None, starts_at=time.time() + starts_in * 60 if starts_in else None,
                locale=locale, key=self.tables.rng.randbytes(KEY_BYTES), threads=threads, **chosen,
            )  # fmt: skip
        except StoreError:
            raise TableError("err.storage") from None
        embed, view = registration_payload(record, [])
        await interaction.response.send_message(embed=embed, view=view or discord.utils.MISSING)
        message = await interaction.original_response()
        await self.store.set_tournament(record.id, message_id=message.id)
        self.arm_start(record)

    @tournament_group.command(name=_("start"), description=_("Close registration and seat round 1 (Manage Server)"))
    @app_commands.describe(tournament=_("The tournament's number (default: this server's newest)"))
    async def start(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        await self._organiser(interaction)
        record = await self._chosen(interaction, tournament, "registration")
        await interaction.response.send_message(await self.begin(record))
        await self._refresh_and_advance(record.id)

    @tournament_group.command(name=_("standings"), description=_("A tournament's standings so far"))
    @app_commands.describe(tournament=_("The tournament's number (default: this server's newest)"))
    async def standings(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        record = await self._chosen(interaction, tournament, None)
        field = await self.league.read(record.id)
        assert field is not None
        locale, standings = locale_of(interaction.locale), field.tournament.standings()
        text = standings_text(standings, field.names(), locale, duplicate=record.duplicate)
        title = t(locale, "tn.standings_title", name=record.name, phase=t(locale, f"tn.phase.{record.phase}"))
        await interaction.response.defer(ephemeral=True, thinking=True)  # the picture is drawn off the loop
        picture = await asyncio.to_thread(standings_picture, standings, field.names(), title, locale, duplicate=record.duplicate)
        file = discord.File(io.BytesIO(picture), f"standings-{record.id}.png")
        await interaction.followup.send(f"**{title}**\n{text}", file=file, ephemeral=True)

    @tournament_group.command(name=_("export"), description=_("A tournament's results as CSV and JSON (with every table's match log)"))
    @app_commands.describe(tournament=_("The tournament's number (default: this server's newest)"))
    async def export(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        record = await self._chosen(interaction, tournament, None)
        await interaction.response.defer(ephemeral=True, thinking=True)  # every table's log is replayed
        field = await self.league.read(record.id)
        assert field is not None
        table = standings_csv(field)
        document = await results_json(self.store, field)
        files = [discord.File(io.BytesIO(table), f"tournament-{record.id}.csv"),
                 discord.File(io.BytesIO(document), f"tournament-{record.id}.json")]  # fmt: skip
        await interaction.followup.send(t(interaction.locale, "tn.exported", name=record.name), files=files, ephemeral=True)

    @tournament_group.command(name=_("pause"), description=_("Seat no new round until resumed; tables play on (Manage Server)"))
    @app_commands.describe(tournament=_("The tournament's number (default: this server's newest)"))
    async def pause(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        await self._organiser(interaction)
        record = await self._chosen(interaction, tournament, "playing")
        async with self.league.lock(record.id):
            await self.store.set_tournament(record.id, phase="paused")
        await interaction.response.send_message(t(record.locale, "tn.paused", name=record.name))

    @tournament_group.command(name=_("resume"), description=_("Go on with a paused tournament (Manage Server)"))
    @app_commands.describe(tournament=_("The tournament's number (default: this server's newest)"))
    async def resume(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        await self._organiser(interaction)
        record = await self._chosen(interaction, tournament, "paused")
        async with self.league.lock(record.id):
            await self.store.set_tournament(record.id, phase="playing")
        await interaction.response.send_message(t(record.locale, "tn.resumed", name=record.name))
        await self.league.advance(record.id)  # a round that ended meanwhile: the next one is seated now

    @tournament_group.command(name=_("drop"), description=_("Take a player out of the next rounds (Manage Server)"))
    @app_commands.describe(player=_("Who leaves the tournament"), tournament=_("The tournament's number (default: this server's newest)"))
    async def drop(self, interaction: discord.Interaction, player: discord.Member, tournament: int | None = None) -> None:
        await self._organiser(interaction)
        record = await self._chosen(interaction, tournament, "live")
        async with self.league.lock(record.id):
            field = await self.league.read(record.id)
            assert field is not None
            done = await self.store.drop_entrant(record.id, player.id, after_round=max(1, field.tournament.current))
            for rt in field.current_tables() if done else ():
                runner = self.tables.registry.get(rt.table_id) if player.id in rt.seats and rt.table_id else None
                if runner is not None and not runner.session.phase.closed:  # AI play their seat from now (代打), as for a leaver
                    await runner.player_left(player.id)
                    self.tables.registry.stand(record.guild_id, player.id)
        key = "tn.dropped" if done else "tn.not_playing"
        await interaction.response.send_message(t(record.locale, key, name=record.name, player=player.display_name))

    @tournament_group.command(name=_("replace"), description=_("A person takes a player's seat now, mid-round (Manage Server)"))
    @app_commands.describe(
        player=_("Who leaves their seat"), by=_("Who takes it: an entrant not seated this round, or anyone"),
        tournament=_("The tournament's number (default: this server's newest)"),
    )  # fmt: skip
    async def replace(
        self, interaction: discord.Interaction, player: discord.Member, by: discord.Member, tournament: int | None = None
    ) -> None:  # fmt: skip
        await self._organiser(interaction)
        record = await self._chosen(interaction, tournament, "live")
        if by.bot:
            raise TableError("tn.not_replaceable", old=player.display_name, new=by.display_name, name=record.name)
        rt = await self.league.replace(record.id, player.id, by.id, by.display_name, locale_of(interaction.locale))
        if rt is None:
            raise TableError("tn.not_replaceable", old=player.display_name, new=by.display_name, name=record.name)
        text = t(record.locale, "tn.replaced", old=player.display_name, new=by.display_name, name=record.name,
                 round=rt.round, table=rt.table_no + 1)  # fmt: skip
        await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())

    @tournament_group.command(name=_("end_round"), description=_("End the round now: tables still playing count their settled hands (Manage Server)"))
    @app_commands.describe(tournament=_("The tournament's number (default: this server's newest)"))
    async def end_round(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        await self._organiser(interaction)
        record = await self._chosen(interaction, tournament, "live")
        await interaction.response.defer(thinking=True)
        settled = await self.league.end_round(record.id)
        await interaction.followup.send(t(record.locale, "tn.round_ended", name=record.name, tables=settled))

    @tournament_group.command(name=_("cancel"), description=_("Cancel a tournament; its running tables close (Manage Server)"))
    @app_commands.describe(tournament=_("The tournament's number (default: this server's newest)"))
    async def cancel(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        await self._organiser(interaction)
        record = await self._chosen(interaction, tournament, "live")
        async with self.league.lock(record.id):
            await self.store.set_tournament(record.id, phase="cancelled")
            for rt in await self.store.round_tables(record.id):
                runner = self.tables.registry.get(rt.table_id) if rt.table_id is not None else None
                if runner is not None and not runner.session.phase.closed:
                    self.tables.shut(runner)
        await interaction.response.send_message(t(record.locale, "tn.cancelled", name=record.name))
        await self.refresh(record.id)

    async def _chosen(self, interaction: discord.Interaction, number: int | None, phase: str | None) -> TournamentRecord:
        """The tournament a command names (default: the server's newest), in ``phase`` ("live": any not
        over); refused politely otherwise."""
        assert interaction.guild_id is not None
        found = await self.store.tournaments_of(interaction.guild_id)
        record = next((r for r in found if number is None or r.id == number), None)
        if record is None:
            raise TableError("tn.none")
        if phase == "live" and record.phase not in ("registration", "playing", "paused"):
            raise TableError("tn.not_live", name=record.name)
        if phase == "registration" and record.phase != "registration":
            raise TableError("tn.not_registering")
        if phase in ("playing", "paused") and record.phase != phase:
            raise TableError(f"tn.not_{phase}", name=record.name)
        return record

    # ------------------------------------------------------------------ the registration message

    async def entry_click(self, interaction: discord.Interaction, tournament_id: int, op: ids.EntryOp) -> None:
        record = await self.store.tournament(tournament_id)
        if record is None or record.guild_id != interaction.guild_id:
            raise TableError("tn.none")
        user = interaction.user
        try:
            if op is ids.EntryOp.JOIN:
                done = await self.store.register(record.id, user.id, user.display_name, locale_of(interaction.locale))
                key = "tn.joined" if done else "tn.already"
            elif op is ids.EntryOp.LEAVE:
                key = "tn.left" if await self.store.unregister(record.id, user.id) else "tn.not_entered"
            else:
                key = "tn.checked_in" if await self.store.check_in(record.id, user.id) else "tn.not_entered"
        except StoreConflict as error:
            key = "tn.full" if "full" in str(error) else "tn.not_registering"
        await interaction.response.send_message(t(interaction.locale, key, name=record.name), ephemeral=True)
        await self.refresh(record.id)

    async def refresh(self, tournament_id: int) -> None:
        """Edit the registration message to what is stored now (one edit at a time: the last shows the last)."""
        async with self.edits.setdefault(tournament_id, asyncio.Lock()):
            record = await self.store.tournament(tournament_id)
            if record is None or record.message_id is None:
                return
            embed, view = registration_payload(record, await self.store.entrants(tournament_id))
            channel = self.tables.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
            try:
                await self.tables.budget.take(PICTURE)
                await channel.get_partial_message(record.message_id).edit(embed=embed, view=view)
            except discord.HTTPException as error:
                log.info("tournament %s: the registration message was not edited: %s", tournament_id, error)
