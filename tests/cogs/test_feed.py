"""The DM's action feed (issue 23): the others' moves since a player's previous prompt, with
摸切/手切, in the reader's language, tiles in words."""

from __future__ import annotations

from cogs.i18n import run_label
from cogs.mahjong.feed import FEED_LENGTH, FeedMarks, feed_text
from cogs.mahjong.prompts import action_view
from engine.actions import Action
from engine.events import Event, EventKind
from engine.game import Game
from engine.tiles import tile_from_str
from table.screens import exchanged_tiles, feed_moves

NAMES = ["Me", "AI 1", "AI 2", "AI 3"]


def tile(text):
    return tile_from_str(text)


def test_a_discard_of_the_drawn_tile_is_tsumogiri_and_one_from_the_hand_tedashi():
    events = [
        Event(EventKind.DRAW, 1, tile("8s"), private=True),
        Event(EventKind.DISCARD, 1, tile("8s")),
        Event(EventKind.DRAW, 2, tile("1m"), private=True),
        Event(EventKind.DISCARD, 2, tile("9p")),
    ]
    assert [move.tsumogiri for move in feed_moves(events, 0)] == [True, False]
    text = feed_text(feed_moves(events, 0), 0, NAMES, "zh-TW")
    assert text == "本局到目前為止：\n> AI 1 打 八條（摸切）\n> AI 2 打 九筒（手切）"
    assert "AI 1 discards 8 Bam (摸切, the drawn tile)" in feed_text(feed_moves(events, 0), 0, NAMES, "en")


def test_a_discard_after_a_claim_is_from_the_hand():
    events = [
        Event(EventKind.DRAW, 1, tile("5m"), private=True),
        Event(EventKind.DISCARD, 1, tile("5m")),
        Event(EventKind.PON, 2, tile("5m"), tiles=(tile("5m"),) * 3),
        Event(EventKind.DISCARD, 2, tile("5m")),
    ]
    assert feed_text(feed_moves(events, 0), 0, NAMES, "zh-CN") == (
        "本局到目前为止：\n> AI 1 打 五万（摸切）\n> AI 2 碰 五万\n> AI 2 打 五万（手切）"
    )


def test_the_feed_leaves_out_the_readers_own_moves_and_what_came_before_the_start():
    events = [
        Event(EventKind.DRAW, 0, tile("1m"), private=True),
        Event(EventKind.DISCARD, 0, tile("1m")),
        Event(EventKind.DRAW, 1, tile("2m"), private=True),
        Event(EventKind.DISCARD, 1, tile("2m")),
        Event(EventKind.CHI, 2, tile("2m"), tiles=(tile("1m"), tile("2m"), tile("3m"))),
    ]
    assert feed_text(feed_moves(events, 0), 0, NAMES, "en") == (
        "So far this hand:\n> AI 1 discards 2 Crak (摸切, the drawn tile)\n> AI 2 chows 1-2-3 Crak"
    )
    assert feed_text(feed_moves(events, 0), 4, NAMES, "en") == "Since your last turn:\n> AI 2 chows 1-2-3 Crak"
    assert feed_text(feed_moves(events, 0), 5, NAMES, "en") == ""


def test_a_long_feed_keeps_the_latest_moves_and_counts_the_rest():
    events = [Event(EventKind.DISCARD, 1 + i % 3, tile("9m")) for i in range(FEED_LENGTH + 4)]
    text = feed_text(feed_moves(events, 0), 0, NAMES, "en")
    assert text.splitlines()[1] == "> … and 4 earlier"
    assert len(text.splitlines()) == 2 + FEED_LENGTH


def test_a_prompt_redrawn_for_the_same_decision_keeps_its_feed():
    marks = FeedMarks()
    assert marks.start(0, hand=1, decision=5, now=5) == 0
    assert marks.start(0, hand=1, decision=5, now=7) == 0  # the same prompt drawn again
    assert marks.start(0, hand=1, decision=9, now=9) == 5  # the next prompt: since the previous one
    assert marks.start(1, hand=1, decision=9, now=9) == 0
    assert marks.start(0, hand=2, decision=3, now=3) == 0  # a new hand starts a new feed


def test_the_feed_of_a_real_game_names_every_discard():
    game = Game.from_position(hands={0: "123456789m124p11s555z"}, turn=0, drawn="5z", wall="1z2z3z4z")
    game.apply(Action.from_str("0 discard 5z"))
    for seat in (1, 2, 3):
        for a in game.legal_actions(seat):
            if a.kind.value == "pass":
                game.apply(a)
    lines = feed_text(feed_moves(game.events, 1), 0, NAMES, "en").splitlines()
    assert lines[1] == "> Me discards White (手切, from the hand)"


def test_chow_buttons_name_the_tiles_in_words():
    assert [run_label(x, tile("3s")) for x in ("zh-TW", "zh-CN", "en")] == ["三四五條", "三四五条", "3-4-5 Bam"]
    game = Game.from_position(hands={0: "123456789m124p113s55z", 1: "45s135789p11z2z3z4z5z6z7z"}, turn=0, drawn="3s")
    game.apply(Action.from_str("0 discard 3s"))
    view = action_view(table=1, hand=1, move=0, prompt=game.prompt(1), view=game.view(1), locale="zh-TW")
    assert "吃 三四五條" in [item.item.label for item in view.children]


def test_after_the_exchange_each_dm_says_which_tiles_came_back_until_the_seats_first_move():
    """Issue 37: 換牌 took tiles away and the next DM never said what came back from the wall."""
    from cogs.i18n import t, tile_label
    from cogs.mahjong.feed import exchange_text
    from engine.actions import Kind
    from engine.rules import TableOptions

    game = Game(seed=0, options=TableOptions(exchange=True))  # the first live tiles are no flowers
    assert exchange_text(exchanged_tiles(game.events, 1), "en") == ""  # nothing exchanged yet
    give1 = tuple(sorted(t for t in range(34) for _ in range(game.hands[1][t]))[:2])
    for seat, tiles in ((0, ()), (1, give1), (2, ()), (3, ())):
        game.apply(Action(seat, Kind.EXCHANGE, None, tiles))
    came = next(e.tiles for e in game.events if e.kind is EventKind.DRAW and e.detail == "換牌")
    assert len(came) == 2
    for lang in ("en", "zh-TW", "zh-CN"):
        words = t(lang, "hint.sep").join(tile_label(lang, x) for x in came)
        assert exchange_text(exchanged_tiles(game.events, 1), lang) == t(lang, "feed.exchange", tiles=words)
    assert exchange_text(exchanged_tiles(game.events, 0), "en") == t("en", "feed.exchange_kept")  # kept: said so
    dealer_discard = game.legal_actions(0)[0]
    game.apply(dealer_discard)
    assert exchange_text(exchanged_tiles(game.events, 0), "en") == ""  # the dealer has played since
    assert exchange_text(exchanged_tiles(game.events, 1), "en") != ""  # seat 1 has not
