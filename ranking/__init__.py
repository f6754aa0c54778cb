"""Ranked play and the numbers players compare, as pure functions: placements, ratings and tiers,
and the settlement ledger. No I/O: ``data.Store`` calls these when a match ends and when it
recomputes history, the cogs call them to show the results."""
