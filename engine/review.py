"""Review my play: the strong AI reads a finished match and says where a seat lost the most.

Every decision the seat made (discards, 聽, kongs, claims and passes, wins taken or passed, 眼牌) is
valued from that seat's :class:`~engine.view.GameView` at that moment — the strong AI's own
evaluation (:meth:`engine.ai.PlannerAI.options`), which never sees the wall or another hand — beside
the action the strong AI would take. The loss of a decision is what the AI's choice was worth
minus what was done, in expected 台-points (a payment is 3 + 台: 底 300 / 台 100 in taiwan16).

    review = review_match(match_header, [hand.moves for hand in stored], seat=2)
    review.agreement, review.loss_per_hand, review.worst(5)

A match figure is the share of reviewed decisions that agreed with the AI and the expected points
lost per hand. Pure: replays moves through the engine, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from .actions import Action, Kind
from .ai import STRONG, PlannerAI
from .ai.planner import BASE_IN_TAI, Option
from .game import Game
from .log import hand_steps
from .match import Match
from .view import GameView, HandResult

# the strong AI weighing every decision afresh: after a 吃/碰 its play keeps the tile the claim was judged
# with (a shortcut for speed), which a review would show as the best move beside values saying otherwise
JUDGE = replace(STRONG, keep_claim_plan=False)

# what a review looks at: the choices a person makes (timeouts and 代打 are not theirs)
REVIEWED = frozenset(
    {Kind.DISCARD, Kind.READY, Kind.CHI, Kind.PON, Kind.KONG, Kind.ANKONG, Kind.ADDKONG, Kind.WIN, Kind.PASS}
)
DECLARED = frozenset({Kind.EYE, Kind.MIJI})
AGREE_EPSILON = 0.01  # two options valued this close are the same choice


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision: ``done`` and the AI's ``best`` as valued then, ``loss`` = best - done (≥ 0)."""

    hand: int  # the hand's number in the match (1-based)
    move: int  # the move's number in the hand (1-based), as the log numbers it
    frame: int  # the replay step showing the table just before the decision (engine.replay)
    seat: int
    done: Option
    best: Option
    agreed: bool
    # the log number of that replay step (the move after which the seat decided): the one number a
    # review shows, so its "move 40" opens the step the replay labels move 40
    shown: int = 0

    @property
    def loss(self) -> float:
        return 0.0 if self.agreed else max(0.0, self.best.value - self.done.value)


@dataclass(frozen=True, slots=True)
class HandReview:
    number: int
    seat: int
    decisions: tuple[Decision, ...]
    result: HandResult | None  # None: the hand was not finished (it is not reviewed)
    outcome: float  # what the hand brought the seat, in the AI's units (own win less a deal-in)


@dataclass(frozen=True, slots=True)
class Review:
    """A seat's review of a match (or of the hands asked for)."""

    seat: int
    hands: tuple[HandReview, ...]
    scores: tuple[int, ...] = (0, 0, 0, 0)  # the match's scores after the hands replayed

    @property
    def decisions(self) -> list[Decision]:
        return [d for h in self.hands for d in h.decisions]

    @property
    def agreement(self) -> float:
        """Share of the decisions that agreed with the strong AI (1.0 when there were none)."""
        ds = self.decisions
        return sum(d.agreed for d in ds) / len(ds) if ds else 1.0

    @property
    def loss_per_hand(self) -> float:
        """Expected 台-points lost per hand reviewed."""
        return sum(d.loss for d in self.decisions) / len(self.hands) if self.hands else 0.0

    def worst(self, n: int = 5) -> list[Decision]:
        """The ``n`` decisions that cost the most, biggest first (agreements never)."""
        costly = [d for d in self.decisions if d.loss > AGREE_EPSILON]
        return sorted(costly, key=lambda d: (-d.loss, d.hand, d.move))[:n]


def judge(
    ai: PlannerAI, view: GameView, legal: Sequence[Action], done: Action
) -> tuple[Option, Option, bool]:
    """Value ``done`` and the AI's choice among ``legal`` from ``view`` alone: (done, best, agreed).
    A 聽 and a plain discard of the same tile are one choice (the declaration only tells the table)."""
    choice = ai.choose(view, legal)
    options = ai.options(view, legal)
    by_action = {o.action: o for o in options}
    best = by_action.get(choice) or max(options, key=lambda o: o.value)
    mine = by_action.get(done)
    if mine is None and done.kind in (Kind.PON, Kind.KONG) and done.tile is None:  # "1 pon"
        mine = next((o for o in options if o.action.kind is done.kind), None)
    if mine is None:
        raise ValueError(f"{done} is not one of the legal actions")
    agreed = _same_choice(mine.action, best.action) or mine.value >= best.value - AGREE_EPSILON
    return mine, best, agreed


