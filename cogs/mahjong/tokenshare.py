"""Each live process's share of the bot token's global request limit, by the tables it runs.

Discord's global limit (50 requests a second) belongs to the token, whichever process sends. Split
evenly, a process that runs no table (shard 0's, say, which only hears DM clicks; their answers are
outside the limit) sat on half of it while the one running every table got the other half: at 100
tables that process's table pictures waited 14 s at the median for a token, and a finished hand's last
picture, which the next deal waits for, up to 10 s (bench.cluster, issue 41). So a process's share
follows the tables it runs, with ``BASE`` tables added to each so that an idle process can still open
a table at once.

The shares come from one snapshot of the leases, so they sum to one; but each process reads its own
snapshot at its own renewal. When tables move from one process to another, the one gaining them may read
the move before the one losing them, and both would send at the larger share for a moment, past the
token's limit. A share that rises therefore rises one renewal late (by then the other process has read
the move too) unless a process left, whose share nobody is using any more.

>>> share = TokenShare()
>>> share.update("a", {"a": 0, "b": 100})  # a runs nothing: a small share, not half
0.045
>>> round(share.update("a", {"a": 100, "b": 0}), 3)  # the tables moved here: not yet...
0.045
>>> round(share.update("a", {"a": 100, "b": 0}), 3)  # ...one renewal later
0.955
>>> round(share.update("a", {"a": 100}), 3)  # b died: its share is free at once
1.0
"""

from __future__ import annotations

from collections.abc import Mapping

BASE = 5  # tables every process counts beyond its own: an idle process's share to open a table with


def token_share(me: str, tables: Mapping[str, int]) -> float:
    """``me``'s fraction of the token, given each live process's number of tables (``me`` among them)."""
    loads = dict(tables)
    loads.setdefault(me, 0)
    total = sum(loads.values()) + BASE * len(loads)
    return round((loads[me] + BASE) / total, 3)


class TokenShare:
    """A process's share, renewal after renewal (see the module's docstring for why a rise waits one)."""

    def __init__(self) -> None:
        self.share = 1.0  # alone until the first look at the leases
        self.wanted = 1.0  # the share the last snapshot gave
        self.peers: frozenset[str] = frozenset()

    def update(self, me: str, tables: Mapping[str, int]) -> float:
        wanted = token_share(me, tables)
        peers = frozenset(tables) - {me}
        someone_left = bool(self.peers - peers)
        if wanted <= self.share or someone_left:
            self.share = wanted
        else:
            self.share = min(wanted, self.wanted)  # a rise, as the last snapshot too said it
        self.wanted, self.peers = wanted, peers
        return self.share
