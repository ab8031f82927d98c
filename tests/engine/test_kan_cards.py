"""The Kan deck (50 cards, 16 points), card codes and their forgiving parse, the card set, dealt hands."""

import random

import pytest

from engine.errors import InvalidCardError, InvalidStateError
from engine.kan.cards import ALL_CARDS, Card, Rank, Suit, parse_card
from engine.kan.cardset import FULL, SUIT_MASKS, CardSet
from engine.kan.hands import Hands


def test_the_deck_is_52_minus_three_twos_plus_a_joker():
    assert len(ALL_CARDS) == 50 == len(set(c.code for c in ALL_CARDS)) == FULL.bit_count()
    assert sum(c.points for c in ALL_CARDS) == 16
    assert {c.code for c in ALL_CARDS if c.points} == {f"{r}{s}" for r in "AKQJ" for s in "CDHS"}
    twos = [c.code for c in ALL_CARDS if c.rank is Rank.TWO]
    assert twos == ["2S"]
    assert Card.JOKER.suit is None and Card.JOKER.rank is None and Card.JOKER.points == 0
    for suit in Suit:
        in_suit = [c for c in ALL_CARDS if c.suit is suit]
        assert len(in_suit) == (13 if suit is Suit.SPADES else 12)
        assert CardSet(in_suit).mask == SUIT_MASKS[suit]


def test_order_within_a_suit_is_a_k_q_j_10_down_to_2():
    spades = sorted((c for c in ALL_CARDS if c.suit is Suit.SPADES), reverse=True)
    assert [c.code for c in spades] == ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S"]


@pytest.mark.parametrize(
    "text, card",
    [
        ("AS", Card.ACE_OF_SPADES), ("10H", Card.TEN_OF_HEARTS), ("JC", Card.JACK_OF_CLUBS),
        ("QD", Card.QUEEN_OF_DIAMONDS), ("2S", Card.TWO_OF_SPADES), ("JOKER", Card.JOKER),
        ("10h", Card.TEN_OF_HEARTS), ("TH", Card.TEN_OF_HEARTS), ("h10", Card.TEN_OF_HEARTS),
        ("10♥", Card.TEN_OF_HEARTS), ("ten of hearts", Card.TEN_OF_HEARTS), (" q of d ", Card.QUEEN_OF_DIAMONDS),
        ("joker", Card.JOKER), ("jk", Card.JOKER), ("A♠", Card.ACE_OF_SPADES),
    ],
)
def test_parse_is_forgiving(text, card):
    assert parse_card(text) is card and Card.parse(text) is card


def test_codes_and_symbols_round_trip():
    for card in ALL_CARDS:
        assert parse_card(card.code) is card
        assert parse_card(card.symbol) is card
        assert eval(repr(card)) is card
        assert str(card) == card.code


@pytest.mark.parametrize(
    "text, message",
    [
        ("2C", "not in the Kan deck.*2S or 3C"),
        ("2h", "not in the Kan deck.*2S or 3H"),
        ("QX", "did you mean QS or QH or QD"),
        ("JOKR", "did you mean JOKER"),
        ("hello", "codes look like AS, 10H"),
        ("", "codes look like"),
    ],
)
def test_bad_codes_say_why_and_name_the_nearest(text, message):
    with pytest.raises(InvalidCardError, match=message):
        parse_card(text)


def test_suit_parse():
    assert Suit.parse("h") is Suit.HEARTS and Suit.parse("Spades") is Suit.SPADES and Suit.parse("♦") is Suit.DIAMONDS
    with pytest.raises(InvalidCardError, match="write C, D, H or S"):
        Suit.parse("stars")


def test_card_set_algebra_repr_and_points():
    a = CardSet.parse("AS KS 10H JOKER")
    b = CardSet([Card.TEN_OF_HEARTS, Card.TWO_OF_SPADES])
    assert len(a) == 4 and a.points == 2 and eval(repr(a)) == a and hash(eval(repr(a))) == hash(a)
    assert str(a) == "10H KS AS JOKER"  # card order
    assert a & b == CardSet([Card.TEN_OF_HEARTS]) and len(a | b) == 5 and a - b == CardSet.parse("AS KS JOKER")
    assert len(~a) == 46 and Card.JOKER in a and "AS" not in a and a.of_suit(Suit.SPADES) == CardSet.parse("KS AS")
    with pytest.raises(InvalidCardError):
        CardSet(1)  # bit 0 would be the 2 of clubs, which is not in the deck
    with pytest.raises(InvalidCardError, match="not in"):
        CardSet().remove(Card.JOKER)
    with pytest.raises(AttributeError):
        a.mask = 0  # type: ignore[misc]


def test_shuffled_hands_deal_ten_each_one_at_a_time_from_the_dealers_right():
    hands = Hands.shuffled(5, dealer=2)
    assert all(len(h) == 10 for h in hands.hands)
    union = CardSet()
    for h in hands.hands:
        assert union.isdisjoint(h)
        union |= h
    assert union == CardSet(FULL)
    # the same shuffle dealt by another dealer gives the same packets, one seat further round
    rng_a, rng_b = random.Random(9), random.Random(9)
    a, b = Hands.shuffled(rng_a, dealer=0), Hands.shuffled(rng_b, dealer=1)
    assert [b.hands[(p + 1) % 5] for p in range(5)] == list(a.hands)


def test_explicit_hands_are_checked():
    with pytest.raises(InvalidStateError, match="dealt twice"):
        Hands.arrange({0: "AS", 1: "AS"})
    with pytest.raises(InvalidStateError, match="holds 9 cards"):
        Hands(tuple(CardSet() for _ in range(5)), (9, 10, 10, 10, 10))
    with pytest.raises(InvalidStateError, match="5 players"):
        Hands((CardSet(),) * 4)
    parsed = Hands.parse(str(Hands.shuffled(3).seen_by(1)))
    assert parsed.hidden == (10, 0, 10, 10, 10) and len(parsed.unknown) == 40
    arranged = Hands.arrange({0: "JOKER AC", 3: "AS"})
    assert Card.JOKER in arranged.hands[0] and Card.ACE_OF_SPADES in arranged.hands[3]
