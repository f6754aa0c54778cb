"""A hand stored move by move is rebuilt by the engine after a restart, exactly as it was."""

from __future__ import annotations

import random

from data.store import Store
from engine.game import Game
from engine.policy import make_policy
from tests.data.conftest import new_table


async def test_a_stored_hand_replays_to_the_same_state_after_reopening(target: str) -> None:
    store = await Store.open(target)
    table = await new_table(store, [1, 2, 3, None])
    game = Game("taiwan16", seed=2024, dealer=0, round_wind=0, dealer_streak=0, hand_number=1)
    hand = await store.start_hand(table.id, 1, game.header())
    policies = [make_policy("random", random.Random(seat)) for seat in range(4)]
    while not game.is_over and len(game.log) < 40:
        seat = game.to_act()[0]
        action = policies[seat].choose(game.view(seat), game.legal_actions(seat))
        await store.append_action(
            hand, len(game.log), str(action), 1000.0 + len(game.log)
        )  # stored first ...
        game.apply(action)  # ... then applied, as the runner does
    await store.close()

    store = await Store.open(target)  # the restart
    [saved] = await store.unfinished_tables()
    [saved_hand] = saved.hands
    assert saved_hand.actions == [str(a) for a in game.log]
    resumed = Game.replay(saved_hand.header, saved_hand.actions)
    assert resumed.log == game.log
    for seat in (None, 0, 1, 2, 3):
        assert resumed.view(seat) == game.view(seat)
    assert saved_hand.deadline == 1000.0 + len(game.log) - 1
    await store.close()
