import pytest

from engine.cards import ALL_CARDS, Card, Kind, Month
from engine.cardset import FULL, CardSet, full_months, months_present
from engine.errors import InvalidCardError


def test_set_algebra_len_iteration_and_membership():
    a = CardSet.parse("pine-crane pine-ribbon maple-deer")
    b = CardSet([Card.MAPLE_DEER, Card.WILLOW_LIGHTNING])
    assert len(a) == 3 and bool(a) and not CardSet()
    assert list(a) == [Card.PINE_CRANE, Card.PINE_RIBBON, Card.MAPLE_DEER]
    assert a | b == CardSet.parse("pine-crane pine-ribbon maple-deer willow-lightning")
    assert a & b == CardSet([Card.MAPLE_DEER])
    assert a - b == CardSet.parse("pine-crane, pine-ribbon")
    assert a ^ b == CardSet.parse("pine-crane pine-ribbon willow-lightning")
    assert Card.PINE_CRANE in a and Card.WILLOW_LIGHTNING not in a and "pine-crane" not in a
    assert len(~a) == 45 and CardSet(FULL) == ~CardSet()
    assert CardSet([Card.PINE_CRANE]) <= a and a >= CardSet([Card.PINE_CRANE]) and not a <= b
    assert a.isdisjoint(CardSet([Card.WILLOW_SWALLOW]))


def test_repr_evaluates_back_and_str_lists_codes():
    s = CardSet.parse("pine-crane willow-lightning paulownia-plain-3")
    assert eval(repr(s)) == s
    assert str(s) == "pine-crane willow-lightning paulownia-plain-3"
    assert hash(s) == hash(eval(repr(s)))


def test_immutable_and_validated():
    s = CardSet()
    with pytest.raises(AttributeError):
        s.mask = 3  # type: ignore[misc]
    with pytest.raises(InvalidCardError):
        CardSet(1 << 48)
    with pytest.raises(InvalidCardError):
        CardSet([48])
    with pytest.raises(InvalidCardError, match="not in"):
        s.remove(Card.PINE_CRANE)


def test_filters_and_month_counters():
    full = CardSet(FULL)
    assert len(full.of_kind(Kind.BRIGHT)) == 5
    assert next(iter(full.of_month(Month.WILLOW))) is Card.WILLOW_RAINMAN
    assert full_months(FULL) == 12 and months_present(FULL) == 12
    hand = CardSet.parse("pine-crane pine-ribbon pine-plain-1 pine-plain-2 maple-deer")
    assert full_months(hand.mask) == 1 and months_present(hand.mask) == 2
    assert full_months(CardSet(ALL_CARDS[1:5]).mask) == 0
    added = CardSet().add(Card.PINE_CRANE)
    assert Card.PINE_CRANE in added and added.remove(Card.PINE_CRANE) == CardSet()
