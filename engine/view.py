"""What one player may see. Images and messages are built only from these objects, so no layer
can leak another player's concealed tiles by accident: a view simply does not hold them (except
``revealed`` once a hand is over, and ``others`` in a 眼牌 declarer's own view)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import compress
from typing import TYPE_CHECKING

from .events import Phase
from .frozen import maker
from .meld import Meld, MeldKind
from .rules import TableOptions
from .scoring.core import ScoreItem  # a score line is scoring's; views and results carry it
from .tiles import HIDDEN, NUM_KINDS, format_tiles, parse_tiles, sort_key, tile_from_str, tile_to_str

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True, slots=True)
class SeatPublic:
    """Everything about one seat that the whole table can see."""

    seat: int  # physical seat 0..3 (turn order is seat, seat+1, ...)
    wind: int  # seat wind this hand: 0=E (dealer) .. 3=N
    melds: tuple[Meld, ...]
    flowers: tuple[int, ...]
    discards: tuple[int, ...]  # the river, oldest first; tiles claimed by others are removed
    concealed_count: int  # tiles in hand, the drawn tile included
    ready: bool = False  # declared 聽
    auto: bool = False  # being auto-played (代打)
    eye: bool = False  # declared 眼牌 (Miji included): public, the declarer told the table
    miji: bool = False  # the 眼牌 was declared in the Miji window
    score: int = 0  # match points so far


@dataclass(frozen=True, slots=True)
class GameView:
    """One viewer's picture of a hand in progress. ``viewer`` None is the public (table) view."""

    viewer: int | None
    rules: str
    round_wind: int  # 0=E .. 3=N
    hand_number: int  # 1-based count of hands in the match
    dealer: int
    dealer_streak: int  # n of 連n
    wall_remaining: int  # tiles that can still be drawn before the draw game
    seats: tuple[SeatPublic, ...]
    turn: int  # seat whose move it is (or who discarded, during a claim window)
    phase: Phase  # a string enum: "turn", "claim", "rob_kong", "over"
    last_discard: tuple[int, int] | None = None  # (seat, tile) while it can still be claimed
    concealed: tuple[int, ...] = ()  # the viewer's own tiles, sorted, drawn tile excluded
    drawn: int | None = None  # the viewer's freshly drawn tile, shown apart
    waits: tuple[tuple[int, int], ...] = ()  # (tile, unseen count) when the viewer is ready
    revealed: dict[int, tuple[int, ...]] = field(default_factory=dict)  # end-of-hand reveal only
    hand_size: int = 16  # the rule set's tiles in hand before the draw (16, or 13)
    options: TableOptions = field(default_factory=TableOptions)  # the table's switches (三台起胡, 限自摸)
    bonus_indicator: int | None = None  # 翻寶牌: the face-up tile (the one after it is the 寶牌)
    # 眼牌: the other seats' concealed tiles, sorted, in the declarer's own view only (while playing)
    others: dict[int, tuple[int, ...]] = field(default_factory=dict)
    # (seat, tile) the others may claim right now: the discard, or the tile added to a kong (搶槓)
    offer: tuple[int, int] | None = None
    # 過水: the viewer passed a win and may not win until they discard (or add to a kong) a tile
    # that does not win; the viewer's own, like ``waits``
    passed_win: bool = False
    # (winner, name) of a flower win on offer: its winner may call it (胡) or play on (過); public
    flower_offer: tuple[int, str] | None = None

    @property
    def me(self) -> SeatPublic:
        """The viewer's own seat; ValueError for the public (table) view, which has no viewer."""
        if self.viewer is None:
            raise ValueError("the public view has no seat of its own")
        return self.seats[self.viewer]


@dataclass(frozen=True, slots=True)
class Payment:
    """One seat paying another, and why — the score sheet explains every payment from these."""

    payer: int
    payee: int
    tai: int  # 台/番/倍 charged (after the cap; the dealer's [2n+1] included when it applies)
    amount: int  # points actually paid
    reason: str  # "胡", "自摸", "眼牌", "七搶一", "八仙過海", a kong or 买马 line's name
    # 买马: a payment made again because a horse named ``horse_seat`` (the horse's tile ``horse``):
    # ``again`` is the reason of the payment repeated (自摸, 点炮, 明杠 …); None on any other payment
    horse: int | None = None
    horse_seat: int | None = None
    again: str | None = None


