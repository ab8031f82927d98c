"""A set of hanafuda cards as a 48-bit integer: bit ``i`` is ``Card(i)``.

Like python-chess's ``SquareSet``: immutable, cheap to copy, with set algebra and a repr that
evaluates back. The engines keep raw ``int`` masks in their hot loops and hand out ``CardSet``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from engine.cards import ALL_CARDS, Card, Kind, Month, Ribbon, parse_card
from engine.errors import InvalidCardError

FULL: Final = (1 << 48) - 1


class CardSet:
    """Immutable set of cards. ``CardSet.parse("pine-crane maple-deer")``, ``card in s``, ``s | t``."""

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: int | Iterable[Card] = 0) -> None:
        if isinstance(cards, int):
            if not 0 <= cards <= FULL:
                raise InvalidCardError(f"card mask {cards:#x} is outside the 48-card deck")
            mask = cards
        else:
            mask = 0
            for card in cards:
                if not 0 <= card < 48:
                    raise InvalidCardError(f"{card!r} is not a card")
                mask |= 1 << card
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __reduce__(self) -> tuple[type[CardSet], tuple[int]]:
        return (CardSet, (self.mask,))

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> CardSet:
        """Cards from codes separated by spaces or commas (or an iterable of codes)."""
        words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
        return cls(parse_card(word) for word in words)

    def __iter__(self) -> Iterator[Card]:
        mask = self.mask
        while mask:
            low = mask & -mask
            yield ALL_CARDS[low.bit_length() - 1]
            mask ^= low

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 48 and bool(self.mask >> card & 1)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __xor__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask ^ other.mask)

    def __invert__(self) -> CardSet:
        return CardSet(FULL & ~self.mask)

    def __le__(self, other: CardSet) -> bool:
        return self.mask & ~other.mask == 0

    def __ge__(self, other: CardSet) -> bool:
        return other.mask & ~self.mask == 0

    def isdisjoint(self, other: CardSet) -> bool:
        return self.mask & other.mask == 0

    def add(self, card: Card) -> CardSet:
        return CardSet(self.mask | 1 << card)

    def remove(self, card: Card) -> CardSet:
        if not self.mask >> card & 1:
            raise InvalidCardError(f"{Card(card).code} is not in {self}")
        return CardSet(self.mask & ~(1 << card))

    def of_month(self, month: Month) -> CardSet:
        return CardSet(self.mask & MONTH_MASKS[month])

    def of_kind(self, kind: Kind) -> CardSet:
        return CardSet(self.mask & KIND_MASKS[kind])

    def codes(self) -> list[str]:
        return [card.code for card in self]

    def __repr__(self) -> str:
        return f"CardSet({self.mask:#x})"

    def __str__(self) -> str:
        return " ".join(self.codes())


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
