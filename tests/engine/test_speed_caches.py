"""The engine's speed-ups never change what a game says: at every step of seeded self-play (every
rule set, table switches and house-rule forms, random 眼牌, timeouts and 代打), whatever the game
remembers equals a computation from scratch — the waits remembered per hand, the cached legal
actions, the 聽 listing, the views and the seats they share — and an action taken straight from ``legal_actions`` (the
identity fast path of ``apply``) does exactly what an equal action built anew does."""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import analysis, forms
from engine.actions import Action, Kind
from engine.game import Game, Phase
from engine.house_rules import HouseRules
from engine.match import Match
from engine.policy import RandomPolicy, SimpleAI, reads_view
from engine.rules import TableOptions
from engine.selfplay import play_hand
from engine.view import unseen_counts, unseen_of
from engine.wall import shuffle
from tests.engine.helpers import tile

TABLES = [
    ("taiwan16", TableOptions()),
    ("taiwan16", TableOptions(may_pass_win=True, min_tai=3, exchange=True)),
    ("taiwan16", TableOptions(may_pass_win=True, house_rules=HouseRules({"lugu_tai": 8}))),
    ("taiwan13", TableOptions()),
    ("hongkong", TableOptions()),
    ("guangdong", TableOptions()),
]
CACHES = ("_turn_cache", "_turn_far", "_waits_memo", "_shown_seats", "_shown_hands", "_ron_memo")


def state(game: Game) -> dict:
    """Everything but the caches (and the RNG object, compared by its state)."""
    out = {k: copy.deepcopy(v) for k, v in vars(game).items() if k not in (*CACHES, "rng")}
    out["rng"] = game.rng.getstate()
    out["log_text"] = [str(a) for a in game.log]
    return out


def from_scratch(game: Game) -> Game:
    """A copy of ``game`` that remembers nothing: every cached answer is recomputed (asking leaves
    the state as it was, so the copy may share it)."""
    fresh = copy.copy(game)
    fresh._turn_cache = None
    fresh._waits_memo = {}
    fresh._shown_seats = [None] * 4
    fresh._ron_memo = [None] * 4
    fresh._shown_hands = [None] * 4
    return fresh


def hand_without_drawn(game: Game, seat: int) -> list[int]:
    counts = list(game.hands[seat])
    drawn = game.drawn[seat]
    if drawn is not None and game.phase is Phase.TURN and game.turn == seat and counts[drawn]:
        counts[drawn] -= 1
    return counts


def check_caches(game: Game) -> None:
    fresh = from_scratch(game)
    win_forms = game.profile.win_forms
    for seat in range(4):
        assert game.legal_actions(seat) == fresh.legal_actions(seat)
        assert game.declarations(seat) == fresh.declarations(seat)
        # the waits remembered for this hand are the waits worked out now, form by form
        counts = hand_without_drawn(game, seat)
        if sum(counts) % 3 == 1:
            assert game.winning_tiles(counts) == tuple(forms.winning_tiles(counts, win_forms))
        # every view, the viewer's waits included, equals one built by a game that remembers nothing
        view = game.view(seat)
        assert view == fresh.view(seat)
        # the waits the claim check remembers for a seat's hand (or was told, after a discard from
        # a hand far from ready) are that hand's
        memo = game._ron_memo[seat]
        if memo is not None and memo[0] == game.hands[seat]:
            assert list(memo[1]) == forms.winning_tiles(game.hands[seat], win_forms)
        # the views count a ready hand's waits kind by kind: the same counts as the whole table
        assert unseen_of(game, seat, range(34)) == tuple(enumerate(unseen_counts(game, seat)))
        if sum(counts) % 3 == 1:
            unseen = unseen_counts(game, seat)
            assert view.waits == tuple((t, unseen[t]) for t in forms.winning_tiles(counts, win_forms))
    assert game.view(None) == fresh.view(None)
    if game.phase is Phase.TURN:
        check_ready_listing(game)


