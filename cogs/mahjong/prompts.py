"""Components and texts built from state every time (views never hold state): the lobby, a player's
prompt (their legal actions as buttons), and the table message's text.

Discord's limits shape the prompt: at most 5 rows of 5 buttons. Discards take rows 0-3 (a 16-tile hand
has at most 17 distinct tiles), row 4 holds 胡 / 槓 / 聽 / 過. 聽 (discard and declare) has a button
per tile that keeps the hand ready, so it lives in its own mode, reached with the 聽… button.
換牌 is a select of the hand's tiles (choosing is confirming) and a keep-my-hand button. 眼牌 (Miji
in its window) is a table button, not tied to a decision point: it may be declared at any time.
"""

from __future__ import annotations

import discord

from engine.actions import Action, Kind
from engine.rules import get_profile
from engine.rulesets import get as rule_set
from engine.tiles import sort_key, tile_to_str
from engine.view import GameView
from table.codes import code_of
from table.ids import TOGGLE_OPS, LobbyOp, Mode, TableOp
from table.lobby import TablePhase, TableState
from table.screens import LobbyScreen, Prompt
from table.toggles import NAMES, Toggles

from ..i18n import LEVEL_NAMES, item_name, locale_of, run_label, t, tile_label
from .buttons import ActButton, ExchangeSelect, LobbyButton, ModeButton, TableButton
from .replay_buttons import WatchButton
from .system import SYSTEM_TURN
from .texts import house_rules_text

ROW_WIDTH = 5
DISCARD_ROWS = 4
Style = discord.ButtonStyle


def deadline_text(locale: str, deadline: float | None, base: float | None = None, bank: float | None = None) -> str:
    """ · ends in 12 seconds — a Discord timestamp the client counts down itself (never a per-second edit);
    at a table with a time bank, the base and what is left of the bank beside it (table/bank.py)."""
    if deadline is None:
        return ""
    text = " · " + t(locale, "play.deadline", ts=int(deadline + 0.999))
    if bank is not None and base is not None:
        text += " " + t(locale, "prefs.bank_line", base=round(base), bank=int(bank))
    return text


def toggles_line(toggles: Toggles, locale: str) -> str:
    """The auto toggles that are on, as the DM says them ("" when none is)."""
    on = [t(locale, f"prefs.{name}") for name in NAMES if getattr(toggles, name)]
    return t(locale, "prefs.on_line", toggles=" · ".join(on)) if on else ""


def add_toggle_buttons(view: discord.ui.View | None, table: int, toggles: Toggles, locale: str) -> discord.ui.View:
    """The three auto toggles (auto-win, no calls, 摸切), each on a row with room that holds no discard and
    no select, from the bottom up; a toggle that finds no room is left off (/mahjong settings has it)."""
    view = view or discord.ui.View(timeout=None)
    tiles: set[int] = getattr(view, "discard_rows", set())
    for op, name in TOGGLE_OPS.items():
        used = [sum(1 for item in view.children if item.row == row) for row in range(5)]
        selects = {item.row for item in view.children if isinstance(item, discord.ui.Select)}
        row = next((r for r in (4, 3, 2, 1) if used[r] < ROW_WIDTH and r not in selects | tiles), None)
        if row is None:
            break
        on = getattr(toggles, name)
        label = ("✅ " if on else "⬜ ") + t(locale, f"prefs.{name}")
        button = TableButton.make(table, op, label, Style.success if on else Style.secondary)
        button.row = row
        view.add_item(button)
    return view


# ---------------------------------------------------------------- lobby


