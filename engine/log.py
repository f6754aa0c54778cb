"""The match log (牌譜): a match as one versioned JSON document other tools can read without this
code (docs/log-format.md), made by replaying the stored moves through the engine, and checked the
same way.

    log = export_match(match.header(), [HandMoves(h.log) for h in match.history])
    check_log(log)          # raises LogError naming the first bad move, NotALog for anything else

Each hand carries two views of one story: ``moves``, the engine's action log (what the players
decided, the input a replay needs), and ``events``, everything that happened in order (the deal,
draws, 補花, discards with 摸切/手切, claims, declarations, timeouts, 代打, the win or draw game),
each tagged with the number of the move that caused it; then the result with its 台/番 items and
payments. ``check_log`` replays the moves and requires every event and result to be exactly what
the engine produces, so a hand-edited file is refused at the first move that no longer fits.

    python -m engine.log check FILE    # exit 0 valid, 1 a bad move or result (named), 2 not a log
    python -m engine.log verify FILE   # exit 0 fair, 1 not fair (the first hand that differs), 2 not
                                       # a log, or a match still sealed (exported while being played)

A table's match is sealed (engine.fairness): while it is played its export holds the finished hands
without the key, any seed or any wall (``sealed=True``, the table's visibility rule decides); once it
is over the export reveals the key, and ``verify`` rebuilds every wall from it.

Pure: no I/O outside :func:`main`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import fairness
from .actions import Action, Kind
from .cli import tool_parser
from .events import Event, EventKind
from .game import HEADER_VERSION as GAME_HEADER_VERSION
from .game import Game, IllegalActionError
from .match import HEADER_VERSION, SEEDED_HEADER_VERSION, Match
from .scoring import get_settle_leave
from .tiles import NotationError, format_tiles, tile_to_str

FORMAT = "mahjong-log"
VERSION = 2  # 2: a match holds its key and commitment (or a plain seed), and may be sealed
READS = (1, 2)


class NotALog(ValueError):
    """The document is not a match log this code reads (not JSON, another format or version)."""


class Sealed(ValueError):
    """A match exported while it was being played: no key, seed or wall, so its hands cannot be
    replayed (nor its deals verified) until it is over and exported again."""


class LogError(ValueError):
    """A log that does not replay: ``hand`` (1-based, in file order) and ``move`` (1-based within
    the hand, 0 for the deal, None for the match header) say where, ``reason`` why."""

    def __init__(
        self, reason: str, *, hand: int | None = None, move: int | None = None, where: str = ""
    ) -> None:
        self.reason, self.hand, self.move = reason, hand, move
        place = where or ("the match header" if hand is None else f"hand {hand}")
        if move is not None:
            place += ", the deal" if move == 0 else f", move {move}"
        super().__init__(f"{place}: {reason}")


@dataclass(frozen=True, slots=True)
class HandMoves:
    """A stored hand: its moves in notation; ``left`` is the seat whose player left mid-hand when
    the rule set ends the table for it (taiwan13 中断连线), the hand then ending unfinished."""

    moves: Sequence[str]
    left: int | None = None


@dataclass(frozen=True, slots=True)
class Step:
    """One move of a replay: its number, the move, the events it caused and the game after it
    (the game object is shared and moves on: read it before asking for the next step).
    ``between`` marks a 代打 switch (``away`` / ``back``) made after the hand ended: it is part of
    the hand's moves (the table stores it there, docs/log-format.md) but decides the next hand, so
    it changes nothing on this hand's table and a replay of the hand stops before it."""

    number: int
    move: str | None  # None for the deal (step 0)
    events: tuple[dict[str, Any], ...]
    game: Game
    between: bool = False


# ---------------------------------------------------------------------- events as JSON


