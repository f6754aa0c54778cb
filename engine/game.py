"""One hand (局) of mahjong as a state machine, in the style of a python-chess board.

    >>> game = Game("taiwan16", seed=7)
    >>> seat = game.to_act()[0]
    >>> action = game.legal_actions(seat)[-1]
    >>> events = game.apply(action)

The game is deterministic given its seed and replayable from its action log. Moves that leave a
player no choice (a 聽 hand's auto-discard, a win the table forces, flower replacement) are made
by the engine itself and are not in the log. Time is injected: a ``timeout`` action stands for a
clock that ran out (代打 decides on the player's own turn; a claim window is passed; a 換牌
choice keeps the hand), and ``away`` / ``back`` switch a seat's 代打 on and off. ``eye`` / ``miji``
declare 眼牌 (see :meth:`Game.declarations`). ``header()`` + the log replay the hand.

Rule references (行動限制 n, 聽牌 n) are to docs/rules/taiwan16.md and the taiwan16 rule document.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations, compress, repeat
from operator import is_
from typing import TYPE_CHECKING, Any

from . import analysis, forms
from .actions import (
    ADDKONGS,
    ANKONGS,
    CHIS,
    CLAIM_RANK,
    DISCARDS,
    KONGS,
    PASSES,
    PONS,
    READIES,
    WINS,
    Action,
    Kind,
    shape_problem,
)
from .events import (
    DISCARD_EVENTS,
    DRAW_EVENTS,
    FLOWER_EVENTS,
    REPLACEMENT_DRAW_EVENTS,
    Event,
    EventKind,
    Phase,
)
from .meld import Meld, MeldKind
from .rules import RuleProfile, TableOptions, get_profile
from .scoring import WinContext, score_win
from .tiles import NUM_KINDS, from_counts, is_flower, sorted_tiles, tile_to_str
from .view import GameView, build_view, unseen_counts
from .wall import Wall

if TYPE_CHECKING:  # (engine.prompt and engine.layout load where they are used: self-play needs neither)
    from .prompt import Prompt

HEADER_VERSION = 1  # Game.header() format
AUTO_AFTER_TIMEOUTS = 3  # 無動作3輪: own turns timed out in a row before 代打 takes over
EXCHANGE_MAX = 3  # 換牌: a player gives back 0-3 tiles
MIJI_DISCARDS = 8  # Miji: 眼牌 declared while the rivers hold at most eight discards (起牌後海底八張牌)
DECLARATIONS = (Kind.EYE, Kind.MIJI)
_KINDS = range(NUM_KINDS)

# The members the turn loop compares with at every step, as plain globals: Python 3.11 reads
# ``Phase.TURN`` through EnumType's __getattr__ hook (dropped in 3.12), several times the cost of a
# global, and random self-play spent an eighth of its instructions there.
_TURN, _CLAIM, _ROB_KONG, _OVER = Phase.TURN, Phase.CLAIM, Phase.ROB_KONG, Phase.OVER
_EXCHANGE_PHASE, _FLOWER_WIN_PHASE = Phase.EXCHANGE, Phase.FLOWER_WIN
_DISCARD, _READY, _PON, _KONG, _ANKONG, _ADDKONG = (
    Kind.DISCARD, Kind.READY, Kind.PON, Kind.KONG, Kind.ANKONG, Kind.ADDKONG
)  # fmt: skip
_WIN, _PASS, _EXCHANGE, _TIMEOUT, _AWAY, _BACK, _MIJI = (
    Kind.WIN, Kind.PASS, Kind.EXCHANGE, Kind.TIMEOUT, Kind.AWAY, Kind.BACK, Kind.MIJI
)  # fmt: skip
_MELD_PON, _MELD_CHI = MeldKind.PON, MeldKind.CHI


class IllegalActionError(ValueError):
    """The action is not legal now; the game state is unchanged.

    ``code`` names the reason for translated messages: ``"hand_over"``, ``"not_your_decision"``
    (the seat owes no decision now), ``"already_away"`` / ``"not_away"`` (``away`` / ``back`` that
    change nothing) or ``"not_legal"`` (the seat may act, but not this way).
    """

    def __init__(self, message: str, code: str = "not_legal") -> None:
        super().__init__(message)
        self.code = code


class InvariantError(AssertionError):
    """The engine broke one of its own invariants (tiles created or lost, a wrong hand size): a bug."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the hand ended; what the scorer needs besides the winner's tiles."""

    winner: int | None  # None: draw game (流局)
    loser: int | None = None  # the discarder (or the robbed kong's owner); None for self-draw
    win_tile: int | None = None
    self_drawn: bool = False
    last_tile: bool = False  # 海底
    kong_replacement: bool = False  # won on a replacement draw (kong or flower)
    robbing_kong: bool = False
    heavenly: bool = False
    earthly: bool = False
    flower_win: str | None = None  # 八仙過海 / 七搶一
    kong_source: int | None = None  # won on the replacement of a 明槓: whose discard was 槓'd (包牌)
    horses: tuple[int, ...] = ()  # 买马: the tiles set aside before the deal, revealed now
    human: bool = False  # 人胡: an earthly win on a discard before the winner's first draw
    last_discard: bool = False  # 河底: won on the last discard
    after_flower: bool = False  # the replacement draw won on was for a flower, not a kong
    # 八仙過海 / 七搶一 paid at once while the hand went on (house rule flower_win_as_bonus):
    # (receiver, the 七搶一's payer or None for all three, name), settled with the hand whatever its end
    flower_bonuses: tuple[tuple[int, int | None, str], ...] = ()


@dataclass(slots=True)
class _TurnState:
    """Flags that live for one player's turn."""

    claimed: int | None = None  # tile just taken by 吃/碰: no kong now, may not discard it (行動限制1, 4)
    no_tsumo: bool = False  # after a 明槓 replacement, and 暗槓s that follow it (行動限制2, 3)
    replacement: bool = False  # the tile in hand was drawn from the back (槓上開花)
    after_flower: bool = False  # ... for a flower, not for a kong (house rule 槓上開花限槓)
    last_tile: bool = False  # the tile in hand was the last live tile (海底撈月)
    kong_from: int | None = None  # the replacement follows a 明槓 of this seat's discard

    def reset(self) -> None:
        """Back to a new turn's flags, in place (every discard does this: cheaper than a new object)."""
        self.claimed = self.kong_from = None
        self.no_tsumo = self.replacement = self.after_flower = self.last_tile = False


@dataclass(slots=True)
class _ClaimState:
    tile: int
    discarder: int
    options: dict[int, list[Action]] = field(default_factory=dict)
    responses: dict[int, Action] = field(default_factory=dict)
    rob_kong: bool = False


