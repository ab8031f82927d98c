"""Partnerships: the joker's and the pin's holders say kan, a double holder hands the pin on and gets a card
back, partners never sit side by side, iku/koi settle the lead, and views hide the partnership."""

import pytest

from engine.errors import IllegalMoveError
from engine.kan.actions import Action, ActionKind
from engine.kan.cards import Card
from engine.kan.deal import KanDeal
from engine.kan.hands import Hands
from engine.kan.table import DealSetup, Phase, SeatChange, Side

CLUBS_FIRST = DealSetup()  # deal 1, clubs trump: the pin is the AC


def deal_with(fixed: dict[int, str]) -> KanDeal:
    return KanDeal(Hands.arrange(fixed), CLUBS_FIRST)


def announce(deal: KanDeal) -> None:
    while deal.phase is Phase.ANNOUNCE:
        (only,) = deal.legal_moves  # forced: the holder shows the card
        deal.push(only)


def test_two_holders_say_kan_and_play_together():
    deal = deal_with({0: "JOKER", 2: "AC"})
    assert deal.phase is Phase.ANNOUNCE and deal.turn == 0
    assert list(deal.legal_moves) == [Action.kan(Card.JOKER, 0)]
    with pytest.raises(IllegalMoveError, match="joker first"):
        deal.push(Action.kan(Card.ACE_OF_CLUBS, 2))
    with pytest.raises(IllegalMoveError, match="player 2 cannot show the JOKER: it is in player 1's hand"):
        deal.push(Action.kan(Card.JOKER, 1))
    deal.push(Action.kan(Card.JOKER, 0))
    assert deal.turn == 2 and list(deal.legal_moves) == [Action.kan(Card.ACE_OF_CLUBS, 2)]
    deal.push(Action.kan(Card.ACE_OF_CLUBS, 2))
    assert deal.kankei == (0, 2) and deal.talk.seat_change is None and deal.order == (0, 1, 2, 3, 4)
    assert [deal.side(p) for p in range(5)] == [Side.KANKEI, Side.MUKANKEI, Side.KANKEI, Side.MUKANKEI, Side.MUKANKEI]
    assert deal.phase is Phase.CALL and deal.turn == 0  # the joker's partner speaks first


def test_a_double_holder_hands_the_pin_to_the_player_two_seats_right_and_gets_a_card_back():
    deal = deal_with({3: "JOKER AC", 0: "7D 8D"})
    announce(deal)
    partner = 0  # seats 3 -> 4 -> 0: two seats to the right
    assert deal.kankei == (3, partner)
    assert deal.phase is Phase.GIVE and deal.turn == partner
    assert Card.ACE_OF_CLUBS in deal.hand(partner) and deal.hand_size(partner) == 11 and deal.hand_size(3) == 9
    assert Action.give(Card.ACE_OF_CLUBS) not in deal.legal_moves
    with pytest.raises(IllegalMoveError, match="the pin stays with the partner"):
        deal.push(Action.give(Card.ACE_OF_CLUBS))
    with pytest.raises(IllegalMoveError, match="say which card"):
        deal.push(Action.give())
    assert len(deal.legal_moves) == 10
    deal.push(Action.give(Card.SEVEN_OF_DIAMONDS))
    assert Card.SEVEN_OF_DIAMONDS in deal.hand(3) and Card.SEVEN_OF_DIAMONDS not in deal.hand(partner)
    assert deal.hand_size(3) == deal.hand_size(partner) == 10
    assert deal.talk.seat_change is None  # two seats apart: never side by side
    assert deal.phase is Phase.CALL and deal.turn == 3
    deal.pop()
    assert deal.phase is Phase.GIVE and deal.hand_size(partner) == 11


@pytest.mark.parametrize(
    "joker, ace, mover, past, order",
    [
        (1, 2, 2, 3, (0, 1, 3, 2, 4)),  # the pin's holder sits on the right of the joker's: it moves
        (2, 1, 2, 3, (0, 1, 3, 2, 4)),  # the joker's holder on the right: it moves
        (4, 0, 0, 1, (1, 0, 2, 3, 4)),  # across seat 0: player 1 is on player 5's right
    ],
)
def test_partners_side_by_side_move_apart_and_the_change_is_recorded(joker, ace, mover, past, order):
    deal = deal_with({joker: "JOKER", ace: "AC"})
    announce(deal)
    assert deal.talk.seat_change == SeatChange(mover, past)
    assert str(deal.talk.seat_change) == f"player {mover + 1} moved past player {past + 1}"
    assert deal.order == order
    seats = [deal.order.index(p) for p in (joker, ace)]
    assert (seats[0] - seats[1]) % 5 in (2, 3)  # not side by side any more
    assert deal.right[past] == mover  # play now reaches the mover after the player it moved past
    deal.pop()
    assert deal.order == (0, 1, 2, 3, 4) and deal.right == (1, 2, 3, 4, 0)


