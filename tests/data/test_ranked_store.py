"""Ratings and statistics from stored matches: every number of a seeded history against figures worked
out by hand below, ratings against openskill's own, the AI-seat and leaver rules, the ledger's
standings, and a recomputation over the stored matches that gives the same numbers."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence

import pytest
from openskill.models import PlackettLuce

from data import SeatRecord, Store, TableRecord
from engine.match import Match
from engine.meld import MeldKind
from engine.policy import make_policy
from tests.data.conftest import Clock

ANN, BO, CY, DI = 1, 2, 3, 4


async def table(
    store: Store,
    users: Sequence[int | None],
    *,
    ranking: str = "casual",
    rules: str = "taiwan16",
    channel_id: int = 10,
    guild_id: int = 1,
) -> TableRecord:
    names = {ANN: "Ann", BO: "Bo", CY: "Cy", DI: "Di"}
    record = await store.create_table(
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=next(u for u in users if u is not None),
        rules=rules,
        rounds=1,
        options={"table": {"base": 300, "tai": 100}},
        password_hash=None,
        ranking=ranking,
    )
    seats = [
        SeatRecord(i, u, names.get(u, f"P{u}") if u is not None else f"AI {i}", None if u else "strong")
        for i, u in enumerate(users)
    ]
    await store.set_seats(record.id, seats)
    await store.start_match(record.id, {"rules": rules})
    return record


async def hand(
    store: Store,
    table_id: int,
    number: int,
    *,
    dealer: int,
    streak: int,
    deltas: Sequence[int],
    winner: int | None = None,
    loser: int | None = None,
    total: int = 0,
    items: Sequence[tuple[str, int]] = (),
    called: Sequence[bool] = (False,) * 4,
) -> int:
    header = {"rules": "taiwan16", "dealer": dealer, "dealer_streak": streak, "hand_number": number}
    hand_id = await store.start_hand(table_id, number, header)
    await store.finish_hand(
        hand_id,
        result={"winner": winner, "total": total, "items": [list(i) for i in items]},
        deltas=deltas,
        winner=winner,
        loser=loser,
        self_drawn=winner is not None and loser is None,
        total=total,
        called=called,
    )
    return hand_id


async def seeded(store: Store, clock: Clock) -> dict[str, int]:
    """Match A: rated, four people. Match B: casual, Ann and three AI seats. Hand ids by name."""
    a = await table(store, [ANN, BO, CY, DI], ranking="rated")
    ids = {"A": a.id}
    T, F = True, False
    ids["A1"] = await hand(store, a.id, 1, dealer=0, streak=0, deltas=[900, -300, -300, -300], winner=0, total=5,
                           items=[("門清", 1), ("自摸", 1), ("莊家", 1), ("平胡", 2)], called=[F, T, F, F])
    ids["A2"] = await hand(store, a.id, 2, dealer=0, streak=1, deltas=[-600, 600, 0, 0], winner=1, loser=0, total=3,
                           items=[("門清", 1), ("獨聽", 1), ("三暗刻", 1)], called=[T, F, F, T])
    ids["A3"] = await hand(store, a.id, 3, dealer=1, streak=0, deltas=[0, 0, 0, 0], called=[T, T, F, F])
    ids["A4"] = await hand(store, a.id, 4, dealer=1, streak=1, deltas=[0, 0, 1100, -1100], winner=2, loser=3,
                           total=8, items=[("清一色", 8)], called=[F, F, T, F])
    clock.advance()
    await store.finish_match(a.id, [300, 300, 800, -1400])
    b = await table(store, [ANN, None, None, None], channel_id=11)
    ids["B"] = b.id
    ids["B1"] = await hand(store, b.id, 1, dealer=2, streak=0, deltas=[500, -500, 0, 0], winner=0, loser=1, total=2,
                           items=[("門清", 1), ("獨聽", 1)])
    ids["B2"] = await hand(store, b.id, 2, dealer=0, streak=3, deltas=[-400, -400, 1200, -400], winner=2, total=4,
                           items=[("自摸", 1), ("碰碰胡", 3)], called=[T, F, F, F])
    clock.advance()
    await store.finish_match(b.id, [100, -900, 1200, -400])
    return ids


def library(ratings: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    return [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=ranks)]


def shown(mu: float, sigma: float) -> int:
    return round(1000 + 40 * (mu - 3 * sigma))


NEW = (25.0, 25 / 3)


async def test_every_statistic_of_a_player_on_seeded_matches(store: Store, clock: Clock) -> None:
    ids = await seeded(store, clock)
    ann = await store.player_figures(1, ANN)
    assert ann is not None and ann.rules == "taiwan16" and ann.name == "Ann"
    # six hands (A1-A4, B1-B2): wins A1 (自摸) and B1; dealt in on A2; called in A2, A3 and B2
    assert (ann.hands, ann.wins, ann.self_draws, ann.deal_ins, ann.calls) == (6, 2, 1, 1, 3)
    assert (ann.win_rate, ann.self_draw_rate, ann.deal_in_rate, ann.call_rate) == (2 / 6, 1 / 2, 1 / 6, 3 / 6)
    assert (ann.tai_sum, ann.average_tai, ann.best_tai, ann.best_hand) == (7, 3.5, 5, ids["A1"])
    assert ann.longest_streak == 3  # dealt B2 at 連3 (A1 at 0, A2 at 1)
    assert ann.places == (0, 2, 0, 0) and ann.average_place == 2.0 and ann.matches == 2  # 2nd (tied) in A, 2nd in B
    assert ann.points == 300 + 100
    assert ann.top_items == (("門清", 2), ("平胡", 1), ("獨聽", 1), ("自摸", 1), ("莊家", 1))
    assert ann.rated_matches == 1  # B was casual
    bo = await store.player_figures(1, BO)
    assert bo is not None
    assert (bo.hands, bo.wins, bo.deal_ins, bo.calls, bo.longest_streak, bo.tai_sum) == (4, 1, 0, 2, 1, 3)
    assert bo.places == (0, 1, 0, 0) and bo.top_items == (("三暗刻", 1), ("獨聽", 1), ("門清", 1))
    di = await store.player_figures(1, DI)
    assert di is not None
    assert (di.wins, di.deal_ins, di.calls, di.places, di.best_tai, di.best_hand, di.average_tai) == (
        0, 1, 1, (0, 0, 0, 1), None, None, 0.0
    )
    cy = await store.player_figures(1, CY)
    assert cy is not None and cy.places == (1, 0, 0, 0) and cy.top_items == (("清一色", 1),)
    assert await store.player_figures(1, ANN, rules="hongkong") is None
    assert await store.player_figures(2, ANN) is None  # another server


async def test_a_rated_match_moves_ratings_as_the_library_says_with_a_tie(store: Store, clock: Clock) -> None:
    ids = await seeded(store, clock)
    expected = library([NEW] * 4, [2, 2, 1, 4])  # Ann and Bo tie on 300
    board = await store.rating_board(1, "taiwan16")
    by_user = {r.user_id: r for r in board}
    for user, (mu, sigma) in zip((ANN, BO, CY, DI), expected, strict=True):
        assert (by_user[user].mu, by_user[user].sigma) == pytest.approx((mu, sigma))
        assert by_user[user].rating == shown(mu, sigma) and by_user[user].matches == 1
    assert by_user[ANN].mu == pytest.approx(by_user[BO].mu)
    assert [r.user_id for r in board][0] == CY and [r.user_id for r in board][-1] == DI
    assert by_user[ANN].average_place == 2.0  # over both matches of the rule set, rated or not
    standings = await store.match_standings(1, ids["A"])
    assert standings is not None and standings.places == (2, 2, 1, 4)
    assert [(s, before) for s, before, _ in standings.rating_changes] == [(0, 1000), (1, 1000), (2, 1000), (3, 1000)]
    assert [after for _, _, after in standings.rating_changes] == [shown(*e) for e in expected]
    casual = await store.match_standings(1, ids["B"])
    assert casual is not None and casual.rating_changes == () and casual.places == (2, 4, 1, 3)


async def test_a_rated_table_with_an_ai_seat_is_not_rated_and_rated_ai_counts_them_at_fixed_ratings(
    store: Store, clock: Clock
) -> None:
    plain = await table(store, [ANN, BO, CY, None], ranking="rated")
    await hand(store, plain.id, 1, dealer=0, streak=0, deltas=[0, 0, 0, 0])
    await store.finish_match(plain.id, [100, 0, 0, -100])
    assert await store.rating_board(1, "taiwan16") == []  # four people or nothing
    with_ai = await table(store, [ANN, None, None, None], ranking="rated_ai", channel_id=12)
    await hand(store, with_ai.id, 1, dealer=0, streak=0, deltas=[0, 0, 0, 0])
    await store.finish_match(with_ai.id, [300, -100, -100, -100])
    strong = (29.0, 2.0)  # the AI seats here are "strong"
    expected = library([NEW, strong, strong, strong], [1, 2, 2, 2])
    [ann] = await store.rating_board(1, "taiwan16")
    assert (ann.user_id, ann.matches) == (ANN, 1)
    assert (ann.mu, ann.sigma) == pytest.approx(expected[0])


async def test_a_taiwan13_leaver_is_last_and_rated_last(store: Store, clock: Clock) -> None:
    t13 = await table(store, [ANN, BO, CY, DI], ranking="rated", rules="taiwan13")
    await hand(store, t13.id, 1, dealer=0, streak=0, deltas=[-300, 0, 350, -50])
    await store.finish_match(t13.id, [-300, 0, 350, -50], leaver=3)
    standings = await store.match_standings(1, t13.id)
    assert standings is not None and standings.places == (3, 2, 1, 4) and standings.leaver == 3
    expected = library([NEW] * 4, [3, 2, 1, 4])
    by_user = {r.user_id: r for r in await store.rating_board(1, "taiwan13")}
    assert (by_user[DI].mu, by_user[DI].sigma) == pytest.approx(expected[3])
    assert (by_user[ANN].mu, by_user[ANN].sigma) == pytest.approx(expected[0])


async def test_provisional_players_and_the_minimum_of_matches(store: Store, clock: Clock) -> None:
    for n in range(6):  # Ann and Bo: six rated matches; Cy and Di join only the last
        users = [ANN, BO, 10 + n, 20 + n] if n < 5 else [ANN, BO, CY, DI]
        record = await table(store, users, ranking="rated", channel_id=100 + n)
        await hand(store, record.id, 1, dealer=0, streak=0, deltas=[0, 0, 0, 0])
        clock.advance()
        await store.finish_match(record.id, [300, 100, -100, -300])
    established = await store.rating_board(1, "taiwan16", min_matches=5)
    assert [(r.user_id, r.matches) for r in established] == [(ANN, 6), (BO, 6)]
    assert await store.rating_board_count(1, "taiwan16", min_matches=5) == 2
    assert await store.rating_board_count(1, "taiwan16") == 2 + 5 * 2 + 2
    points = await store.leaderboard(1, rules="taiwan16", min_matches=2)
    assert [r.user_id for r in points] == [ANN, BO] and points[0].rating == established[0].rating
    assert points[0].rated_matches == 6
    assert await store.leaderboard_count(1, rules="taiwan16", min_matches=2) == 2
    everyone = await store.leaderboard(1, limit=50)
    cy = next(r for r in everyone if r.user_id == CY)
    assert cy.rated_matches == 1 and cy.rating is not None  # provisional: the cog shows it so


async def test_the_server_view_counts_items_and_finds_rare_and_big_hands(store: Store, clock: Clock) -> None:
    ids = await seeded(store, clock)
    server = await store.server_figures(1, "taiwan16", top=3)
    assert (server.hands, server.wins) == (6, 5)
    assert [(c.item, c.hands) for c in server.most_made] == [("門清", 3), ("自摸", 2), ("獨聽", 2)]
    assert [(c.item, c.hands, c.last_hand, c.last_name) for c in server.rarest] == [
        ("碰碰胡", 1, ids["B2"], "AI 2"),
        ("清一色", 1, ids["A4"], "Cy"),
        ("三暗刻", 1, ids["A2"], "Bo"),
    ]
    assert [(b.total, b.name, b.hand_id) for b in server.biggest] == [(8, "Cy", ids["A4"]), (5, "Ann", ids["A1"]), (4, "AI 2", ids["B2"])]
    assert (await store.server_figures(2, "taiwan16")).wins == 0


async def test_recomputing_from_the_stored_matches_gives_the_same_numbers(store: Store, clock: Clock) -> None:
    await seeded(store, clock)
    t13 = await table(store, [ANN, BO, CY, DI], ranking="rated", rules="taiwan13", channel_id=13)
    await hand(store, t13.id, 1, dealer=0, streak=2, deltas=[0, 0, 0, -50])
    await store.finish_match(t13.id, [0, 0, 0, -50], leaver=3)

    async def everything() -> list:
        figures = [await store.player_figures(1, u, rules=r) for u in (ANN, BO, CY, DI) for r in ("taiwan16", "taiwan13")]
        boards = [await store.rating_board(1, r) for r in ("taiwan16", "taiwan13")]
        servers = [await store.server_figures(1, r) for r in ("taiwan16", "taiwan13")]
        ledgers = [await store.match_standings(1, m) for m in (1, 2, t13.id)]
        return [figures, boards, servers, ledgers, await store.leaderboard(1, limit=50)]

    before = await everything()
    async with store.driver.transaction() as db:  # scramble what recompute derives, as a changed formula would
        await db.execute("DELETE FROM hand_items")
        await db.execute("UPDATE match_scores SET place = 4")
        await db.execute("UPDATE hand_seats SET streak = 99")
        await db.execute("UPDATE ratings SET mu = 0, sigma = 1, shown = 0")
        await db.execute("DELETE FROM match_ratings")
        await db.execute("DELETE FROM item_totals")
        await db.execute("UPDATE player_totals SET points = 0, matches = 9")
        await db.execute("UPDATE server_totals SET wins = 0")
    assert await everything() != before
    assert await store.recompute(1) == 2  # A and the taiwan13 match are rated
    assert await everything() == before


async def test_who_called_is_replayed_from_the_stored_moves_of_a_real_hand(store: Store) -> None:
    match = Match("taiwan16", seed=11, rounds=1)
    game = match.new_hand()
    policies = [make_policy("easy", random.Random(seat)) for seat in range(4)]
    while not game.is_over:
        seat = game.to_act()[0]
        game.apply(policies[seat].choose(game.view(seat), game.legal_actions(seat)))
    result = match.finish_hand(game)
    record = await table(store, [ANN, BO, CY, DI])
    hand_id = await store.start_hand(record.id, 1, game.header())
    await store.append_actions(hand_id, [(n, str(a), None) for n, a in enumerate(game.log)])
    await store.finish_hand(
        hand_id, result=result.to_dict(), deltas=list(result.deltas), winner=result.winner,
        loser=result.loser, self_drawn=result.self_drawn, total=result.total,
    )
    expected = [any(m.kind is not MeldKind.ANKONG for m in game.melds[s]) for s in range(4)]
    assert any(expected)  # this seed's hand has claims
    async with store.driver.session() as db:
        rows = [
            tuple(r) for r in await db.all("SELECT called, streak FROM hand_seats WHERE hand_id = ? ORDER BY seat", (hand_id,))
        ]
    assert [bool(r[0]) for r in rows] == expected
    assert [r[1] for r in rows] == [game.dealer_streak if s == game.dealer else None for s in range(4)]


async def test_a_casual_table_is_the_default_and_an_unknown_ranking_is_refused(store: Store) -> None:
    record = await store.create_table(
        guild_id=1, channel_id=5, host_id=1, rules="taiwan16", rounds=1, options={}, password_hash=None
    )
    assert record.ranking == "casual"
    with pytest.raises(ValueError):
        await store.create_table(
            guild_id=1, channel_id=6, host_id=1, rules="taiwan16", rounds=1, options={}, password_hash=None,
            ranking="ranked",
        )


async def test_the_recompute_command_rebuilds_a_database_file(target: str, capsys) -> None:
    from data.recompute import main

    store = await Store.open(target)
    try:
        await seeded(store, Clock())
        before = await store.rating_board(1, "taiwan16")
        async with store.driver.session() as db:
            await db.execute("DELETE FROM ratings")
    finally:
        await store.close()
    await asyncio.to_thread(main, [target])
    assert "1 rated matches replayed" in capsys.readouterr().out
    store = await Store.open(target)
    try:
        assert await store.rating_board(1, "taiwan16") == before
    finally:
        await store.close()


async def test_a_leaderboard_page_comes_with_the_number_of_players_and_stays_in_range(store: Store, clock: Clock) -> None:
    await seeded(store, clock)
    rows, players, page = await store.leaderboard_page(1, size=3)
    assert (players, page) == (4, 1) and [r.user_id for r in rows] == [CY, ANN, BO]  # 800, 400 (+wins), 300
    assert rows == await store.leaderboard(1, limit=3)
    rows, players, page = await store.leaderboard_page(1, size=3, page=9)  # past the end: the last page
    assert (players, page, [r.user_id for r in rows]) == (4, 2, [DI])
    assert await store.leaderboard_page(1, min_matches=3) == ([], 0, 1)
    rows, players, _ = await store.leaderboard_page(1, min_matches=2)
    assert (players, [r.user_id for r in rows]) == (1, [ANN])


async def test_hands_ending_at_once_at_tables_sharing_people_and_items_never_wait_in_a_circle(
    store: Store,
) -> None:
    """On PostgreSQL two tables' finish_hand run side by side: each updates the same people's totals and
    the same items' counts, so each takes those rows in one order (by user id, by item), never a
    deadlock or a lock wait (the store's lock timeout here is 0.2 s) that a player would see as a
    storage fault."""
    first = await table(store, [ANN, BO, CY, DI], channel_id=20)
    second = await table(store, [DI, CY, BO, ANN], channel_id=21)  # the same people, seated the other way
    items = [("門清", 1), ("自摸", 1), ("平胡", 2), ("清一色", 8)]
    for number in range(1, 16):
        await asyncio.gather(
            hand(store, first.id, number, dealer=0, streak=0, deltas=[300, -100, -100, -100], winner=0,
                 total=4, items=items),
            hand(store, second.id, number, dealer=0, streak=0, deltas=[300, -100, -100, -100], winner=0,
                 total=4, items=items[::-1]),
        )
    board = {row.user_id: row.hands for row in await store.leaderboard(1)}
    assert board == {ANN: 30, BO: 30, CY: 30, DI: 30}
    made = (await store.server_figures(1, "taiwan16")).most_made
    assert [(i.item, i.hands) for i in made] == sorted((name, 30) for name, _ in items)  # ties: by name
