"""How a table paces itself. One clock for everything (seconds since the epoch, passed in by the host),
so deadlines, AI pacing, the pause between hands and probes compare like with like."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Timing:
    """The bot's pacing; tests shrink everything. A table's own pace option scales ``ai_delay``."""

    ai_delay: float = 0.8  # between AI discards, so people can follow the table
    hand_pause: float = 4.0  # between the score sheet and the next hand
    # at most one edit per message per interval (Discord rate-limits edits): the table picture merges about
    # four moves an edit, since each person's DM already lists every move since their last prompt (issue 30)
    edit_interval: float = 3.0
    timer_scale: float = 1.0  # multiplies the table's turn and claim seconds
    pause_limit: float = 600.0  # a table paused because everyone is away ends after this long
    permission_probe: float = 30.0  # a table that lost a channel permission tries to post again this often
    repost_interval: float = 5.0  # a deleted table message is posted afresh, at most this often
    # a prompt delivered later than this after its decision point opened restarts that decision's clock
    # from its delivery (issue 21: the clock starts when the person can act)
    delivery_grace: float = 1.0
    # a deadline does not fire while someone's prompt is still on its way, for at most this long past it
    delivery_cap: float = 30.0
    # while a prompt is on its way past its deadline, look again this often
    delivery_poll: float = 0.25
    # a person who has not acted this long after their prompt reached them gets a new DM that notifies
    # (issue 39: Discord notifies new messages, never edits); table/nudge.py says when exactly
    nudge_after: float = 3.0
    # deal no hand once this many are played: the table stays idle (a benchmark counts those hands' cost)
    hands: int | None = None
