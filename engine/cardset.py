"""A set of hanafuda cards as a 48-bit integer: bit ``i`` is ``Card(i)``.

Like python-chess's ``SquareSet``: immutable, cheap to copy, with set algebra and a repr that
evaluates back. The engines keep raw ``int`` masks in their hot loops and hand out ``CardSet``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from engine.bitset import BitSet
from engine.cards import ALL_CARDS, Card, Kind, Month, Ribbon, parse_card

FULL: Final = (1 << 48) - 1


class CardSet(BitSet[Card]):
    """Immutable set of cards. ``CardSet.parse("pine-crane maple-deer")``, ``card in s``, ``s | t``."""

    __slots__ = ()
    FULL = FULL
    ITEMS = ALL_CARDS

    @staticmethod
    def parse_item(word: str) -> Card:
        return parse_card(word)

    def of_month(self, month: Month) -> CardSet:
        return CardSet(self.mask & MONTH_MASKS[month])

    def of_kind(self, kind: Kind) -> CardSet:
        return CardSet(self.mask & KIND_MASKS[kind])


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards of a raw mask, lowest first (hot-path helper without a CardSet)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(ALL_CARDS[low.bit_length() - 1])
        mask ^= low
    return out


NIBBLE_LOW: Final = int("0001" * 12, 2)  # the lowest card of every month


def full_months(mask: int) -> int:
    """Number of months with all four cards in ``mask``."""
    return (mask & mask >> 1 & mask >> 2 & mask >> 3 & NIBBLE_LOW).bit_count()


def months_present(mask: int) -> int:
    """Number of months with at least one card in ``mask``."""
    return ((mask | mask >> 1 | mask >> 2 | mask >> 3) & NIBBLE_LOW).bit_count()


MONTH_MASKS: Final = {m: 0b1111 << (4 * (m - 1)) for m in Month}
MONTH_MASK_BY_CARD: Final = tuple(0b1111 << (4 * (c // 4)) for c in range(48))
KIND_MASKS: Final = {k: mask_of(c for c in Card if c.kind is k) for k in Kind}
RIBBON_MASKS: Final = {r: mask_of(c for c in Card if c.ribbon is r) for r in Ribbon}