def test_the_seat_rule_can_be_switched_off():
    from dataclasses import replace

    from engine.kan.profile import KanProfile

    deal = KanDeal(Hands.arrange({1: "JOKER", 2: "AC"}), CLUBS_FIRST, replace(KanProfile(), seat_rule=False))
    announce(deal)
    assert deal.talk.seat_change is None and deal.order == (0, 1, 2, 3, 4)


@pytest.mark.parametrize(
    "words, leader",
    [
        (("iku", "koi"), 0),  # the joker's partner goes
        (("koi", "iku"), 2),  # the pin's partner goes
        (("iku", "iku"), 1),  # same word: the mukankei player on the (joker partner's) right
        (("koi", "koi"), 1),
    ],
)
def test_iku_and_koi_settle_who_leads_the_first_trick(words, leader):
    deal = deal_with({0: "JOKER", 2: "AC"})
    announce(deal)
    with pytest.raises(IllegalMoveError, match="say iku or koi"):
        deal.push(Action.play(Card.THREE_OF_CLUBS))
    for word in words:
        deal.push(Action.parse(word))
    assert deal.talk.words == tuple(ActionKind[w.upper()] for w in words)
    assert deal.phase is Phase.PLAY and deal.turn == deal.lead == leader
    assert deal.side(leader) is (Side.KANKEI if words[0] != words[1] else Side.MUKANKEI)


def test_views_hide_the_partnership_until_kan_is_said():
    deal = deal_with({0: "JOKER", 2: "AC"})
    outsider, joker_holder, ace_holder = deal.view(1), deal.view(0), deal.view(2)
    assert outsider.kankei is None and all(outsider.side(p) is None for p in range(5))
    assert outsider.turn == -1  # who holds the joker is not known to player 2
    assert [a.player for a in outsider.legal_moves] == [0, 2, 3, 4]  # anyone but player 2 might hold it
    assert joker_holder.side(0) is Side.KANKEI and joker_holder.kankei is None and joker_holder.side(2) is None
    assert ace_holder.side(2) is Side.KANKEI and ace_holder.kankei is None
    assert all(len(outsider.hand(p)) == 0 and outsider.hidden[p] == 10 for p in (0, 2, 3, 4))
    announce(deal)
    outsider = deal.view(1)
    assert outsider.kankei == (0, 2) and outsider.side(1) is Side.MUKANKEI
    assert outsider.hand(0) == deal.hand(0) & outsider.hand(0) and Card.JOKER in outsider.hand(0)
    assert Card.ACE_OF_CLUBS in outsider.hand(2) and len(outsider.hand(3)) == 0


def test_a_double_holder_knows_the_partnership_at_once_and_the_card_given_back_stays_private():
    deal = deal_with({3: "JOKER AC", 0: "7D"})
    assert deal.view(3).kankei == (3, 0)  # the holder of both knows; the others do not
    assert deal.view(0).kankei is None and deal.view(0).side(0) is None  # not even the future partner
    announce(deal)
    deal.push(Action.give(Card.SEVEN_OF_DIAMONDS))
    giver, receiver, outsider = deal.view(0), deal.view(3), deal.view(1)
    assert Card.SEVEN_OF_DIAMONDS in giver.hand(3)  # the giver knows where it went
    assert Card.SEVEN_OF_DIAMONDS in receiver.hand(3)
    assert Card.SEVEN_OF_DIAMONDS not in outsider.hand(3) and outsider.hidden[3] == 9
    assert Card.ACE_OF_CLUBS in outsider.hand(0)  # the pin's way is public: it was announced
    assert deal.observed(Action.give(Card.SEVEN_OF_DIAMONDS), 1) == Action.give()


def test_an_outsiders_view_follows_the_handover_with_an_unseen_card():
    deal = deal_with({3: "JOKER AC"})
    view = deal.view(1)
    for _ in range(2):
        action = next(iter(deal.legal_moves))
        view.push(deal.observed(action, 1))
        deal.push(action)
    assert view.phase is Phase.GIVE and view.turn == 0 and view.kankei == (3, 0)
    assert Action.give() in view.legal_moves  # player 2 does not see which card comes back
    view.push(Action.give())
    assert view.hidden[3] == 9 and view.hand(3) == deal.hand(3) & view.hand(3) and view.hand_size(3) == 10
