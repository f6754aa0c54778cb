"""Ranked play through the stand-in: a table created rated with its AI seats counting is played to the
standings, which carry the ledger; then stats (with the profile card), the rated ladder, the ledger
of the match and the server view answer from what was stored. A rated table without four people
does not start."""

from __future__ import annotations

import pytest

from devserver.config import RateLimits
from ranking.ledger import settle

from .tablebot import PrivacyWatch, build_bot, play_match


@pytest.mark.devserver(members=("alice",), rate_limits=RateLimits(time_scale=0.02))
async def test_a_rated_table_with_ai_seats_rates_the_person_and_settles_the_match(
    target, harness, devserver, monkeypatch, tmp_path
):  # target first: its database outlives the bot
    """On each database (``target``: an SQLite file, or a database on the throw-away PostgreSQL server)."""
    bot = await harness.start(build_bot(seed=3, database=target))
    played = await play_match(bot, devserver, PrivacyWatch(monkeypatch), rules="taiwan16", rounds=1, ranking="rated_ai")
    assert "Rated (AI seats count)" in played.lobby.text
    runner = played.runner
    names = runner.session.seating.names()
    ledger_field = played.standings.embeds[0]["fields"][0]
    assert ledger_field["name"].startswith("💰") and "底 300 / 台 100" in ledger_field["name"]
    transfers = settle(list(runner.session.match.scores))
    expected = [f"{names[t.payer]} pays {names[t.payee]} **{t.amount:,}**" for t in transfers] or ["Everyone is even: nothing to pay."]
    assert ledger_field["value"].splitlines() == expected

    alice = devserver.member("alice")
    cog = bot.get_cog("Mahjong")  # the table is forgotten once its final writes are stored
    await devserver.recorder.wait_until(lambda: runner.session.table_id not in cog.registry, 5, lambda: "the match stored")
    stats = await (await alice.slash("mahjong stats")).message()
    fields = {f["name"]: f["value"] for f in stats.embeds[0]["fields"]}
    assert "Provisional 1/5" in fields["Rating"]
    assert stats.attachments and stats.attachments[0].filename == "profile.png" and stats.attachments[0].is_png
    (tmp_path / "profile.png").write_bytes(stats.attachments[0].data)
    seat = runner.session.seating.seat_of_user(alice.id)
    place = 1 + sum(1 for s in runner.session.match.scores if s > runner.session.match.scores[seat])
    assert fields["Places 1st–4th"].split(" / ")[place - 1] == "1"
    assert fields["Points"] == f"{runner.session.match.scores[seat]:+,}"

    ladder = await (await alice.slash("mahjong leaderboard", sort="rating", min_matches=0)).message()
    assert "Rated ladder" in ladder.text and "alice" in ladder.text and "Provisional 1/5" in ladder.text
    established = await (await alice.slash("mahjong leaderboard", sort="rating")).message()
    assert "alice" not in established.text and "5 rated matches" in established.text

    ledger = await (await alice.slash("mahjong ledger", match=runner.session.table_id)).message()
    assert [f["value"] for f in ledger.embeds[0]["fields"]][1].splitlines() == expected
    assert "alice: 1000 → " in ledger.text
    missing = await (await alice.slash("mahjong ledger", match=runner.session.table_id + 50)).message()
    assert missing.ephemeral_to == alice.id and "no finished match" in missing.content

    server = await (await alice.slash("mahjong server")).message()
    assert "in this server" in server.text


@pytest.mark.devserver(members=("alice", "bob"), rate_limits=RateLimits(time_scale=0.02))
async def test_a_rated_table_needs_four_people_to_start(harness, devserver):
    bot = await harness.start(build_bot(seed=3))
    alice, bob = devserver.members("alice", "bob")
    lobby = await (await alice.slash("mahjong create", ranking="rated")).message()
    assert "🏆 Rated" in lobby.text
    await (await bob.click(lobby, "Join")).response()
    refused = await (await alice.click(lobby, "Start")).message()
    assert refused.ephemeral_to == alice.id and "needs four people (2 seated)" in refused.content
    assert len(bot.get_cog("Mahjong").registry)  # still open in the lobby


@pytest.mark.devserver(members=("alice", "bob", "carol", "dave"), rate_limits=RateLimits(time_scale=0.02))
async def test_a_taiwan13_leaver_ends_a_rated_table_placed_last(harness, devserver, tmp_path):
    from .tablebot import table_runner

    bot = await harness.start(build_bot(seed=5, database=str(tmp_path / "t13.sqlite3")))
    alice, bob, carol, dave = devserver.members("alice", "bob", "carol", "dave")
    lobby = await (await alice.slash("mahjong create", rules="taiwan13", ranking="rated")).message()
    for person in (bob, carol, dave):
        await (await person.click(lobby, "Join")).response()
    await (await alice.click(lobby, "Start")).response()
    runner = table_runner(bot, devserver)
    await devserver.recorder.wait_until(lambda: runner.session.game is not None, 5, lambda: "the first hand")
    await (await bob.slash("mahjong leave")).message()
    standings = await devserver.wait_for_message(
        channel="general", predicate=lambda m: any("Match over" in (e.get("title") or "") for e in m.embeds)
    )
    assert "bob loses **50** to the table (leaving)" in standings.embeds[0]["fields"][0]["value"]
    cog = bot.get_cog("Mahjong")
    await devserver.recorder.wait_until(lambda: runner.session.table_id not in cog.registry, 5, lambda: "the match stored")
    stored = await bot.store.match_standings(devserver.world.guild_id, runner.session.table_id)
    seat = runner.session.seating.seat_of_user(bob.id)
    assert stored.leaver == seat and stored.places[seat] == 4
    assert sorted(p for s, p in enumerate(stored.places) if s != seat) == [1, 1, 1]  # the others tie on 0
    ladder = await (await alice.slash("mahjong leaderboard", sort="rating", rules="taiwan13", min_matches=0)).message()
    names = [line for line in ladder.embeds[0]["description"].splitlines() if "**" in line]
    assert len(names) == 4 and "bob" in names[-1]  # rated last
