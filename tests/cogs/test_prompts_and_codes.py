"""Prompt buttons follow Discord's limits for every legal-action set a real hand produces, and every
button's code maps back to the exact engine action."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.i18n import STRINGS, t, tile_label
from cogs.mahjong.prompts import action_view
from engine.actions import Action
from engine.game import Game
from table.codes import code_of, to_action


def legal_sets(seed: int, limit: int = 400):
    game = Game("taiwan16", seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if game.is_over:
            return
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        yield game, seat, legal
        game.apply(rng.choice(legal))


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
async def test_every_prompt_fits_discord_and_round_trips(seed):
    for game, seat, legal in legal_sets(seed):
        for mode in ("main", "ready"):
            view = action_view(
                table=123456789012345678, hand=1, move=len(game.events), prompt=game.prompt(seat),
                view=game.view(seat), locale="zh-TW", mode=mode,
            )
            assert view is not None
            rows: dict[int, int] = {}
            for item in view.children:
                rows[item.row] = rows.get(item.row, 0) + 1
                assert len(item.custom_id) <= 100 and item.item.label
            assert len(rows) <= 5 and all(n <= 5 for n in rows.values())
            codes = [item.custom_id.rsplit(":", 1)[-1] for item in view.children if item.custom_id.startswith("mj:a")]
            shown = {to_action(seat, c) for c in codes}
            assert shown <= set(legal)  # every button plays a legal action
            if mode == "main":  # and every legal action but 聽 (its own mode) has a button
                assert {a for a in legal if a.kind.value != "ting"} <= shown


def test_codes_round_trip_every_action_kind():
    for text in ("0 discard 5m", "1 ting 9s", "2 chi 345m", "3 pon 7z", "0 kong 1p", "1 ankong 9s",
                 "2 addkong 3m", "3 hu", "0 pass"):
        action = Action.from_str(text)
        assert str(to_action(action.seat, code_of(action))) == text


def test_every_language_has_every_string_with_the_same_placeholders():
    import string

    def names(text):
        return {n for _, n, _, _ in string.Formatter().parse(text) if n}

    for lang in ("zh-TW", "zh-CN"):
        assert set(STRINGS[lang]) == set(STRINGS["en"]), set(STRINGS["en"]) ^ set(STRINGS[lang])
        for key, text in STRINGS["en"].items():
            assert names(STRINGS[lang][key]) == names(text), (lang, key)
    assert t("fr", "btn.join") == "Join" and t("zh-TW", "btn.join") == "入座"
    assert [tile_label(x, 31) for x in ("en", "zh-TW", "zh-CN")] == ["White", "白", "白"]
    assert tile_label("zh-CN", 18) == "一条" and tile_label("en", 9) == "1 Dot"


async def test_a_flower_win_on_offer_gets_a_win_and_a_pass_button():
    from engine.position import position
    from engine.rules import TableOptions

    game = position(
        hands={0: "123m456m789m123p45s99s", 3: "147m258m369p147s2z3z5z6z7z"},
        flowers={0: "f1f2f3f4f5f6f7"},
        wall="f8",
        turn=3,
        options=TableOptions(house_rules={"flower_win_optional": True}),
    )
    game.apply(Action.from_str("3 discard 7z"))
    view = action_view(table=1, hand=1, move=len(game.events), prompt=game.prompt(0), view=game.view(0), locale="en")
    assert view is not None
    codes = {item.custom_id.rsplit(":", 1)[-1]: item.item.label for item in view.children}
    assert {str(to_action(0, c)) for c in codes} == {"0 hu", "0 pass"}
    assert set(codes.values()) == {t("en", "btn.win"), t("en", "btn.pass")}
