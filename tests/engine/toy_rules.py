"""A toy 13-tile rule set for the seam tests: seven pairs win, the winner deals, every win pays a
flat 底 — registered only inside the tests that use it."""

from engine.forms import is_seven_pairs
from engine.rules import WINNER_DEALS, RuleProfile
from engine.scoring import Reading, RuleSet, ScoreResult, WinContext
from engine.scoring.core import item, standard_readings
from engine.settlement import Payment, SettleContext, Settlement
from engine.tiles import to_counts

PROFILE = RuleProfile(
    id="toy13",
    hand_size=13,
    flowers=False,
    reserve=14,
    reserve_per_kong=1,
    win_forms=("seven_pairs",),
    rotation=WINNER_DEALS,
)


def _readings(ctx: WinContext) -> list[Reading]:
    readings = standard_readings(ctx)
    counts = to_counts((*ctx.concealed, ctx.win_tile))
    if not ctx.melds and is_seven_pairs(counts):
        tiles = (*ctx.concealed, ctx.win_tile)
        readings.append(Reading(pair=ctx.win_tile, sets=(), win_in=-1, wait="single", waits=(), tiles=tiles))
    return readings


RULES = RuleSet(
    name="toy13",
    unit="fan",
    items=(
        item("胡", 1, lambda h, c: 1),
        item("七對", 2, lambda h, c: not h.sets),
    ),
    hand_size=13,
    readings=_readings,
)


def settle(result: ScoreResult, ctx: SettleContext) -> Settlement:
    """Every other seat (self-draw) or the discarder pays 底 × the hand's 番."""
    payers = [ctx.discarder] if ctx.discarder is not None else [s for s in range(4) if s != ctx.winner]
    amount = ctx.options.base * result.total
    payments = tuple(Payment(p, ctx.winner, result.total, amount, "win") for p in payers)
    deltas = [0, 0, 0, 0]
    for p in payments:
        deltas[p.payer] -= p.amount
        deltas[p.payee] += p.amount
    return Settlement((deltas[0], deltas[1], deltas[2], deltas[3]), payments, result.items)


def settle_draw(ctx: SettleContext) -> Settlement:
    """At a draw game every kong still pays: each other seat pays its owner one 底 per kong."""
    deltas = [0, 0, 0, 0]
    payments = []
    for owner, kongs in enumerate(ctx.kong_counts()):
        for payer in (s for s in range(4) if s != owner):
            if kongs:
                payments.append(Payment(payer, owner, 0, ctx.options.base * kongs, "kong"))
                deltas[payer] -= ctx.options.base * kongs
                deltas[owner] += ctx.options.base * kongs
    return Settlement((deltas[0], deltas[1], deltas[2], deltas[3]), tuple(payments))
