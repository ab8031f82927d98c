"""A set of Kan cards as a 53-bit integer: bit ``i`` is ``Card(i)`` (bits 0, 13 and 26 are never set).

Immutable, with set algebra and a repr that evaluates back, like python-chess's ``SquareSet``. The
engine keeps raw ``int`` masks in its hot loops; the masks below let it ask suit questions in one ``&``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from engine.errors import InvalidCardError
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


class CardSet:
    """Immutable set of Kan cards. ``CardSet.parse("AS 10H JOKER")``, ``card in s``, ``s | t``."""

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: int | Iterable[Card] = 0) -> None:
        if isinstance(cards, int):
            if cards < 0 or cards & ~FULL:
                raise InvalidCardError(f"card mask {cards:#x} holds bits that are no Kan card")
            mask = cards
        else:
            mask = 0
            for card in cards:
                if not isinstance(card, int) or not FULL >> card & 1:
                    raise InvalidCardError(f"{card!r} is not a Kan card")
                mask |= 1 << card
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> CardSet:
        """Cards from codes separated by spaces or commas (or an iterable of codes)."""
        words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
        return cls(parse_card(word) for word in words)

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_of(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card <= Card.JOKER and bool(self.mask >> card & 1)

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

    def of_suit(self, suit: Suit) -> CardSet:
        return CardSet(self.mask & SUIT_MASKS[suit])

    @property
    def points(self) -> int:
        """Aces, kings, queens and jacks in the set."""
        return (self.mask & POINT_MASK).bit_count()

    def codes(self) -> list[str]:
        return [card.code for card in self]

    def __repr__(self) -> str:
        return f"CardSet({self.mask:#x})"

    def __str__(self) -> str:
        return " ".join(self.codes())
