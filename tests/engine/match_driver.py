"""Whole matches played by a seeded driver that also sends what people send: timeouts, 代打 on and
off (away / back) in a hand and between two hands, 眼牌 declarations and a player leaving, so that a
log or a spectator test sees every kind of event, not only the moves a policy makes."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.actions import Action, Kind
from engine.game import Game
from engine.log import HandMoves
from engine.match import Match
from engine.policy import Policy, make_policy
from engine.rules import TableOptions, get_profile

MAX_STEPS = 5000


@dataclass
class Played:
    match: Match
    hands: list[HandMoves] = field(default_factory=list)
    games: list[Game] = field(default_factory=list)


def chaos_action(game: Game, rng: random.Random, policy: Policy) -> Action:
    """One seat's next input: mostly the easy AI's decision (so hands are won), sometimes a random
    legal one, a declined win (過水 where allowed), a timeout, an away / back, or a declaration."""
    seats = game.to_act()
    seat = seats[0]
    roll = rng.random()
    if roll < 0.04:
        return Action(seat, Kind.TIMEOUT)
    if roll < 0.05:
        other = rng.randrange(4)
        return Action(other, Kind.BACK if game.auto[other] else Kind.AWAY)
    if roll < 0.055 and game.declarations(seat):
        return game.declarations(seat)[0]
    if game.auto[seat]:
        return game.auto_action(seat)
    actions = game.legal_actions(seat)
    wins = [a for a in actions if a.kind is Kind.WIN]
    if wins and len(actions) > 1 and rng.random() < 0.3:
        return next(a for a in actions if a.kind is not Kind.WIN)
    kongs = [a for a in actions if a.kind in (Kind.KONG, Kind.ADDKONG, Kind.ANKONG)]
    if kongs and rng.random() < 0.7:
        return rng.choice(kongs)
    if rng.random() < 0.2:
        return rng.choice(actions)
    return policy.choose(game.view(seat), actions)


def play_match(
    rules: str,
    seed: int,
    *,
    options: TableOptions | None = None,
    rounds: int = 1,
    max_hands: int = 6,
    leave_in_hand: int | None = None,
    on_step: Callable[[Game], None] | None = None,
    key: bytes | None = None,
    between: float = 0.0,
    duplicate: bool = False,
) -> Played:
    """A match of ``rules`` up to ``max_hands`` hands; in hand ``leave_in_hand`` a player leaves
    after a few moves (taiwan13 ends the table; elsewhere the seat goes to 代打). ``on_step`` sees
    the game after the deal and after every move. With ``key`` the match is sealed (dealt from the
    key, as a table's is); the driver's own choices still follow ``seed``. ``between`` is the chance
    that people switch 代打 after a settled hand, before the next is dealt ("Take back control", or
    leaving: ``N away``, stored with the settled hand as a table stores it; where leaving ends the
    table, taiwan13, a leave there ends it with the next hand, dealt and abandoned at once). ``duplicate``:
    the walls follow from each hand's position (a tournament round's tables, engine.match.Match)."""
    rng = random.Random(seed)
    policy = make_policy("easy", random.Random(seed))
    match = Match(rules, seed=seed, rounds=rounds, options=options or get_profile(rules).options, key=key,
                  duplicate=duplicate)  # fmt: skip
    played = Played(match)
    while not match.is_over and len(played.hands) < max_hands:
        game = match.new_hand()
        played.games.append(game)
        leave_at = rng.randrange(5, 40) if leave_in_hand == len(played.hands) + 1 else None
        steps = 0
        left = None
        if on_step is not None:
            on_step(game)
        while not game.is_over:
            if leave_at is not None and len(game.log) >= leave_at:
                seat = rng.randrange(4)
                if match.abandon(game, seat) is not None:
                    left = seat
                    break
                if not game.auto[seat]:
                    game.apply(Action(seat, Kind.AWAY))
                leave_at = None
                continue
            game.apply(chaos_action(game, rng, policy))
            if on_step is not None:
                on_step(game)
            steps += 1
            assert steps < MAX_STEPS
        if left is None:
            match.finish_hand(game)
            if not match.is_over and rng.random() < between:
                left = _switch_between_hands(match, game, rng)
        played.hands.append(HandMoves([str(a) for a in game.log], None if game.is_over else left))
        if left is not None and game.is_over:  # taiwan13: a leave between hands ends the table now
            leaving = match.new_hand()
            played.games.append(leaving)
            if leaving.is_over:  # won by flowers in the deal: settled before the leave could end it
                match.finish_hand(leaving)
                played.hands.append(HandMoves([]))
            else:
                match.abandon(leaving, left)
                played.hands.append(HandMoves([], left))
    return played


def _switch_between_hands(match: Match, game: Game, rng: random.Random) -> int | None:
    """One to three 代打 switches on the settled hand (Match.between_hands), as a table makes them;
    returns the seat that left where leaving ends the table (taiwan13), which ends the switching."""
    for _ in range(rng.randint(1, 3)):
        seat = rng.randrange(4)
        away = not game.auto[seat]
        match.between_hands(Action(seat, Kind.AWAY if away else Kind.BACK))
        if away and match.ends_on_leave and rng.random() < 0.3:
            return seat
    return None