def lobby_embed(lobby: LobbyScreen, locale: str, host_name: str) -> discord.Embed:
    s = lobby.settings
    system = lobby.kind == "system"
    title = t(locale, "lobby.system_title" if system else "lobby.title", rules=t(locale, f"rules.{s.rules}"))
    lines = []
    for i in range(4):
        if i < len(lobby.seats):
            seat = lobby.seats[i]
            if seat.is_ai:
                level = LEVEL_NAMES.get(seat.ai_level or "", {}).get(locale_of(locale), seat.ai_level)
                name = t(locale, "lobby.ai_seat", name=f"{seat.name} · {level}")
            else:
                name = discord.utils.escape_markdown(seat.name)
        else:
            name = t(locale, "lobby.empty")
        lines.append(f"{i + 1}. {name}")
    colour = discord.Colour.green() if lobby.phase is TablePhase.LOBBY else discord.Colour.dark_grey()
    embed = discord.Embed(title=title, colour=colour)
    embed.add_field(name=t(locale, "lobby.seats"), value="\n".join(lines), inline=False)
    embed.add_field(name=t(locale, "lobby.settings"), value=" · ".join(settings_parts(lobby, locale)), inline=False)
    if system:  # the documents' system settings, and the turn time this server lengthened, if it did
        longer = s.options.turn_seconds != SYSTEM_TURN
        embed.description = t(locale, "lobby.system_longer" if longer else "lobby.system", s=s.options.turn_seconds)
    else:
        embed.description = t(locale, "lobby.host", host=discord.utils.escape_markdown(host_name))
    if lobby.phase is TablePhase.LOBBY:
        embed.set_footer(text=t(locale, "lobby.footer"))
    elif lobby.phase is TablePhase.PLAYING:
        embed.set_footer(text=t(locale, "lobby.started"))
    else:
        embed.set_footer(text=t(locale, "lobby.closed"))
    return embed


def settings_parts(state: TableState | LobbyScreen, locale: str) -> list[str]:
    """A table's settings as short parts (rounds, timers, stakes, switches, 🔒): the lobby and the table list."""
    s = state.settings
    o = s.options
    flags = [name() for on, name in (  # each in the reader's words and script (issue 37: 可過水 to zh-CN)
        (o.self_draw_only, lambda: t(locale, "lobby.flag_self_draw_only")),
        (o.may_pass_win, lambda: t(locale, "lobby.flag_may_pass_win")),
        (o.min_tai > 0, lambda: item_name(locale, minimum_label(s.rules, o.min_tai))),
        (o.bonus_tile, lambda: t(locale, "lobby.flag_bonus_tile")),
        (
            o.hand_size is not None and o.hand_size != get_profile(s.rules).hand_size,
            lambda: t(locale, "lobby.flag_hand_size", n=o.hand_size),
        ),
        (o.see_wind_see_flower, lambda: t(locale, "lobby.flag_see_wind_see_flower")),
        (o.exchange, lambda: t(locale, "lobby.flag_exchange")),
        (
            not o.house_rules.is_document,
            lambda: t(locale, "lobby.flag_house", rules=house_rules_text(o.house_rules, locale)),
        ),
    ) if on]
    settings = [
        t(locale, "lobby.rounds", n=s.rounds),
        t(locale, "lobby.turn", s=o.turn_seconds),
        t(locale, "lobby.claim", s=o.claim_seconds),
        *([t(locale, "prefs.bank_lobby", s=s.bank)] if s.bank else []),  # table/bank.py
        *flags,
    ]
    if rule_set(s.rules).pays_stakes:  # 底 and 台 values pay only 台 games
        settings.insert(3, t(locale, "lobby.stakes", base=o.base, tai=o.tai))
    if s.spectators != "public":  # watch.py; public is the default and goes unsaid
        settings.append(t(locale, f"lobby.spectators_{s.spectators}"))
    # standing.py; said either way, since rated tables and 系統桌 start without them (table/lobby.py)
    settings.append(t(locale, "lobby.hints_on" if s.hints else "lobby.hints_off"))
    if s.pace != "normal":  # the AI's pace (table/session.py); normal goes unsaid
        settings.append(t(locale, f"lobby.pace_{s.pace}"))
    if s.theme != "felt":  # the channel picture's theme (render/theme.py); felt goes unsaid
        settings.append("🎨 " + t(locale, f"theme.{s.theme}"))
    if state.locked:
        settings.append(t(locale, "lobby.locked"))
    if s.ranking != "casual":
        settings.append("🏆 " + t(locale, f"ranking.{s.ranking}"))
    return settings


