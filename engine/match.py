"""A match: 抓位 and 起莊, then hands until the rounds (圈) are played, with dealer rotation,
連莊, scoring and zero-sum settlement.

A match at a table is *sealed*: its deals come from a secret ``key`` (engine.fairness), committed
to at the start and revealed at the end. A match made from a plain ``seed`` (self-play, tests,
tables stored before deals were sealed) deals from ``Random(seed)`` as it always did.

    match = Match("taiwan16", key=secrets.token_bytes(32), rounds=1)
    while not match.is_over:
        game = match.new_hand()
        ...play game to its end...
        result = match.finish_hand(game)   # HandResult: items, total, deltas
    match.standings()
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from . import fairness
from .actions import Action, Kind, notations
from .events import Event
from .game import Game
from .rules import TableOptions, get_profile, next_dealer
from .scoring import ScoreResult, get_rules, get_settle, get_settle_draw, get_settle_leave, score_win
from .scoring.core import ScoreItem
from .settlement import SettleContext, settle_flower_bonus
from .tiles import from_counts
from .view import HandResult, Payment

HEADER_VERSION = 2  # Match.header() format: 2 holds a key (a sealed match), 1 a plain seed
SEEDED_HEADER_VERSION = 1


def score_outcome(game: Game) -> ScoreResult | None:
    """Score the finished hand's win (None for a draw game)."""
    out = game.outcome
    if out is None or out.winner is None:
        return None
    ctx = game.win_context(out.winner, out.win_tile, self_drawn=out.self_drawn, after_win=True)
    return score_win(ctx, game.profile.id)


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
    # a sealed match's secret (engine.fairness), never printed; None: dealt from ``seed``
    key: bytes | None = field(default=None, repr=False)
    # duplicate play (復式): each hand's wall follows from its position (dealer changes, repeats), not its
    # number, so every table of a tournament round dealt from one key plays the same walls seat for seat
    duplicate: bool = False
    # at most this many hands, however far the rounds got (a tournament round of "2 hands"); None: the rounds
    hands: int | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.rounds <= 4:
            raise ValueError("a match is 1 to 4 rounds (圈)")
        if self.key is not None and len(self.key) != fairness.KEY_BYTES:
            raise ValueError(f"a match key is {fairness.KEY_BYTES} bytes")
        if self.hands is not None and self.hands < 1:
            raise ValueError("a match of at most some hands plays at least one")
        if self.duplicate and self.key is None:
            raise ValueError("duplicate walls are dealt from a match key")
        self.profile = get_profile(self.rules)
        get_rules(self.rules)
        self.settle = get_settle(self.rules)
        self.settle_draw = get_settle_draw(self.rules)
        self.rng = random.Random(self.seed if self.key is None else fairness.seating_seed(self.key))
        # 抓位: the four wind tiles face down; player i takes the seat of the wind drawn
        winds = [0, 1, 2, 3]
        self.rng.shuffle(winds)
        self.seat_of_player: tuple[int, ...] = tuple(winds)
        # 起莊: dice counted from the East seat counter-clockwise (East = 1) pick the first dealer
        self.dealer_dice = tuple(self.rng.randint(1, 6) for _ in range(3))
        self.first_dealer = (sum(self.dealer_dice) - 1) % 4
        if self.profile.host_deals_first:  # taiwan13: the table's owner (player 0) sits East and deals
            self.first_dealer = self.seat_of_player[0]
        self.dealer = self.first_dealer
        self.dealer_streak = 0
        self.round_wind = 0
        self.dealer_changes = 0  # the round wind advances after every fourth change of dealer
        self.scores = [0, 0, 0, 0]
        self.auto_seats: set[int] = set()  # 代打 carries from hand to hand until the player is back
        self.history: list[HandRecord] = []
        self._finished: Game | None = None  # the last finished hand, which takes 代打 switches until the next

    @property
    def is_over(self) -> bool:
        return self.round_wind >= self.rounds or (self.hands is not None and len(self.history) >= self.hands)

    @property
    def sealed(self) -> bool:
        """Dealt from a secret key that the match reveals only once it is over."""
        return self.key is not None

    @property
    def commitment(self) -> str | None:
        """The key's SHA-256, shown when the match starts (None for a match dealt from a plain seed)."""
        return None if self.key is None else fairness.commitment(self.key)

    @property
    def position(self) -> tuple[int, int]:
        """Where the coming hand stands in the match: (changes of dealer so far, the dealer's repeats). Duplicate
        walls deal by it, so the hands of two tables of a round at one position are dealt the same wall.

            >>> m = Match("taiwan16", key=bytes(32), duplicate=True)
            >>> m.position
            (0, 0)
        """
        return self.dealer_changes, self.dealer_streak

    def _next_hand_seed(self) -> int:
        """The coming hand's seed: derived from the key with its number, or (a plain-seed match) the
        generator's next draw."""
        if self.key is not None and self.duplicate:
            return fairness.position_seed(self.key, *self.position)
        if self.key is not None:
            return fairness.hand_seed(self.key, len(self.history) + 1)
        return self.rng.getrandbits(63)

    def ai_seed(self, seat: int) -> int:
        """The seed of an AI player's tie-breaks at ``seat``."""
        return self.seed + seat if self.key is None else fairness.ai_seed(self.key, seat)

    @property
    def finished_hand(self) -> Game | None:
        """The hand settled last, until the next one is dealt (it takes :meth:`between_hands` switches)."""
        return self._finished

    @property
    def ends_on_leave(self) -> bool:
        """A player leaving ends the table with a penalty (taiwan13's 中断连线) rather than 代打."""
        return get_settle_leave(self.rules) is not None

    def seat_wind(self, seat: int) -> int:
        """``seat``'s wind (門風) in the coming hand: the dealer sits East (0)."""
        return (seat - self.dealer) % 4

    def new_hand(self) -> Game:
        if self.is_over:
            raise ValueError("the match is over")
        self._finished = None
        game = Game(
            self.rules,
            seed=self._next_hand_seed(),
            dealer=self.dealer,
            round_wind=self.round_wind,
            dealer_streak=self.dealer_streak,
            hand_number=len(self.history) + 1,
            options=self.options,
            scores=tuple(self.scores),
            auto_seats=sorted(self.auto_seats),
        )
        return game

    def header(self) -> dict[str, Any]:
        """What decides the match besides its hands' action logs, JSON-safe (see :meth:`replay`).
        A sealed match's header holds its key: it is the table's secret until the match is over."""
        if self.key is None:
            secret: dict[str, Any] = {"version": SEEDED_HEADER_VERSION, "seed": self.seed}
        else:
            secret = {"version": HEADER_VERSION, "key": self.key.hex()}
            if self.duplicate:
                secret["deal"] = "position"
        if self.hands is not None:
            secret["hands"] = self.hands
        return {**secret, "rules": self.rules, "rounds": self.rounds, "options": self.options.to_dict()}

    @classmethod
    def from_header(cls, header: Mapping[str, Any]) -> Match:
        """A new match as :meth:`header` describes it (no hand played yet)."""
        version = header.get("version")
        if version not in (HEADER_VERSION, SEEDED_HEADER_VERSION):
            raise ValueError(f"unsupported match header version {version!r} (expected {HEADER_VERSION})")
        key = fairness.key_from_hex(header.get("key")) if version == HEADER_VERSION else None
        return cls(
            header["rules"],
            seed=0 if key is not None else header["seed"],
            rounds=header["rounds"],
            options=TableOptions.from_dict(header["options"]),
            key=key,
            duplicate=header.get("deal") == "position",
            hands=header.get("hands"),
        )

    @classmethod
    def replay(
        cls,
        header: Mapping[str, Any],
        hand_logs: Sequence[Sequence[str]],
        *,
        deals: dict[int, dict[str, Any]] | None = None,
    ) -> tuple[Match, Game | None]:
        """Rebuild a match from :meth:`header` and every hand's log, in order (``str(action)`` each).

        Finished hands are scored and settled again; the last hand, if its log does not finish it,
        is returned mid-play (else None), ready for the next action. ``deals``, if given, gets each
        hand's :meth:`Game.header` by its number (what replays a finished hand on its own).
        """
        match = cls.from_header(header)
        game: Game | None = None
        for number, log in enumerate(hand_logs, 1):
            if game is not None:
                raise ValueError(
                    f"hand {number - 1}'s log does not finish the hand, yet hand {number} follows"
                )
            game = match.new_hand()
            if deals is not None:
                deals[game.hand_number] = game.header()
            if game.is_over:  # won by flowers in the deal (七搶一, 八仙過海): no move was made
                match.finish_hand(game)
                game = None
            for action in log:
                if game is None:  # settled: what follows are the 代打 switches made between hands
                    switch = Action.from_str(action)
                    if match.is_over:  # stored after the last hand by an older table: it changes nothing
                        match._take_switch(switch)
                    else:
                        match.between_hands(switch)
                    continue
                game.apply(Action.from_str(action))
                if game.is_over:
                    match.finish_hand(game)
                    game = None
        return match, game

    def between_hands(self, action: Action) -> list[Event]:
        """``away`` or ``back`` after the last hand was settled: the next hand starts with that seat
        auto-played or not. The action joins the finished hand's log (as a table stores it), so
        :meth:`replay` of the stored logs comes to the same seats."""
        game = self._finished
        if game is None or self.is_over:
            raise ValueError("no hand has ended since the last one started" if game is None else "the match is over")
        return self._take_switch(action)

    def _take_switch(self, action: Action) -> list[Event]:
        """The switch applied to the settled hand and written at the end of its log."""
        game = self._finished
        assert game is not None
        if action.kind not in (Kind.AWAY, Kind.BACK):
            raise ValueError(f"only away/back are taken between hands, not {action}")
        events = game.apply(action)
        record = self.history[-1]
        self.history[-1] = replace(record, log=(*record.log, str(action)))
        self.auto_seats = set(game.auto_seats())
        return events

    def abandon(self, game: Game, seat: int) -> HandResult | None:
        """A player left mid-hand. Where the rule set ends the table for it (``settle_leave``, e.g.
        taiwan13's 中断连线) the hand ends unscored, the leaver pays the penalty and the match is over;
        returns that result. Elsewhere returns None: the seat is auto-played instead (代打)."""
        leave = get_settle_leave(self.rules)
        if leave is None:
            return None
        if self.is_over:
            raise ValueError("the match is over")
        if game.is_over:
            raise ValueError("the hand is over")
        deltas = leave(seat).deltas
        result = HandResult(None, None, False, None, (), (), (), (), 0, get_rules(self.rules).unit, deltas)
        for s in range(4):
            self.scores[s] += deltas[s]
        record = HandRecord(
            len(self.history) + 1,
            game.dealer,
            game.round_wind,
            game.dealer_streak,
            result,
            notations(game.log),
            game.seed,
        )
        self.history.append(record)
        self.round_wind = self.rounds  # the table ends
        return result

    def finish_hand(self, game: Game) -> HandResult:
        """Score and settle a finished hand, then rotate the dealer (連莊 on a dealer win or a draw)."""
        out = game.outcome
        if out is None:
            raise ValueError("the hand is not over")
        if out.winner is None:
            unit = get_rules(self.rules).unit
            deltas = (0, 0, 0, 0)
            paid: tuple[Payment, ...] = ()
            if self.settle_draw is not None:  # e.g. kong payments that stand at a draw game
                drawn = self.settle_draw(self._settle_context(game, None))
                deltas, paid = drawn.deltas, drawn.payments
            result = HandResult(None, None, False, None, (), (), (), (), 0, unit, deltas, payments=paid)
        else:
            scored = score_outcome(game)
            assert scored is not None and scored.valid, scored and scored.reason
            settlement = self.settle(scored, self._settle_context(game, out.winner))
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
                extras=settlement.extras,
                payments=settlement.payments,
            )
        if out.flower_bonuses:
            result = self._with_flower_bonuses(result, out.flower_bonuses)
        for s in range(4):
            self.scores[s] += result.deltas[s]
        self.auto_seats = {s for s in range(4) if game.auto[s]}
        self._finished = game
        self.history.append(
            HandRecord(
                len(self.history) + 1,
                game.dealer,
                game.round_wind,
                game.dealer_streak,
                result,
                notations(game.log),
                game.seed,
            )
        )
        self.dealer, self.dealer_streak, self.dealer_changes = self._rotation(game)
        self.round_wind = self.dealer_changes // 4
        return result

    def ends_with(self, game: Game) -> bool:
        """Settling ``game`` (over, not yet settled) ends the match: no hand follows it, so a 代打
        switch made now has no hand to take it (the table refuses one, rather than store it)."""
        if game.outcome is None:
            raise ValueError("the hand is not over")
        return self._rotation(game)[2] // 4 >= self.rounds

    def _with_flower_bonuses(
        self, result: HandResult, bonuses: tuple[tuple[int, int | None, str], ...]
    ) -> HandResult:
        """Add the flower bonuses paid during the hand (house rule flower_win_as_bonus): they stand
        whatever the hand's end, draw games included, and show as lines beside the hand."""
        deltas = list(result.deltas)
        lines = []
        payments = list(result.payments)
        for receiver, payer, kind in bonuses:
            paid = settle_flower_bonus(kind, receiver=receiver, payer=payer, options=self.options)
            deltas = [d + p for d, p in zip(deltas, paid.deltas, strict=True)]
            lines.append(ScoreItem(kind, paid.deltas[receiver], receiver))
            payments.extend(paid.payments)
        return replace(
            result,
            deltas=(deltas[0], deltas[1], deltas[2], deltas[3]),
            extras=result.extras + tuple(lines),
            payments=tuple(payments),
        )

    def _settle_context(self, game: Game, winner: int | None) -> SettleContext:
        out = game.outcome
        assert out is not None
        return SettleContext(
            winner=winner,
            dealer=game.dealer,
            dealer_streak=game.dealer_streak,
            discarder=None if out.flower_win else out.loser,
            options=self.options,
            flower_payer=out.loser if out.flower_win else None,
            eye_declarers=tuple(s for s in range(4) if game.eye[s]),
            melds=tuple(tuple(m) for m in game.melds),
            robbing_kong=out.robbing_kong,
            kong_discarder=out.kong_source,
            horses=out.horses,
        )

    def _rotation(self, game: Game) -> tuple[int, int, int]:
        """The dealer, 連莊 count and number of dealer changes once ``game`` is settled: the deal moves as
        the rule set says (``RuleProfile.rotation``); it stays (連莊) on a dealer win or a draw game
        (臭莊). The round wind advances after every fourth change of dealer."""
        out = game.outcome
        assert out is not None
        robbed = out.loser if out.robbing_kong and self.profile.robbed_kong_deals else None
        dealer = next_dealer(self.profile.rotation, self.dealer, out.winner, robbed)
        if dealer == self.dealer:
            return dealer, self.dealer_streak + 1, self.dealer_changes
        return dealer, 0, self.dealer_changes + 1

    def standings(self) -> list[tuple[int, int]]:
        """(seat, score) from first place to last."""
        return sorted(enumerate(self.scores), key=lambda p: -p[1])
