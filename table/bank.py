"""The time bank (issue 39): each decision has its base time (the table's turn or claim seconds), and each
person a bank of seconds for the whole match that runs only once a decision's base is spent. Pure: how
long a decision may take, and how much of the bank an answer used.

A table with a 5 s turn and a 20 s bank: a person who answers within 5 s keeps all 20; one who takes 12 s
has 13 left; one whose clock runs out has spent the whole bank, and from then on each decision has 5 s.

    >>> allowance(5.0, 20.0)
    25.0
    >>> drained(20.0, base_end=100.0, answered=107.0)
    13.0
    >>> drained(20.0, base_end=100.0, answered=99.0)
    20.0
    >>> drained(3.0, base_end=100.0, answered=130.0)
    0.0
"""

from __future__ import annotations

# the bank of a 玩家桌, as its host chooses at /mahjong create (0: no bank, the clock is the base alone)
BANK_SECONDS = (0, 10, 20, 30, 60)
# a 系統桌 keeps the documents' times (系統桌皆為5秒, the rule set's claim seconds) and adds a small bank per
# match, so that one slow moment (a phone call, a look at the channel) does not cost a whole turn
SYSTEM_BANK = 10


def allowance(base: float, left: float) -> float:
    """The most a decision may take: its base, then what is left of the person's bank."""
    return base + max(0.0, left)


def drained(left: float, *, base_end: float, answered: float) -> float:
    """The bank left once a decision whose base ran out at ``base_end`` was answered at ``answered``
    (a timeout answers at the deadline: the whole bank spent)."""
    return max(0.0, left - max(0.0, answered - base_end))