@dataclass(frozen=True, slots=True)
class HandResult:
    """The outcome of one hand, as the score sheet shows it."""

    winner: int | None  # None for a draw game
    loser: int | None  # the discarder; None for self-draw or draw game
    self_drawn: bool
    win_tile: int | None
    concealed: tuple[int, ...]  # the winner's concealed tiles without the winning tile
    melds: tuple[Meld, ...]
    flowers: tuple[int, ...]
    items: tuple[ScoreItem, ...]
    total: int
    unit: str  # "tai", "fan", "points", "multiplier"
    deltas: tuple[int, int, int, int]  # point change per seat; sums to zero
    capped_total: int | None = None  # the 台 paid when 滿台 limited the hand (None: no cap applied)
    limited: bool = False  # the 24-台 bankroll rule reduced at least one payment
    extras: tuple[ScoreItem, ...] = ()  # points settled beside the hand (kongs, 买马), not in ``total``
    # who paid whom and why, while the hand is fresh (the score sheet's explanations); not stored:
    # the deltas are the record, and a result read back from storage has none
    payments: tuple[Payment, ...] = field(default=(), compare=False)

    def to_dict(self) -> dict:
        """JSON-safe, in notation (tiles ``"5m"``, melds ``"pon:555z"``), for storage and history.

        >>> r = HandResult(1, 2, False, 4, (0, 1, 2), (), (), (ScoreItem("門清", 1),), 1, "tai", (0, 400, -400, 0))
        >>> HandResult.from_dict(r.to_dict()) == r
        True
        """
        return {
            "winner": self.winner,
            "loser": self.loser,
            "self_drawn": self.self_drawn,
            "win_tile": None if self.win_tile is None else tile_to_str(self.win_tile),
            "concealed": format_tiles(self.concealed),
            "melds": [str(m) for m in self.melds],
            "flowers": format_tiles(self.flowers),
            "items": [[i.name, i.value] for i in self.items],
            "total": self.total,
            "unit": self.unit,
            "deltas": list(self.deltas),
            "capped_total": self.capped_total,
            "limited": self.limited,
            "extras": [[i.name, i.value, i.seat] for i in self.extras],
        }

    @classmethod
    def from_dict(cls, data: dict) -> HandResult:
        win = data.get("win_tile")
        return cls(
            winner=data["winner"],
            loser=data["loser"],
            self_drawn=bool(data["self_drawn"]),
            win_tile=None if win is None else tile_from_str(win),
            concealed=tuple(parse_tiles(data["concealed"])),
            melds=tuple(Meld.from_str(m) for m in data["melds"]),
            flowers=tuple(parse_tiles(data["flowers"])),
            items=tuple(ScoreItem(name, value) for name, value in data["items"]),
            total=data["total"],
            unit=data["unit"],
            deltas=tuple(data["deltas"]),
            capped_total=data.get("capped_total"),
            limited=bool(data.get("limited", False)),
            extras=tuple(ScoreItem(name, value, seat) for name, value, seat in data.get("extras", ())),
        )


def build_view(game: Game, viewer: int | None) -> GameView:
    """``viewer``'s picture of ``game`` (None: the public table). The only place a view is built,
    so the only place that decides what each player may see. Built from the game's state every
    time (self-play and the AI players ask for one every decision)."""
    over = game.phase is Phase.OVER
    hands, melds, flowers, rivers = game.hands, game.melds, game.flowers, game.rivers
    ready, auto, eye, miji, scores = game.ready, game.auto, game.eye, game.miji, game.scores
    shown = game._shown_seats
    dealer = game.dealer
    seats = []
    for s in range(4):
        face_up = over or s == viewer
        river, seat_melds, seat_flowers = rivers[s], melds[s], flowers[s]
        source = (dealer, sum(hands[s]), ready[s], auto[s], eye[s], miji[s], scores[s])
        # a seat whose every source is what the last view was made from (the usual case: one seat
        # moves at a time) gets that view's SeatPublic again, which therefore can never be stale;
        # the seat as its owner (or everyone, after the hand) sees it and as the others see it are
        # kept apart when it holds a 暗槓 (face up differs from face down); without one, all see
        # the same and share one
        kept = shown[s]
        if kept is None:
            kept = shown[s] = [None, None]
        slot = face_up and bool(seat_melds) and any(m.kind is MeldKind.ANKONG for m in seat_melds)
        last = kept[slot]  # (source, river, melds, flowers, the SeatPublic made from them)
        if last is None or last[0] != source or last[1] != river or last[2] != seat_melds or last[3] != seat_flowers:
            seat = _make_seat(
                s,
                game.seat_wind(s),
                _shown_melds(seat_melds, face_up),
                tuple(seat_flowers),
                tuple(river),
                source[1],
                ready[s],
                auto[s],
                eye[s],
                miji[s],
                scores[s],
            )
            last = kept[slot] = (source, river.copy(), seat_melds.copy(), seat_flowers.copy(), seat)
        seats.append(last[4])
    concealed: tuple[int, ...] = ()
    drawn = None
    waits: tuple[tuple[int, int], ...] = ()
    if viewer is not None:
        counts = list(hands[viewer])
        drawn = game.drawn[viewer]
        if drawn is not None and game.phase is Phase.TURN and game.turn == viewer and counts[drawn]:
            counts[drawn] -= 1
        else:
            drawn = None
        # the viewer's tiles in display order and their waits, again if the tiles are those of
        # the viewer's last view (a hand stays the same from one's discard to one's next draw)
        kept_hand = game._shown_hands[viewer]
        if kept_hand is None or kept_hand[0] != counts:
            ready_on = game._hand_waits(viewer, counts) if sum(counts) % 3 == 1 else ()
            kept_hand = game._shown_hands[viewer] = (counts, _in_display_order(counts), ready_on)
        concealed, ready_on = kept_hand[1], kept_hand[2]
        if ready_on:
            waits = unseen_of(game, viewer, ready_on)
    revealed = {}
    if over:
        revealed = {s: tuple(game.hand(s)) for s in range(4)}
    others = {}
    if viewer is not None and eye[viewer] and not over:
        others = {s: tuple(game.hand(s)) for s in range(4) if s != viewer}
    claim = game.claim
    offer = (claim.discarder, claim.tile) if claim is not None and game.phase in _CLAIMING else None
    profile = game.profile
    live = game.drawable
    flower = game.flower_offer
    flower_offer = None
    if flower is not None and flower.winner is not None and flower.flower_win is not None:
        flower_offer = (flower.winner, flower.flower_win)
    # every field in GameView's order, without the frozen __init__'s cost (a view is built at every decision)
    return _make_view(
        viewer,
        profile.id,
        game.round_wind,
        game.hand_number,
        game.dealer,
        game.dealer_streak,
        live if live > 0 else 0,
        tuple(seats),
        game.turn,
        game.phase,
        game.last_discard,
        concealed,
        drawn,
        waits,
        revealed,
        profile.hand_size,
        game.options,
        game.bonus_indicator,
        others,
        offer,
        viewer is not None and game.passed_win[viewer],
        flower_offer,
    )


