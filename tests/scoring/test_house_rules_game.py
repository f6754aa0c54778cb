"""House rules at the table: the game accepts the winning form a switch adds (嚦咕嚦咕), records the
facts only house rules score (人胡, 河底撈魚, 天聽, a flower replacement) and carries the switches in
its replay header."""

import json

from engine.game import Game
from engine.house_rules import HouseRules
from engine.position import position
from engine.rules import TableOptions
from engine.scoring import score_win
from tests.engine.helpers import act, kinds, pass_all, tile

COMMON = TableOptions(house_rules=HouseRules.resolve("common"))
LUGU = TableOptions(house_rules={"lugu_tai": 8})
KONG_ONLY = TableOptions(house_rules={"kong_bloom_kong_only": True})

READY_36S = "123m456m789m123p45s99s"  # waits on 3s / 6s
DISCARDS_6S = "147m258m369p147s1z2z5z6z6s"  # a dealer's 17 tiles, far from ready, holding 6s
LUGU_READY = "11m33m55m77m99p22p44s66s"  # seven pairs and a pair: 嚦咕嚦咕 on 1m 3m ... 6s


def scored(game: Game, seat: int) -> dict[str, int]:
    out = game.outcome
    assert out is not None and out.winner == seat
    result = score_win(game.win_context(seat, out.win_tile, self_drawn=out.self_drawn, after_win=True))
    assert result.valid, result.reason
    return {i.name: i.value for i in result.items}


# ---------------------------------------------------------------- 嚦咕嚦咕 as a winning form


def test_lugu_is_not_a_win_at_a_document_table():
    game = position(hands={0: DISCARDS_6S, 1: LUGU_READY})
    game.apply(act("0 discard 6s"))
    assert game.outcome is None and "hu" not in kinds(game, 1)


def test_lugu_table_lets_seven_pairs_and_a_triplet_win():
    game = position(hands={0: DISCARDS_6S, 1: LUGU_READY}, options=LUGU)
    game.apply(act("0 discard 6s"))
    assert scored(game, 1) == {"門清": 1, "嚦咕嚦咕": 8}


def test_lugu_table_offers_ting_on_a_lugu_wait():
    game = position(hands={0: "11m33m55m77m99p22p44s66s7z"}, options=LUGU)
    assert "ting" in kinds(game, 0)
    assert "ting" not in kinds(position(hands={0: "11m33m55m77m99p22p44s66s7z"}), 0)


def test_lugu_form_survives_the_replay_header():
    game = Game("taiwan16", seed=3, options=LUGU)
    header = json.loads(json.dumps(game.header()))
    assert header["options"]["house_rules"] == {"lugu_tai": 8}
    again = Game.replay(header, [])
    assert again.options == LUGU and "lugu" in again.profile.win_forms


# ---------------------------------------------------------------- facts the game records


def test_win_on_the_dealers_first_discard_is_human():
    game = position(hands={0: DISCARDS_6S, 1: READY_36S}, first_go=True, options=COMMON)
    game.apply(act("0 discard 6s"))
    assert game.outcome.earthly and game.outcome.human
    assert scored(game, 1)["人胡"] == 8 and "地胡" not in scored(game, 1)


def test_human_win_is_di_hu_at_a_document_table():
    game = position(hands={0: DISCARDS_6S, 1: READY_36S}, first_go=True)
    game.apply(act("0 discard 6s"))
    assert scored(game, 1)["地胡"] == 8 and "人胡" not in scored(game, 1)


def test_earthly_win_after_ones_own_first_draw_is_not_human():
    game = position(
        hands={1: READY_36S + "7z", 2: "147m258m369p147s3z4z5z6s"},
        wall="1z",
        turn=1,
        first_go=True,
        options=COMMON,
    )
    game.first_go[0] = False  # the dealer has discarded
    game.apply(act("1 discard 7z"))
    pass_all(game)
    game.apply(act("2 discard 6s"))
    assert game.outcome.earthly and not game.outcome.human
    assert scored(game, 1)["地胡"] == 16


def test_win_on_the_last_discard_is_river_bottom():
    game = position(hands={0: DISCARDS_6S, 1: READY_36S}, live=0, options=COMMON)
    game.apply(act("0 discard 6s"))
    assert game.outcome.last_discard
    assert scored(game, 1)["河底撈魚"] == 1


def test_win_on_an_earlier_discard_is_not_river_bottom():
    game = position(hands={0: DISCARDS_6S, 1: READY_36S}, live=5, options=COMMON)
    game.apply(act("0 discard 6s"))
    assert not game.outcome.last_discard and "河底撈魚" not in scored(game, 1)


def test_ting_with_the_first_discard_is_heavenly_ready():
    game = position(hands={0: READY_36S + "7z"}, first_go=True)
    game.apply(act("0 ting 7z"))
    assert game.ready_on_deal[0]
    assert game.win_context(0, tile("6s"), self_drawn=False).heavenly_ready


def test_a_non_dealers_ting_playing_the_tile_drawn_keeps_the_dealt_hand_ready():
    # seat 1's first turn: the dealt 16 wait on 3s/6s, 7z is drawn and played with 聽 (配牌聽)
    game = position(hands={1: READY_36S + "7z"}, turn=1, drawn="7z", first_go=True)
    game.apply(act("1 ting 7z"))
    assert game.ready_on_deal[1] and game.ready_dealt[1]
    assert game.win_context(1, tile("6s"), self_drawn=False).dealt_ready


def test_a_non_dealer_made_ready_by_the_first_draw_is_not_ready_as_dealt():
    # the dealt 16 hold 4s and 7z apart; the drawn 5s makes them wait once 7z goes
    game = position(hands={1: "123m456m789m123p4s99s7z5s"}, turn=1, drawn="5s", first_go=True)
    game.apply(act("1 ting 7z"))
    assert game.ready_on_deal[1] and not game.ready_dealt[1]


def test_the_dealers_ting_on_the_first_discard_is_never_ready_as_dealt():
    game = position(hands={0: READY_36S + "7z"}, drawn="7z", first_go=True)
    game.apply(act("0 ting 7z"))
    assert game.ready_on_deal[0] and not game.ready_dealt[0]


def test_ting_later_is_not_heavenly_ready():
    game = position(hands={0: READY_36S + "7z"})
    game.apply(act("0 ting 7z"))
    assert game.ready[0] and not game.ready_on_deal[0]


def test_self_draw_after_a_flower_replacement_is_after_flower():
    game = position(hands={0: READY_36S, 3: "258m369m147p258p369s1z2z"}, wall="f1", back="6s", turn=3)
    game.apply(act("3 discard 1z"))
    pass_all(game)
    out = game.outcome
    assert out.self_drawn and out.kong_replacement and out.after_flower
    assert scored(game, 0)["槓上開花"] == 1
    game.options = KONG_ONLY  # the same win at a 槓上開花限槓 table
    assert "槓上開花" not in scored(game, 0)


def test_self_draw_after_a_kong_replacement_is_not_after_flower():
    game = position(hands={0: "1111m456m789m123p45s99s"}, back="6s", options=KONG_ONLY)
    game.apply(act("0 ankong 1m"))
    out = game.outcome
    assert out.kong_replacement and not out.after_flower
    assert scored(game, 0)["槓上開花"] == 1
