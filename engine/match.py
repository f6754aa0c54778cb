"""A match: 抓位 and 起莊, then hands until the rounds (圈) are played, with dealer rotation,
連莊, scoring and zero-sum settlement.

    match = Match("taiwan16", seed=1, rounds=1)
    while not match.is_over:
        game = match.new_hand()
        ...play game to its end...
        result = match.finish_hand(game)   # HandResult: items, total, deltas
    match.standings()
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .game import Game
from .rules import TableOptions, get_profile, next_dealer
from .scoring import ScoreResult, WinContext, get_rules, get_settle, meets_minimum, score_win
from .scoring import TableOptions as ScoringOptions
from .settlement import SettleContext
from .tiles import from_counts
from .view import HandResult


def scoring_options(options: TableOptions) -> ScoringOptions:
    """The game's typed table options, as the scorer names them."""
    flags = {"見字見花"} if options.see_wind_see_flower else set()
    if options.self_draw_only:
        flags.add("限自摸")
    return ScoringOptions(frozenset(flags), options.min_tai, options.cap_tai)


def win_context(
    game: Game,
    seat: int,
    win_tile: int | None,
    *,
    self_drawn: bool,
    robbing: bool = False,
    after_win: bool = False,
) -> WinContext:
    """The scorer's view of ``seat`` winning on ``win_tile`` now (or, ``after_win``, as it ended)."""
    counts = list(game.hands[seat])
    if win_tile is not None and (self_drawn or after_win):
        counts[win_tile] -= 1
    out = game.outcome if after_win else None
    ts = game.ts
    first = game.first_go[seat] and not game.claims_made
    return WinContext(
        concealed=tuple(from_counts(counts)),
        melds=tuple(game.melds[seat]),
        flowers=tuple(game.flowers[seat]),
        win_tile=win_tile,
        self_drawn=self_drawn,
        seat_wind=game.seat_wind(seat),
        round_wind=game.round_wind,
        dealer=seat == game.dealer,
        dealer_streak=game.dealer_streak,
        last_tile=out.last_tile if out else (self_drawn and ts.last_tile),
        kong_replacement=out.kong_replacement if out else (self_drawn and ts.replacement),
        robbing_kong=out.robbing_kong if out else robbing,
        heavenly=out.heavenly if out else (self_drawn and first and seat == game.dealer),
        earthly=out.earthly if out else (first and seat != game.dealer),
        declared_ready=game.ready[seat],
        flower_win=out.flower_win if out else None,
        options=scoring_options(game.options),
    )


def score_outcome(game: Game) -> ScoreResult | None:
    """Score the finished hand's win (None for a draw game)."""
    out = game.outcome
    if out is None or out.winner is None:
        return None
    ctx = win_context(game, out.winner, out.win_tile, self_drawn=out.self_drawn, after_win=True)
    return score_win(ctx, game.profile.id)


def minimum_filter(game: Game, seat: int, tile: int | None, self_drawn: bool, robbing: bool) -> bool:
    """三台起胡: 胡 is offered only when the hand reaches the table minimum."""
    win_tile = game.drawn[seat] if self_drawn else tile
    ctx = win_context(game, seat, win_tile, self_drawn=self_drawn, robbing=robbing)
    result = score_win(ctx, game.profile.id)
    return result.valid and meets_minimum(result, game.options.min_tai)


@dataclass(frozen=True, slots=True)
class HandRecord:
    number: int
    dealer: int
    round_wind: int
    dealer_streak: int
    result: HandResult
    log: tuple[str, ...]
    seed: int


