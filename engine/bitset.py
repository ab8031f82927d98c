"""An immutable set of cards as an integer bit mask, shared by the hanafuda and Kan card sets.

Like python-chess's ``SquareSet``: set algebra, ``len``, iteration lowest first, a repr that
evaluates back. A subclass names its deck: ``FULL`` (the mask of every card), ``ITEMS`` (the card of
each bit, ``None`` for a bit that is no card) and ``parse_item`` (a forgiving code parser).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, ClassVar, Generic, Self, TypeVar

from engine.errors import InvalidCardError

C = TypeVar("C", bound=int)


class BitSet(Generic[C]):
    FULL: ClassVar[int]
    ITEMS: ClassVar[tuple[Any, ...]]

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: int | Iterable[C] = 0) -> None:
        full = self.FULL
        if isinstance(cards, int):
            if cards < 0 or cards & ~full:
                raise InvalidCardError(f"card mask {cards:#x} holds bits that are no card of this deck")
            mask = cards
        else:
            mask = 0
            for card in cards:
                if not isinstance(card, int) or card < 0 or not full >> card & 1:
                    raise InvalidCardError(f"{card!r} is not a card of this deck")
                mask |= 1 << card
        object.__setattr__(self, "mask", mask)

    @staticmethod
    def parse_item(word: str) -> Any:
        """How one card code is read; each deck's set gives its own parser."""
        raise InvalidCardError(f"{word!r}: this set has no card parser")

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self) -> tuple[type[Self], tuple[int]]:
        return (type(self), (self.mask,))

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> Self:
        """Cards from codes separated by spaces or commas (or an iterable of codes)."""
        words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
        return cls(cls.parse_item(word) for word in words)

    def __iter__(self) -> Iterator[C]:
        items = self.ITEMS
        mask = self.mask
        while mask:
            low = mask & -mask
            yield items[low.bit_length() - 1]
            mask ^= low

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and card >= 0 and bool(self.mask >> card & 1)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, BitSet) and type(other) is type(self):
            return self.mask == other.mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: Self) -> Self:
        return type(self)(self.mask | other.mask)

    def __and__(self, other: Self) -> Self:
        return type(self)(self.mask & other.mask)

    def __sub__(self, other: Self) -> Self:
        return type(self)(self.mask & ~other.mask)

    def __xor__(self, other: Self) -> Self:
        return type(self)(self.mask ^ other.mask)

    def __invert__(self) -> Self:
        return type(self)(self.FULL & ~self.mask)

    def __le__(self, other: Self) -> bool:
        return self.mask & ~other.mask == 0

    def __ge__(self, other: Self) -> bool:
        return other.mask & ~self.mask == 0

    def isdisjoint(self, other: Self) -> bool:
        return self.mask & other.mask == 0

    def add(self, card: C) -> Self:
        return type(self)(self.mask | 1 << card)

    def remove(self, card: C) -> Self:
        if not self.mask >> card & 1:
            raise InvalidCardError(f"{self.ITEMS[card].code} is not in {self}")
        return type(self)(self.mask & ~(1 << card))

    def codes(self) -> list[str]:
        return [card.code for card in self]  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.mask:#x})"

    def __str__(self) -> str:
        return " ".join(self.codes())
