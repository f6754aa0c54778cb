"""Who pays what in guangdong (document 004, 十/十一/十二): 自摸 from all three, the 点炮 rows, 抢杠 paid
by the robbed player for all three, kong payments only when someone wins, and 买马 for the dealer."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.meld import parse_melds
from engine.scoring import score_win
from engine.scoring.guangdong import DISCARD_PAYS, horse_payments, horse_seat, settle
from engine.settlement import Payment, SettleContext
from engine.tiles import parse_tiles, tile_from_str
from tests.scoring._util import ctx

NO_MELDS = ((), (), (), ())


def scored(concealed, win, melds=(), **flags):
    result = score_win(ctx(concealed, win, melds, **flags), "guangdong")
    assert result.valid, result.reason
    return result


ORDINARY = scored("123m456p789s1155z", "5z", self_drawn=True)
SEVEN_PAIRS = scored("1133m2244p6688s7z", "7z", self_drawn=True)
QING_YI_SE = scored("11123456789m23m", "4m", self_drawn=True)


def melds(*per_seat):
    return tuple(tuple(parse_melds(m)) for m in per_seat)


def test_self_draw_is_paid_by_each_of_the_other_three():
    assert settle(ORDINARY, SettleContext(winner=2, dealer=0)).deltas == (-2, -2, 6, -2)
    assert settle(SEVEN_PAIRS, SettleContext(winner=0, dealer=0)).deltas == (18, -6, -6, -6)


@pytest.mark.parametrize(
    ("hand", "win", "paid"),
    [("123m456p789s1155z", "5z", 6), ("1133m2244p6688s7z", "7z", 18), ("11123456789m23m", "4m", 24)],
    ids=["普通", "七小对", "清一色"],
)
def test_robbed_kong_owner_pays_three_shares_alone(hand, win, paid):
    """抢杠: 普通 6, 七小对 18, 清一色 24 — the document's own examples."""
    rob = scored(hand, win, robbing_kong=True)
    settlement = settle(rob, SettleContext(winner=1, dealer=0, discarder=3, robbing_kong=True))
    assert settlement.deltas == (0, paid, 0, -paid)
    assert [p.reason for p in settlement.payments] == ["抢杠"]


@pytest.mark.parametrize("name", list(DISCARD_PAYS))
def test_discard_wins_pay_what_the_document_says(name):
    hands = {
        "字一色": ("111z222z333z4445z", "5z", (), {}),
        "超豪华七小对": ("1111m3333p6688s7z", "7z", (), {}),
        "全幺九": ("111m999m111p99s11s", "9s", (), {}),
        "超超豪华七小对": ("1111m3333p6666s7z", "7z", (), {}),
        "十八罗汉": ("5z", "5z", ["ankong:1111m", "kong:2222p", "addkong:3333s", "kong:4444z"], {}),
        "十三幺": ("19m19p19s1234567z", "1m", (), {}),
        "地胡": ("123m456p789s1155z", "5z", (), {"earthly": True, "from_dealer": True}),
    }
    hand, win, meld_list, flags = hands[name]
    result = scored(hand, win, meld_list, **flags)
    assert [i.name for i in result.items] == [name]
    own, rest = DISCARD_PAYS[name]
    deltas = settle(result, SettleContext(winner=1, dealer=0, discarder=0)).payments
    win_pays = {p.payer: p.amount for p in deltas if p.reason == "点炮"}
    assert win_pays == ({0: own, 2: rest, 3: rest} if rest else {0: own})


def test_discard_amounts_are_thirty_for_twenty_sixty_for_forty_and_36_18_18_for_eighteen_arhats():
    assert DISCARD_PAYS["字一色"] == (30, 0) and DISCARD_PAYS["超超豪华七小对"] == (60, 0)
    assert DISCARD_PAYS["十八罗汉"] == (36, 18)
    kongs = ["kong:1111m", "kong:2222p", "addkong:3333s", "kong:4444z"]
    result = scored("5z", "5z", kongs)
    arhat = SettleContext(winner=1, dealer=0, discarder=2, melds=melds([], kongs, [], []))
    # the win: 36 + 18 + 18; the winner's four 明杠: 1 × 4 from each of the other three
    assert settle(result, arhat).deltas == (-18 - 4, 72 + 12, -36 - 4, -18 - 4)


def test_self_drawn_only_hand_cannot_be_settled_on_a_discard():
    with pytest.raises(ValueError, match="必须自摸"):
        settle(SEVEN_PAIRS, SettleContext(winner=1, dealer=0, discarder=2))


def test_concealed_kong_collects_two_and_exposed_kong_one_from_each_other_player():
    table = melds([], ["ankong:9999p"], ["kong:1111s"], ["addkong:2222s"])
    settlement = settle(ORDINARY, SettleContext(winner=0, dealer=0, melds=table))
    win = (6, -2, -2, -2)
    kongs = (-2 - 1 - 1, 6 - 1 - 1, 3 - 2 - 1, 3 - 2 - 1)
    assert settlement.deltas == tuple(w + k for w, k in zip(win, kongs, strict=True))
    assert [(i.name, i.value, i.seat) for i in settlement.extras] == [
        ("暗杠 ×1", 6, 1),
        ("明杠 ×1", 3, 2),
        ("明杠 ×1", 3, 3),
    ]
    assert [(i.name, i.value) for i in settlement.items] == [("普通自摸胡", 2)]


