"""The words of a table at play — the channel's status line, a seat's question, a hand's result, a
眼牌 declarer's view of the other hands — built from views, prompts and results (never the game
itself) and the seat names, in one reader's language.
Pure formatting: no Discord objects and no I/O, so each is tested on its own."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine.events import Phase
from engine.house_rules import HouseRules
from engine.rules import RuleProfile
from engine.tiles import format_tiles
from engine.view import GameView, HandResult
from table.screens import Ask, Prompt

from ..i18n import item_name, t, tile_label, tile_words


def table_text(view: GameView, names: Sequence[str], loc: str, deadline: str, notes: Sequence[str] = ()) -> str:
    """The table message from the public view: round, hand, tiles left, whose decision it is and
    until when, the last notes."""
    if view.phase is Phase.OVER:
        status = t(loc, "play.status_over")
    elif view.phase is Phase.EXCHANGE:
        status = t(loc, "play.status_exchange", deadline=deadline)
    elif view.flower_offer is not None:  # a flower win its winner may call or decline
        seat, win = view.flower_offer
        status = t(loc, "play.status_flower", name=names[seat], win=win, deadline=deadline)
    elif view.offer is not None:  # a claim window: the tile on offer and whose it is
        discarder, tile = view.offer
        status = t(loc, "play.status_claim", tile=tile_label(loc, tile), name=names[discarder], deadline=deadline)
    else:
        status = t(loc, "play.status_turn", name=names[view.turn], deadline=deadline)
    streak = t(loc, "play.streak", n=view.dealer_streak) if view.dealer_streak else ""
    text = t(
        loc,
        "play.table",
        # East round in English, as the picture says it; 東風圈 in zh-TW, 东风圈 in zh-CN
        round=t(loc, f"wind.{view.round_wind}"),
        n=view.hand_number,
        streak=streak,
        tiles=view.wall_remaining,
        status=status,
    )
    if notes:
        text += "\n" + "\n".join(notes[-3:])
    return text


def prompt_line(
    prompt: Prompt, names: Sequence[str], loc: str, deadline: str, mode: str = "main", unit: str = "tai"
) -> str:
    """What a seat owing a decision is asked, in its DM: its turn (ready or not; in the 聽 mode,
    what 聽 costs and what this table pays for it, since choosing the tile is the confirmation), the
    tile it may claim or rob and whose it is, or the flower win it may call or decline. ValueError for
    a prompt that asks neither (換牌 and waiting have their own)."""
    if prompt.kind is Ask.DISCARD:
        key = "play.dm_ready_pick" if mode == "ready" else "play.dm_turn_ready" if prompt.ready else "play.dm_turn"
        line = t(loc, key, deadline=deadline)
        if mode == "ready":
            line += "\n" + t(loc, "play.ready_cost", pays=ready_pays(prompt, loc, unit))
        return line
    if prompt.kind is Ask.FLOWER_WIN and prompt.flower_win is not None:
        return t(loc, "play.dm_flower_win", win=prompt.flower_win, deadline=deadline)
    if prompt.kind in (Ask.CLAIM, Ask.ROB_KONG) and prompt.claim_tile is not None and prompt.discarder is not None:
        key = "play.dm_rob" if prompt.kind is Ask.ROB_KONG else "play.dm_claim"
        return t(loc, key, name=names[prompt.discarder], tile=tile_label(loc, prompt.claim_tile), deadline=deadline)
    raise ValueError(f"seat {prompt.seat} is asked {prompt.kind.value}: no turn or claim line")


def house_rules_text(house: HouseRules, loc: str) -> str:
    """A table's house rules as one line in the reader's language and script: the preset's name (or
    custom) and the switches that are on, as players write them ("常見：天胡 24 · 地胡 16"); "" at a
    document table."""
    if house.is_document:
        return ""
    preset = house.preset_name()
    name = t(loc, f"houseline.preset.{preset}") if preset else t(loc, "houseline.custom")
    items = t(loc, "houseline.sep").join(item_name(loc, part) for part in house.describe())
    return t(loc, "houseline.rules", preset=name, items=items)


def ready_pays(prompt: Prompt, loc: str, unit: str) -> str:
    """What 聽 declared now adds to a win at this table, from the engine's count (``Prompt.ready_items``:
    the table's house rules, a first-discard 天聽 or 地聽), or that it adds nothing (document 000)."""
    if not prompt.ready_items:
        return t(loc, "play.ready_free")
    unit_word = t(loc, f"unit.{unit}")
    items = t(loc, "hint.sep").join(
        t(loc, "play.ready_item", item=item_name(loc, i.name), value=i.value, unit=unit_word) for i in prompt.ready_items
    )
    return t(loc, "play.ready_pays", items=items)


