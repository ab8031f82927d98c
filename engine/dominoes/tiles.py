"""Domino tiles: the 28 pairs of 0-6 pips, codes ``a:b`` with a ≤ b, the Chinese civil/military split and
pip colours.

The Chinese set uses the 21 tiles without a blank (civil ones twice); the European double-six uses all 28
once. A tile is an ``IntEnum`` numbered 0..27 in code order (``0:0``, ``0:1``, ... ``6:6``), so a multiset
of tiles fits in an integer with two bits per tile (see ``tileset``).
"""

from __future__ import annotations

import enum
import re
from typing import Final

from engine.errors import InvalidCardError


class TileKind(enum.IntEnum):
    """Chinese classes: civil (two of each in the set), military (one each); blank tiles are European only."""

    CIVIL = 0
    MILITARY = 1
    BLANK = 2

    def __repr__(self) -> str:
        return f"TileKind.{self.name}"


class Tile(enum.IntEnum):
    """One kind of tile. ``Tile.parse("1:3")``, ``tile.code == "1:3"``, ``tile.pips == 4``."""

    T0_0 = 0
    T0_1 = 1
    T0_2 = 2
    T0_3 = 3
    T0_4 = 4
    T0_5 = 5
    T0_6 = 6
    T1_1 = 7
    T1_2 = 8
    T1_3 = 9
    T1_4 = 10
    T1_5 = 11
    T1_6 = 12
    T2_2 = 13
    T2_3 = 14
    T2_4 = 15
    T2_5 = 16
    T2_6 = 17
    T3_3 = 18
    T3_4 = 19
    T3_5 = 20
    T3_6 = 21
    T4_4 = 22
    T4_5 = 23
    T4_6 = 24
    T5_5 = 25
    T5_6 = 26
    T6_6 = 27

    def __repr__(self) -> str:
        return f"Tile.{self.name}"

    def __str__(self) -> str:
        return self.code

    @property
    def low(self) -> int:
        return LOW[self]

    @property
    def high(self) -> int:
        return HIGH[self]

    @property
    def code(self) -> str:
        return f"{LOW[self]}:{HIGH[self]}"

    @property
    def pips(self) -> int:
        return LOW[self] + HIGH[self]

    @property
    def is_double(self) -> bool:
        return LOW[self] == HIGH[self]

    @property
    def kind(self) -> TileKind:
        if LOW[self] == 0:
            return TileKind.BLANK
        return TileKind.CIVIL if self in CIVIL else TileKind.MILITARY

    @property
    def red_pips(self) -> int:
        """Red pips on a Chinese tile: every 1 and 4 is red, and half of the 6:6 (the European set has none)."""
        if LOW[self] == 0:
            return 0
        if self is Tile.T6_6:
            return 6
        return sum(n for n in (LOW[self], HIGH[self]) if n in (1, 4))

    def has(self, number: int) -> bool:
        return number in (LOW[self], HIGH[self])

    def other(self, number: int) -> int:
        """The number at the far end when this tile is laid against ``number``."""
        if number == LOW[self]:
            return HIGH[self]
        if number == HIGH[self]:
            return LOW[self]
        raise InvalidCardError(f"{self.code} has no {number}")

    def name_in(self, lang: str = "en") -> str:
        """The tile's name in ``zh``, ``en``, ``ko`` or ``uk`` (tiles with a blank are called by their code)."""
        from engine.dominoes.names import tile_name

        return tile_name(self, lang)

    @classmethod
    def of(cls, a: int, b: int) -> Tile:
        for n in (a, b):
            if not 0 <= n <= 6:
                raise InvalidCardError(f"no tile has {n} pips on one end (ends have 0 to 6)")
        return _BY_PAIR[(min(a, b), max(a, b))]

    @classmethod
    def parse(cls, text: str) -> Tile:
        return parse_tile(text)


_PAIRS: Final = tuple((a, b) for a in range(7) for b in range(a, 7))
LOW: Final = tuple(a for a, _ in _PAIRS)
HIGH: Final = tuple(b for _, b in _PAIRS)
PIPS: Final = tuple(a + b for a, b in _PAIRS)
NUMBERS: Final = tuple(1 << a | 1 << b for a, b in _PAIRS)  # bit n set: the tile has an end of n pips
ALL_TILES: Final = tuple(Tile)
_BY_PAIR: Final = {pair: Tile(i) for i, pair in enumerate(_PAIRS)}

# The issue's (and the rule books') order: civil tiles by rank, military by value, the Supreme pair last.
CIVIL: Final = (
    Tile.T6_6, Tile.T1_1, Tile.T4_4, Tile.T1_3, Tile.T5_5, Tile.T3_3, Tile.T2_2, Tile.T5_6, Tile.T4_6,
    Tile.T1_6, Tile.T1_5,
)
MILITARY: Final = (
    Tile.T3_6, Tile.T4_5, Tile.T2_6, Tile.T3_5, Tile.T2_5, Tile.T3_4, Tile.T1_4, Tile.T2_3, Tile.T2_4, Tile.T1_2,
)
CHINESE_TILES: Final = tuple(t for t in Tile if LOW[t] > 0)

_CODE = re.compile(r"^\s*(\d+)\s*[:\-/|.]?\s*(\d+)\s*$")


def parse_tile(text: str) -> Tile:
    """Parse ``1:3`` (also ``3:1``, ``1-3``, ``13``) or a unique name in any language (``heaven``, ``天牌``).

    Raises ``InvalidCardError`` saying what is wrong when the text names no single tile.
    """
    match = _CODE.match(text)
    if match:
        left, right = match.group(1), match.group(2)
        if len(left) > 1 or len(right) > 1:
            raise InvalidCardError(f"no tile has {max(int(left), int(right))} pips on one end ({text!r})")
        return Tile.of(int(left), int(right))
    from engine.dominoes.names import tiles_named

    found = tiles_named(text)
    if len(found) == 1:
        return found[0]
    if found:
        raise InvalidCardError(f"{text!r} names more than one tile: {' or '.join(t.code for t in found)}")
    raise InvalidCardError(f"unknown tile {text!r}: codes look like 1:3 or 6:6 (a:b, 0 ≤ a ≤ b ≤ 6)")
