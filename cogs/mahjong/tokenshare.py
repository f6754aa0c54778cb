"""Each live process's share of the bot token's global request limit, by the tables it runs.

Discord's global limit (50 requests a second) belongs to the token, whichever process sends. Split
evenly, a process that runs no table (shard 0's, say, which only hears DM clicks; their answers are
outside the limit) sat on half of it while the one running every table got the other half: at 100
tables that process's table pictures waited 14 s at the median for a token, and a finished hand's last
picture, which the next deal waits for, up to 10 s (bench.cluster, issue 41). So a process's share
follows the tables it runs, with ``BASE`` tables added to each so that an idle process can still open
a table at once.

The shares come from one snapshot of the leases, so they sum to one. Each process reads its own snapshot
at its own renewal, so when tables move between two live processes the one gaining them could read the
move before the one losing them has lowered its share: a process that hands tables over reads its share
afresh before it tells the other (ownership.py), and one that takes a dead process's tables over reads it
at once, that process's share being nobody's any more.

>>> token_share("shard0", {"shard0": 0, "owner": 100})  # runs nothing: a small share, not half
0.045
>>> token_share("owner", {"shard0": 0, "owner": 100})
0.955
>>> token_share("owner", {"owner": 100})  # alone
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