@dataclass
class Match:
    rules: str = "taiwan16"
    seed: int = 0
    rounds: int = 1  # 圈: 1-4
    options: TableOptions = field(default_factory=TableOptions)

    def __post_init__(self) -> None:
        if not 1 <= self.rounds <= 4:
            raise ValueError("a match is 1 to 4 rounds (圈)")
        self.profile = get_profile(self.rules)
        get_rules(self.rules)
        self.settle = get_settle(self.rules)
        self.rng = random.Random(self.seed)
        # 抓位: the four wind tiles face down; player i takes the seat of the wind drawn
        winds = [0, 1, 2, 3]
        self.rng.shuffle(winds)
        self.seat_of_player: tuple[int, ...] = tuple(winds)
        # 起莊: dice counted from the East seat counter-clockwise (East = 1) pick the first dealer
        self.dealer_dice = tuple(self.rng.randint(1, 6) for _ in range(3))
        self.first_dealer = (sum(self.dealer_dice) - 1) % 4
        self.dealer = self.first_dealer
        self.dealer_streak = 0
        self.round_wind = 0
        self.dealer_changes = 0  # the round wind advances after every fourth change of dealer
        self.scores = [0, 0, 0, 0]
        self.history: list[HandRecord] = []

    @property
    def is_over(self) -> bool:
        return self.round_wind >= self.rounds

    def new_hand(self) -> Game:
        if self.is_over:
            raise ValueError("the match is over")
        game = Game(
            self.rules,
            seed=self.rng.getrandbits(63),
            dealer=self.dealer,
            round_wind=self.round_wind,
            dealer_streak=self.dealer_streak,
            hand_number=len(self.history) + 1,
            options=self.options,
            scores=tuple(self.scores),
        )
        return game

    def finish_hand(self, game: Game) -> HandResult:
        """Score and settle a finished hand, then rotate the dealer (連莊 on a dealer win or a draw)."""
        out = game.outcome
        if out is None:
            raise ValueError("the hand is not over")
        if out.winner is None:
            unit = get_rules(self.rules).unit
            result = HandResult(None, None, False, None, (), (), (), (), 0, unit, (0, 0, 0, 0))
        else:
            scored = score_outcome(game)
            assert scored is not None and scored.valid, scored and scored.reason
            settlement = self.settle(
                scored,
                SettleContext(
                    winner=out.winner,
                    dealer=game.dealer,
                    dealer_streak=game.dealer_streak,
                    discarder=None if out.flower_win else out.loser,
                    options=game.options,
                    flower_payer=out.loser if out.flower_win else None,
                    melds=tuple(tuple(m) for m in game.melds),
                ),
            )
            concealed = list(game.hands[out.winner])
            if out.win_tile is not None:
                concealed[out.win_tile] -= 1
            result = HandResult(
                winner=out.winner,
                loser=out.loser,
                self_drawn=out.self_drawn,
                win_tile=out.win_tile,
                concealed=tuple(from_counts(concealed)),
                melds=tuple(game.melds[out.winner]),
                flowers=tuple(game.flowers[out.winner]),
                items=tuple(settlement.items),
                total=sum(i.value for i in settlement.items),
                unit=scored.unit,
                deltas=settlement.deltas,
                capped_total=settlement.capped_total,
                limited=settlement.limited,
            )
        for s in range(4):
            self.scores[s] += result.deltas[s]
        self.history.append(
            HandRecord(
                len(self.history) + 1,
                game.dealer,
                game.round_wind,
                game.dealer_streak,
                result,
                tuple(str(a) for a in game.log),
                game.seed,
            )
        )
        self._rotate(out.winner)
        return result

    def _rotate(self, winner: int | None) -> None:
        """Move the deal as the rule set says (``RuleProfile.rotation``); 連莊 when it stays."""
        dealer = next_dealer(self.profile.rotation, self.dealer, winner)
        if dealer == self.dealer:
            self.dealer_streak += 1  # 連莊 (a draw game too: 臭莊)
            return
        self.dealer = dealer
        self.dealer_streak = 0
        self.dealer_changes += 1
        self.round_wind = self.dealer_changes // 4

    def standings(self) -> list[tuple[int, int]]:
        """(seat, score) from first place to last."""
        return sorted(enumerate(self.scores), key=lambda p: -p[1])