class _Transcriber:
    """Turns one hand's engine events into log events. Keeps what a reader needs that the engine's
    events leave implicit: which tile each seat drew last (摸切 / 手切), the 暗槓 tile (hidden from the
    table while playing, known in a log of a finished hand)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.drawn: list[int | None] = list(game.drawn)

    def deal(self, events: Sequence[Event]) -> list[dict[str, Any]]:
        """The events of the deal: the dice, each hand after the deal's 補花 (flowers set aside in
        the deal are listed with it, not as separate events), then whatever ended the hand at once."""
        game = self.game
        out: list[dict[str, Any]] = [
            {"type": "dice", "seat": game.dealer, "dice": list(game.dice), "break": game.wall.break_side},
            {
                "type": "deal",
                "hands": [format_tiles(game.hand(s)) for s in range(4)],
                "flowers": [format_tiles(game.flowers[s]) for s in range(4)],
                "opener": _tile(game.drawn[game.dealer]),
            },
        ]
        rest = [e for e in events if e.kind not in (EventKind.DICE, EventKind.DEAL, EventKind.FLOWER)]
        out.extend(self.events(rest, None))
        self.drawn = list(game.drawn)
        return out

    def events(self, events: Sequence[Event], action: Action | None) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        if action is not None and action.kind is Kind.TIMEOUT:
            out.append({"type": "timeout", "seat": action.seat})
        for event in events:
            out.append(self._one(event, action))
        return out

    def _one(self, event: Event, action: Action | None) -> dict[str, Any]:
        kind, seat = event.kind, event.seat
        game = self.game
        data: dict[str, Any] = {"type": kind.value}
        if seat is None:
            if kind is EventKind.EXCHANGED:
                data["counts"] = event.detail
                self.drawn[game.dealer] = game.drawn[game.dealer]
            return data  # draw_game too
        data["seat"] = seat
        if kind is EventKind.DRAW and event.detail == "換牌":
            data["type"] = "exchange_draw"
            data["tiles"] = format_tiles(event.tiles)
            self.drawn[seat] = game.drawn[seat]
        elif kind is EventKind.DRAW:
            data["tile"] = _tile(event.tile)
            data["from"] = "back" if event.detail == "replacement" else "front"
            self.drawn[seat] = event.tile
        elif kind is EventKind.DISCARD:
            data["tile"] = _tile(event.tile)
            data["tsumogiri"] = self.drawn[seat] == event.tile  # 摸切, else 手切
            self.drawn[seat] = None
        elif kind in (EventKind.CHI, EventKind.PON, EventKind.KONG):
            meld = game.melds[seat][-1]  # nothing melds again before the claimer's next decision
            data.update(tile=_tile(event.tile), meld=str(meld), **{"from": meld.source})
            self.drawn[seat] = None
        elif kind is EventKind.ANKONG:  # the engine hides the tile from the table; the move names it
            assert action is not None and action.kind is Kind.ANKONG and action.tile is not None
            data["meld"] = f"ankong:{format_tiles([action.tile] * 4)}"
            self.drawn[seat] = None
        elif kind is EventKind.ADDKONG:
            data.update(tile=_tile(event.tile), meld=f"addkong:{format_tiles(event.tiles)}")
            self.drawn[seat] = None
        elif kind in (EventKind.FLOWER, EventKind.READY, EventKind.KONG_STANDS):
            data["tile"] = _tile(event.tile)
        elif kind is EventKind.EXCHANGE:
            data["tiles"] = format_tiles(event.tiles)
        elif kind is EventKind.EYE:
            data["miji"] = event.detail == "Miji"
        elif kind is EventKind.WIN:
            out = game.outcome
            assert out is not None
            data.update(
                tile=_tile(out.win_tile),
                self_drawn=out.self_drawn,
                **{"from": out.loser},
                flower_win=out.flower_win,
                robbing_kong=out.robbing_kong,
            )
        # pass_win, pass_win_lifted, auto_on, auto_off: the seat says it all
        return data


def _tile(tile: int | None) -> str | None:
    return None if tile is None else tile_to_str(tile)


# ---------------------------------------------------------------------- replaying


def hand_steps(game: Game, moves: Sequence[str], *, hand: int | None = None) -> Iterator[Step]:
    """Play ``moves`` one at a time on ``game`` (freshly dealt: a match's ``new_hand()``, or
    :meth:`Game.replay` of a stored header with no moves), yielding the deal (step 0) and then
    every move with the events it caused. Once the hand has ended only ``away`` / ``back`` may
    follow (the switches made between two hands, ``Step.between``). Raises :class:`LogError` at a
    move that is not notation or not legal (``hand`` names the hand in the message)."""
    if game.log:
        raise ValueError("hand_steps starts from a freshly dealt hand")
    number = hand if hand is not None else game.hand_number
    scribe = _Transcriber(game)
    yield Step(0, None, tuple(scribe.deal(game.events)), game)
    for k, text in enumerate(moves, 1):
        if not isinstance(text, str):
            raise LogError(
                f"a move is action notation (text), got {json.dumps(text)[:40]}", hand=number, move=k
            )
        try:
            action = Action.from_str(text)
        except NotationError as error:
            raise LogError(f"{text!r} is not a move: {error}", hand=number, move=k) from None
        between = game.is_over
        if between and action.kind not in (Kind.AWAY, Kind.BACK):
            raise LogError(
                f"{text!r} comes after the hand ended (only away / back are made between hands)",
                hand=number,
                move=k,
            )
        why = why_illegal(game, action)
        if why:
            raise LogError(f"{text} is not legal: {why}", hand=number, move=k)
        try:
            events = game.apply(action)
        except IllegalActionError as error:  # why_illegal missed a case: still a precise refusal
            raise LogError(f"{text} is not legal: {error}", hand=number, move=k) from None
        yield Step(k, text, tuple(scribe.events(events, action)), game, between)


def why_illegal(game: Game, action: Action) -> str:
    """Why ``game`` refuses ``action`` now, in a player's words ("" when it is legal)."""
    if game.is_legal(action):
        return ""
    seat = action.seat
    if action.kind in (Kind.AWAY, Kind.BACK):  # taken after the hand's end too
        return f"seat {seat} is {'already' if game.auto[seat] else 'not'} auto-played (代打)"
    if game.is_over:
        return "the hand is over"
    if action.kind in (Kind.EYE, Kind.MIJI):
        if game.eye[seat]:
            return f"seat {seat} has already declared 眼牌"
        offered = game.declarations(seat)
        return f"seat {seat} may declare {offered[0].kind.value if offered else 'nothing'} now"
    pending = game.to_act()
    if seat not in pending:
        whose = ", ".join(map(str, pending)) or "nobody"
        return f"it is not seat {seat}'s decision (phase {game.phase.value}, to act: {whose})"
    hand = game.hands[seat]
    if action.kind in (Kind.DISCARD, Kind.READY, Kind.ANKONG, Kind.ADDKONG) and action.tile is not None:
        if not hand[action.tile]:
            return (
                f"seat {seat} does not hold {tile_to_str(action.tile)} (hand {format_tiles(game.hand(seat))})"
            )
    listed = game.legal_actions(seat)
    shown = ", ".join(str(a) for a in listed[:8]) + (", ..." if len(listed) > 8 else "")
    return f"seat {seat} may only play {shown}"


