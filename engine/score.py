"""The 台數 calculator: ``python -m engine.score`` reads one JSON object on stdin and prints one JSON
object on stdout. The work is done by :func:`calculate`, a pure function the Discord command calls
too; :func:`main` only moves text in and out.

In (every field but ``win_tile`` optional)::

    {"rules": "taiwan16", "concealed": "123456789m456p3455s", "melds": ["pon:555z", "chi:123m"],
     "flowers": "f1f3", "win_tile": "2s", "self_drawn": false, "seat_wind": "E", "round_wind": "E",
     "dealer": false, "dealer_streak": 0, "last_tile": false, "kong_replacement": false,
     "robbing_kong": false, "heavenly": false, "earthly": false, "eye_declared": false,
     "miji": false, "flower_win": null, "from_dealer": false,
     "options": {"三台起胡": true, "見字見花": true},
     "preset": "common", "house_rules": {"river_bottom_tai": 1}, "last_discard": false,
     "human": false, "heavenly_ready": false, "dealt_ready": false, "after_flower": false,
     "flower_bonus_taken": false, "flower_win_declined": false}

``hand_size`` (13 or 16; also an option) picks hongkong's 16-tile game (document 002's 補花
procedure: flowers allowed, no 十三幺 nor 寶牌); 13 is its default. ``preset`` and ``house_rules`` choose the table's house rules (engine.house_rules; default: the
document's); single switches in ``house_rules`` override the preset. A hand holding all eight
flowers is the rule set's flower win (八仙過海, 大花胡) without ``flower_win``; with
``flower_bonus_taken`` (the flower win was paid at once as a bonus and the hand went on) it is an
ordinary hand whose flowers count no 台; with ``flower_win_declined`` (the player declined the
flower win and the hand went on) it is an ordinary hand whose flowers and 花槓 count.

Out: ``{"valid": true, "total": 3, "unit": "tai", "items": [{"name": "門清", "tai": 1}, ...]}``
(``total`` before the cap; ``capped_total`` is added when the options ask for a cap; ``points``, what a
payer pays after the cap, for rule sets that pay points: hongkong's 2^番 with 爆和), or
``{"valid": false, "reason": "..."}`` for a hand that may not win. Malformed input (bad JSON,
JSON nested too deep, a wrong type anywhere, tiles that cannot exist): one line on stderr, exit
code 2, whatever the input.
"""

from __future__ import annotations

import json
import reprlib
import sys
from collections.abc import Mapping, Sequence
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import replace
from typing import Any

from .cli import tool_parser
from .house_rules import HouseRules
from .meld import Meld, parse_melds
from .rules import HAND_SIZES
from .scoring import ScoringError, TableOptions, WinContext, get_rules, score_win
from .scoring.taiwan13 import FLOWER_WINS as TAIWAN13_FLOWER_WINS
from .scoring.taiwan16 import FLOWER_WINS, SEE_WIND_SEE_FLOWER, SELF_DRAW_ONLY
from .tiles import HONOR_NAMES, NotationError, is_flower, parse_tiles, tile_from_str, tile_to_str

DEFAULT_CAP = 16


class RequestError(ValueError):
    """The request is malformed (not the hand: a non-winning hand is a valid request)."""


_BOOL_FIELDS = (
    "self_drawn",
    "dealer",
    "last_tile",
    "kong_replacement",
    "robbing_kong",
    "heavenly",
    "earthly",
    "declared_ready",
    "eye_declared",
    "miji",
    "from_dealer",
    "human",
    "last_discard",
    "heavenly_ready",
    "dealt_ready",
    "after_flower",
    "flower_bonus_taken",
    "flower_win_declined",
)
_KNOWN_FIELDS = {
    "rules",
    "concealed",
    "melds",
    "flowers",
    "win_tile",
    "seat_wind",
    "round_wind",
    "dealer_streak",
    "flower_win",
    "options",
    "bonus_indicators",
    "preset",
    "house_rules",
    "hand_size",
    *_BOOL_FIELDS,
}
_FIELD_ALIASES = {
    "hand": "concealed",
    "win": "win_tile",
    "winning_tile": "win_tile",
    "tsumo": "self_drawn",
    "zimo": "self_drawn",
    "streak": "dealer_streak",
    "seat": "seat_wind",
    "round": "round_wind",
    "眼牌": "eye_declared",
    "eye": "eye_declared",
    "翻寶牌": "bonus_indicators",
}

