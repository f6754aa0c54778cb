"""The tournament cog's pure parts: the tournament value rebuilt from its rows (who plays, who dropped,
every seated round and recorded table), the standings as a text table, the CSV, and the registration
message (buttons only while registering; the key itself never on it)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cogs.mahjong.league import Field, rebuild, standings_text, table_settings
from cogs.mahjong.league_export import standings_csv
from cogs.mahjong.organisers import table_choices
from cogs.mahjong.registration import registration_payload
from data import EntrantRecord, GuildSettings, RoundTable, TournamentRecord
from engine.fairness import commitment
from table.lobby import TableError

KEY = bytes(range(32))


def record(phase: str = "registration", duplicate: bool = True) -> TournamentRecord:
    return TournamentRecord(
        1, 2, 3, 4, 5, "Night", "taiwan16", 2, 1, duplicate, True, None, 1_700_000_000.0, "en", phase, 0.0, KEY
    )


def entrant(user: int, status: str = "checked_in", dropped: int | None = None) -> EntrantRecord:
    return EntrantRecord(user, f"p{user}", "en", status, dropped, float(user))


def test_the_tournament_is_rebuilt_from_its_rows_with_who_played_and_who_dropped():
    people = [entrant(u) for u in range(1, 8)] + [entrant(8, "dropped", 1), entrant(9, "dropped", 0)]
    tables = [RoundTable(1, 0, (1, 2, 3, 4), 11, (30, -10, -10, -10)), RoundTable(1, 1, (5, 6, 7, 8), 12, None)]
    tournament = rebuild(record("playing"), people, tables, {1: ()})
    assert tournament.entrants == tuple(range(1, 9)) and tournament.dropped == {8}  # 9 never checked in
    assert tournament.current == 1 and not tournament.round_over(1)
    assert tournament.points == {1: {0: [30, -10, -10, -10]}}


def test_the_standings_text_has_rank_player_points_duplicate_score_and_placements():
    people = [entrant(u) for u in range(1, 9)]
    tables = [RoundTable(1, 0, (1, 2, 3, 4), 11, (30, -10, -10, -10)), RoundTable(1, 1, (5, 6, 7, 8), 12, (0, 0, 0, 0))]
    tournament = rebuild(record("playing"), people, tables, {1: ()})
    names = {e.user_id: e.name for e in people}
    text = standings_text(tournament.standings(), names, "en", duplicate=True)
    rows = [line for line in text.splitlines() if line[:2].strip().isdigit()]
    assert rows[0].split() == ["1", "p1", "30", "+30.0", "1"] and len(rows) == 8
    assert "Ranked by duplicate score" in text
    field = Field(record("playing"), people, tables, tournament)
    csv = standings_csv(field).decode().splitlines()
    assert csv[1] == "1,p1,1,30,30.00,1,1"


def test_the_registration_message_shows_the_commitment_not_the_key_and_buttons_only_while_open():
    people = [entrant(1), entrant(2, "registered")]
    embed, view = registration_payload(record(), people)
    text = (embed.description or "") + "".join(f"{f.name}{f.value}" for f in embed.fields)
    assert commitment(KEY) in text and KEY.hex() not in text
    assert "✅ p1" in text and "· p2" in text and "checked in 1" in text
    assert view is not None and [b.item.label for b in view.children] == ["Join", "Leave", "Check in"]  # type: ignore[attr-defined]
    assert registration_payload(record("playing"), people)[1] is None


def test_a_tournaments_table_choices_default_to_the_system_tables_and_refuse_what_they_do_not_offer():
    server = GuildSettings(1, system_turn_seconds=15)
    chosen = table_choices("taiwan16", server, turn_seconds=None, claim_seconds=None, preset="document", house_rules="")
    assert (chosen["turn_seconds"], chosen["claim_seconds"], chosen["house_rules"]) == (15, 8, {})
    for bad in ({"turn_seconds": 4}, {"claim_seconds": 7}, {"preset": "nope"}, {"house_rules": "no such rule"}):
        args = {"turn_seconds": None, "claim_seconds": None, "preset": "document", "house_rules": ""} | bad
        with pytest.raises(TableError):
            table_choices("taiwan16", server, **args)
    chosen_record = replace(record(), turn_seconds=8, claim_seconds=10, house_rules={"heavenly_tai": 24}, hands=6)
    settings = table_settings(chosen_record, server_turn=20)
    assert (settings.options.turn_seconds, settings.options.claim_seconds, settings.rounds) == (8, 10, 2)
    assert settings.options.house_rules.to_dict() == {"heavenly_tai": 24} and not settings.options.may_pass_win
    old = replace(record(), turn_seconds=None, claim_seconds=None)  # created before migration 0012
    assert table_settings(old, server_turn=20).options.turn_seconds == 20