def check_ready_listing(game: Game) -> None:
    """聽 is listed with exactly the discards that leave the hand waiting (all winning forms)."""
    seat = game.turn
    legal = game.legal_actions(seat)
    listed = [a.tile for a in legal if a.kind is Kind.READY]
    if not game.profile.ready_declaration or game.ready[seat] or game.eye[seat]:
        assert listed == []
        return
    if legal and legal[0].kind is Kind.WIN and not game.options.may_pass_win:
        return  # the table wins for the player: nothing else is listed
    hand = list(game.hands[seat])
    expected = []
    for a in legal:
        if a.kind is Kind.DISCARD:
            hand[a.tile] -= 1
            if forms.winning_tiles(hand, game.profile.win_forms):
                expected.append(a.tile)
            hand[a.tile] += 1
    assert listed == expected


def check_fast_path(game: Game, action: Action) -> None:
    """``apply`` of the listed object and of an equal action built anew: same events, same state."""
    built = Action(action.seat, action.kind, action.tile, action.tiles)
    assert built == action and built is not action
    other = copy.deepcopy(game)
    events = game.apply(action)
    assert other.apply(built) == events
    assert state(other) == state(game)


def play(game: Game, rng: random.Random, ai: SimpleAI | None) -> int:
    """Random actions (or the easy AI's, which reaches 聽 often), with random declarations,
    timeouts and 代打 mixed in; the caches are checked after every step."""
    steps = 0
    check_caches(game)
    while not game.is_over:
        roll = rng.random()
        declaring = [a for s in range(4) for a in game.declarations(s)]
        seat = rng.choice(game.to_act())
        if declaring and roll < 0.03:
            game.apply(rng.choice(declaring))
        elif roll < 0.06:
            game.apply(Action(seat, Kind.TIMEOUT))
        elif roll < 0.08:
            s = rng.randrange(4)
            game.apply(Action(s, Kind.BACK if game.auto[s] else Kind.AWAY))
        else:
            legal = game.legal_actions(seat)
            easy = ai is not None and game.phase is not Phase.EXCHANGE  # the easy AI skips 換牌
            check_fast_path(game, ai.choose(game.view(seat), legal) if easy else rng.choice(legal))
        check_caches(game)
        steps += 1
        assert steps < 3000
    return steps


@settings(max_examples=16, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), table=st.sampled_from(TABLES), easy=st.booleans())
def test_remembered_answers_equal_answers_from_scratch_at_every_step(seed, table, easy):
    rules, options = table
    rng = random.Random(seed)
    match = Match(rules, seed=seed, rounds=1, options=options)
    steps = 0
    while steps < 120 and not match.is_over:
        game = match.new_hand()
        steps += play(game, rng, SimpleAI() if easy else None)
        match.finish_hand(game)