# option spellings (lower-cased) -> canonical option
_OPTION_ALIASES = {
    "見字見花": SEE_WIND_SEE_FLOWER,
    "see_wind_see_flower": SEE_WIND_SEE_FLOWER,
    "jian_zi_jian_hua": SEE_WIND_SEE_FLOWER,
    "限自摸": SELF_DRAW_ONLY,
    "self_draw_only": SELF_DRAW_ONLY,
    "zimo_only": SELF_DRAW_ONLY,
    "三台起胡": "min3",
    "min3": "min3",
    "min_tai": "min_tai",
    "min": "min_tai",
    "minimum": "min_tai",
    "滿台": "cap",
    "cap": "cap",
    "cap_tai": "cap",
    "cap16": "cap",
    "3番起和": "min3",  # hongkong's three servers (document 002)
    "1番起和": "min1",
    "無番起和": "min0",
    "hand_size": "hand_size",  # hongkong: 13 (the default) or 16 (document 002's 補花 game)
    "十六張": "sixteen",
    "十三張": "thirteen",
}


_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxstring, _SHORT.maxother, _SHORT.maxlist, _SHORT.maxdict = 2, 40, 40, 4, 4

# exact spellings (ASCII ones lower-cased): never a substring test, so "" and "南西" are refused
_WIND_NAMES = {
    **{letter: i for i, letter in enumerate("eswn")},
    **{name: i for i, name in enumerate(("east", "south", "west", "north"))},
    **{name: i for i, name in enumerate(HONOR_NAMES[:4])},
}


def _show(value: Any) -> str:
    """A short one-line repr of any request value: bounded depth and length, so a deeply nested or
    huge value can neither recurse nor flood the error line."""
    try:
        return _SHORT.repr(value)
    except Exception:  # an int too long to print, a hostile __repr__ from a Python caller
        return f"<{type(value).__name__}>"


def _bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no", "1", "0"):
        return value.strip().lower() in ("true", "yes", "1")
    raise RequestError(f"{name} must be true or false, got {_show(value)}")