def _same_choice(a: Action, b: Action) -> bool:
    tiles = (Kind.DISCARD, Kind.READY)
    if a.kind in tiles and b.kind in tiles:
        return a.tile == b.tile
    return a == b


def review_hand(game: Game, moves: Sequence[str], seat: int) -> HandReview:
    """Replay ``moves`` on ``game`` (freshly dealt) and review ``seat``'s decisions."""
    ai = PlannerAI(JUDGE)
    decisions: list[Decision] = []
    frame, shown = -1, 0
    for step in hand_steps(game, moves):
        if step.number == 0 or step.events:
            frame, shown = frame + 1, step.number
        if step.number >= len(moves) or game.is_over:
            continue
        action = Action.from_str(moves[step.number])
        if action.seat != seat or game.auto[seat]:
            continue
        number = step.number + 1
        if action.kind in DECLARED:
            decisions.append(replace(_declaration(ai, game, seat, action, number, frame), shown=shown))
            continue
        if action.kind not in REVIEWED:
            continue
        legal = game.legal_actions(seat)
        if len(legal) < 2:
            continue
        done, best, agreed = judge(ai, game.view(seat), legal, action)
        decisions.append(Decision(game.hand_number, number, frame, seat, done, best, agreed, shown))
    return HandReview(game.hand_number, seat, tuple(decisions), None, 0.0)  # review_match adds the result


def _declaration(ai: PlannerAI, game: Game, seat: int, action: Action, number: int, frame: int) -> Decision:
    """眼牌 / Miji: the AI's :meth:`~PlannerAI.declare` says whether it would have declared; a
    declaration is not valued in points (it is judged as agreeing or not)."""
    view = game.view(seat)
    offered = game.declarations(seat)
    would = ai.declare(view, offered)
    mine = Option(action, 0.0, 0, 0, 0.0, 0.0)
    best = mine if would is not None else Option(Action(seat, Kind.PASS), 0.0, 0, 0, 0.0, 0.0)
    return Decision(game.hand_number, number, frame, seat, mine, best, would is not None)


def outcome_value(result: HandResult, seat: int) -> float:
    """What a finished hand brought ``seat`` in the AI's units: a win pays 3 + 台 per payer (three
    on a self-draw), dealing in costs 3 + 台; anything else 0 (the AI values its own prospects and
    its deal-in risk, not rivals' self-draws)."""
    if result.winner is None:
        return 0.0
    tai = result.capped_total if result.capped_total is not None else result.total
    pay = BASE_IN_TAI + tai
    if result.winner == seat:
        return pay * (3 if result.self_drawn else 1)
    if result.loser == seat:
        return -pay
    return 0.0


def review_match(
    header: dict,
    hands: Sequence[Sequence[str]],
    seat: int,
    *,
    only: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review ``seat`` over a match (:meth:`Match.header` and every hand's moves, in order), or
    only hand ``only`` (1-based; the earlier hands are replayed, not reviewed). Stops at the first
    unfinished hand: a hand in play is never reviewed. ``progress(done, total)`` after each hand."""
    match = Match.replay(header, [])[0]
    reviewed: list[HandReview] = []
    for number, moves in enumerate(hands, 1):
        if match.is_over:
            break
        game = match.new_hand()
        if only is None or number == only:
            part = review_hand(game, moves, seat)
        else:
            for _ in hand_steps(game, moves):
                pass
            part = None
        if not game.is_over:
            break
        result = match.finish_hand(game)
        if part is not None:
            reviewed.append(HandReview(number, seat, part.decisions, result, outcome_value(result, seat)))
        if progress is not None:
            progress(number, len(hands))
    return Review(seat, tuple(reviewed), tuple(match.scores))


def reasons(d: Decision) -> list[tuple[str, dict[str, object]]]:
    """Why the AI's choice was better, as (what, numbers) pairs a message puts in words, most
    telling first: a win passed, a ready hand kept, fewer steps to ready, more live tiles, more 台, less risk."""
    done, best = d.done, d.best
    out: list[tuple[str, dict[str, object]]] = []
    if best.shanten < 0 <= done.shanten:
        return [("win", {"value": round(best.value, 1)})]
    if best.shanten == 0 < done.shanten:
        out.append(("ready", {"done": done.shanten}))
    elif best.shanten < done.shanten:
        out.append(("closer", {"best": best.shanten, "done": done.shanten}))
    if best.live > done.live and best.shanten <= done.shanten:
        out.append(("live", {"best": best.live, "done": done.live}))
    if best.tai - done.tai >= 0.5:
        out.append(("tai", {"more": round(best.tai - done.tai, 1)}))
    if done.risk - best.risk >= 0.05:
        out.append(("safer", {"best": round(best.risk, 2), "done": round(done.risk, 2)}))
    if not out:
        out.append(("value", {"best": round(best.value, 2), "done": round(done.value, 2)}))
    return out
