"""A simulated person who plays to win (the sandbox's person): wins whenever the bot offers it,
declares 聽 whenever the rule set offers it, claims 吃 / 碰 / 槓 when the claim brings the hand
closer, and answers the 換牌 select.

It decides only from what the person sees on their prompt: the buttons (each custom id carries its
decision point and action code, read with the bot's own grammar, table/ids.py and table/codes.py,
as a client reads what it is sent), the 換牌 select's options (one per tile of the hand), and the
picture of their hand — handed over by ``see`` as the engine view that
picture is drawn from (their own tiles and the public table, never another seat's hidden tiles or
the wall). The choices themselves are the engine's: the easy AI's discards and claims (shanten
first), its 換牌 choice, and for 聽 the discard that leaves the most unseen winning tiles.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from engine import analysis
from engine.actions import Action, Kind
from engine.ai import SimpleAI
from engine.ai.table import own_counts, unseen_counts
from engine.tiles import NotationError, tile_from_str
from engine.view import GameView
from table import ids
from table.codes import to_action

from .people import Answer, Pick, act_of, code_of, steady
from .recorder import Button, Message, Select

EXCHANGE_MAX = 3

See = Callable[[Message], GameView | None]


def action_of(button: Button) -> Action | None:
    """The engine action an action button stands for (None for any other button)."""
    act = act_of(button)
    if act is None:
        return None
    try:
        return to_action(act.point.seat, act.code)
    except NotationError:
        return None


def mode_button(message: Message, mode: str) -> Button | None:
    """The live button that switches the prompt to ``mode`` (``ready``: the 聽 discards)."""
    for b in message.buttons():
        switch = ids.SwitchMode.from_custom_id(b.custom_id or "")
        if switch is not None and switch.mode == mode and not b.disabled:
            return b
    return None


def exchange_select(message: Message) -> Select | None:
    return next(
        (s for s in message.selects() if ids.Exchange.from_custom_id(s.custom_id) is not None and not s.disabled), None
    )


class PlaysToWin:
    """A ``Choice`` for :class:`~devserver.people.Person`. ``see(message)`` is what the hand picture in
    ``message`` shows, None for a prompt gone stale (left alone: the bot sends its fresh version). A
    picture that does not show the tiles the buttons discard would be a bug: the person then plays
    ``steady`` and counts it in ``blind``."""

    def __init__(self, see: See) -> None:
        self.see = see
        self.brain = SimpleAI()
        self.blind = 0  # prompts answered without a picture that matches the buttons
        self.stale = 0  # prompts left alone because a newer decision had replaced them

    def __call__(self, message: Message, buttons: list[Button]) -> Answer | None:
        view = self.see(message)
        if view is None:
            self.stale += 1
            return None  # a prompt gone stale: its fresh version follows
        for b in buttons:
            if code_of(b) == "w":
                return b  # 胡 / 自摸 whenever offered
        if not self._matches(view, buttons):
            self.blind += 1
            return steady(message, buttons)
        select = exchange_select(message)
        if select is not None:
            return self._exchange(view, select, buttons)
        readies = [b for b in buttons if code_of(b).startswith("r")]
        if readies:
            return self._best_ready(view, readies)
        declare = mode_button(message, "ready")
        if declare is not None:
            return declare  # 聽: the discards that keep the hand ready are one click further
        legal = [(a, b) for b in buttons if (a := action_of(b)) is not None]
        legal.sort(key=lambda pair: pair[0].kind is Kind.PASS)  # the engine's order: 過 last
        chosen = self.brain.choose(view, [a for a, _ in legal])
        return next(b for a, b in legal if a == chosen)

    @staticmethod
    def _matches(view: GameView, buttons: list[Button]) -> bool:
        """The picture is of this prompt: every tile a button discards is in the hand it shows."""
        hand = set(view.concealed) | ({view.drawn} if view.drawn is not None else set())
        actions = [action_of(b) for b in buttons]
        return all(
            a is not None and (a.kind not in (Kind.DISCARD, Kind.READY) or a.tile in hand) for a in actions
        )

    @staticmethod
    def _best_ready(view: GameView, readies: list[Button]) -> Button:
        """The 聽 discard that leaves the most winning tiles the person has not seen."""
        own = own_counts(view)
        unseen = unseen_counts(view, own)

        def live_waits(button: Button) -> int:
            action = action_of(button)
            assert action is not None and action.tile is not None
            own[action.tile] -= 1
            try:
                return sum(unseen[w] for w in analysis.waits(own))
            finally:
                own[action.tile] += 1

        return max(readies, key=live_waits)  # the first of equals: hand order

    def _exchange(self, view: GameView, select: Select, buttons: list[Button]) -> Answer:
        """換牌: the engine's choice among every give-back the select allows (up to three tiles)."""
        exchange = ids.Exchange.from_custom_id(select.custom_id)
        assert exchange is not None  # exchange_select found it
        seat = exchange.point.seat
        tiles = sorted(_tile_of(v) for v in select.values)
        most = min(EXCHANGE_MAX, select.max_values)
        legal = [
            Action(seat, Kind.EXCHANGE, None, c)
            for c in sorted({c for n in range(most + 1) for c in combinations(tiles, n)}, key=lambda c: (len(c), c))
        ]
        chosen = self.brain.choose(view, legal)
        if not chosen.tiles:
            return next((b for b in buttons if code_of(b) == "h"), buttons[0])  # keep my hand
        values: list[str] = []
        for tile in chosen.tiles:  # each copy is its own option: 5m.0, 5m.1
            values.append(next(v for v in select.values if v not in values and _tile_of(v) == tile))
        return Pick(select, tuple(values))


def _tile_of(value: str) -> int:
    return tile_from_str(value.partition(".")[0])
