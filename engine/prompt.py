"""A seat's decision point as one value, as libriichi's ``ActionCandidate`` is: what the seat is
asked now, what it may answer, and the facts a message, a button row or an AI needs to put the
question (the claimed tile and its discarder, 聽 and its waits, 眼牌/Miji, which clock runs).

    >>> from engine.game import Game
    >>> game = Game("taiwan16", seed=7)
    >>> p = game.prompt(game.turn)
    >>> p.kind, p.timer, list(p.legal) == game.legal_actions(game.turn)
    (<Ask.DISCARD: 'discard'>, <Timer.TURN: 'turn'>, True)
    >>> other = game.prompt((game.turn + 1) % 4)  # no decision, but 眼牌 in its Miji window
    >>> other.kind, other.miji, other.timer
    (<Ask.DECLARE: 'declare'>, True, <Timer.TURN: 'turn'>)

Built from what the game already holds (its cached legal actions, the open claim, the 聽 waits
stored at the declaration): asking for a prompt scores nothing that ``legal_actions`` did not.
Texts, buttons and AIs read a :class:`Prompt` and a :class:`~engine.view.GameView`, never the
game's fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from .actions import Action, Kind
from .events import Phase
from .scoring.core import ScoreItem, WinContext

if TYPE_CHECKING:
    from .game import Game

CLAIM_PHASES = (Phase.CLAIM, Phase.ROB_KONG)  # a discard (or an added kong's tile) may be claimed


class Ask(StrEnum):
    """What a seat is asked now."""

    DISCARD = "discard"  # its own turn: discard (or 自摸, a kong, 聽)
    CLAIM = "claim"  # another seat's discard: 吃 碰 槓 胡 or 過
    ROB_KONG = "rob_kong"  # a tile added to a kong: 搶槓 (胡) or 過
    EXCHANGE = "exchange"  # 換牌: 0-3 tiles to give back
    FLOWER_WIN = "flower_win"  # a flower win (八仙過海 / 七搶一 / 大花胡) to call (胡) or decline (過)
    DECLARE = "declare"  # no decision owed, but 眼牌 / Miji may be declared now
    NONE = "none"  # nothing to answer (another seat's decision, or the hand is over)


class Timer(StrEnum):
    """Which of the table's clocks runs at this decision point (TableOptions.turn_seconds /
    claim_seconds); 換牌 runs on a turn's time."""

    TURN = "turn"
    CLAIM = "claim"


_ASKED = {
    Phase.TURN: Ask.DISCARD,
    Phase.CLAIM: Ask.CLAIM,
    Phase.ROB_KONG: Ask.ROB_KONG,
    Phase.EXCHANGE: Ask.EXCHANGE,
    Phase.FLOWER_WIN: Ask.FLOWER_WIN,
}
_TIMER = {
    Phase.TURN: Timer.TURN,
    Phase.EXCHANGE: Timer.TURN,
    Phase.FLOWER_WIN: Timer.TURN,
    Phase.CLAIM: Timer.CLAIM,
    Phase.ROB_KONG: Timer.CLAIM,
}


@dataclass(frozen=True, slots=True)
class Prompt:
    """One seat's decision point. ``legal`` are the very actions :meth:`Game.legal_actions` lists
    (apply one as it is); ``declarations`` what :meth:`Game.declarations` offers besides them.
    ``claim_tile`` / ``discarder`` are set while a claim window is open (for every seat: the table
    shows whose tile it is); ``flower_win`` names the flower win on offer (八仙過海 …) while its
    winner may call or decline it; ``waits`` are the tiles a declared 聽 waits on. ``timer`` is the clock
    of the table's decision point (None once the hand is over). At 換牌 ``legal`` lists every
    choice of 0-3 tiles, hundreds of them (a few ms): a caller that only draws the choice reads
    the seat's view instead."""

    seat: int
    kind: Ask
    phase: Phase
    legal: tuple[Action, ...] = ()
    declarations: tuple[Action, ...] = ()
    claim_tile: int | None = None
    discarder: int | None = None
    ready: bool = False  # declared 聽
    waits: tuple[int, ...] = ()
    auto: bool = False  # 代打 plays the seat: the caller answers with Game.auto_action
    timer: Timer | None = None
    flower_win: str | None = None
    # what a 聽 declared at this decision adds to a win at this table (聽牌 1, 天聽 8 …), as the
    # scorer counts it; () where 聽 is not offered or scores nothing (document 000's default)
    ready_items: tuple[ScoreItem, ...] = ()

    @property
    def owes(self) -> bool:
        """The seat must answer before the game goes on."""
        return bool(self.legal)

    @property
    def self_draw(self) -> bool:
        """A 胡 here is 自摸 (the seat's own turn), not a win on another's tile."""
        return self.kind is Ask.DISCARD

    @property
    def miji(self) -> bool:
        """The 眼牌 on offer is declared in the Miji window."""
        return any(a.kind is Kind.MIJI for a in self.declarations)


def build_prompt(game: Game, seat: int) -> Prompt:
    """``seat``'s prompt in ``game`` (see :meth:`Game.prompt`)."""
    phase = game.phase
    legal = tuple(game.legal_actions(seat))
    declarations = tuple(game.declarations(seat))
    if legal:
        kind = _ASKED[phase]
    else:
        kind = Ask.DECLARE if declarations else Ask.NONE
    claim = game.claim
    tile, discarder = (claim.tile, claim.discarder) if claim is not None and phase in CLAIM_PHASES else (None, None)
    ready = game.ready[seat]
    offer = game.flower_offer if phase is Phase.FLOWER_WIN else None
    return Prompt(
        seat,
        kind,
        phase,
        legal,
        declarations,
        tile,
        discarder,
        ready,
        game.ready_waits[seat] if ready else (),
        game.auto[seat],
        _TIMER.get(phase),
        offer.flower_win if offer is not None else None,
        _ready_items(game, seat, legal),
    )


def _ready_items(game: Game, seat: int, legal: tuple[Action, ...]) -> tuple[ScoreItem, ...]:
    """What 聽 would score if declared now (engine.scoring.ready_items), for the confirmation."""
    if not any(a.kind is Kind.READY for a in legal):
        return ()
    from .scoring import get_rules, ready_items

    ctx = WinContext(
        declared_ready=True,
        heavenly_ready=game.first_go[seat] and not game.claims_made,  # as Game._discard records it
        dealer=seat == game.dealer,
        options=game.options,
    )
    return ready_items(get_rules(game.profile.id), ctx)