class Game:
    """A hand of mahjong: seats 0-3 in turn order (seat + 1 is the 下家).

    Callers read the public attributes (``hands``, ``melds``, ``rivers``, ``phase``, ``outcome``,
    ``log``, ``events`` ...) but change the game only through :meth:`apply`; what a player may see
    comes from :meth:`view`. ``options`` is the table's :class:`~engine.rules.TableOptions`.
    """

    def __init__(
        self,
        rules: str | RuleProfile = "taiwan16",
        *,
        seed: int = 0,
        dealer: int = 0,
        round_wind: int = 0,
        dealer_streak: int = 0,
        hand_number: int = 1,
        options: TableOptions | None = None,
        scores: Sequence[int] = (0, 0, 0, 0),
        auto_seats: Iterable[int] = (),
    ) -> None:
        profile = get_profile(rules)
        if options is not None and options != profile.options:  # (most tables play the defaults)
            profile = replace(profile, options=options)
        profile = profile.for_table()  # the hand size chosen (hongkong 13 / 16), a claimed kong's replacement
        added = [f for f in profile.options.house_rules.forms() if f not in profile.win_forms]
        if added:  # a house rule's winning form (嚦咕嚦咕) is accepted by the win check too
            profile = replace(profile, win_forms=(*profile.win_forms, *added))
        self.profile = profile
        self.options = profile.options
        self.seed = seed
        self.dealer = dealer
        self.round_wind = round_wind
        self.dealer_streak = dealer_streak
        self.hand_number = hand_number
        self.scores: tuple[int, ...] = tuple(scores)
        if len(self.scores) != 4:
            raise ValueError("scores holds one number per seat")
        self.rng = random.Random(seed)

        self.hands: list[list[int]] = [[0] * NUM_KINDS for _ in range(4)]
        self.drawn: list[int | None] = [None] * 4
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.flowers: list[list[int]] = [[] for _ in range(4)]
        self.rivers: list[list[int]] = [[] for _ in range(4)]
        self.last_own_discard: list[int | None] = [None] * 4
        self.ready: list[bool] = [False] * 4
        self.ready_waits: list[tuple[int, ...]] = [()] * 4
        self.ready_on_deal: list[bool] = [False] * 4  # 聽 with the first discard, no claims (天聽)
        self.ready_dealt: list[bool] = [False] * 4  # ... a non-dealer's, discarding the tile drawn (配牌聽)
        self.passed_win: list[bool] = [False] * 4  # 過水
        self.first_go: list[bool] = [True] * 4  # has not discarded yet (天胡)
        self.first_round = True  # the first go-round: until the dealer's second live draw (地胡)
        self.claims_made = False  # any 吃/碰/槓 this hand (暗槓 included)
        self.discards_made = 0  # discards this hand, claimed ones too (地胡's window)
        self.kongs = 0
        self.timeouts: list[int] = [0] * 4
        self.eye: list[bool] = [False] * 4  # 眼牌 declared (Miji too)
        self.miji: list[bool] = [False] * 4  # the 眼牌 was declared in the Miji window
        self.exchanges: dict[int, tuple[int, ...]] = {}  # 換牌 choices made so far (the EXCHANGE phase)
        self.flower_bonuses: list[tuple[int, int | None, str]] = []  # see Outcome.flower_bonuses
        self.flower_offer: Outcome | None = None  # a flower win its winner may call or decline (FLOWER_WIN)
        self.flower_declined: int | None = None  # the seat that declined it: no flower win is offered again
        self._flower_resume: tuple[str, int, bool] = ("deal", dealer, False)  # where play goes on after 過
        auto = set(auto_seats)
        if not auto <= {0, 1, 2, 3}:
            raise ValueError(f"auto_seats must be seats 0-3, got {sorted(auto)}")
        self.auto: list[bool] = [s in auto for s in range(4)]  # 代打 (see auto_seats)
        self.phase = Phase.TURN
        self.turn = dealer
        self.ts = _TurnState()
        self.claim: _ClaimState | None = None
        self.rob_kong_from: int | None = None
        self.outcome: Outcome | None = None
        self.log: list[Action] = []
        self.events: list[Event] = []
        self._turn_cache: list[Action] | None = None
        self._turn_far = False  # the turn's listing read three suits or more that are not sets (+ pair)
        self._waits_memo: dict[bytes, tuple[int, ...]] = {}  # see winning_tiles
        self._shown_seats: list[Any] = [None] * 4  # engine.view's last SeatPublic per seat
        self._shown_hands: list[Any] = [None] * 4  # engine.view's last concealed tiles and waits per seat
        self._ron_memo: list[tuple[list[int], Sequence[int]] | None] = [None] * 4  # see _may_ron
        self.last_discard: tuple[int, int] | None = None  # (seat, tile) still lying in a river

        self._auto_at_start = tuple(s for s in range(4) if self.auto[s])
        self.dice = tuple(self.rng.randint(1, 6) for _ in range(3))
        self.wall = Wall.build(self.rng, flowers=profile.flowers, dealer=dealer, dice_total=sum(self.dice))
        self._horses = self.wall.set_aside(profile.horses)  # hidden until the hand ends (Outcome.horses)
        self._emit(
            Event(EventKind.DICE, dealer, tiles=(), detail=f"{self.dice} break seat {self.wall.break_side}")
        )
        self._deal()

    # ------------------------------------------------------------------ public API

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    @property
    def drawable(self) -> int:
        """Live draws left before the draw game (16 tiles + one per kong stay behind)."""
        wall, profile = self.wall, self.profile  # (asked several times a turn: read the fields directly)
        return wall.back - wall.front - profile.reserve - profile.reserve_per_kong * self.kongs

    def to_act(self) -> list[int]:
        """Seats that owe a decision now."""
        if self.phase is _TURN:
            return [self.turn]
        if self.phase is _EXCHANGE_PHASE:
            return [s for s in range(4) if s not in self.exchanges]
        if self.phase is _FLOWER_WIN_PHASE:
            assert self.flower_offer is not None and self.flower_offer.winner is not None
            return [self.flower_offer.winner]
        claim = self.claim
        if claim is not None:
            responses = claim.responses
            return [s for s in claim.options if s not in responses]
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty when it is not their decision)."""
        if self.phase is _TURN:
            if seat != self.turn:
                return []
            listed = self._turn_cache  # (_turn_actions, inline: every decision asks)
            return list(listed if listed is not None else self._turn_actions(seat))
        if self.phase is _EXCHANGE_PHASE:
            return self._exchange_actions(seat) if seat not in self.exchanges else []
        if self.phase is _FLOWER_WIN_PHASE:  # 胡 the flower win, or 過 and play on
            return [WINS[seat], PASSES[seat]] if seat in self.to_act() else []
        if self.claim is not None and seat in self.claim.options and seat not in self.claim.responses:
            return list(self.claim.options[seat])
        return []

    def _normalize(self, action: Action) -> Action:
        """``"1 pon"`` means 碰 of the tile on the table: fill the tile in. 換牌 tiles go in tile order."""
        if action.kind is Kind.EXCHANGE and list(action.tiles) != sorted(action.tiles):
            return replace(action, tiles=tuple(sorted(action.tiles)))
        if action.tile is None and action.kind in (Kind.PON, Kind.KONG) and self.claim is not None:
            return Action(action.seat, action.kind, self.claim.tile)
        return action

    def is_legal(self, action: Action) -> bool:
        if shape_problem(action):
            return False
        action = self._normalize(action)
        if action.kind is Kind.TIMEOUT:
            return action.seat in self.to_act()
        if action.kind in (Kind.AWAY, Kind.BACK):  # any seat, any time, after the hand's end too
            return action.tile is None and not action.tiles and self.auto[action.seat] == (action.kind is Kind.BACK)
        if action.kind in DECLARATIONS:
            return action in self.declarations(action.seat)
        if action.kind is Kind.EXCHANGE:
            return self._exchange_ok(action)
        return action in self.legal_actions(action.seat)

    def declarations(self, seat: int) -> list[Action]:
        """What ``seat`` may declare now besides its decisions: ``eye`` (眼牌), or ``miji`` instead
        while the Miji window is open (at most eight discards made, nobody has 吃/碰/槓'd). Any
        time while the hand is played, ready or not, once per hand; not during 換牌. Only where the
        rule set has them (``RuleProfile.eye_declaration``: document 000's taiwan16); elsewhere
        nothing, so no table offers a button that shows the other hands."""
        if not self.profile.eye_declaration or self.phase in _NO_DECLARATION or self.eye[seat]:
            return []
        return [Action(seat, Kind.MIJI if self.miji_window() else Kind.EYE)]

    def miji_window(self) -> bool:
        """起牌後海底八張牌，且另外三家不碰牌吃牌或槓牌以內: eight discards at most, no 吃/碰/槓 yet."""
        return not self.claims_made and sum(len(r) for r in self.rivers) <= MIJI_DISCARDS

    def apply(self, action: Action) -> list[Event]:
        """Play ``action``; returns the events it caused. Raises IllegalActionError, state unchanged,
        for anything else, malformed values included (a bool seat, a float or out-of-range tile).

        Besides the decisions :meth:`legal_actions` lists, a seat may send ``timeout`` when its
        clock ran out (see :meth:`auto_action`), ``away`` (代打 from now on) and ``back``. These two
        are taken after the hand's end as well: between two hands they decide whether the next hand
        starts auto-played (:class:`~engine.match.Match` carries them over), and they are logged
        like any move, so a replay of the log arrives at the same seats.
        """
        if self._listed_now(action):  # handed out by legal_actions for this decision: legal as it is
            start = len(self.events)
            self.log.append(action)
            self.timeouts[action.seat] = 0
            self._play(action)
            self._run_forced()
            return self.events[start:]
        problem = shape_problem(action)
        if problem:
            raise IllegalActionError(f"malformed action: {problem}")
        if self.phase is _OVER and action.kind not in (_AWAY, _BACK):
            raise IllegalActionError("the hand is over", "hand_over")
        action = self._normalize(action)
        if not self.is_legal(action):
            whose = ", ".join(map(str, self.to_act())) or "nobody"
            raise IllegalActionError(
                f"illegal action {action} (phase {self.phase.value}, to act: {whose})", self._refusal(action)
            )
        start = len(self.events)
        self.log.append(action)
        seat = action.seat
        if action.kind in (_AWAY, _BACK):
            self._set_auto(seat, action.kind is _AWAY)
            return self.events[start:]
        if action.kind in DECLARATIONS:
            self.timeouts[seat] = 0
            self._declare_eye(seat, miji=action.kind is _MIJI)
            self._run_forced()
            return self.events[start:]
        if action.kind is _TIMEOUT:
            if self.phase is _EXCHANGE_PHASE:  # 換牌時間結束沒有點選確定交換將不會換牌
                action = Action(seat, _EXCHANGE)
            elif self.phase is _FLOWER_WIN_PHASE:  # unanswered, the system declares it (document 000)
                action = self.auto_action(seat)
            elif self.phase is _TURN:  # 無動作: an own turn that timed out counts toward 代打
                self.timeouts[seat] += 1
                if self.timeouts[seat] >= AUTO_AFTER_TIMEOUTS:
                    self._set_auto(seat, True)
                action = self.auto_action(seat)
            else:  # an unanswered claim window is 過 (a 可過水 win not taken is 過水) and no absence
                action = Action(seat, _PASS)
        else:
            self.timeouts[seat] = 0
        self._play(action)
        self._run_forced()
        return self.events[start:]

    def _listed_now(self, action: Action) -> bool:
        """``action`` is one of the very objects :meth:`legal_actions` lists for a decision owed now,
        so it is well-formed and legal as it is. Identity, not equality: an equal value built
        elsewhere (a ``True`` seat equals seat 1) still gets the full check."""
        if self.phase is _TURN:
            listed = self._turn_cache
            return listed is not None and any(map(is_, listed, repeat(action))) and action.seat == self.turn
        claim = self.claim
        if claim is None:
            return False
        responses = claim.responses
        return any(
            seat not in responses and any(map(is_, listed, repeat(action)))
            for seat, listed in claim.options.items()
        )

    def _refusal(self, action: Action) -> str:
        """The :class:`IllegalActionError` code for an action :meth:`is_legal` refused."""
        if action.kind is Kind.AWAY and self.auto[action.seat]:
            return "already_away"
        if action.kind is Kind.BACK and not self.auto[action.seat]:
            return "not_away"
        if action.kind not in (Kind.AWAY, Kind.BACK, *DECLARATIONS) and action.seat not in self.to_act():
            return "not_your_decision"
        return "not_legal"

    def auto_seats(self) -> list[int]:
        """Seats being played by 代打; the caller applies :meth:`auto_action` for them when they are
        in :meth:`to_act`."""
        return [s for s in range(4) if self.auto[s]]

    def auto_action(self, seat: int) -> Action:
        """代打 (the document's 代打系統): win whenever the hand wins (胡 and 自摸), pass on claims,
        never kong, otherwise discard the drawn tile (after a 吃/碰, the last tile in hand order)."""
        actions = self.legal_actions(seat)
        if not actions:
            raise IllegalActionError(f"seat {seat} has no decision to make now", "not_your_decision")
        if self.phase is Phase.EXCHANGE:
            return Action(seat, Kind.EXCHANGE)  # 代打 keeps the dealt hand
        for kind in (Kind.WIN, Kind.PASS):
            for a in actions:
                if a.kind is kind:
                    return a
        discards = [a for a in actions if a.kind is Kind.DISCARD]
        for a in discards:
            if a.tile == self.drawn[seat]:
                return a
        return discards[-1]

    def _set_auto(self, seat: int, on: bool) -> None:
        if self.auto[seat] != on:
            self.auto[seat] = on
            self._emit(Event(EventKind.AUTO_ON if on else EventKind.AUTO_OFF, seat))
        self.timeouts[seat] = 0

    def hand(self, seat: int) -> list[int]:
        """``seat``'s concealed tiles, sorted (for that player's own eyes only)."""
        return sorted_tiles(from_counts(self.hands[seat]))

    def view(self, viewer: int | None) -> GameView:
        """What ``viewer`` may see (None: the public table). Concealed tiles only for the viewer."""
        return build_view(self, viewer)

    def prompt(self, seat: int) -> Prompt:
        """``seat``'s decision point as one value: what it is asked, its legal actions and
        declarations, the claimed tile and its discarder, 聽 and its waits, which clock runs."""
        from .prompt import build_prompt

        return build_prompt(self, seat)

    def seat_wind(self, seat: int) -> int:
        return (seat - self.dealer) % 4

    def unseen_counts(self, viewer: int) -> list[int]:
        """Per kind, copies ``viewer`` has not seen (own hand, all melds and rivers are seen)."""
        return unseen_counts(self, viewer)

    def header(self) -> dict[str, Any]:
        """Everything that decides play, JSON-safe: with the action log it replays the hand.

        >>> game = Game(seed=3)
        >>> again = Game.replay(game.header(), [])
        >>> again.hands == game.hands
        True
        """
        return {
            "version": HEADER_VERSION,
            "rules": self.profile.id,
            "seed": self.seed,
            "dealer": self.dealer,
            "round_wind": self.round_wind,
            "dealer_streak": self.dealer_streak,
            "hand_number": self.hand_number,
            "options": self.options.to_dict(),
            "scores": list(self.scores),
            "auto": list(self._auto_at_start),
        }

    @classmethod
    def from_position(
        cls,
        *,
        rules: str | RuleProfile = "taiwan16",
        options: TableOptions | None = None,
        dealer: int = 0,
        turn: int = 0,
        first_go: bool = False,
        **tiles: Any,
    ) -> Game:
        """A game in TURN phase for ``turn`` at a position written in tile notation — this engine's
        FEN (``hands``, ``melds``, ``flowers``, ``rivers``, ``wall``, ``back``, ``drawn``, ``live``,
        ``horses``: see :func:`engine.layout.lay_out`). Every field a hand in play has is set here,
        beside ``__init__``, so a new one cannot be forgotten.

        >>> game = Game.from_position(hands={0: "123456789m124p11s555z"}, turn=0, drawn="5z")
        >>> "0 discard 5z" in [str(a) for a in game.legal_actions(0)]
        True
        """
        from .layout import lay_out

        game = cls(rules, seed=0, dealer=dealer, options=options)
        laid = lay_out(game.profile, turn=turn, **tiles)
        game.hands, game.melds, game.flowers, game.rivers = laid.hands, laid.melds, laid.flowers, laid.rivers
        game._horses = laid.horses
        game.wall.tiles = laid.wall
        game.wall.front, game.wall.back = 0, len(laid.wall)
        game.kongs = sum(1 for seat in game.melds for m in seat if m.is_kong)
        game.discards_made = sum(len(r) for r in game.rivers)
        game.claims_made = any(game.melds)
        game.first_go = [first_go] * 4
        game.first_round = first_go
        game.turn = turn
        game.phase = Phase.TURN
        game.ts = _TurnState()
        game.drawn = [None] * 4
        game.drawn[turn] = laid.drawn
        game.claim = None
        game.last_discard = None
        game.flower_bonuses = []
        game.flower_offer = None
        game.flower_declined = None
        game.outcome = None
        game.events = []
        game.log = []
        game._turn_cache = None
        game._turn_far = False
        game._shown_seats = [None] * 4
        game._shown_hands = [None] * 4
        game._ron_memo = [None] * 4
        game.check_invariants()
        return game

    @classmethod
    def replay(cls, header: Mapping[str, Any], actions: Iterable[Action | str]) -> Game:
        """Rebuild a hand from :meth:`header` and its log (actions or their notation)."""
        version = header.get("version")
        if version != HEADER_VERSION:
            raise ValueError(f"unsupported game header version {version!r} (expected {HEADER_VERSION})")
        game = cls(
            header["rules"],
            seed=header["seed"],
            dealer=header["dealer"],
            round_wind=header["round_wind"],
            dealer_streak=header["dealer_streak"],
            hand_number=header["hand_number"],
            options=TableOptions.from_dict(header["options"]),
            scores=header["scores"],
            auto_seats=header["auto"],
        )
        for action in actions:
            game.apply(Action.from_str(action) if isinstance(action, str) else action)
        return game

    def win_context(
        self,
        seat: int,
        win_tile: int | None,
        *,
        self_drawn: bool,
        robbing: bool = False,
        after_win: bool = False,
    ) -> WinContext:
        """The scorer's view of ``seat`` winning on ``win_tile`` now (or, ``after_win``, as it ended)."""
        counts = list(self.hands[seat])
        if win_tile is not None and (self_drawn or after_win):
            counts[win_tile] -= 1
        out = self.outcome if after_win else None
        ts = self.ts
        discarder = out.loser if out else self.turn  # in a claim window ``turn`` is the discarder
        return WinContext(
            concealed=tuple(from_counts(counts)),
            melds=tuple(self.melds[seat]),
            flowers=tuple(self.flowers[seat]),
            win_tile=win_tile,
            self_drawn=self_drawn,
            seat_wind=self.seat_wind(seat),
            round_wind=self.round_wind,
            dealer=seat == self.dealer,
            dealer_streak=self.dealer_streak,
            last_tile=out.last_tile if out else (self_drawn and ts.last_tile),
            kong_replacement=out.kong_replacement if out else (self_drawn and ts.replacement),
            robbing_kong=out.robbing_kong if out else robbing,
            heavenly=out.heavenly if out else self._heavenly(seat, self_drawn),
            earthly=out.earthly if out else self._earthly(seat),
            declared_ready=self.ready[seat],
            eye_declared=self.eye[seat],
            miji=self.miji[seat],
            flower_win=out.flower_win if out else None,
            options=self.options,
            bonus_indicators=() if self.bonus_indicator is None else (self.bonus_indicator,),
            from_dealer=not self_drawn and discarder == self.dealer,
            human=out.human if out else self._human(seat, self_drawn),
            last_discard=out.last_discard if out else self._last_discard(self_drawn, robbing),
            heavenly_ready=self.ready_on_deal[seat],
            dealt_ready=self.ready_dealt[seat],
            flower_win_declined=self.flower_declined == seat,
            after_flower=out.after_flower if out else (self_drawn and ts.after_flower),
            flower_bonus_taken=any(receiver == seat for receiver, _, _ in self.flower_bonuses),
        )

    @property
    def bonus_indicator(self) -> int | None:
        """翻寶牌 (option ``bonus_tile``): of the seven stacks kept back at the wall's end (王牌), the
        top tile of the third from the end is turned face up (document 002); None without 寶牌."""
        return self.wall.tiles[-5] if self.options.bonus_tile else None

    # ------------------------------------------------------------------ dealing

    def _deal(self) -> None:
        order = [(self.dealer + i) % 4 for i in range(4)]
        size = self.profile.hand_size
        wall = self.wall
        tiles = wall.tiles
        if wall.back - wall.front < 4 * size + 1:
            raise IndexError("the wall is empty")
        dealt = 0
        while dealt < size:
            chunk = 4 if size - dealt >= 4 else 1
            for seat in order:
                start = wall.front
                wall.front = start + chunk
                self._take(seat, tiles[start : start + chunk])
            dealt += chunk
        opener = wall.draw_front()  # 開門: the dealer's 17th tile
        self._take(self.dealer, [opener])
        self.drawn[self.dealer] = None if is_flower(opener) else opener
        self._emit(Event(EventKind.DEAL, None, detail=f"{size} tiles each, dealer opens"))
        self._initial_flowers(order)
        if self.outcome is not None or self.phase is Phase.FLOWER_WIN:
            return  # 八仙過海 / 七搶一 in the deal: over (or to be called) before the dealer plays
        self._start_play()

    def _start_play(self) -> None:
        """The deal is done: 換牌 if the table plays it, else the dealer's first turn."""
        self.turn = self.dealer
        self.phase = Phase.TURN
        if self.options.exchange:
            self.phase = Phase.EXCHANGE  # 換牌 before the dealer's first discard
            return
        self._run_forced()

    def _take(self, seat: int, tiles: list[int]) -> None:
        """Put dealt tiles in hand; flowers are set aside, replaced in the 補花 rounds."""
        hand = self.hands[seat]
        for tile in tiles:
            if tile >= NUM_KINDS:  # a flower (is_flower inline: every tile dealt passes here)
                self.flowers[seat].append(tile)
                self.events.append(FLOWER_EVENTS[seat][tile - NUM_KINDS])
            else:
                hand[tile] += 1

    def _initial_flowers(self, order: list[int]) -> None:
        """補花 from the dealer in turn order; a replacement that is itself a flower waits for the
        next round, so every player has replaced once before anyone replaces again. The 補花
        completes before a flower win is declared: flowers only accumulate, so the winner is the
        same, and every hand is whole (docs/rules/taiwan16.md, "Flower wins in the deal")."""
        owed = [len(self.flowers[s]) for s in range(4)]
        while any(owed):
            next_owed = [0] * 4
            for seat in order:
                for _ in range(owed[seat]):
                    tile = self.wall.draw_back()
                    if is_flower(tile):
                        self.flowers[seat].append(tile)
                        self.events.append(FLOWER_EVENTS[seat][tile - NUM_KINDS])
                        next_owed[seat] += 1
                    else:
                        self.hands[seat][tile] += 1
                        if seat == self.dealer:
                            self.drawn[seat] = tile
            owed = next_owed
        self._flower_resume = ("deal", self.dealer, False)
        for seat in order:
            if self.outcome is None:
                self._check_flower_win(seat)

    # ------------------------------------------------------------------ legal actions

    def _turn_actions(self, seat: int) -> list[Action]:
        """Cached until the state changes: the forced-move check and the player both ask."""
        if self._turn_cache is None:
            self._turn_cache = self._compute_turn_actions(seat)
        return self._turn_cache

    def _compute_turn_actions(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        ts = self.ts
        claimed = ts.claimed
        actions: list[Action] = []
        profile = self.profile
        win_forms = profile.win_forms
        # the regular shape's win check and 聽 listing read the hand's suits once (most turns)
        listing = profile.ready_declaration and not self.eye[seat] and not self.ready[seat]
        shape = analysis.turn_shape(hand) if listing else None
        self._turn_far = shape is not None and not shape[1]  # (see _discard)
        if claimed is None and not ts.no_tsumo and not self.passed_win[seat]:
            if shape is None:
                complete = self._complete(hand)
            else:
                complete = shape[0] or (bool(win_forms) and forms.is_winning(hand, win_forms))
            if complete and self._win_allowed(seat, None, True):
                actions.append(WINS[seat])  # always first: _play reads the offer from actions[0]
                if not self.options.may_pass_win:
                    return actions  # the table wins for you (不可過水)
        discard = DISCARDS[seat]
        if self.eye[seat]:  # 眼牌: 摸到什麼打什麼, no kong of any kind, no 聽 to declare
            drawn = self.drawn[seat]
            if drawn is not None and hand[drawn] and claimed is None:
                actions.append(discard[drawn])
            else:  # declared after a 吃/碰 (or with no drawn tile): this turn's discard fixes the hand
                held = list(compress(_KINDS, hand))
                tiles = [t for t in held if t != claimed] or held
                actions.extend(map(discard.__getitem__, tiles))
            return actions
        wall = self.wall  # (self.drawable, inline: every turn asks)
        drawable = wall.back - wall.front - profile.reserve - profile.reserve_per_kong * self.kongs
        kong_ok = claimed is None and drawable >= 2
        if self.ready[seat]:
            drawn = self.drawn[seat]
            if kong_ok:
                for t in compress(_KINDS, hand):
                    if hand[t] == 4 and self._ankong_keeps_waits(seat, t):
                        actions.append(ANKONGS[seat][t])
            if drawn is not None and hand[drawn]:
                actions.append(discard[drawn])
            else:  # a ready hand always has its drawn tile; keep a way out if state is odd
                actions.extend(compress(discard, hand))
            return actions
        if kong_ok:
            if 4 in hand:
                actions.extend(ANKONGS[seat][t] for t in _KINDS if hand[t] == 4)
            melds = self.melds[seat]
            if melds:
                for meld in melds:
                    if meld.kind is _MELD_PON and hand[meld.first]:
                        actions.append(ADDKONGS[seat][meld.first])
        discards: list[int] | None = None  # None: every kind held (the usual case)
        if claimed is None or not hand[claimed] or hand.count(0) == NUM_KINDS - 1:
            actions.extend(compress(discard, hand))  # a discard of each kind held, in tile order
        else:  # 行動限制4: not the tile just claimed (unless it is all the hand holds)
            discards = [t for t in compress(_KINDS, hand) if t != claimed]
            actions.extend(map(discard.__getitem__, discards))
        if not profile.ready_declaration:
            return actions
        if not (win_forms and forms.near_forms(hand, win_forms)):
            # per suit, one look-up per candidate discard; most hands are turned away at the first
            # step (three suits that are not sets), so no shanten gate is needed before it
            if shape is None:
                ready_on = analysis.ready_discards(hand)
            else:
                ready_on = analysis.ready_by_shanten(hand) if shape[1] else []
            if ready_on:
                ready = READIES[seat]
                actions.extend(ready[t] for t in ready_on if discards is None or t in discards)
        else:  # a special form is near: every discard, every form
            ready = READIES[seat]
            for t in list(compress(_KINDS, hand)) if discards is None else discards:
                hand[t] -= 1
                if self.winning_tiles(hand):
                    actions.append(ready[t])
                hand[t] += 1
        return actions

    def _may_ron(self, seat: int, tile: int, robbing: bool = False) -> bool:
        if self.options.self_draw_only or self.passed_win[seat]:
            return False
        return tile in self._seat_waits(seat) and self._win_allowed(seat, tile, False, robbing)

    def _seat_waits(self, seat: int) -> Sequence[int]:
        """The winning tiles of ``seat``'s waiting (3k+1) hand, remembered with a copy of the hand
        they are for: a seat's hand stays the same for the three discards after its own (asked for
        three seats on every discard), and comparing two lists costs less than a win check."""
        hand = self.hands[seat]
        memo = self._ron_memo[seat]
        if memo is None or memo[0] != hand:
            win_forms = self.profile.win_forms
            waits = self.winning_tiles(hand) if win_forms else analysis.waits(hand)
            memo = self._ron_memo[seat] = (hand.copy(), waits)
        return memo[1]

    def _hand_waits(self, seat: int, counts: list[int]) -> Sequence[int]:
        """:meth:`winning_tiles` of ``seat``'s 3k+1 tiles ``counts`` (its view's), read back from the
        claim check when they are the hand it last checked: the hand a seat's view shows on its
        turn, without the tile just drawn, is the one the others' discards were checked against."""
        memo = self._ron_memo[seat]
        if memo is not None and memo[0] == counts:
            return memo[1]
        return self.winning_tiles(counts)

    def _win_allowed(self, seat: int, tile: int | None, self_drawn: bool, robbing: bool = False) -> bool:
        """Table minimums (三台起胡): 胡 is offered only when the scorer says the hand reaches them;
        with ``profile.scorer_vets_wins`` every win is put to the scorer (guangdong: 必须自摸; taiwan13:
        its own 1-台 minimum)."""
        if not self.options.min_tai and not self.profile.scorer_vets_wins:
            return True
        win_tile = self.drawn[seat] if self_drawn else tile
        ctx = self.win_context(seat, win_tile, self_drawn=self_drawn, robbing=robbing)
        result = score_win(ctx, self.profile.id)
        return result.meets_minimum(self.options.min_tai)

    def _complete(self, counts: list[int]) -> bool:
        """A winning hand under this rule set (sets + pair, or one of ``profile.win_forms``)."""
        if analysis.is_complete(counts):  # the regular shape first: no form check for most hands
            return True
        win_forms = self.profile.win_forms
        return bool(win_forms) and forms.is_winning(counts, win_forms)

    def winning_tiles(self, counts: list[int]) -> tuple[int, ...]:
        """The tiles that would complete the 3k+1 hand ``counts`` under this rule set, in tile order.

        Remembered per hand for the rest of this game, keyed by the counts themselves (the answer
        depends on nothing else), so it cannot go stale: while a seat's hand stays the same its
        views, its 聽 and 過水 ask for the same waits."""
        key = bytes(counts)
        found = self._waits_memo.get(key)
        if found is None:
            found = self._waits_memo[key] = tuple(forms.winning_tiles(counts, self.profile.win_forms))
        return found

    def _ankong_keeps_waits(self, seat: int, tile: int) -> bool:
        """聽牌3: after 聽 a concealed kong is allowed only if the waits stay the same."""
        hand = self.hands[seat]
        hand[tile] -= 4
        same = self.winning_tiles(hand) == self.ready_waits[seat]
        hand[tile] += 4
        return same

    def _claim_options(self, seat: int, tile: int, discarder: int, ron: bool) -> list[Action]:
        """What ``seat`` may do with ``discarder``'s ``tile``; ``ron``: :meth:`_may_ron`'s answer."""
        options: list[Action] = []
        if ron:
            options.append(WINS[seat])
            if not self.options.may_pass_win:
                return options
        hand = self.hands[seat]
        is_next = seat == (discarder + 1) % 4
        profile = self.profile
        chi = is_next and profile.chi and tile < 27
        blocked = (
            (hand[tile] < 2 and not chi)  # nothing to claim with
            or self.ready[seat]  # 聽牌2: the hand is fixed
            or self.eye[seat]  # 眼牌: the hand is fixed too
            or (profile.no_claim_last_round and self.drawable < 4)  # 行動限制5
            or (profile.no_reclaim_own_discard_kind and self.last_own_discard[seat] == tile)  # 行動限制9
        )
        if not blocked:
            if hand[tile] >= 3 and self.drawable >= 2:
                if not (is_next and not profile.exposed_kong_from_previous):  # 行動限制6
                    options.append(KONGS[seat][tile])
            if hand[tile] >= 2:
                options.append(PONS[seat][tile])
            if chi:  # runs from two below, one below and at the discard, in that order
                pos = tile % 9
                chis = CHIS[seat]
                if pos >= 2 and hand[tile - 2] and hand[tile - 1]:
                    options.append(chis[tile - 2])
                if 1 <= pos <= 7 and hand[tile - 1] and hand[tile + 1]:
                    options.append(chis[tile - 1])
                if pos <= 6 and hand[tile + 1] and hand[tile + 2]:
                    options.append(chis[tile])
        if options:
            options.append(PASSES[seat])
        return options

    # ------------------------------------------------------------------ 換牌 and 眼牌

    def _exchange_actions(self, seat: int) -> list[Action]:
        """Every distinct choice of 0-3 tiles to give back, keeping the hand first."""
        hand = [t for t in range(NUM_KINDS) for _ in range(self.hands[seat][t])]
        choices = {c for n in range(EXCHANGE_MAX + 1) for c in combinations(hand, n)}
        return [Action(seat, Kind.EXCHANGE, None, c) for c in sorted(choices, key=lambda c: (len(c), c))]

    def _exchange_ok(self, action: Action) -> bool:
        """A 換牌 choice: the seat has not chosen yet, and holds the tiles (at most three)."""
        if self.phase is not Phase.EXCHANGE or action.seat in self.exchanges or action.tile is not None:
            return False
        if len(action.tiles) > EXCHANGE_MAX:
            return False
        hand = self.hands[action.seat]
        return all(0 <= t < NUM_KINDS and action.tiles.count(t) <= hand[t] for t in action.tiles)

    def _exchange(self) -> None:
        """換牌 with the wall, once all four have chosen: from the dealer in turn order each player
        draws as many live tiles as they give back (a flower is set aside and replaced from the
        back, as in play); then every tile given back is put into the live wall at a place the
        game's RNG picks. Nobody can draw back a tile given back in the same exchange."""
        given: list[int] = []
        counts = []
        for i in range(4):
            seat = (self.dealer + i) % 4
            tiles = self.exchanges[seat]
            counts.append(f"{'ESWN'[i]}{len(tiles)}")
            hand = self.hands[seat]
            for t in tiles:
                hand[t] -= 1
            received = []
            for _ in tiles:
                tile = self.wall.draw_front()
                while is_flower(tile):
                    self.flowers[seat].append(tile)
                    self.events.append(FLOWER_EVENTS[seat][tile - NUM_KINDS])
                    tile = self.wall.draw_back()
                hand[tile] += 1
                received.append(tile)
            drawn = self.drawn[seat]
            if seat == self.dealer and received and (drawn is None or not hand[drawn]):
                self.drawn[seat] = received[-1]
            given.extend(tiles)
            if tiles:
                self._emit(Event(EventKind.DRAW, seat, tiles=tuple(received), private=True, detail="換牌"))
        self._return_to_wall(given)
        self.exchanges = {}
        self._emit(Event(EventKind.EXCHANGED, None, detail=" ".join(counts)))
        self._flower_resume = ("exchange", self.dealer, False)
        for i in range(4):  # as in the deal: the exchange completes, then a flower win ends the hand
            if self.outcome is None:
                self._check_flower_win((self.dealer + i) % 4)
        if self.outcome is not None or self.phase is Phase.FLOWER_WIN:
            return
        self._play_after_exchange()

    def _play_after_exchange(self) -> None:
        self.phase = Phase.TURN
        self.turn = self.dealer
        self._turn_cache = None

    def _return_to_wall(self, tiles: list[int]) -> None:
        wall = self.wall
        for t in tiles:
            wall.tiles.insert(self.rng.randint(wall.front, wall.back), t)
            wall.back += 1

    def _declare_eye(self, seat: int, *, miji: bool) -> None:
        """眼牌 (Miji in its window): public; from now on the hand is fixed (摸到什麼打什麼) and the
        declarer's own view holds the other hands. A pending claim of theirs shrinks to 胡/過."""
        self.eye[seat] = True
        self.miji[seat] = miji
        self._emit(Event(EventKind.EYE, seat, detail="Miji" if miji else "眼牌"))
        if self.phase is Phase.TURN and self.turn == seat:
            self._turn_cache = None
        claim = self.claim
        if claim is None:
            return
        answer = claim.responses.get(seat)
        if answer is not None and answer.kind not in (Kind.WIN, Kind.PASS):
            claim.responses[seat] = Action(seat, Kind.PASS)  # a 吃/碰/槓 already sent is withdrawn
        options = claim.options.get(seat)
        if options is not None and seat not in claim.responses:
            kept = [a for a in options if a.kind in (Kind.WIN, Kind.PASS)]
            if any(a.kind is Kind.WIN for a in kept):
                claim.options[seat] = kept
            else:
                del claim.options[seat]

    # ------------------------------------------------------------------ playing

    def _play(self, action: Action) -> None:
        kind = action.kind
        seat = action.seat
        if self.phase is _EXCHANGE_PHASE:
            self.exchanges[seat] = action.tiles
            self._emit(Event(EventKind.EXCHANGE, seat, tiles=action.tiles, private=True))
            if len(self.exchanges) == 4:
                self._exchange()
            return
        if self.phase is _FLOWER_WIN_PHASE:
            self._answer_flower_win(kind is _WIN)
            return
        if self.phase is _TURN:
            # the turn's legal actions (cached) already say whether a self-drawn win was on offer:
            # a win is listed first
            listed = self._turn_cache or self._turn_actions(seat)
            far = self._turn_far  # what that listing read of these tiles
            win_offered = bool(listed) and listed[0].kind is _WIN
            self._turn_cache = None
            if kind is _WIN:
                self._win(seat, None, self_drawn=True)
                return
            if win_offered:
                self._pass_win(seat)  # declined a self-drawn win (only possible with 可過水)
            tile = action.tile
            assert tile is not None  # a turn's other actions name their tile (TILE_REQUIRED)
            if kind in (_DISCARD, _READY):
                self._discard(seat, tile, declare=kind is _READY, far=far)
            elif kind is _ANKONG:
                self._concealed_kong(seat, tile)
            elif kind is _ADDKONG:
                self._added_kong(seat, tile)
            return
        self._turn_cache = None
        # claim window: record the response, resolve when nothing better can still come
        claim = self.claim
        assert claim is not None
        claim.responses[seat] = action
        if kind is not _WIN and any(a.kind is _WIN for a in claim.options[seat]):
            self._pass_win(seat)  # 過, or 吃/碰/槓 instead of 胡: the win was declined
        self._resolve_claims_if_ready()

    def _pass_win(self, seat: int) -> None:
        if self.passed_win[seat]:
            return
        self.passed_win[seat] = True
        self._emit(Event(EventKind.PASS_WIN, seat, detail="過水"))

    def _discard(self, seat: int, tile: int, declare: bool, far: bool = False) -> None:
        """``far``: the turn's listing read three suits or more of these tiles that are neither sets
        nor sets and a pair; a discard changes one suit, so two stay so and the hand left has no
        waits of the regular shape: the claim check is told so instead of reading the suits again."""
        on_deal = self.first_go[seat] and not self.claims_made
        drawn = self.drawn[seat]
        hand = self.hands[seat]
        hand[tile] -= 1
        if far and not self.profile.win_forms:  # (a special form may wait whatever the suits)
            self._ron_memo[seat] = (hand.copy(), ())
        self.drawn[seat] = None
        self.rivers[seat].append(tile)
        self.discards_made += 1
        self.last_discard = (seat, tile)
        self.last_own_discard[seat] = tile
        self.first_go[seat] = False
        if self.passed_win[seat] and tile not in self.winning_tiles(hand):
            self.passed_win[seat] = False  # a non-winning discard lifts 過水
            self._emit(Event(EventKind.PASS_WIN_LIFTED, seat))
        self.events.append(DISCARD_EVENTS[seat][tile])
        if declare:
            self.ready[seat] = True
            self.ready_on_deal[seat] = on_deal
            # a non-dealer who plays the tile just drawn keeps the dealt hand: it was ready as dealt
            self.ready_dealt[seat] = on_deal and seat != self.dealer and tile == drawn
            self.ready_waits[seat] = self.winning_tiles(hand)
            self._emit(Event(EventKind.READY, seat, tile, detail="聽"))
        self.ts.reset()
        self._open_claims(tile, seat)

    def _open_claims(self, tile: int, discarder: int, rob_kong: bool = False) -> None:
        offered: dict[int, list[Action]] = {}
        hands = self.hands
        ron_memo = self._ron_memo
        chi = self.profile.chi and tile < 27
        for i in (1, 2, 3):
            seat = (discarder + i) % 4
            if rob_kong:
                options = [WINS[seat], PASSES[seat]] if self._may_ron(seat, tile, True) else []
                if options and not self.options.may_pass_win:
                    options = options[:1]
            else:
                hand = hands[seat]
                memo = ron_memo[seat]  # (_seat_waits, inline: three seats on every discard)
                waits = memo[1] if memo is not None and memo[0] == hand else self._seat_waits(seat)
                ron = tile in waits and self._may_ron(seat, tile)
                if not ron and hand[tile] < 2:  # no win, nothing to 碰 with: the usual case, decided here
                    if not (chi and i == 1):
                        continue
                    for a, b in _CHI_WITH[tile]:  # ... nor to 吃 with
                        if hand[a] and hand[b]:
                            break
                    else:
                        continue
                options = self._claim_options(seat, tile, discarder, ron)
            if options:
                offered[seat] = options
        self.phase = _ROB_KONG if rob_kong else _CLAIM
        if not offered:  # nobody may claim (the usual case): play on at once
            self.claim = None
            self._after_no_claim(discarder, tile, rob_kong)
            return
        # nobody has answered yet, so nothing resolves now: _run_forced, which follows every move,
        # takes the forced wins and resolves the window once it may
        self.claim = _ClaimState(tile, discarder, offered, {}, rob_kong)

    def _resolve_claims_if_ready(self) -> None:
        claim = self.claim
        if claim is None:
            return
        if not claim.options:  # nobody may claim any more (a 眼牌 withdrew the last option)
            self.claim = None
            self._after_no_claim(claim.discarder, claim.tile, claim.rob_kong)
            return

        discarder = claim.discarder
        responses = claim.responses
        best = None  # the first of the highest-ranked claims answered
        best_rank = (-1, 0)
        for a in responses.values():
            if a.kind is not _PASS:
                ranked = _claim_rank(a, discarder)
                if best is None or ranked > best_rank:
                    best, best_rank = a, ranked
        for seat, options in claim.options.items():
            if seat in responses:
                continue
            if best is None:
                return  # an answer is still owed and nothing claims yet
            could = max((_claim_rank(a, discarder) for a in options if a.kind is not _PASS), default=(-1, 0))
            if could > best_rank:
                return  # someone who could still outrank the best claim has not answered
        self.claim = None
        if best is None:
            self._after_no_claim(claim.discarder, claim.tile, claim.rob_kong)
        elif best.kind is _WIN:
            self._win(best.seat, claim.tile, self_drawn=False, loser=claim.discarder, robbing=claim.rob_kong)
        elif best.kind is _KONG:
            self._exposed_kong(best.seat, claim)
        else:
            self._pon_or_chi(best, claim)

    def _after_no_claim(self, discarder: int, tile: int, rob_kong: bool) -> None:
        if rob_kong:
            self._emit(Event(EventKind.KONG_STANDS, discarder, tile))
            self.phase = _TURN
            self.turn = discarder
            self._draw(discarder, back=True)
            return
        nxt = (discarder + 1) % 4
        wall = self.wall  # (self.drawable, inline: every discard nobody claims passes here)
        if wall.back - wall.front - self.profile.reserve - self.profile.reserve_per_kong * self.kongs <= 0:
            self._end_draw_game()
            return
        self.phase = _TURN
        self.turn = nxt
        self._draw(nxt)

    def _take_from_river(self, claim: _ClaimState) -> None:
        self.rivers[claim.discarder].pop()
        self.last_discard = None
        self.claims_made = True

    def _pon_or_chi(self, action: Action, claim: _ClaimState) -> None:
        seat, tile = action.seat, claim.tile
        hand = self.hands[seat]
        self._take_from_river(claim)
        if action.kind is _PON:
            hand[tile] -= 2
            meld = Meld(_MELD_PON, (tile,) * 3, tile, claim.discarder)
        else:
            lo = action.tile
            assert lo is not None  # a 吃 names its lowest tile (TILE_REQUIRED)
            for t in (lo, lo + 1, lo + 2):
                if t != tile:
                    hand[t] -= 1
            meld = Meld(_MELD_CHI, (lo, lo + 1, lo + 2), tile, claim.discarder)
        self.melds[seat].append(meld)
        self._emit(Event(_CLAIM_EVENTS[action.kind], seat, tile, tiles=meld.tiles))
        self.phase = _TURN
        self.turn = seat
        self.ts = _TurnState(claimed=tile)

    def _exposed_kong(self, seat: int, claim: _ClaimState) -> None:
        tile = claim.tile
        self._take_from_river(claim)
        self.hands[seat][tile] -= 3
        self.melds[seat].append(Meld(MeldKind.KONG, (tile,) * 4, tile, claim.discarder))
        self.kongs += 1
        self._emit(Event(EventKind.KONG, seat, tile, tiles=(tile,) * 4))
        self.phase = Phase.TURN
        self.turn = seat
        self.ts = _TurnState(no_tsumo=self.profile.kong_replacement_no_tsumo, kong_from=claim.discarder)
        self._draw(seat, back=True)
        self._force_pass_on_no_tsumo(seat)

    def _force_pass_on_no_tsumo(self, seat: int) -> None:
        """明槓之後摸進來的牌若是正好胡牌，也必須強制過水: a tile drawn in after a 明槓 — its own
        replacement, a flower's replacement after it, or the replacement of a 暗槓 made in the same
        turn (行動限制3) — that completes the hand may not be won on, and the player is in 過水
        (docs/rules/taiwan16.md, "Kongs and replacement draws")."""
        if self.phase is not Phase.TURN or not self.ts.no_tsumo or self.passed_win[seat]:
            return
        if self._complete(self.hands[seat]):
            self._pass_win(seat)

    def _concealed_kong(self, seat: int, tile: int) -> None:
        self.hands[seat][tile] -= 4
        self.melds[seat].append(Meld(MeldKind.ANKONG, (tile,) * 4))
        self.kongs += 1
        self.claims_made = True
        self.drawn[seat] = None
        self._emit(Event(EventKind.ANKONG, seat, None))  # the tile stays hidden from the table
        self.ts = _TurnState(no_tsumo=self.ts.no_tsumo)  # 行動限制3 carries through
        self._draw(seat, back=True)
        self._force_pass_on_no_tsumo(seat)  # ... and so does the forced 過水

    def _added_kong(self, seat: int, tile: int) -> None:
        hand = self.hands[seat]
        hand[tile] -= 1
        self.drawn[seat] = None
        if self.passed_win[seat] and tile not in self.winning_tiles(hand):
            self.passed_win[seat] = False  # an added kong of a non-winning tile lifts 過水
            self._emit(Event(EventKind.PASS_WIN_LIFTED, seat))
        melds = self.melds[seat]
        for i, meld in enumerate(melds):
            if meld.kind is MeldKind.PON and meld.first == tile:
                melds[i] = Meld(MeldKind.ADDKONG, (tile,) * 4, meld.claimed, meld.source)
                break
        self.kongs += 1
        self.claims_made = True
        self._emit(Event(EventKind.ADDKONG, seat, tile, tiles=(tile,) * 4))
        self.ts = _TurnState()
        self._open_claims(tile, seat, rob_kong=True)  # 搶槓 window, then the replacement draw

    def _draw(self, seat: int, back: bool = False) -> None:
        if seat == self.dealer and not back:
            self.first_round = False  # the dealer's second live draw starts the second go-round
        wall = self.wall
        front = wall.front
        if back or front >= wall.back:  # (the live draw inline: one a turn; an empty wall raises)
            tile = wall.draw_back() if back else wall.draw_front()
        else:
            tile = wall.tiles[front]
            wall.front = front + 1
        self._take_draw(seat, tile, back, back)

    def _take_draw(self, seat: int, tile: int, back: bool, replacement: bool) -> None:
        """``tile`` is drawn into ``seat``'s hand; a flower is set aside and replaced from the back
        (``back``: the draw was a kong's replacement), unless it makes a flower win first."""
        wall = self.wall
        while tile >= NUM_KINDS:  # a flower (every turn draws: is_flower inline)
            self.flowers[seat].append(tile)
            self.events.append(FLOWER_EVENTS[seat][tile - NUM_KINDS])
            self._flower_resume = ("draw", seat, back)
            self._check_flower_win(seat)
            if self.outcome is not None or self.phase is Phase.FLOWER_WIN:
                return
            if self.drawable <= 0:  # the replacement would come out of the reserve: 流局 here
                self._end_draw_game()
                return
            tile = wall.draw_back()
            replacement = True
        self.hands[seat][tile] += 1
        self.drawn[seat] = tile
        ts = self.ts
        ts.replacement = replacement
        ts.after_flower = replacement and not back
        profile = self.profile  # (self.drawable, inline)
        ts.last_tile = wall.back - wall.front - profile.reserve - profile.reserve_per_kong * self.kongs <= 0
        self.events.append((REPLACEMENT_DRAW_EVENTS if replacement else DRAW_EVENTS)[seat][tile])

    def _check_flower_win(self, seat: int) -> None:
        """All eight flowers (八仙過海, 大花胡) and seven while another player shows the eighth (七搶一),
        under the names the profile gives them (None: no such win). Once all eight are out nothing
        changes, so a flower win offered (or declined) is never offered again."""
        if self.flower_offer is not None or self.flower_declined is not None:
            return
        counts = [len(f) for f in self.flowers]
        if max(counts) < 7:  # neither win is near (every flower set aside asks)
            return
        eight, seven = self.profile.flower_wins
        if counts[seat] == 8 and eight:
            self._flower_win(Outcome(seat, None, None, self_drawn=True, flower_win=eight))
        elif sorted(counts)[-2:] == [1, 7] and seven:
            winner = counts.index(7)
            self._flower_win(Outcome(winner, counts.index(1), None, self_drawn=False, flower_win=seven))

    def _flower_win(self, outcome: Outcome) -> None:
        """End the hand with a flower win; or (house rule flower_win_as_bonus) book it as a bonus
        paid at once and let the hand go on, the receiver's later win counting no flower 台; or,
        where the win is the player's to call (document 001's 就可以喊胡, house rule
        flower_win_optional), offer it as 胡 / 過 (:data:`Phase.FLOWER_WIN`)."""
        house = self.options.house_rules
        if not (self.profile.flower_bonus and house["flower_win_as_bonus"]):
            if self.profile.flower_win_optional or house["flower_win_optional"]:
                self.flower_offer = outcome
                self.phase = Phase.FLOWER_WIN
                self._turn_cache = None
                return
            self._finish(outcome)
            return
        assert outcome.winner is not None and outcome.flower_win is not None
        bonus = (outcome.winner, outcome.loser, outcome.flower_win)
        if bonus not in self.flower_bonuses:  # (the deal checks every seat once its 補花 is done)
            self.flower_bonuses.append(bonus)
            self._emit(Event(EventKind.FLOWER_BONUS, outcome.winner, detail=outcome.flower_win))

    def _answer_flower_win(self, take: bool) -> None:
        """胡: the flower win ends the hand. 過: the hand goes on from where the flower appeared (the
        deal, the exchange, or a draw whose flower is now replaced), and the flowers and 花槓 count
        as ordinary flowers in the decliner's later win (``WinContext.flower_win_declined``)."""
        offer = self.flower_offer
        assert offer is not None and offer.winner is not None
        self.flower_offer = None
        if take:
            self._finish(offer)
            return
        self.flower_declined = offer.winner
        self._emit(Event(EventKind.FLOWER_DECLINED, offer.winner, detail=offer.flower_win or ""))
        step, seat, back = self._flower_resume
        if step == "deal":
            self._start_play()
        elif step == "exchange":
            self._play_after_exchange()
        else:
            self.phase = Phase.TURN
            self.turn = seat
            self._turn_cache = None
            if self.drawable <= 0:  # the flower's replacement would come out of the reserve: 流局
                self._end_draw_game()
                return
            self._take_draw(seat, self.wall.draw_back(), back, True)
            self._force_pass_on_no_tsumo(seat)

    def _win(
        self,
        seat: int,
        tile: int | None,
        *,
        self_drawn: bool,
        loser: int | None = None,
        robbing: bool = False,
    ) -> None:
        if tile is not None:
            assert loser is not None  # a win on a tile: someone discarded it or added it to a kong
            self.hands[seat][tile] += 1
            if robbing:  # the robbed kong goes back to a pon
                melds = self.melds[loser]
                for i, meld in enumerate(melds):
                    if meld.kind is MeldKind.ADDKONG and meld.first == tile:
                        melds[i] = Meld(MeldKind.PON, (tile,) * 3, meld.claimed, meld.source)
                self.kongs -= 1
            else:
                self.rivers[loser].pop()
                self.last_discard = None
        else:
            tile = self.drawn[seat]
        outcome = Outcome(
            winner=seat,
            loser=None if self_drawn else loser,
            win_tile=tile,
            self_drawn=self_drawn,
            last_tile=self_drawn and self.ts.last_tile,
            kong_replacement=self_drawn and self.ts.replacement,
            robbing_kong=robbing,
            heavenly=self._heavenly(seat, self_drawn),
            earthly=self._earthly(seat),
            kong_source=self.ts.kong_from if self_drawn and self.ts.replacement else None,
            human=self._human(seat, self_drawn),
            last_discard=self._last_discard(self_drawn, robbing),
            after_flower=self_drawn and self.ts.after_flower,
        )
        self._finish(outcome)

    def _heavenly(self, seat: int, self_drawn: bool) -> bool:
        """天胡: the dealer's self-drawn win on their first turn, nobody having claimed anything."""
        return self_drawn and seat == self.dealer and self.first_go[seat] and not self.claims_made

    def _earthly(self, seat: int) -> bool:
        """地胡 (非莊家在第一輪內胡牌或自摸，且四家沒有吃碰槓): a non-dealer's win, by 胡 or 自摸,
        before the dealer's second live draw — or, when the profile sets ``earthly_discards``, within
        that many discards of the hand (document 001: 海底八张牌内) — nobody having made any
        吃/碰/槓 (暗槓 included)."""
        if seat == self.dealer or self.claims_made:
            return False
        if self.profile.earthly_discards:
            return self.discards_made <= self.profile.earthly_discards
        return self.first_round

    def _human(self, seat: int, self_drawn: bool) -> bool:
        """人胡 (a house rule): an earthly win on a discard before the winner's own first draw —
        with no claims, a seat that has not discarded yet has not drawn either."""
        return not self_drawn and self._earthly(seat) and self.first_go[seat]

    def _last_discard(self, self_drawn: bool, robbing: bool) -> bool:
        """河底撈魚 (a house rule): a win on a discard made after the last live draw."""
        return not self_drawn and not robbing and self.drawable <= 0

    def _end_draw_game(self) -> None:
        self._finish(Outcome(None))

    def _finish(self, outcome: Outcome) -> None:
        bonuses = tuple(self.flower_bonuses)
        # (dataclasses.replace is slow, and most hands have neither horses nor flower bonuses)
        if outcome.horses != self._horses or outcome.flower_bonuses != bonuses:
            outcome = replace(outcome, horses=self._horses, flower_bonuses=bonuses)
        self.outcome = outcome
        self.phase = Phase.OVER
        self.claim = None
        if outcome.winner is None:
            self._emit(Event(EventKind.DRAW_GAME, None, detail="流局"))
        else:
            self._emit(
                Event(
                    EventKind.WIN,
                    outcome.winner,
                    outcome.win_tile,
                    detail=outcome.flower_win or ("自摸" if outcome.self_drawn else "胡"),
                )
            )

    def _run_forced(self) -> None:
        """Make the moves that leave no choice: forced wins, a 聽 hand's auto-discard."""
        while self.phase is not _OVER:
            if self.phase is _EXCHANGE_PHASE or self.phase is _FLOWER_WIN_PHASE:
                return
            if self.phase is _TURN:
                actions = self._turn_cache
                if actions is None:  # (_turn_actions, inline: every turn's listing is made here)
                    actions = self._turn_cache = self._compute_turn_actions(self.turn)
                fixed = self.ready[self.turn] or self.eye[self.turn]  # 聽 or 眼牌: the engine discards
                if len(actions) == 1 and (actions[0].kind is _WIN or fixed):
                    self._play(actions[0])
                    continue
                return
            claim = self.claim
            assert claim is not None
            forced = [
                s
                for s, opts in claim.options.items()
                if s not in claim.responses and len(opts) == 1 and opts[0].kind is _WIN
            ]
            if not forced:
                self._resolve_claims_if_ready()
                if self.claim is claim:
                    return
                continue
            for seat in forced:
                claim.responses[seat] = claim.options[seat][0]
            self._resolve_claims_if_ready()
            if self.claim is claim:
                return

    def _emit(self, event: Event) -> None:
        self.events.append(event)

    # ------------------------------------------------------------------ invariants

    def check_invariants(self) -> None:
        """Raise :class:`InvariantError` if tiles were created, lost or doubled, or a hand has a wrong size."""
        counts = [0] * 42
        for s in range(4):
            for t in range(NUM_KINDS):
                counts[t] += self.hands[s][t]
            for meld in self.melds[s]:
                for t in meld.tiles:
                    counts[t] += 1
            for t in self.flowers[s]:
                counts[t] += 1
            for t in self.rivers[s]:
                counts[t] += 1
        for t in (*self.wall.remaining_tiles(), *self._horses):
            counts[t] += 1
        for t in range(NUM_KINDS):
            _require(counts[t] == 4, f"tile {tile_to_str(t)} appears {counts[t]} times")
        for t in range(34, 42):
            _require(
                counts[t] == (1 if self.profile.flowers else 0), f"flower {tile_to_str(t)} count {counts[t]}"
            )
        _require(sum(counts) == self.profile.wall_size, f"{sum(counts)} tiles in play")
        # the draw-game reserve is exact: never drawn into, and a draw game leaves exactly it
        _require(self.drawable >= 0, f"the wall was drawn {-self.drawable} tile(s) into its reserve")
        if self.outcome is not None and self.outcome.winner is None:
            _require(self.drawable == 0, f"a draw game with {self.drawable} live draw(s) left")
        size = self.profile.hand_size
        outcome = self.outcome
        in_deal = self.first_go[self.dealer] and not self.claims_made  # the dealer has not played yet
        for s in range(4):
            held = sum(self.hands[s]) + 3 * len(self.melds[s])
            extra = 1 if (self.phase in (Phase.TURN, Phase.EXCHANGE) and s == self.turn) else 0
            if (outcome is not None and outcome.flower_win) or self.phase is Phase.FLOWER_WIN:
                # the flower that completed the win was set aside unreplaced, so nobody holds an
                # extra tile, except the dealer's 開門 tile when the win came in the deal or 換牌
                extra = 1 if (s == self.dealer and in_deal) else 0
            elif outcome is not None and outcome.winner == s:
                extra = 1
            _require(held == size + extra, f"seat {s} holds {held} tiles (expected {size + extra})")
            _require(all(0 <= n <= 4 for n in self.hands[s]), f"seat {s} holds an impossible count")


_CLAIM_EVENTS = {Kind.PON: EventKind.PON, Kind.CHI: EventKind.CHI}
_NO_DECLARATION = (Phase.OVER, Phase.EXCHANGE, Phase.FLOWER_WIN)  # 眼牌 / Miji wait for play


def _claim_rank(action: Action, discarder: int) -> tuple[int, int]:
    """A claim's precedence on one discard: 胡 > 槓 > 碰 > 吃, then the first seat after the discarder."""
    return (CLAIM_RANK.get(action.kind, -1), -((action.seat - discarder) % 4))


# per suited tile: the two held tiles that would make a 吃 of it (two below, either side, two above)
_CHI_WITH = tuple(
    tuple((t + a, t + b) for a, b in ((-2, -1), (-1, 1), (1, 2)) if 0 <= t % 9 + a and t % 9 + b <= 8) if t < 27 else ()
    for t in range(NUM_KINDS)
)


def _require(ok: bool, message: str) -> None:
    if not ok:
        raise InvariantError(message)


def auto_play_choice(game: Game, seat: int) -> Action:
    """Kept for engine/policy.py until it calls :meth:`Game.auto_action` itself."""
    return game.auto_action(seat)
