"""Helpers: write hands in tile notation, get the scored items back as a name -> 台 dict."""

from __future__ import annotations

from engine.meld import parse_melds
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
