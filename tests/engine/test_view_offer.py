"""``GameView.offer``: the tile the others may claim right now and who let it go, in every seat's
view (the claim prompt's picture shows it), and nothing outside a claim window."""

from engine.position import position
from engine.rules import TableOptions
from tests.engine.helpers import act, pass_all, tile


def test_a_discard_is_on_offer_to_every_viewer_during_its_claim_window():
    game = position(hands={0: "123m456m789m123p456p1s9s", 2: "555z666z777z44z99s5s8p1m"})
    assert all(game.view(s).offer is None for s in (None, 0, 1, 2, 3))  # a turn: nothing on offer
    game.apply(act("0 discard 9s"))
    assert game.phase.value == "claim"
    assert {game.view(s).offer for s in (None, 0, 1, 2, 3)} == {(0, tile("9s"))}
    pass_all(game)
    assert game.view(1).offer is None  # the window closed: the next seat drew


def test_an_added_kong_is_on_offer_while_it_may_be_robbed():
    game = position(
        hands={0: "9s456m789m123p456p1s", 2: "234m567m111z222z55z78s"},
        melds={0: ["pon:999s"]},
        options=TableOptions(may_pass_win=True),
    )
    game.apply(act("0 addkong 9s"))
    assert game.phase.value == "rob_kong"
    assert game.view(2).offer == (0, tile("9s"))
