"""Ranked play and the numbers players compare, as pure functions: placements, ratings and tiers,
and the settlement ledger. No I/O: ``data.Store`` calls these when a match ends and when it
recomputes history, the cogs call them to show the results."""

# how a table is ranked, chosen at /mahjong create. casual (the default): ratings never move. rated: a match
# of four people moves them (Start refuses while a seat is empty or an AI's). rated_ai: the host said AI
# seats count, each at its level's fixed rating (ranking.rating.AI_RATINGS), never updated itself.
RANKINGS = ("casual", "rated", "rated_ai")


def is_rated(ranking: str, people: int, seats: int = 4) -> bool:
    """Whether a finished match of ``people`` persons in ``seats`` seats moves ratings.

    >>> is_rated("rated", 4), is_rated("rated", 3), is_rated("rated_ai", 1), is_rated("casual", 4)
    (True, False, True, False)
    """
    if seats != 4 or people < 1:
        return False
    return ranking == "rated_ai" or (ranking == "rated" and people == seats)
