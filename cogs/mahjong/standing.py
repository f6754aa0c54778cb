"""Where a player stands, in words for their DM (issue 23): a ready hand's waits with how many of
each are still unseen, on their turn the discards that keep the hand ready and what each would
wait on, and 過水 with what lifts it. The same facts as the hand picture draws (``GameView.waits``)
and the seat's screen (``HandScreen.ready_discards``, table/screens.py); pure formatting, no Discord."""

from __future__ import annotations

from collections.abc import Sequence

from engine.view import GameView
from table.screens import ReadyDiscard, Waits

from ..i18n import t, tile_label


def waits_text(waits: Waits, loc: str) -> str:
    """``三筒 ×3、六筒 ×1`` / ``3 Dot ×3, 6 Dot ×1``: each wait and its unseen copies."""
    return t(loc, "hint.sep").join(t(loc, "hint.wait", tile=tile_label(loc, w), n=n) for w, n in waits)


def standing_lines(
    view: GameView, discards: Sequence[ReadyDiscard], loc: str, *, hints: bool = True
) -> list[str]:
    """The DM's lines under the prompt. ``hints`` False (the table turned them off) keeps only
    過水, which is a rule the player must know about, not advice."""
    lines: list[str] = []
    if view.passed_win:
        lines.append(t(loc, "hint.passed_win"))
    if not hints:
        return lines
    if view.waits and not discards:  # on your turn the discards below say it, drawn tile counted
        unseen = sum(n for _, n in view.waits)
        key = "hint.ready_dead" if unseen == 0 else "hint.ready"
        lines.append(t(loc, key, waits=waits_text(view.waits, loc), total=unseen))
    if discards:
        shown = [
            t(loc, "hint.discard", tile=tile_label(loc, d.tile), waits=waits_text(d.waits, loc))
            for d in discards
        ]
        lines.append(t(loc, "hint.discards") + "\n" + "\n".join(shown[:8]))
    return lines


def marked_tiles(discards: Sequence[ReadyDiscard]) -> frozenset[int]:
    """The discard buttons to mark: the tiles after which the hand is ready."""
    return frozenset(d.tile for d in discards)
