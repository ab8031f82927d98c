"""A multiset of domino tiles as an integer with two bits per tile (a count of 0 to 3), and the sets in use.

Like ``CardSet`` for cards: immutable, cheap, with a repr that evaluates back. The round keeps raw
``int`` masks in its hot loops; the helpers here work on those masks.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from engine.dominoes.tiles import ALL_TILES, CIVIL, HIGH, LOW, PIPS, Tile, TileKind, parse_tile
from engine.errors import InvalidCardError, InvalidStateError

LOW_BITS: Final = sum(1 << 2 * t for t in range(28))  # the low bit of every tile's count
UNIT: Final = tuple(1 << 2 * t for t in range(28))  # one copy of each tile
# For each number 0..6: the low count bit of every tile having an end of that number.
NUMBER_BITS: Final = tuple(sum(UNIT[t] for t in range(28) if n in (LOW[t], HIGH[t])) for n in range(7))
DOUBLE_BITS: Final = sum(UNIT[t] for t in range(28) if LOW[t] == HIGH[t])


def present(mask: int) -> int:
    """The low count bit of every tile the multiset holds at least once."""
    return (mask | mask >> 1) & LOW_BITS


def count_tiles(mask: int) -> int:
    return (mask & LOW_BITS).bit_count() + 2 * (mask >> 1 & LOW_BITS).bit_count()


def count_of(mask: int, tile: int) -> int:
    return mask >> 2 * tile & 3


def kinds_of(mask: int) -> list[Tile]:
    """The distinct tiles of a mask, lowest code first."""
    out = []
    bits = present(mask)
    while bits:
        low = bits & -bits
        out.append(ALL_TILES[low.bit_length() >> 1])
        bits ^= low
    return out


def tiles_of(mask: int) -> list[Tile]:
    """Every tile of a mask, repeated as often as it is held, lowest code first."""
    return [tile for tile in kinds_of(mask) for _ in range(count_of(mask, tile))]


def pips_of(mask: int) -> int:
    return sum(PIPS[tile] * count_of(mask, tile) for tile in kinds_of(mask))


def contains(mask: int, other: int) -> bool:
    """Whether multiset ``mask`` holds every tile of ``other`` at least as often."""
    return all(count_of(mask, t) >= count_of(other, t) for t in kinds_of(other))


def add_masks(a: int, b: int) -> int:
    total = 0
    for t in range(28):
        n = count_of(a, t) + count_of(b, t)
        if n > 3:
            raise InvalidStateError(f"{Tile(t).code} would be held {n} times")
        total |= n << 2 * t
    return total


def sub_masks(a: int, b: int) -> int:
    if not contains(a, b):
        short = next(Tile(t) for t in range(28) if count_of(a, t) < count_of(b, t))
        raise InvalidStateError(f"{short.code} is not there to take away")
    return a - b  # no borrow: every field of b is at most the field of a


def mask_from(tiles: Iterable[int]) -> int:
    mask = 0
    for tile in tiles:
        if not 0 <= tile < 28:
            raise InvalidCardError(f"{tile!r} is not a tile")
        if count_of(mask, tile) == 3:
            raise InvalidStateError(f"{Tile(tile).code} is given more than three times")
        mask += UNIT[tile]
    return mask


class TileSet:
    """Immutable multiset of tiles. ``TileSet.parse("1:3 6:6 6:6")``, ``tile in s``, ``s.count(t)``, ``s + t``."""

    __slots__ = ("mask",)
    mask: int

    def __init__(self, tiles: int | Iterable[int] = 0) -> None:
        if isinstance(tiles, int):
            if not 0 <= tiles < 1 << 56:
                raise InvalidCardError(f"tile mask {tiles:#x} is outside the 28 tiles")
            mask = tiles
        else:
            mask = mask_from(tiles)
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("TileSet is immutable")

    def __reduce__(self) -> tuple[type[TileSet], tuple[int]]:
        return (TileSet, (self.mask,))  # pickling (the hint process) rebuilds through __init__

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> TileSet:
        """Tiles from codes separated by spaces or commas (or an iterable of codes); ``-`` alone is empty."""
        words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
        if words == ["-"]:
            return cls()
        return cls(parse_tile(word) for word in words)

    def __iter__(self) -> Iterator[Tile]:
        return iter(tiles_of(self.mask))

    def __len__(self) -> int:
        return count_tiles(self.mask)

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, tile: object) -> bool:
        return isinstance(tile, int) and 0 <= tile < 28 and count_of(self.mask, tile) > 0

    def count(self, tile: Tile) -> int:
        return count_of(self.mask, tile)

    def distinct(self) -> list[Tile]:
        return kinds_of(self.mask)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TileSet):
            return self.mask == other.mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    def __add__(self, other: TileSet) -> TileSet:
        return TileSet(add_masks(self.mask, other.mask))

    def __sub__(self, other: TileSet) -> TileSet:
        return TileSet(sub_masks(self.mask, other.mask))

    def __le__(self, other: TileSet) -> bool:
        return contains(other.mask, self.mask)

    def __ge__(self, other: TileSet) -> bool:
        return contains(self.mask, other.mask)

    @property
    def pips(self) -> int:
        return pips_of(self.mask)

    @property
    def red_pips(self) -> int:
        return sum(tile.red_pips * self.count(tile) for tile in self.distinct())

    @property
    def doubles(self) -> int:
        """How many doubles the multiset holds (counting copies)."""
        return count_tiles(self.mask & (DOUBLE_BITS * 3))

    def with_number(self, number: int) -> TileSet:
        """The tiles having an end of ``number`` pips."""
        return TileSet(self.mask & NUMBER_BITS[number] * 3)

    def codes(self) -> list[str]:
        return [tile.code for tile in self]

    def __repr__(self) -> str:
        return f"TileSet.parse({str(self)!r})" if self.mask else "TileSet()"

    def __str__(self) -> str:
        return " ".join(self.codes())


def _set_of(copies: dict[Tile, int]) -> TileSet:
    return TileSet(sum(n * UNIT[t] for t, n in copies.items()))


CHINESE_SET: Final = _set_of({t: 2 if t in CIVIL else 1 for t in ALL_TILES if t.kind is not TileKind.BLANK})
"""The 32 Chinese tiles: 11 civil twice, 10 military once; 227 pips."""
KOREAN_SET: Final = CHINESE_SET - _set_of({Tile.T3_3: 2, Tile.T4_4: 2, Tile.T5_5: 2, Tile.T6_6: 2})
"""The reduced Korean set for two or three players: no 3:3, 4:4, 5:5 or 6:6 (24 tiles)."""
EUROPEAN_SET: Final = _set_of({t: 1 for t in ALL_TILES})
"""The European double-six: 28 tiles, 0-6 pips, once each (for pip counting at other tables)."""
DECKS: Final = {"chinese": CHINESE_SET, "korean": KOREAN_SET, "european": EUROPEAN_SET}
