"""Helpers: write hands in tile notation, get the scored items back as a name -> 台 dict."""

from __future__ import annotations

from hypothesis import assume
from hypothesis import strategies as st

from engine.meld import Meld, MeldKind, parse_melds
from engine.scoring import ScoreResult, TableOptions, WinContext, score_win
from engine.tiles import parse_tiles, tile_from_str, wind_index


def ctx(
    concealed: str,
    win: str | None,
    melds: str | list[str] = (),
    flowers: str = "",
    *,
    seat: str = "E",
    round: str = "E",
    options: TableOptions | None = None,
    **flags: object,
) -> WinContext:
    return WinContext(
        concealed=tuple(parse_tiles(concealed)),
        melds=tuple(parse_melds(list(melds) if not isinstance(melds, str) else melds)),
        flowers=tuple(parse_tiles(flowers)),
        win_tile=tile_from_str(win) if win else None,
        seat_wind=wind_index(seat),
        round_wind=wind_index(round),
        options=options or TableOptions(),
        **flags,  # type: ignore[arg-type]
    )


def score(
    concealed: str, win: str | None, melds: str | list[str] = (), flowers: str = "", **kw: object
) -> ScoreResult:
    return score_win(ctx(concealed, win, melds, flowers, **kw))  # type: ignore[arg-type]


def items(
    concealed: str, win: str | None, melds: str | list[str] = (), flowers: str = "", **kw: object
) -> dict[str, int]:
    result = score(concealed, win, melds, flowers, **kw)
    assert result.valid, result.reason
    return {i.name: i.value for i in result.items}


# ---------------------------------------------------------------- random hands for property tests

SET_SPECS = st.one_of(
    st.tuples(st.just("pon"), st.integers(0, 33)),
    st.tuples(st.just("chi"), st.integers(0, 26).filter(lambda x: x % 9 <= 6)),
)


@st.composite
def sets_and_a_pair(draw, sets_count: int, *, kongs: bool = True) -> tuple[list[int], list[Meld]]:
    """A complete hand of ``sets_count`` sets and a pair, each set left in hand or declared (a
    declared pung sometimes a kong of any kind): ``(concealed tiles with the pair, melds)``."""
    counts = [0] * 34
    sets = draw(st.lists(SET_SPECS, min_size=sets_count, max_size=sets_count))
    for kind, t in sets:
        for x in (t, t, t) if kind == "pon" else (t, t + 1, t + 2):
            counts[x] += 1
    assume(max(counts) <= 4)
    pair = draw(st.integers(0, 33).filter(lambda x: counts[x] <= 2))
    concealed, melds = [pair, pair], []
    for kind, t in sets:
        if draw(st.sampled_from(["hand", "hand", "meld"])) == "meld":
            if kind == "chi":
                melds.append(Meld(MeldKind.CHI, (t, t + 1, t + 2), t))
            elif kongs and counts[t] == 3 and draw(st.booleans()):
                counts[t] += 1
                kind_of_kong = draw(st.sampled_from([MeldKind.KONG, MeldKind.ADDKONG, MeldKind.ANKONG]))
                melds.append(Meld(kind_of_kong, (t,) * 4, None if kind_of_kong is MeldKind.ANKONG else t))
            else:
                melds.append(Meld(MeldKind.PON, (t,) * 3, t))
        else:
            concealed.extend([t, t, t] if kind == "pon" else [t, t + 1, t + 2])
    return concealed, melds