def minimum_label(rules: str, minimum: int) -> str:
    """三台起胡 on 台 tables, the server's name (3番起和 / 1番起和) on 番 tables."""
    return rule_set(rules).minimum_label(minimum)


def lobby_view(lobby: LobbyScreen, locale: str) -> discord.ui.View | None:
    if lobby.phase is not TablePhase.LOBBY:
        return None
    view = discord.ui.View(timeout=None)
    tid = lobby.table_id
    view.add_item(LobbyButton.make(tid, LobbyOp.JOIN, t(locale, "btn.join"), Style.primary))
    view.add_item(LobbyButton.make(tid, LobbyOp.LEAVE, t(locale, "btn.leave"), Style.secondary))
    view.add_item(LobbyButton.make(tid, LobbyOp.AI, t(locale, "btn.add_ai"), Style.secondary))
    view.add_item(LobbyButton.make(tid, LobbyOp.START, t(locale, "btn.start"), Style.success))
    view.add_item(LobbyButton.make(tid, LobbyOp.CLOSE, t(locale, "btn.close"), Style.danger))
    return view


def table_view(table_id: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton.make(table_id, TableOp.SHOW, t(locale, "btn.show_hand"), Style.secondary))
    view.add_item(WatchButton.make(table_id, t(locale, "btn.watch")))  # spectators (watch.py)
    return view


def resume_view(table_id: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton.make(table_id, TableOp.RESUME, t(locale, "btn.resume"), Style.success))
    return view


def take_back_view(table_id: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton.make(table_id, TableOp.BACK, t(locale, "btn.take_back"), Style.primary))
    return view


# ---------------------------------------------------------------- a player's prompt