# ---------------------------------------------------------------------- export


def export_match(
    header: Mapping[str, Any],
    hands: Sequence[HandMoves | Sequence[str]],
    *,
    seats: Sequence[Mapping[str, Any]] | None = None,
    meta: Mapping[str, Any] | None = None,
    sealed: bool = False,
) -> dict[str, Any]:
    """One match as a log document: ``header`` is :meth:`Match.header`, ``hands`` every finished
    hand's moves in order (a hand whose moves do not finish it is left out: a log holds no hand in
    play), ``seats`` who sat where (engine seat order), ``meta`` anything else worth keeping
    (table id, dates). ``sealed`` leaves out the key, every seed and every wall: the export of a
    match still being played."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "matches": [match_record(header, hands, seats=seats, meta=meta, sealed=sealed)],
    }


def export_matches(matches: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Several :func:`match_record` values in one document (self-play plays many matches)."""
    return {"format": FORMAT, "version": VERSION, "matches": list(matches)}


def match_record(
    header: Mapping[str, Any],
    hands: Sequence[HandMoves | Sequence[str]],
    *,
    seats: Sequence[Mapping[str, Any]] | None = None,
    meta: Mapping[str, Any] | None = None,
    sealed: bool = False,
) -> dict[str, Any]:
    match = Match.from_header(header)
    options = match.options
    record: dict[str, Any] = {"rules": match.rules, "sealed": sealed}
    if match.commitment is not None:
        record["commitment"] = match.commitment
    if match.duplicate:  # no secret: how the walls follow from the key (by position, not by number)
        record["deal"] = "position"
    if match.hands is not None:  # a match of at most this many hands (a tournament's)
        record["hand_limit"] = match.hands
    if not sealed:
        if match.key is not None:
            record["key"] = match.key.hex()
        else:
            record["seed"] = str(match.seed)  # seeds as decimal text: they exceed 2^53
    record |= {
        "rounds": match.rounds,
        "options": options.to_dict(),
        "house_rules": options.house_rules.to_dict(),
        "seats": _seats(seats),
        "seat_draw": list(match.seat_of_player),
        "dealer_dice": list(match.dealer_dice),
        "first_dealer": match.first_dealer,
        "hands": [],
    }
    for n, stored in enumerate(hands, 1):
        moves, left = (stored.moves, stored.left) if isinstance(stored, HandMoves) else (stored, None)
        if match.is_over:
            break
        hand = _hand_record(match, list(moves), left, n)
        if hand is None:
            break  # the hand in play (or one cut short by a crash): not part of the log
        if sealed:
            del hand["seed"], hand["wall"]
        record["hands"].append(hand)
    record["final_scores"] = list(match.scores)
    record["complete"] = match.is_over
    if meta:
        record["meta"] = dict(meta)
    return record


