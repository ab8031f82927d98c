"""A deal of the 48 cards: the chance event that starts a round, explicit so that a round can start
from what a camera saw (OpenSpiel's chance node, made a value).

Hands may be partly unknown (``hidden`` counts the face-down cards of a hand) and the stock order may
be unknown (``stock is None``, only ``stock_size`` is known).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.cards import ALL_CARDS, Card
from engine.cardset import FULL, CardSet, cards_of, mask_of
from engine.errors import InvalidStateError


@dataclass(frozen=True)
class Deal:
    hands: tuple[CardSet, ...]
    field: CardSet
    stock: tuple[Card, ...] | None = None  # top card first
    hidden: tuple[int, ...] = ()
    stock_size: int = -1

    def __post_init__(self) -> None:
        if not 2 <= len(self.hands) <= 5:
            raise InvalidStateError(f"a deal needs 2 to 5 hands, not {len(self.hands)}")
        if not self.hidden:
            object.__setattr__(self, "hidden", (0,) * len(self.hands))
        if len(self.hidden) != len(self.hands) or min(self.hidden) < 0:
            raise InvalidStateError("hidden must give a non-negative count for every hand")
        if self.stock is not None:
            if len(set(self.stock)) != len(self.stock):
                raise InvalidStateError("the stock lists a card twice")
            if self.stock_size not in (-1, len(self.stock)):
                raise InvalidStateError(f"stock_size {self.stock_size} contradicts {len(self.stock)} stock cards")
            object.__setattr__(self, "stock_size", len(self.stock))
        elif self.stock_size < 0:
            raise InvalidStateError("an unknown stock needs its stock_size")
        self._check_disjoint()

    def _check_disjoint(self) -> None:
        places = [(f"hand {i + 1}", h.mask) for i, h in enumerate(self.hands)] + [("field", self.field.mask)]
        if self.stock is not None:
            places.append(("stock", mask_of(self.stock)))
        seen = 0
        for name, mask in places:
            twice = seen & mask
            if twice:
                raise InvalidStateError(f"{' '.join(c.code for c in cards_of(twice))} dealt twice (again in {name})")
            seen |= mask
        total = seen.bit_count() + sum(self.hidden) + (0 if self.stock is not None else self.stock_size)
        if total != 48:
            raise InvalidStateError(f"the deal accounts for {total} cards, not 48")

    @classmethod
    def shuffled(
        cls, seed: int | random.Random, players: int = 2, hand_size: int = 8, field_size: int = 8
    ) -> Deal:
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        keys = [rng.random() for _ in range(48)]  # a sort on random keys: faster than shuffle()
        cards = sorted(ALL_CARDS, key=keys.__getitem__)
        if players * hand_size + field_size > 48:
            raise InvalidStateError(f"{players} hands of {hand_size} and {field_size} on the field exceed 48 cards")
        hands = tuple(CardSet(mask_of(cards[i * hand_size : (i + 1) * hand_size])) for i in range(players))
        start = players * hand_size
        return cls(hands, CardSet(mask_of(cards[start : start + field_size])), tuple(cards[start + field_size :]))

    @property
    def unknown(self) -> CardSet:
        """Cards whose place this deal does not say (in a hidden hand or an unknown stock)."""
        known = self.field.mask
        for hand in self.hands:
            known |= hand.mask
        if self.stock is not None:
            known |= mask_of(self.stock)
        return CardSet(FULL & ~known)
