"""The two domino sets vision knows: which faces exist, how many of each, and which halves are red.

Vision may not import the engine, so the sets are spelled out here as data; a test checks them against
``engine.dominoes``. Faces are ``(low, high)`` pairs with low ≤ high.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

Face = tuple[int, int]

_CIVIL: Final = ((6, 6), (1, 1), (4, 4), (1, 3), (5, 5), (3, 3), (2, 2), (5, 6), (4, 6), (1, 6), (1, 5))


@dataclass(frozen=True)
class DominoSet:
    """A set's faces with how many copies of each. ``red_share`` gives the colour rule of Chinese sets (1s
    and 4s red, half of each 6 on the 6:6); European sets have none (their pips may be any colour)."""

    name: str
    copies: Mapping[Face, int]
    chinese: bool

    @property
    def faces(self) -> tuple[Face, ...]:
        return tuple(self.copies)

    @property
    def size(self) -> int:
        return sum(self.copies.values())

    def red_share(self, face: Face, number: int) -> float | None:
        """The share of red pips expected on the ``number`` half of ``face`` (None: colour says nothing)."""
        if not self.chinese or number == 0:
            return None
        if number in (1, 4):
            return 1.0
        if face == (6, 6):
            return 0.5
        return 0.0


def _chinese() -> DominoSet:
    copies = {(a, b): 2 if (a, b) in _CIVIL else 1 for a in range(1, 7) for b in range(a, 7)}
    return DominoSet("chinese", MappingProxyType(copies), chinese=True)


def _double_six() -> DominoSet:
    copies = {(a, b): 1 for a in range(7) for b in range(a, 7)}
    return DominoSet("double-six", MappingProxyType(copies), chinese=False)


SETS: Final = {"chinese": _chinese(), "double-six": _double_six()}


def domino_set(name: str) -> DominoSet:
    if name not in SETS:
        raise ValueError(f"unknown domino set {name!r}; choose from {', '.join(SETS)}")
    return SETS[name]


def face_code(face: Face) -> str:
    low, high = sorted(face)
    return f"{low}:{high}"