_CLAIMING = (Phase.CLAIM, Phase.ROB_KONG)
_make_view = maker(GameView)
_make_seat = maker(SeatPublic)


# the kinds in display order (sorted_tiles): a hand is listed by walking this once
_DISPLAY_ORDER = tuple(sorted(range(NUM_KINDS), key=sort_key))


def _in_display_order(counts: list[int]) -> tuple[int, ...]:
    """The tiles of ``counts``, sorted as :func:`~engine.tiles.sorted_tiles` sorts them."""
    tiles: list[int] = []
    for t in compress(_DISPLAY_ORDER, map(counts.__getitem__, _DISPLAY_ORDER)):
        n = counts[t]
        if n == 1:
            tiles.append(t)
        else:
            tiles.extend((t,) * n)
    return tuple(tiles)


def _shown_melds(melds: list[Meld], face_up: bool) -> tuple[Meld, ...]:
    """``melds`` as one viewer sees them: another player's 暗槓 face down unless ``face_up``."""
    if face_up or not melds:
        return tuple(melds)
    return tuple([_FACE_DOWN if m.kind is MeldKind.ANKONG else m for m in melds])


# another player's 暗槓 as every view shows it (``Meld.hidden()``: one shared value, made once)
_FACE_DOWN = Meld(MeldKind.ANKONG, (HIDDEN,) * 4)


def visible_melds(game: Game, seat: int, viewer: int | None) -> tuple[Meld, ...]:
    """Another player's 暗槓 is face down until the hand is over."""
    return _shown_melds(game.melds[seat], seat == viewer or game.phase is Phase.OVER)


def unseen_counts(game: Game, viewer: int) -> list[int]:
    """Per kind, copies ``viewer`` has not seen (own hand, all melds and rivers are seen; a 眼牌
    declarer has seen the other hands too)."""
    seen = list(game.hands[viewer])
    if game.eye[viewer]:
        for s in range(4):
            if s != viewer:
                seen = [a + b for a, b in zip(seen, game.hands[s], strict=True)]
    for s in range(4):
        for meld in visible_melds(game, s, viewer):
            if meld.is_hidden:  # another player's 暗槓 before the end-of-hand reveal
                continue
            for t in meld.tiles:
                seen[t] += 1
        for t in game.rivers[s]:
            seen[t] += 1
    claim = game.claim
    if claim is not None and claim.rob_kong:
        seen[claim.tile] += 1
    return [max(0, 4 - n) for n in seen]


def unseen_of(game: Game, viewer: int, tiles: Iterable[int]) -> tuple[tuple[int, int], ...]:
    """``(tile, unseen_counts(game, viewer)[tile])`` for each of ``tiles`` (a ready hand's few
    waits, in every view of it): each kind counted where it can lie, not every tile seen."""
    hands, rivers, melds = game.hands, game.rivers, game.melds
    everyone = game.eye[viewer]
    face_up = game.phase is Phase.OVER
    claim = game.claim
    robbed = claim.tile if claim is not None and claim.rob_kong else None
    out = []
    for t in tiles:
        seen = hands[viewer][t] + (t == robbed)
        for s in range(4):
            if everyone and s != viewer:
                seen += hands[s][t]
            seen += rivers[s].count(t)
            for meld in melds[s]:
                if meld.kind is not MeldKind.ANKONG or face_up or s == viewer:  # (visible_melds)
                    seen += meld.tiles.count(t)
        out.append((t, max(0, 4 - seen)))
    return tuple(out)