def action_view(
    *,
    table: int,
    hand: int,
    move: int,
    prompt: Prompt,
    view: GameView,
    locale: str,
    mode: str = "main",
    marked: frozenset[int] = frozenset(),
) -> discord.ui.View | None:
    """Buttons for every legal action of the prompt's seat at decision point ``move`` (None when
    there are none); ``view`` is that seat's own (its drawn tile sits last). ``marked``: the
    discards that keep the hand ready (standing.py), shown with 🎯."""
    legal, seat, drawn, self_draw_turn = prompt.legal, prompt.seat, view.drawn, prompt.self_draw
    if not legal:
        return None
    buttons = discord.ui.View(timeout=None)

    def act(action: Action, label: str, style: Style, row: int) -> None:
        buttons.add_item(ActButton.make(table, hand, seat, move, code_of(action), label, style, row))

    ready = [a for a in legal if a.kind is Kind.READY]
    if mode == "ready" and ready:
        for i, a in enumerate(_by_tile(ready, drawn)):
            act(a, t(locale, "btn.ready_with", tile=tile_label(locale, a.named_tile)), Style.danger, i // ROW_WIDTH)
        row = min(DISCARD_ROWS, (len(ready) - 1) // ROW_WIDTH + 1)
        buttons.add_item(ModeButton.make(table, hand, seat, move, Mode.MAIN, t(locale, "btn.back"), Style.secondary, row))
        return buttons

    discards = _by_tile([a for a in legal if a.kind is Kind.DISCARD], drawn)
    buttons.discard_rows = {i // ROW_WIDTH for i in range(len(discards))}  # type: ignore[attr-defined]  # 眼牌 keeps off
    for i, a in enumerate(discards):
        style = Style.primary if a.tile == drawn else Style.secondary
        label = tile_label(locale, a.named_tile)
        act(a, f"🎯 {label}" if a.tile in marked else label, style, i // ROW_WIDTH)
    # 胡 first, then kongs / 碰 / 吃, 聽…, 過: on the rows after the discards, five to a row
    first_free = -(-len(discards) // ROW_WIDTH)
    specials: list[tuple[Action | None, str, Style]] = []
    for a in legal:
        if a.kind is Kind.WIN:
            specials.append((a, t(locale, "btn.self_draw" if self_draw_turn else "btn.win"), Style.success))
    for a in legal:
        if a.kind in (Kind.KONG, Kind.ANKONG, Kind.ADDKONG):
            specials.append((a, t(locale, "btn.kong", tile=tile_label(locale, a.named_tile)), Style.primary))
        elif a.kind is Kind.PON:
            specials.append((a, t(locale, "btn.pon"), Style.primary))
        elif a.kind is Kind.CHI:
            specials.append((a, t(locale, "btn.chi", tiles=run_label(locale, a.named_tile)), Style.primary))
    if ready:
        specials.append((None, t(locale, "btn.ready"), Style.danger))
    for a in legal:
        if a.kind is Kind.PASS:
            specials.append((a, t(locale, "btn.pass"), Style.secondary))
    for i, (special, label, style) in enumerate(specials):
        row = min(4, first_free + i // ROW_WIDTH)
        if special is None:
            buttons.add_item(ModeButton.make(table, hand, seat, move, Mode.READY, label, style, row))
        else:
            act(special, label, style, row)
    return buttons


def exchange_view(*, table: int, hand: int, move: int, view: GameView, locale: str) -> discord.ui.View:
    """換牌: pick 1-3 of the tiles in the seat's own ``view`` (values ``5m.0``, ``5m.1``: one per
    copy), or keep the hand. (Not from a Prompt: its legal list holds every choice, hundreds.)"""
    seat = view.me.seat
    tiles = [*view.concealed, *([] if view.drawn is None else [view.drawn])]
    buttons = discord.ui.View(timeout=None)
    copies: dict[int, int] = {}
    options = []
    for tile in tiles:
        n = copies.get(tile, 0)
        copies[tile] = n + 1
        options.append((f"{tile_to_str(tile)}.{n}", tile_label(locale, tile)))
    buttons.add_item(ExchangeSelect.make(table, hand, seat, move, options, t(locale, "select.exchange")))
    keep = Action(seat, Kind.EXCHANGE)
    buttons.add_item(ActButton.make(table, hand, seat, move, code_of(keep), t(locale, "btn.keep"), Style.secondary, 1))
    return buttons


def add_eye_button(view: discord.ui.View | None, table: int, miji: bool, locale: str) -> discord.ui.View:
    """眼牌 (labelled Miji in its window) on the last row with room that holds no discard, so that it
    is never pressed for a tile; a view of its own if none is given. It asks for a confirmation first
    (op ``eyeask``): the declaration cannot be taken back."""
    view = view or discord.ui.View(timeout=None)
    used = [sum(1 for item in view.children if item.row == row) for row in range(5)]
    selects = {item.row for item in view.children if isinstance(item, discord.ui.Select)}
    tiles: set[int] = getattr(view, "discard_rows", set())
    row = next((r for r in (4, 3, 2, 1, 0) if used[r] < ROW_WIDTH and r not in selects | tiles), None)
    if row is not None:
        label = t(locale, "btn.miji" if miji else "btn.eye")
        button = TableButton.make(table, TableOp.EYE_ASK, label, Style.danger)
        button.row = row
        view.add_item(button)
    return view


def eye_confirm_view(table: int, miji: bool, locale: str) -> discord.ui.View:
    """The one button that declares 眼牌 / Miji, under the words saying what it does and costs."""
    view = discord.ui.View(timeout=None)
    label = t(locale, "btn.eye_confirm_miji" if miji else "btn.eye_confirm")
    view.add_item(TableButton.make(table, TableOp.EYE, label, Style.danger))
    return view


def _by_tile(actions: list[Action], drawn: int | None) -> list[Action]:
    """Hand order, the drawn tile last (it sits apart in the picture too)."""
    return sorted(actions, key=lambda a: (a.tile == drawn, sort_key(a.named_tile)))