def _int(name: str, value: Any, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise RequestError(f"{name} must be an integer, got {_show(value)}")
    try:
        n = int(value)
        str(n)  # Python refuses to print integers of more than 4,300 digits: refuse them here
    except ValueError:
        raise RequestError(f"{name} must be an integer of reasonable size, got {_show(value)}") from None
    if n < low:
        raise RequestError(f"{name} must be at least {low}, got {n}")
    return n


def _wind(name: str, value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3:
        return value
    if isinstance(value, str):
        v = value.strip()
        wind = _WIND_NAMES.get(v.lower() if v.isascii() else v)
        if wind is not None:
            return wind
    raise RequestError(f"{name} must be one of E S W N, got {_show(value)}")


def _tiles_text(name: str, value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(x, str) for x in value):
        return " ".join(value)
    raise RequestError(f'{name} must be tile notation like "123m456p", got {_show(value)}')


def parse_options(value: Any) -> TableOptions:
    """Table options, liberally: an object (``{"min_tai": 3}``, ``{"三台起胡": true}``,
    ``{"見字見花": true}``, ``{"cap": 16}``), a list of names (``["三台起胡", "見字見花"]``) or a
    comma-separated string. Names: 三台起胡/min3, min_tai/min (an integer), 見字見花 /
    see_wind_see_flower, 限自摸/self_draw_only, 滿台/cap/cap16 (true → 16, or an integer)."""
    if value is None:
        return TableOptions(cap_tai=None)
    if isinstance(value, str):
        value = [x for x in value.replace(",", " ").split() if x]
    if isinstance(value, list):
        if not all(isinstance(x, str) for x in value):
            raise RequestError("options list must hold option names")
        value = {x: True for x in value}
    if not isinstance(value, Mapping):
        raise RequestError(f"options must be an object or a list of names, got {_show(value)}")
    flags: set[str] = set()
    min_tai = 0
    cap: int | None = None
    hand_size: int | None = None
    for key, v in value.items():
        canon = _OPTION_ALIASES.get(key.strip().lower()) if isinstance(key, str) else None
        if canon is None:
            known = ", ".join(sorted(set(_OPTION_ALIASES)))
            raise RequestError(f"unknown table option {_show(key)} (known: {known})")
        if canon in (SEE_WIND_SEE_FLOWER, SELF_DRAW_ONLY):
            if _bool(str(key), v):
                flags.add(canon)
        elif canon == "min3":
            if isinstance(v, int) and not isinstance(v, bool):
                min_tai = max(min_tai, _int(str(key), v))
            elif _bool(str(key), v):
                min_tai = max(min_tai, 3)
        elif canon in ("min1", "min0"):
            if _bool(str(key), v):
                min_tai = max(min_tai, int(canon[-1]))
        elif canon == "min_tai":
            min_tai = max(min_tai, _int(str(key), v))
        elif canon == "hand_size":
            hand_size = _hand_size(str(key), v)
        elif canon in ("sixteen", "thirteen"):
            if _bool(str(key), v):
                hand_size = 16 if canon == "sixteen" else 13
        elif canon == "cap":
            if isinstance(v, int) and not isinstance(v, bool):
                cap = _int(str(key), v)
            elif _bool(str(key), v):
                cap = DEFAULT_CAP
    return TableOptions(
        self_draw_only=SELF_DRAW_ONLY in flags,
        see_wind_see_flower=SEE_WIND_SEE_FLOWER in flags,
        min_tai=min_tai,
        cap_tai=cap,
        hand_size=hand_size,
    )


def _hand_size(name: str, value: Any) -> int:
    n = _int(name, value)
    if n not in HAND_SIZES:
        raise RequestError(f"{name} must be one of {', '.join(map(str, HAND_SIZES))}, got {n}")
    return n


def parse_house_rules(preset: Any, switches: Any) -> HouseRules:
    """``"preset": NAME`` and ``"house_rules": {switch: value}`` (switches override the preset)."""
    if preset is not None and not isinstance(preset, str):
        raise RequestError(f'preset must be a preset name like "common", got {_show(preset)}')
    if switches is None:
        switches = {}
    if not isinstance(switches, Mapping):
        raise RequestError(
            f'house_rules must be an object like {{"river_bottom_tai": 1}}, got {_show(switches)}'
        )
    for name, value in switches.items():  # switch values are numbers or booleans: refuse the rest here
        if not isinstance(value, int) or value.bit_length() > 64:
            raise RequestError(f"house rule {_show(name)} must be a number or true/false, got {_show(value)}")
    try:
        return HouseRules.resolve(preset, switches)
    except ValueError as exc:
        raise RequestError(str(exc)) from None


def build_context(request: Mapping[str, Any]) -> tuple[str, WinContext, list[str]]:
    """Turn a request object into ``(rules, WinContext, warnings)``; :class:`RequestError` or
    :class:`~engine.tiles.NotationError` when malformed."""
    if not isinstance(request, Mapping):
        raise RequestError("input must be one JSON object")
    data: dict[str, Any] = {}
    warnings: list[str] = []
    for key, value in request.items():
        k = _FIELD_ALIASES.get(key, key)
        if k not in _KNOWN_FIELDS:
            warnings.append(f"ignoring unknown field {_show(key)}")
            continue
        if k in data:
            raise RequestError(f"field {_show(k)} given twice")
        data[k] = value
    rules = data.get("rules", "taiwan16")
    if not isinstance(rules, str):
        raise RequestError('rules must be a rule-set id like "taiwan16"')

    concealed = parse_tiles(_tiles_text("concealed", data.get("concealed", "")))
    flowers_in_hand = [t for t in concealed if is_flower(t)]
    if flowers_in_hand:
        raise RequestError("flowers go in 'flowers', not in the concealed hand")
    melds_value = data.get("melds", [])
    if melds_value is None:
        melds_value = []
    if not isinstance(melds_value, list | str) or (
        isinstance(melds_value, list) and not all(isinstance(x, str) for x in melds_value)
    ):
        raise RequestError('melds must be a list like ["pon:555z", "chi:123m"]')
    melds: list[Meld] = parse_melds(melds_value)
    flowers = parse_tiles(_tiles_text("flowers", data.get("flowers", "") or ""))
    if not all(is_flower(f) for f in flowers):
        raise RequestError("flowers must be flower tiles f1..f8")

    flower_win = data.get("flower_win")
    if flower_win is not None and flower_win not in FLOWER_WINS + TAIWAN13_FLOWER_WINS:
        aliases = {"eight_immortals": "八仙過海", "seven_rob_one": "七搶一"}
        if not isinstance(flower_win, str) or flower_win not in aliases:
            raise RequestError(f"flower_win must be one of {', '.join(FLOWER_WINS)}, got {_show(flower_win)}")
        flower_win = aliases[flower_win]

    win_value = data.get("win_tile")
    if win_value is None:
        if flower_win is None:
            raise RequestError('win_tile is required (e.g. "5m")')
        win_tile = None
    else:
        if not isinstance(win_value, str):
            raise RequestError(f'win_tile must be one tile like "5m", got {_show(win_value)}')
        win_tile = tile_from_str(win_value)
        if is_flower(win_tile) and flower_win is None:
            raise RequestError("the winning tile cannot be a flower")

    ctx = WinContext(
        concealed=tuple(concealed),
        melds=tuple(melds),
        flowers=tuple(flowers),
        win_tile=win_tile if win_tile is None or not is_flower(win_tile) else None,
        seat_wind=_wind("seat_wind", data.get("seat_wind", "E")),
        round_wind=_wind("round_wind", data.get("round_wind", "E")),
        dealer_streak=_int("dealer_streak", data.get("dealer_streak", 0)),
        flower_win=flower_win,
        bonus_indicators=tuple(
            parse_tiles(_tiles_text("bonus_indicators", data.get("bonus_indicators") or ""))
        ),
        options=_with_hand_size(
            replace(
                parse_options(data.get("options")),
                house_rules=parse_house_rules(data.get("preset"), data.get("house_rules")),
            ),
            data.get("hand_size"),
        ),
        **{f: _bool(f, data.get(f, False)) for f in _BOOL_FIELDS},
    )
    if ctx.flower_bonus_taken and not ctx.options.house_rules["flower_win_as_bonus"]:
        # the field says the table paid the flower win at once: it plays that house rule
        house = HouseRules({**ctx.options.house_rules.to_dict(), "flower_win_as_bonus": True})
        ctx = replace(ctx, options=replace(ctx.options, house_rules=house))
    _check_robbed_kong(ctx)
    return rules, ctx, warnings


def _with_hand_size(options: TableOptions, value: Any) -> TableOptions:
    """The top-level ``hand_size`` field (hongkong: 13 or 16) on the parsed options."""
    return options if value is None else replace(options, hand_size=_hand_size("hand_size", value))


def _check_robbed_kong(ctx: WinContext) -> None:
    """搶槓: the robbed player showed a 碰 of the winning tile and added the fourth, the tile robbed.
    All four copies are then accounted for, so the winner can hold no other copy (the scorer's own
    check counts only the winner's tiles)."""
    win = ctx.win_tile
    if not ctx.robbing_kong or win is None:
        return
    own = ctx.concealed.count(win) + sum(m.tiles.count(win) for m in ctx.melds)
    if own:
        raise ScoringError(
            f"impossible hand: {own + 4} copies of {tile_to_str(win)} (robbing a kong of {tile_to_str(win)} "
            f"means its 碰 holds three and the robbed tile is the fourth, but the hand holds {own} more)"
        )


def calculate(request: Mapping[str, Any]) -> dict[str, Any]:
    """Score one request (the parsed JSON object) and return the response object.

    Raises :class:`RequestError`, :class:`~engine.tiles.NotationError` or
    :class:`~engine.scoring.ScoringError` (all ``ValueError``) for malformed input.
    """
    rules, ctx, _ = build_context(request)
    return respond(rules, ctx)


def respond(rules: str, ctx: WinContext) -> dict[str, Any]:
    """The response object for a built context."""
    result = score_win(ctx, rules)
    if not result.valid:
        return {"valid": False, "reason": result.reason}
    out: dict[str, Any] = {
        "valid": True,
        "total": result.total,
        "unit": result.unit,
        "items": [{"name": i.name, result.unit: i.value} for i in result.items],
    }
    if ctx.options.cap_tai is not None:
        out["capped_total"] = result.capped_total(ctx.options.cap_tai)
    points = get_rules(rules).points
    if points is not None:  # hongkong: 2^番 after 爆和
        out["points"] = points(result)
    return out


def main(stdin: Any = None, stdout: Any = None, stderr: Any = None, *, argv: Sequence[str] = ()) -> int:
    """``argv``: the command line's arguments (``--help`` only; the request comes on ``stdin``, which is
    not read for ``--help`` nor for a bad argument, so neither waits on a terminal)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    parser = tool_parser("python -m engine.score", __doc__, whole=True)
    try:
        with redirect_stdout(stdout), redirect_stderr(stderr):
            parser.parse_args(list(argv))
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else 2
    if getattr(stdin, "isatty", lambda: False)():  # someone typing: say what the silence waits for
        print("reading one JSON request from standard input; end it with Ctrl-D (--help shows the fields)", file=stderr)
    try:
        request = json.loads(stdin.read())
    except RecursionError:
        return _fail(stderr, "input is not valid JSON: nested too deeply")
    except (ValueError, UnicodeDecodeError) as exc:  # JSONDecodeError, or an integer too long to read
        return _fail(stderr, f"input is not valid JSON: {exc}")
    try:
        rules, ctx, warnings = build_context(request)
        response = respond(rules, ctx)
    except (RequestError, NotationError, ScoringError, ValueError) as exc:
        return _fail(stderr, str(exc))
    except Exception as exc:  # a bug: still never a traceback for a command-line user
        print(_one_line(f"error: internal error ({type(exc).__name__}: {exc})"), file=stderr)
        return 1
    for w in warnings:  # only for an answered request: a refused one gets exactly one line
        print(_one_line(f"warning: {w}"), file=stderr)
    json.dump(response, stdout, ensure_ascii=False)
    stdout.write("\n")
    return 0


def _one_line(text: str) -> str:
    return " ".join(text.splitlines())


def _fail(stderr: Any, message: str) -> int:
    print(_one_line(f"error: {message}"), file=stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(argv=sys.argv[1:]))