def _seats(seats: Sequence[Mapping[str, Any]] | None) -> list[dict[str, Any]]:
    if seats is None:
        return [{"seat": s, "name": f"seat {s}"} for s in range(4)]
    if len(seats) != 4:
        raise ValueError("a match log names four seats")
    return [{"seat": s, **dict(who)} for s, who in enumerate(seats)]


def _hand_record(match: Match, moves: list[str], left: int | None, number: int) -> dict[str, Any] | None:
    events: list[dict[str, Any]] = []
    game: Game | None = None
    record: dict[str, Any] = {}
    for step in hand_steps(match.new_hand(), moves, hand=number):
        if game is None:
            record = hand_header(step.game)  # before any move: the wall as dealt
        game = step.game
        events.extend({"move": step.number, **e} for e in step.events)
    assert game is not None
    if game.is_over:
        result = match.finish_hand(game)
        end = "win" if result.winner is not None else "draw_game"
    elif left is not None:
        result = match.abandon(game, left)  # type: ignore[assignment]
        if result is None:
            raise ValueError(f"{match.rules}: a player who leaves does not end the hand")
        events.append({"move": len(moves), "type": "abandon", "seat": left})
        end = "abandon"
    else:
        return None  # the hand in play: a log holds finished hands only
    record.update(
        moves=moves,
        events=events,
        end=end,
        result=result.to_dict(),
        scores=list(match.scores),
    )
    return record


