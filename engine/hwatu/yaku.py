"""One scored element of a hwatu pile, for every hwatu game."""

from __future__ import annotations

from typing import NamedTuple


class Yaku(NamedTuple):
    """``Yaku("hongdan", 3, cards)``: a scoring element, its points and the cards (a mask) that make it."""

    name: str
    points: int
    cards: int = 0
