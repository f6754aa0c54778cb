"""The DM's words for where a player stands (issue 23): waits with unseen counts, the discards
that keep a hand ready, 過水, and the table option that turns the hints off."""

from __future__ import annotations

from cogs.mahjong.prompts import action_view
from cogs.mahjong.standing import marked_tiles, standing_lines
from engine.actions import Action
from engine.game import Game
from engine.hints import ready_discards
from engine.rules import TableOptions
from table.lobby import TableSettings


def lines(game, seat=0, loc="en", hints=True):
    return standing_lines(game.view(seat), ready_discards(game, seat), loc, hints=hints)


def test_a_ready_hand_waiting_for_its_turn_names_its_waits_and_unseen_counts():
    game = Game.from_position(hands={0: "123456789m12p11s555z"}, rivers={1: "3p"}, turn=1)
    assert lines(game) == ["🎯 **Ready** — waiting on 3 Dot ×3 (3 unseen)"]
    assert lines(game, loc="zh-TW") == ["🎯 **聽牌**：聽 三筒 ×3（還有 3 張）"]
    assert lines(game, loc="zh-CN") == ["🎯 **听牌**：听 三筒 ×3（还有 3 张）"]


def test_a_wait_with_every_copy_out_says_so():
    game = Game.from_position(hands={0: "123456789m12p11s555z"}, rivers={1: "3p3p", 2: "3p3p"}, turn=1)
    assert lines(game) == ["🎯 **Ready** — waiting on 3 Dot ×0: every one is already out (0 unseen)"]


def test_on_your_turn_the_discards_that_keep_you_ready_are_listed_and_marked():
    game = Game.from_position(rules="taiwan13", hands={0: "19m19p19s1234567z5m"}, turn=0, drawn="5m")
    [text] = lines(game)
    assert text.startswith("🎯 Discards that keep you ready:\n· 5 Crak → waits 1 Crak ×3, 9 Crak ×3, 1 Dot ×3")
    assert text.endswith("Red ×3")
    view = action_view(
        table=1, hand=1, move=0, prompt=game.prompt(0), view=game.view(0),
        locale="en", marked=marked_tiles(ready_discards(game, 0)),
    )
    labels = [item.item.label for item in view.children]
    assert "🎯 5 Crak" in labels and "1 Crak" in labels  # only the discard that keeps the hand ready


def test_hints_off_keeps_only_guo_shui():
    options = TableOptions(may_pass_win=True)
    game = Game.from_position(
        hands={0: "123456789m12p11s555z", 1: "123m456m789m234p5p6p99s1z"}, turn=1, drawn="1z", options=options
    )
    game.apply(Action.from_str("1 discard 3p"))
    game.apply(Action.from_str("0 pass"))
    assert lines(game, hints=False) == [
        "🚫 **過水**: you passed a win, so you cannot win until you discard (or add to a kong) a tile that does not win."
    ]
    assert lines(game, loc="zh-CN")[0].startswith("🚫 **过水**：")
    assert len(lines(game)) == 2  # 過水 and the waits


def test_a_hand_that_is_not_ready_gets_no_hint_lines():
    game = Game.from_position(hands={0: "123456789m19p11s555z"}, turn=1)
    assert lines(game) == []


def test_the_hints_option_defaults_on():
    assert TableSettings().hints is True
    assert TableSettings(hints=False).hints is False