def game_header(match: Mapping[str, Any], hand: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's :meth:`Game.header` of a logged hand, to replay it alone (no earlier hand)."""
    return {
        "version": GAME_HEADER_VERSION,
        "rules": match["rules"],
        "options": match["options"],
        "seed": seed_of(hand["seed"]),
        "dealer": hand["dealer"],
        "round_wind": hand["round_wind"],
        "dealer_streak": hand["dealer_streak"],
        "hand_number": hand["number"],
        "scores": hand["scores_before"],
        "auto": hand["auto_before"],
    }


def hand_header(game: Game) -> dict[str, Any]:
    """What a hand is dealt from, read before its first move: the wall in draw order from the
    break (the 王牌 and 买马's horses are its last tiles), the dice, scores and 代打 seats."""
    return {
        "number": game.hand_number,
        "dealer": game.dealer,
        "round_wind": game.round_wind,
        "dealer_streak": game.dealer_streak,
        "seed": str(game.seed),
        "scores_before": list(game.scores),
        "auto_before": list(game.header()["auto"]),
        "dice": list(game.dice),
        "wall": [tile_to_str(t) for t in game.wall.tiles],
    }


def leaver(rules: str, deltas: Sequence[int]) -> int | None:
    """The seat whose leaving (``settle_leave``) pays exactly ``deltas``, if the rule set has one."""
    leave = get_settle_leave(rules)
    if leave is None:
        return None
    for seat in range(4):
        if tuple(leave(seat).deltas) == tuple(deltas):
            return seat
    return None


def seed_of(value: object) -> int:
    """A seed as the log writes it (decimal text; a JSON integer is read too)."""
    if type(value) is int:
        return value
    if isinstance(value, str) and value.isdigit() and value.isascii():
        return int(value)
    raise ValueError(f"a seed is decimal digits, got {json.dumps(value)[:40]}")


def _new_match(record: Mapping[str, Any]) -> Match:
    """The match a log record was dealt from: its key, else its plain seed; :class:`Sealed` when it
    holds neither (exported while it was being played)."""
    if "key" in record:
        header = {"version": HEADER_VERSION, "key": record["key"], "deal": record.get("deal", "number")}
    elif "seed" in record:
        header = {"version": SEEDED_HEADER_VERSION, "seed": seed_of(record["seed"])}
    elif record.get("sealed"):
        raise Sealed(
            "the match was exported while it was being played: its key, seeds and walls stay secret "
            "until it is over (export it again then)"
        )
    else:
        raise KeyError("key")
    if "hand_limit" in record:
        header["hands"] = record["hand_limit"]
    return Match.from_header({**header, **{k: record[k] for k in ("rules", "rounds", "options")}})


# ---------------------------------------------------------------------- check


@dataclass(frozen=True, slots=True)
class CheckSummary:
    matches: int
    hands: int
    moves: int


def read_log(text: str | bytes) -> dict[str, Any]:
    """Parse a log document; :class:`NotALog` for anything that is not one (one line, why)."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8-sig")  # a BOM from an editor is no reason to refuse a log
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as error:
        raise NotALog(f"not JSON ({str(error).splitlines()[0][:80]})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise NotALog(f'not a match log (a JSON object with "format": "{FORMAT}")')
    if data.get("version") not in READS:
        raise NotALog(
            f"unsupported match log version {data.get('version')!r} (this code reads {', '.join(map(str, READS))})"
        )
    if not isinstance(data.get("matches"), list) or not all(isinstance(m, dict) for m in data["matches"]):
        raise NotALog('a match log holds "matches": a list of objects')
    return data


def check_log(data: Mapping[str, Any]) -> CheckSummary:
    """Replay every match of a log document through the engine: every move must be legal and every
    event, result and score exactly what the engine makes of the moves. Raises :class:`LogError`
    at the first thing that is not (hands are numbered in file order)."""
    hands = moves = 0
    matches = data["matches"]
    for m, record in enumerate(matches, 1):
        where = f"match {m}" if len(matches) > 1 else ""
        for hand in replay_match(record, first_hand=hands + 1, where=where):
            hands += 1
            moves += len(hand["moves"])
    return CheckSummary(len(matches), hands, moves)


class Unverifiable(ValueError):
    """A log whose deals cannot be verified: sealed (still being played) or dealt from a plain seed
    before deals were committed. Not evidence of anything unfair."""


def verify_log(data: Mapping[str, Any]) -> CheckSummary:
    """Everything :func:`check_log` checks, and that each match's deals follow from its revealed key:
    the key's SHA-256 is the commitment the table showed at the start, and the seat draw, the dice
    and every hand's seed and wall are what the key gives. :class:`Unverifiable` for a match without
    a revealed key; :class:`LogError` at the first thing that differs (hands numbered in file order)."""
    matches = data["matches"]
    for m, record in enumerate(matches, 1):
        where = f"match {m}, the match header" if len(matches) > 1 else "the match header"
        if "key" not in record:
            if record.get("sealed"):
                raise Unverifiable(
                    "the match was exported while it was being played (sealed): its key is revealed once "
                    "it is over; export it again then"
                )
            raise Unverifiable(
                "the match holds no key: it was dealt from a plain seed, before deals were committed, "
                "so there is nothing to verify"
            )
        try:
            key = fairness.key_from_hex(record["key"])
        except ValueError as error:
            raise LogError(str(error), where=where) from None
        promised = record.get("commitment")
        if promised != fairness.commitment(key):
            raise LogError(
                f"the key's SHA-256 is {fairness.commitment(key)}, but the commitment shown when the match "
                f"started is {_short(promised)}",
                where=where,
            )
    return check_log(data)


def replay_match(
    record: Mapping[str, Any], *, first_hand: int = 1, where: str = ""
) -> Iterator[dict[str, Any]]:
    """Check one match record hand by hand, yielding each hand record once it checked."""

    def fail(reason: str, hand: int | None = None, move: int | None = None) -> LogError:
        place = where
        if hand is not None:
            place = f"{where + ', ' if where else ''}hand {hand}"
        return LogError(reason, hand=hand, move=move, where=place)

    try:
        match = _new_match(record)
    except Sealed:
        raise
    except (AttributeError, KeyError, TypeError, ValueError) as error:
        raise fail(f"cannot set up the match: {_reason(error)}") from None
    source = "key" if match.sealed else "seed"
    for key, value in (
        ("seat_draw", list(match.seat_of_player)),
        ("dealer_dice", list(match.dealer_dice)),
        ("first_dealer", match.first_dealer),
    ):
        if key in record and record[key] != value:
            raise fail(f"{key} is {record[key]!r}, but the match's {source} gives {value!r}")
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise fail('"hands" must be a list')
    for i, hand in enumerate(hands):
        number = first_hand + i
        if not isinstance(hand, dict):
            raise fail("a hand is an object", number)
        if match.is_over:
            raise fail("the match was already over", number)
        try:
            _check_hand(match, hand, number, fail)
        except LogError:
            raise
        except (
            AttributeError,
            KeyError,
            TypeError,
            ValueError,
            IndexError,
        ) as error:  # a field of the wrong shape
            raise fail(f"malformed hand: {_reason(error)}", number) from None
        yield hand
    for key, value in (("final_scores", list(match.scores)), ("complete", match.is_over)):
        if record.get(key) != value:
            raise fail(f"{key} is {record.get(key)!r}, but the hands give {value!r}")


def _check_hand(match: Match, hand: Mapping[str, Any], number: int, fail: Any) -> None:
    source = "key" if match.sealed else "seed"
    moves = hand.get("moves")
    events = hand.get("events")
    if not isinstance(moves, list) or not isinstance(events, list):
        raise fail('a hand holds "moves" and "events" lists', number)
    left = None
    if events and isinstance(events[-1], dict) and events[-1].get("type") == "abandon":
        left = events[-1].get("seat")
        events = events[:-1]  # not an engine event: it ends the hand after the last move
    by_move: dict[int, list[Any]] = {}
    for e in events:
        k = e.get("move") if isinstance(e, dict) else None
        if type(k) is not int or not 0 <= k <= len(moves):
            raise fail(
                f"an event names no move of this hand: {json.dumps(e, ensure_ascii=False)[:80]}", number
            )
        by_move.setdefault(k, []).append(e)
    game: Game | None = None
    try:
        for step in hand_steps(match.new_hand(), moves, hand=number):
            game = step.game
            if step.number == 0:
                header = hand_header(game)
                for key, value in header.items():
                    got = hand.get(key)
                    if key == "seed" and type(got) is int:
                        got = str(got)  # a seed written as a JSON integer reads the same
                    if got != value:
                        raise fail(
                            f"{key} is {_short(hand.get(key))}, but the match's {source} deals {_short(value)}",
                            number,
                            0,
                        )
            expected = [{"move": step.number, **e} for e in step.events]
            _same_events(by_move.get(step.number, []), expected, number, step, fail)
    except LogError as error:
        raise fail(error.reason, number, error.move) from None
    assert game is not None
    end = hand.get("end")
    if game.is_over:
        result = match.finish_hand(game)  # the switches after its end are the next hand's 代打 seats
        want_end = "win" if result.winner is not None else "draw_game"
    else:
        if end != "abandon" or type(left) is not int or not 0 <= left <= 3:
            raise fail("the moves end before the hand does", number, len(moves))
        abandoned = match.abandon(game, left)
        if abandoned is None:
            raise fail(f"in {match.rules} a player who leaves does not end the hand", number, len(moves))
        result, want_end = abandoned, "abandon"
    if end != want_end:
        raise fail(f"end is {end!r}, but the moves give {want_end!r}", number, len(moves))
    want = _json(result.to_dict())
    got = hand.get("result")
    if got != want:
        diff = [k for k in want if not isinstance(got, dict) or got.get(k) != want[k]] or ["(extra fields)"]
        raise fail(
            f"the result's {', '.join(diff)} differ from the engine's: log {_short(got)}, engine {_short(want)}",
            number,
            len(moves),
        )
    if hand.get("scores") != list(match.scores):
        raise fail(
            f"scores are {hand.get('scores')!r}, but the hand leaves {list(match.scores)!r}",
            number,
            len(moves),
        )


def _same_events(got: list[Any], expected: list[dict[str, Any]], number: int, step: Step, fail: Any) -> None:
    expected = _json(expected)
    if got == expected:
        return
    move = f"{step.move} " if step.move else ""
    for i, (g, e) in enumerate(zip(got, expected, strict=False)):
        if g != e:
            raise fail(
                f"{move}makes {_short(e)}, but the log says {_short(g)} (its event {i + 1})",
                number,
                step.number,
            )
    if len(got) < len(expected):
        raise fail(f"{move}makes {_short(expected[len(got)])}, missing from the log", number, step.number)
    raise fail(f"{move}makes no {_short(got[len(expected)])} (the log has it)", number, step.number)


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value, ensure_ascii=False))


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 160 else text[:157] + "..."


def _reason(error: BaseException) -> str:
    if isinstance(error, KeyError):
        return f"missing {error.args[0]!r}"
    return str(error).splitlines()[0] if str(error) else type(error).__name__


# ---------------------------------------------------------------------- command line


def main(argv: list[str] | None = None) -> int:
    parser = tool_parser("python -m engine.log", __doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser(
        "check", help="replay a log: exit 0 valid, 1 a bad move or result, 2 not a log (or sealed)"
    )
    check.add_argument("file")
    verify = commands.add_parser(
        "verify",
        help="check a finished match's deals against its revealed key: exit 0 fair, 1 not fair "
        "(the first hand that differs), 2 not a log or not finished",
    )
    verify.add_argument("file")
    args = parser.parse_args(argv)
    try:
        with open(args.file, "rb") as handle:
            text = handle.read()
    except OSError as error:
        print(f"error: cannot read {args.file}: {error.strerror or error}", file=sys.stderr)
        return 2
    try:
        data = read_log(text)
    except NotALog as error:
        print(f"error: {args.file} is {error}", file=sys.stderr)
        return 2
    verifying = args.command == "verify"
    try:
        summary = verify_log(data) if verifying else check_log(data)
    except (Sealed, Unverifiable) as error:
        print(f"error: {args.file}: {error}", file=sys.stderr)
        return 2
    except LogError as error:
        print(f"{'not fair' if verifying else 'refused'}: {error}")  # once, on stdout: the verdict
        return 1
    counts = f"{summary.matches} match(es), {summary.hands} hands, {summary.moves} moves"
    if verifying:
        print(f"fair: {counts}: every key matches its commitment, every wall follows from its key, "
              "every move legal, every result matches")
    else:
        print(f"ok: {counts}: every move legal, every result matches")
    return 0


if __name__ == "__main__":
    sys.exit(main())
