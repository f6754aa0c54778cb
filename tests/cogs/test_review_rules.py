"""/mahjong review's rules of who sees what, and its words in every language the catalogue has."""

from __future__ import annotations

import random

import pytest

from cogs import i18n
from cogs.mahjong.review import check_reviewable, review_text, run_review
from data.replays import StoredMatch
from engine.match import Match
from engine.policy import make_policy
from engine.review import DECLARED, REVIEWED
from engine.selfplay import play_hand
from table.lobby import TableError

ALICE, BOB = 11, 22


def stored(over: bool = True, hands: int = 3) -> StoredMatch:
    match = Match("taiwan16", seed=4, rounds=1)
    policies = [make_policy("easy", random.Random(1)) for _ in range(4)]
    logged = []
    while not match.is_over and len(logged) < hands:
        game = match.new_hand()
        play_hand(game, policies, check=False)
        result = match.finish_hand(game)
        logged.append((tuple(str(a) for a in game.log), result.to_dict()))
    seats = (
        {"name": "alice", "user_id": str(ALICE)},
        *({"name": f"AI {s}", "ai": "easy"} for s in (1, 2, 3)),
    )
    return StoredMatch(
        1, 5, "taiwan16", match.header(), seats, frozenset({ALICE}), tuple(logged), 0.0, 1.0, over
    )


def test_a_member_reviews_only_their_own_play_in_a_match_that_is_over():
    found = stored()
    assert check_reviewable(found, ALICE, ALICE) == 0
    for asker, member, key in ((BOB, ALICE, "review.private"), (BOB, BOB, "review.not_played")):
        with pytest.raises(TableError) as refused:
            check_reviewable(found, asker, member)
        assert refused.value.key == key
    with pytest.raises(TableError) as running:
        check_reviewable(stored(over=False), ALICE, ALICE)
    assert running.value.key == "review.running"
    with pytest.raises(TableError) as missing:
        check_reviewable(None, ALICE, ALICE)
    assert missing.value.key == "export.no_match"


@pytest.mark.parametrize("lang", sorted(i18n.STRINGS))
def test_a_review_reads_in_every_language(lang):
    found = stored()
    review = run_review(found, 0, None)
    text = review_text(lang, found, review, 0)
    assert len(text) <= 2000 and "{" not in text
    assert f"{len(review.decisions)}" in text.splitlines()[1]
    for kind in (*REVIEWED, *DECLARED):
        assert f"review.act.{kind.value}" in i18n.STRINGS[lang]
    for why in ("win", "ready", "closer", "live", "tai", "safer", "value"):
        assert f"review.why.{why}" in i18n.STRINGS[lang]


async def test_no_command_has_two_options_with_one_name_in_any_language():
    # Discord refuses a command whose options share a localised name (match and hand are both 牌局)
    import discord
    from discord import app_commands

    from cogs.i18n import CatalogueTranslator
    from cogs.mahjong import COGS

    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    for command in (command for cog in COGS for command in cog.__cog_app_commands__):
        if not isinstance(command, app_commands.Command):
            continue
        payload = await command.get_translated_payload(tree, CatalogueTranslator())
        for lang in ("zh-TW", "zh-CN"):
            names = [(o.get("name_localizations") or {}).get(lang, o["name"]) for o in payload["options"]]
            assert len(names) == len(set(names)), (command.name, lang, names)