def ready_hand(sets: list[int], pair: int, size: int) -> list[int]:
    """Tiles of ``size // 3`` sets (a pung of ``t`` below 34, else the chow at ``t - 34``) and a
    pair, with the last tile left out: a hand at or near 聽."""
    tiles = []
    for t in sets[: size // 3]:
        tiles += [t] * 3 if t < 34 else [(t - 34) // 7 * 9 + (t - 34) % 7 + i for i in range(3)]
    return (tiles + [pair, pair])[:size]


@settings(max_examples=40, deadline=None)
@given(
    table=st.sampled_from(TABLES),
    sets=st.lists(st.integers(0, 34 + 20), min_size=5, max_size=5),
    pair=st.integers(0, 33),
)
def test_waits_remembered_per_hand_are_that_hands_waits(table, sets, pair):
    """A hand at 聽 and every hand one tile away from it, in one game (13- and 16-tile, all forms):
    the waits the game remembers for each equal the waits worked out for that hand alone."""
    rules, options = table
    game = Game(rules, seed=1, options=options)
    size = game.profile.hand_size
    base = ready_hand(sets, pair, size)
    for index in range(size):
        for new in range(34):
            tiles = [*base[:index], new, *base[index + 1 :]]
            counts = [tiles.count(t) for t in range(34)]
            if max(counts) <= 4:
                waits = tuple(forms.winning_tiles(counts, game.profile.win_forms))
                assert game.winning_tiles(counts) == waits


def test_a_player_that_reads_no_view_plays_the_same_game_without_one():
    """Self-play builds no view for a policy that says ``reads_view = False``; asking it with a
    view changes nothing."""

    class Viewing(RandomPolicy):
        reads_view = True

        def choose(self, view, legal):
            assert view is not None and view.viewer == legal[0].seat
            return super().choose(view, legal)

    assert not reads_view(RandomPolicy(random.Random(0))) and reads_view(SimpleAI())
    for seed in range(3):
        blind = play_hand(Game(seed=seed), [RandomPolicy(random.Random(seed)) for _ in range(4)])
        seeing = play_hand(Game(seed=seed), [Viewing(random.Random(seed)) for _ in range(4)])
        assert [str(a) for a in blind.log] == [str(a) for a in seeing.log]
        assert blind.outcome == seeing.outcome


def splits_into_sets(c: list[int]) -> bool:
    """Exhaustive search: the lowest held tile starts a pung or a chow, try both."""
    i = next((i for i in range(9) if c[i]), None)
    if i is None:
        return True
    if c[i] >= 3 and splits_into_sets([*c[:i], c[i] - 3, *c[i + 1 :]]):
        return True
    if i <= 6 and c[i + 1] and c[i + 2]:
        return splits_into_sets([*c[:i], c[i] - 1, c[i + 1] - 1, c[i + 2] - 1, *c[i + 3 :]])
    return False


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=9, max_size=9))
def test_one_pass_sets_check_agrees_with_an_exhaustive_search(counts):
    """The win check's per-suit test (one left-to-right pass) says what a full search says."""
    assert analysis._suit_sets_only(counts) == splits_into_sets(counts)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=9, max_size=9))
def test_a_suits_win_value_tries_only_the_pairs_its_weight_allows(counts):
    """A suit's win value (0 none, 1 sets only, 2 sets and a pair) tries a pair only where
    sum(position * count) mod 3 allows one: it says what trying every pair with a full search says
    (all 5^9 suits agreed when it was written)."""
    if sum(counts) % 3 == 0:
        expected = 1 if splits_into_sets(counts) else 0
    elif sum(counts) % 3 == 1:
        expected = 0
    else:
        rests = [[*counts[:p], counts[p] - 2, *counts[p + 1 :]] for p in range(9) if counts[p] >= 2]
        expected = 2 if any(splits_into_sets(rest) for rest in rests) else 0
    assert analysis._suit_win_value(bytes(counts)) == expected


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), length=st.integers(0, 256))
def test_the_walls_shuffle_orders_tiles_as_the_standard_librarys_does(seed, length):
    """Every hand's wall comes from ``engine.wall.shuffle``: for the same generator state it gives
    the order ``random.Random.shuffle`` gives, and leaves the generator in the same state."""
    ours, theirs = random.Random(seed), random.Random(seed)
    a, b = list(range(length)), list(range(length))
    shuffle(ours, a)
    theirs.shuffle(b)
    assert a == b
    assert ours.getstate() == theirs.getstate()


def test_the_ron_check_remembers_the_hand_it_was_made_for():
    """A hand changed behind the game's back (as tests and positions do) is checked afresh."""
    game = Game.from_position(hands={0: "111222333444s56777z", 1: "123456789m123s1234p"}, turn=0, drawn="5z")
    assert game._may_ron(1, tile("4p")) and not game._may_ron(1, tile("5z"))  # 1's waits: 1p 4p
    game.hands[1][tile("4p")] -= 1
    game.hands[1][tile("5z")] += 1  # now 123456789m123s123p5z: waits on 5z alone
    assert game._may_ron(1, tile("5z")) and not game._may_ron(1, tile("4p"))
