"""Building explicit Koi-Koi deals for tests."""

from engine.cards import ALL_CARDS, Card
from engine.cardset import CardSet
from engine.deal import Deal


def make_deal(hand1: str, hand2: str, field: str, stock_top: str = "") -> Deal:
    """A full deal: the named cards, then the stock starting with ``stock_top`` and the rest in order."""
    hands = (CardSet.parse(hand1), CardSet.parse(hand2))
    table = CardSet.parse(field)
    top = [Card.parse(c) for c in stock_top.split()]
    used = hands[0] | hands[1] | table | CardSet(top)
    rest = [c for c in ALL_CARDS if c not in used]
    return Deal(hands, table, tuple(top + rest))