class SeatDraw(Protocol):
    """抓位 and 起莊 as the match drew them (an ``engine.match.Match`` has these): who sits which wind, the
    dealer, the dice that chose the first one."""

    @property
    def profile(self) -> RuleProfile: ...
    @property
    def dealer(self) -> int: ...
    @property
    def first_dealer(self) -> int: ...
    @property
    def dealer_dice(self) -> tuple[int, ...]: ...
    def seat_wind(self, seat: int) -> int: ...


def seat_lines(match: SeatDraw, names: Sequence[str], loc: str) -> str:
    """抓位 as the table picture shows it: each person with their wind in the first hand, from the
    dealer (East) round the table, the dealer marked; the same facts as the picture (Match.seat_wind)."""
    order = sorted(range(4), key=match.seat_wind)
    return "\n".join(
        t(
            loc,
            "play.seat_line",
            wind=t(loc, f"wind.{match.seat_wind(seat)}")
            + (" " + t(loc, "play.dealer_tag") if seat == match.dealer else ""),
            name=names[seat],
        )
        for seat in order
    )


def seat_draw_text(match: SeatDraw, names: Sequence[str], loc: str, commitment: str | None) -> str:
    """The match's first message: 抓位, who deals first (the dice, or taiwan13's host), and the
    commitment to the deals (engine.fairness) that the key revealed at the end must match."""
    dealer = names[match.first_dealer]
    if match.profile.host_deals_first:
        first = t(loc, "play.host_deals", name=dealer)
    else:
        dice = match.dealer_dice
        first = t(loc, "play.dice", dice=" ".join(map(str, dice)), total=sum(dice), name=dealer)
    lines = [t(loc, "play.seat_draw", lines=seat_lines(match, names, loc)), first]
    if commitment is not None:
        lines.append(t(loc, "play.commitment", hash=commitment))
    return "\n".join(lines)


def key_text(key: str, table_id: int, loc: str) -> str:
    """The revealed key beside the standings, and how to check the deals with it."""
    return t(loc, "play.key_reveal", secret=key, table=table_id)


def result_text(
    result: HandResult, number: int, names: Sequence[str], scores: Sequence[int], loc: str
) -> str:
    """A hand's outcome beside its score sheet: who won what, the points settled beside the hand
    (guangdong's kongs and 买马, each naming its seat), and every seat's change and new score."""
    if result.winner is None:
        head = t(loc, "play.hand_draw", n=number)
    else:
        key = "play.hand_self_draw" if result.self_drawn else "play.hand_win"
        unit = t(loc, f"unit.{result.unit}")
        total = f"{result.total}"
        if result.capped_total is not None:
            total += t(loc, "play.cap_paren", note=t(loc, "play.cap_note", paid=result.capped_total))
        tile = "—" if result.win_tile is None else tile_label(loc, result.win_tile)  # a flower win has none
        head = t(loc, key, winner=names[result.winner], n=number, total=total, unit=unit, tile=tile)
    extras = [
        t(loc, "play.extra_line", item=tile_words(loc, e.name), who="" if e.seat is None else t(loc, "play.extra_who", name=names[e.seat]), value=e.value)
        for e in result.extras
    ]
    deltas = [
        t(loc, "play.delta_line", name=names[s], delta=result.deltas[s], score=scores[s]) for s in range(4)
    ]
    return "\n".join([head, *extras, *deltas])


def others_text(view: GameView, names: Sequence[str], loc: str) -> str:
    """眼牌: the other hands in the declarer's own DM, named (the image shows them by seat wind)."""
    if not view.others:
        return ""
    return t(loc, "play.dm_others") + "".join(
        "\n" + t(loc, "play.dm_other_line", name=names[s], tiles=format_tiles(tiles))
        for s, tiles in sorted(view.others.items())
    )


def win_moment(result: HandResult | None, names: Sequence[str], loc: str) -> str:
    """The 胡 moment for every DM, even where the table won for the player (不可過水): who, on
    which tile, who dealt it in (or 自摸), for how much ("" for a draw game or before any result)."""
    if result is None or result.winner is None:
        return ""
    key = "moment.win" if result.loser is not None else "moment.self_draw"
    tile = "—" if result.win_tile is None else tile_label(loc, result.win_tile)
    total = result.total if result.capped_total is None else result.capped_total
    loser = names[result.loser] if result.loser is not None else ""
    unit = t(loc, f"unit.{result.unit}")
    return t(loc, key, name=names[result.winner], tile=tile, loser=loser, total=total, unit=unit)
