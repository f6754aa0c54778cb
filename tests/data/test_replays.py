"""Replays and exports read what every match has always stored (0001: match header, hand headers,
moves, results): a match written through the Store as the table runner writes it is read back
whole, exports as a log that checks, and its hands replay; other servers see none of it."""

from __future__ import annotations

import random

from data.replays import stored_hand, stored_match
from data.store import Store
from engine.actions import Action
from engine.log import HandMoves, check_log, export_match
from engine.match import Match
from engine.policy import make_policy
from engine.replay import WIN, frames
from engine.review import review_match
from engine.selfplay import play_hand
from tests.data.conftest import seats_for


async def store_a_match(
    store: Store, *, hands: int, guild_id: int = 1, switches: dict[int, list[str]] | None = None
) -> tuple[int, Match]:
    """Play ``hands`` hands of a taiwan16 match, storing it move by move as the runner does;
    ``switches[n]`` are 代打 switches made after hand n was settled (stored with it, as the table does)."""
    table = await store.create_table(
        guild_id=guild_id,
        channel_id=10,
        host_id=1,
        rules="taiwan16",
        rounds=1,
        options={},
        password_hash=None,
    )
    await store.set_seats(table.id, seats_for([1, None, 2, None]))
    match = Match("taiwan16", seed=77, rounds=1)
    await store.start_match(table.id, match.header())
    policies = [make_policy("easy", random.Random(s)) for s in range(4)]
    for _ in range(hands):
        game = match.new_hand()
        hand_id = await store.start_hand(table.id, game.hand_number, game.header())
        play_hand(game, policies, check=False)
        await store.append_actions(hand_id, [(k, str(a), None) for k, a in enumerate(game.log)])
        result = match.finish_hand(game)
        await store.finish_hand(
            hand_id,
            result=result.to_dict(),
            deltas=list(result.deltas),
            winner=result.winner,
            loser=result.loser,
            self_drawn=result.self_drawn,
            total=result.total,
        )
        for text in (switches or {}).get(game.hand_number, []):
            match.between_hands(Action.from_str(text))
            await store.append_actions(hand_id, [(len(game.log) - 1, text, None)])
    return table.id, match


async def test_a_stored_match_reads_back_whole_and_exports_a_log_that_checks(store: Store) -> None:
    table_id, match = await store_a_match(store, hands=3)
    found = await stored_match(store, 1, table_id)
    assert found is not None and not found.over and found.players == {1, 2}
    assert [list(m) for m, _ in found.hands] == [list(h.log) for h in match.history]
    assert found.seats[0] == {"name": "user1", "user_id": "1"} and found.seats[1]["ai"] == "simple"
    log = export_match(found.header, [HandMoves(m) for m, _ in found.hands], seats=list(found.seats))
    assert check_log(log).hands == 3
    assert log["matches"][0]["final_scores"] == match.scores
    assert await stored_match(store, 2, table_id) is None  # another server's match


async def test_a_stored_hand_replays_and_says_who_may_see_it(store: Store) -> None:
    table_id, match = await store_a_match(store, hands=2)
    hand = await stored_hand(store, 1, table_id=table_id, hand_no=2)
    assert hand is not None and hand.finished and not hand.match_over and hand.hands == 2
    assert hand.users == (1, None, 2, None) and hand.players == {1, 2} and hand.names[1] == "AI 1"
    again = await stored_hand(store, 1, hand_id=hand.id)
    assert again == hand
    steps = list(frames(hand.header, hand.moves))
    assert steps[-1].view.phase == "over" and steps[0].number == 0 and steps[0].events[0]["type"] == "dice"
    assert await stored_hand(store, 2, hand_id=hand.id) is None
    await store.finish_match(table_id, match.scores)
    assert (await stored_hand(store, 1, hand_id=hand.id)).match_over  # type: ignore[union-attr]
    assert (await stored_match(store, 1, table_id)).over  # type: ignore[union-attr]


async def test_hands_with_switches_between_hands_read_back_replay_export_and_review(store: Store) -> None:
    """"Take back control" or a leave stored between two hands (at the end of the settled hand's moves)
    leaves that hand replayable, exportable and reviewable, and the next hand starts with those seats."""
    table_id, match = await store_a_match(store, hands=3, switches={1: ["2 away"], 2: ["2 back", "0 away"]})
    found = await stored_match(store, 1, table_id)
    assert found is not None and [list(m)[-1] for m, _ in found.hands[:2]] == ["2 away", "0 away"]
    log = export_match(found.header, [HandMoves(m) for m, _ in found.hands], seats=list(found.seats))
    assert check_log(log).hands == 3
    assert [h["auto_before"] for h in log["matches"][0]["hands"]] == [[], [2], [0]]
    for number in (1, 2):
        hand = await stored_hand(store, 1, table_id=table_id, hand_no=number)
        assert hand is not None and hand.finished
        steps = list(frames(hand.header, hand.moves))
        assert WIN in steps[-1].marks and steps[-1].view.phase == "over"
    review = review_match(found.header, [m for m, _ in found.hands], seat=2)
    assert [h.result for h in review.hands] == [r.result for r in match.history]
