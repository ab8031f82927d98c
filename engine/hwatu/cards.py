"""The 48 cards in Korean terms: gwang, yeol, tti, pi, the ribbon sets and godori, as 48-bit masks.

Card identity is the engine's (``engine.cards.Card``, Japanese month order); only numbering and names
change: ``korean_month(card)`` puts paulownia at 11 and willow (rain) at 12.
"""

from __future__ import annotations

from typing import Final

from engine.cards import Card, Kind, Month, Ribbon
from engine.cardset import KIND_MASKS, RIBBON_MASKS, mask_of
from engine.errors import ProfileError

GWANG: Final = KIND_MASKS[Kind.BRIGHT]  # 광: crane, curtain, moon, phoenix, rain man
YEOL: Final = KIND_MASKS[Kind.ANIMAL]  # 열끗: nine animals, the sake cup among them
TTI: Final = KIND_MASKS[Kind.RIBBON]  # 띠: ten ribbons
PI: Final = KIND_MASKS[Kind.PLAIN]  # 피: 24 plains, the willow lightning card among them
RAIN_GWANG: Final = 1 << Card.WILLOW_RAINMAN  # 비광
SAKE_CUP: Final = 1 << Card.CHRYSANTHEMUM_SAKE  # 국진: an animal or a double pi
GODORI: Final = mask_of((Card.PLUM_WARBLER, Card.WISTERIA_CUCKOO, Card.PAMPAS_GEESE))  # the three birds
HONGDAN: Final = RIBBON_MASKS[Ribbon.POEM]  # 홍단: pine, plum, cherry
CHEONGDAN: Final = RIBBON_MASKS[Ribbon.BLUE]  # 청단: peony, chrysanthemum, maple
CHODAN: Final = mask_of((Card.WISTERIA_RIBBON, Card.IRIS_RIBBON, Card.CLOVER_RIBBON))  # 초단

# Romanised Korean month names (the plant words hwatu players use), in Japanese month order.
MONTH_ROMAN: Final = {
    Month.PINE: "songhak", Month.PLUM: "maejo", Month.CHERRY: "beotkkot", Month.WISTERIA: "heukssari",
    Month.IRIS: "nancho", Month.PEONY: "moran", Month.CLOVER: "hongssari", Month.PAMPAS: "gongsan",
    Month.CHRYSANTHEMUM: "gukjin", Month.MAPLE: "danpung", Month.WILLOW: "bi", Month.PAULOWNIA: "odong",
}


def korean_month(card: Card) -> int:
    """The card's month number in Korean order (paulownia 11, willow 12)."""
    return card.month.korean


def month_by_word(word: str) -> Month:
    """A month from a plant word (``willow``, ``bi``), an English month name or a Korean month number."""
    norm = word.strip().lower()
    for month in Month:
        if norm in (month.plant, MONTH_ROMAN[month], str(month.korean)):
            return month
    raise ProfileError(f"unknown month {word!r}; use a plant such as willow, maple or a Korean number 1-12")