def test_kongs_add_up_per_kong():
    table = melds(["ankong:9999p", "ankong:1111z", "kong:1111s"], [], [], [])
    settlement = settle(ORDINARY, SettleContext(winner=1, dealer=1, melds=table))
    assert settlement.deltas == (-2 + 15, 6 - 5, -2 - 5, -2 - 5)
    assert [(i.name, i.value, i.seat) for i in settlement.extras] == [("暗杠 ×2", 12, 0), ("明杠 ×1", 3, 0)]


def test_robbed_player_pays_the_win_but_kongs_settle_with_everyone():
    """但杠牌需要与其他玩家进行计算: the robbing win is the robbed player's alone, kongs stay."""
    rob = scored("123m456p789s1155z", "5z", robbing_kong=True)
    table = melds([], [], ["ankong:9999p", "pon:111s"], [])  # the robbed 加杠 is a 碰 again
    settlement = settle(rob, SettleContext(winner=1, dealer=0, discarder=2, robbing_kong=True, melds=table))
    assert settlement.deltas == (-2, 6 - 2, -6 + 6, -2)


def test_horses_map_to_seats_counted_from_the_dealer():
    """一 庄家, 二 下家, 三 对家, 四 上家, 五 庄家 …; 东南西北中发白 likewise."""
    dealer = 2
    numbers = [horse_seat(tile_from_str(f"{n}p"), dealer) for n in range(1, 10)]
    assert numbers == [2, 3, 0, 1, 2, 3, 0, 1, 2]
    honours = [horse_seat(tile_from_str(t), dealer) for t in ("1z", "2z", "3z", "4z", "7z", "6z", "5z")]
    assert honours == [2, 3, 0, 1, 2, 3, 0]  # 东 南 西 北 中 发 白


def test_a_horse_on_the_dealer_settles_the_dealers_own_result_again():
    win = settle(ORDINARY, SettleContext(winner=0, dealer=0, horses=tuple(parse_tiles("5m"))))
    assert win.deltas == (12, -4, -4, -4)
    assert [(i.name, i.value, i.seat) for i in win.extras] == [("庄家买马 五萬", 6, 0)]


def test_a_horse_on_the_winner_gives_the_dealer_the_winners_gains_from_the_others():
    # seat 1 self-draws 2 from each; the horse 2s names seat 1 (下家): seats 2 and 3 pay the dealer 2
    # more each; the dealer's own 2 to seat 1 would be paid to themselves and drops out
    s = settle(ORDINARY, SettleContext(winner=1, dealer=0, horses=tuple(parse_tiles("2s"))))
    assert s.deltas == (-2 + 4, 6, -2 - 2, -2 - 2)
    assert [(i.value, i.seat) for i in s.extras] == [(4, 1)]


def test_a_horse_on_a_loser_makes_the_dealer_lose_with_them():
    # seat 1 self-draws; the horse 3m names 对家 (seat 2), who paid 2: the dealer pays seat 1 two more
    s = settle(ORDINARY, SettleContext(winner=1, dealer=0, horses=tuple(parse_tiles("3m"))))
    assert s.deltas == (-4, 8, -2, -2)
    assert [(i.value, i.seat) for i in s.extras] == [(-2, 2)]


def test_a_horse_on_a_seat_that_broke_even_settles_nothing():
    # seat 2 discards into seat 1's 字一色 (30); 上家 (seat 3) is untouched: 平, no settlement
    big = scored("111z222z333z4445z", "5z")
    s = settle(big, SettleContext(winner=1, dealer=0, discarder=2, horses=tuple(parse_tiles("4p"))))
    assert s.deltas == (0, 30, -30, 0)
    assert [(i.value, i.seat) for i in s.extras] == [(0, 3)]


def test_every_horse_is_one_more_settlement_and_kongs_are_part_of_the_seats_result():
    table = melds([], ["ankong:9999p"], [], [])
    horses = tuple(parse_tiles("1m5m2m1z"))  # dealer, dealer, 下家, dealer
    s = settle(ORDINARY, SettleContext(winner=0, dealer=0, melds=table, horses=horses))
    # base: dealer +6 -2 = 4; seat 1: -2 + 6 = 4; seats 2, 3: -2 -2 = -4
    # horse on the dealer (×3): dealer +4 each time (6 from the win, -2 to seat 1's kong)
    # horse on seat 1: the kong's 2 from seats 2 and 3; its payments to and from the dealer drop out
    assert [(i.value, i.seat) for i in s.extras] == [(6, 1), (4, 0), (4, 0), (4, 1), (4, 0)]
    assert s.deltas == (4 + 16, 4, -4 - 3 * 2 - 2, -4 - 3 * 2 - 2)


def test_a_draw_game_pays_no_kongs():
    from engine.scoring import get_settle_draw

    assert get_settle_draw("guangdong") is None  # 无人胡牌将不进行此结算


payment = st.builds(
    Payment,
    payer=st.integers(0, 3),
    payee=st.integers(0, 3),
    tai=st.just(0),
    amount=st.integers(0, 60),
    reason=st.just("x"),
).filter(lambda p: p.payer != p.payee)


@given(st.lists(payment, max_size=12), st.lists(st.integers(0, 33), max_size=4), st.integers(0, 3))
def test_horse_payments_are_zero_sum_and_each_line_is_the_dealers_change(base, horses, dealer):
    extra, lines = horse_payments(base, horses, dealer)
    got = [0, 0, 0, 0]
    for p in extra:
        assert p.payer != p.payee
        got[p.payer] -= p.amount
        got[p.payee] += p.amount
    assert sum(got) == 0 and len(lines) == len(horses)
    assert got[dealer] == sum(i.value for i in lines)
