"""Hwatu cards in Korean terms: month numbering, names, the lot for the first dealer, the deal in halves,
and the Go-Stop move kinds."""

import random

import pytest

from engine.cards import ALL_CARDS, Card, Month
from engine.cardset import CardSet
from engine.errors import InvalidMoveError, InvalidStateError, KibitzError, ProfileError
from engine.hwatu.cards import CHODAN, GODORI, GWANG, PI, TTI, YEOL, korean_month, month_by_word
from engine.hwatu.deal import deal_in_halves, dealer_by_lot, draw_for_dealer, explicit_deal
from engine.hwatu.names import TERMS, term, yak_name
from engine.moves import Move, MoveKind


def test_korean_order_puts_willow_at_12_and_paulownia_at_11_without_changing_the_cards():
    assert korean_month(Card.WILLOW_RAINMAN) == 12 and korean_month(Card.WILLOW_LIGHTNING) == 12
    assert korean_month(Card.PAULOWNIA_PHOENIX) == 11 and korean_month(Card.PAULOWNIA_PLAIN_3) == 11
    assert [korean_month(c) for c in ALL_CARDS[:40:4]] == list(range(1, 11))  # pine..maple keep their numbers
    # identity is untouched: same index, same code, same Japanese month
    assert Card.WILLOW_RAINMAN == 40 and Card.parse("willow-rainman") is Card.WILLOW_RAINMAN
    assert Card.WILLOW_RAINMAN.month is Month.WILLOW and int(Month.WILLOW) == 11
    assert Card.PAULOWNIA_PHOENIX == 44 and int(Card.PAULOWNIA_PHOENIX.month) == 12
    assert month_by_word("12") is Month.WILLOW and month_by_word("11") is Month.PAULOWNIA
    assert month_by_word("bi") is Month.WILLOW and month_by_word("danpung") is Month.MAPLE
    with pytest.raises(ProfileError, match="unknown month 'thirteen'"):
        month_by_word("thirteen")


def test_card_groups_in_korean_terms():
    assert (GWANG.bit_count(), YEOL.bit_count(), TTI.bit_count(), PI.bit_count()) == (5, 9, 10, 24)
    assert GWANG | YEOL | TTI | PI == (1 << 48) - 1
    assert CardSet(GODORI) == CardSet.parse("plum-warbler wisteria-cuckoo pampas-geese")
    assert CardSet(CHODAN) == CardSet.parse("wisteria-ribbon iris-ribbon clover-ribbon")
    assert Card.WILLOW_LIGHTNING in CardSet(PI) and Card.CHRYSANTHEMUM_SAKE in CardSet(YEOL)


def test_every_card_and_every_term_has_a_korean_name():
    names = [card.name_in("ko") for card in ALL_CARDS]
    assert len(set(names)) == 48 and all(names)
    assert Card.WILLOW_LIGHTNING.name_in("ko") == "비 쌍피" and Card.PAULOWNIA_PLAIN_3.name_in("ko") == "오동 쌍피"
    for name in TERMS:
        assert term(name, "ko") and term(name, "ko") != term(name, "en")
    assert term("godori", "ko") == "고도리" and term("hongdan", "ko") == "홍단" and term("pi-bak", "ko") == "피박"
    assert [term(yak_name(m), "ko") for m in (Month.WILLOW, Month.MAPLE)] == ["비약", "단풍약"]
    three_with_rain = CardSet.parse("pine-crane cherry-curtain willow-rainman").mask
    assert term("gwang", "ko", three_with_rain) == "비삼광" and term("gwang", "ko", GWANG) == "오광"
    assert term("gwang", "en", three_with_rain) == "3 brights with the rain man"
    with pytest.raises(KibitzError, match="not 'ja'"):
        term("gwang", "ja")
    with pytest.raises(KibitzError, match="no hwatu term"):
        term("koikoi", "ko")


def test_the_lot_uses_korean_month_order():
    # paulownia would beat willow in Japanese order; in Korean order willow (12) is the highest month
    assert dealer_by_lot([Card.PAULOWNIA_PHOENIX, Card.WILLOW_LIGHTNING, Card.PINE_CRANE]) == 1
    assert dealer_by_lot([Card.PAULOWNIA_PHOENIX, Card.WILLOW_LIGHTNING, Card.PINE_CRANE], highest=False) == 2
    assert dealer_by_lot([Card.MAPLE_DEER, Card.MAPLE_PLAIN_1]) is None  # a tie: draw again
    dealers = {draw_for_dealer(random.Random(seed), 4) for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert draw_for_dealer(random.Random(1), 4, "player-0") == 0


def test_the_deal_goes_in_two_halves_others_then_dealer_then_table():
    deal = deal_in_halves(ALL_CARDS, players=3, hand_size=7, field_size=6, dealer=0)
    cards = list(ALL_CARDS)
    # first half: 4 cards to player 2, to player 3, to the dealer, 3 to the table; then 3, 3, 3 and 3
    assert deal.hands[1] == CardSet(cards[0:4] + cards[15:18])
    assert deal.hands[2] == CardSet(cards[4:8] + cards[18:21])
    assert deal.hands[0] == CardSet(cards[8:12] + cards[21:24])
    assert deal.field == CardSet(cards[12:15] + cards[24:27])
    assert deal.stock == tuple(cards[27:])
    deal = deal_in_halves(ALL_CARDS, players=2, hand_size=10, field_size=8, dealer=1)
    assert deal.hands[0] == CardSet(cards[0:5] + cards[14:19])  # the non-dealer first
    with pytest.raises(InvalidStateError, match="48 cards"):
        deal_in_halves(ALL_CARDS[:47], 2, 10, 8)
    with pytest.raises(InvalidStateError, match="too short a stock"):
        deal_in_halves(ALL_CARDS, 5, 5, 8)


def test_explicit_deal_puts_the_named_cards_first():
    deal = explicit_deal(["pine-crane", "plum-warbler"], "pine-plain-1", "pine-ribbon maple-deer")
    assert deal.hands[0] == CardSet.parse("pine-crane") and deal.stock[:2] == (Card.PINE_RIBBON, Card.MAPLE_DEER)
    with pytest.raises(InvalidStateError, match="pine-crane dealt twice"):
        explicit_deal(["pine-crane", "pine-crane"], "")


def test_go_stop_move_kinds_parse_and_print():
    assert Move.parse("shake pine-crane") == Move.shake(Card.PINE_CRANE) == Move(MoveKind.SHAKE, Card.PINE_CRANE)
    bomb = Move.parse("bomb 1-crane take pine-plain-2")
    assert bomb == Move.bomb(Card.PINE_CRANE, Card.PINE_PLAIN_2)
    assert str(bomb) == "bomb pine-crane take pine-plain-2"
    assert repr(bomb) == "Move.bomb(Card.PINE_CRANE, take=Card.PINE_PLAIN_2)"
    assert Move.parse("go") == Move.go() == Move.koikoi()
    assert Move.parse(str(Move.shake(Card.MAPLE_DEER))) == Move.shake(Card.MAPLE_DEER)
    with pytest.raises(InvalidMoveError, match="'bomb CARD take CARD'"):
        Move.parse("bomb")
    with pytest.raises(InvalidMoveError, match="different months"):
        Move.parse("bomb pine-crane take plum-plain-1")
