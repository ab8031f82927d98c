"""A set of Kan cards as a 53-bit integer: bit ``i`` is ``Card(i)`` (bits 0, 13 and 26 are never set).

Immutable, with set algebra and a repr that evaluates back, like python-chess's ``SquareSet``. The
engine keeps raw ``int`` masks in its hot loops; the masks below let it ask suit questions in one ``&``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from engine.bitset import BitSet
from engine.kan.cards import ALL_CARDS, BY_VALUE, Card, Suit, parse_card


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards of a raw mask, lowest first (hot-path helper without a ``CardSet``)."""
    out: list[Card] = []
    while mask:
        low = mask & -mask
        out.append(BY_VALUE[low.bit_length() - 1])  # type: ignore[arg-type]
        mask ^= low
    return out


FULL: Final = mask_of(ALL_CARDS)
JOKER_BIT: Final = 1 << Card.JOKER
SUIT_MASKS: Final = tuple(FULL & (0x1FFF << 13 * s) for s in Suit)
POINT_MASK: Final = mask_of(c for c in ALL_CARDS if c.points)


class CardSet(BitSet[Card]):
    """Immutable set of Kan cards. ``CardSet.parse("AS 10H JOKER")``, ``card in s``, ``s | t``."""

    __slots__ = ()
    FULL = FULL
    ITEMS = BY_VALUE

    @staticmethod
    def parse_item(word: str) -> Card:
        return parse_card(word)

    def of_suit(self, suit: Suit) -> CardSet:
        return CardSet(self.mask & SUIT_MASKS[suit])

    @property
    def points(self) -> int:
        """Aces, kings, queens and jacks in the set."""
        return (self.mask & POINT_MASK).bit_count()
