"""Typed results of looking at dominoes: ``TileObservation`` per tile, ``DominoTableObservation`` per frame.

Both are frozen and validated on construction, like ``vision.observation``: a quad with a NaN corner, pips of
7 or a confidence of 1.3 fail where they are made. A face-down tile has no code and no pips.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

PIP_COLOURS = ("red", "white", "black", "none")


@dataclass(frozen=True)
class TileObservation:
    """One tile. ``quad`` lists the face's corners top-left, top-right, bottom-right, bottom-left with the long
    side from top to bottom and the half with ``pips[0]`` on top; ``tile`` is ``"a:b"`` with a ≤ b, so
    ``pips == (a, b)`` whenever the tile is read. ``colours`` names the pip colour of each half."""

    tile: str | None
    pips: tuple[int, int] | None
    quad: tuple[tuple[float, float], ...]
    confidence: float
    face_down: bool = False
    colours: tuple[str, str] | None = None

    def __post_init__(self) -> None:
        corners = np.asarray(self.quad, dtype=np.float64)
        if corners.shape != (4, 2) or not np.isfinite(corners).all():
            raise ValueError(f"TileObservation.quad: expected 4 finite (x, y) corners, got {self.quad!r}")
        confidence = float(self.confidence)
        if not 0.0 <= confidence <= 1.0:
            raise ValueError(f"TileObservation.confidence: expected a value in [0, 1], got {self.confidence!r}")
        if self.face_down and (self.tile is not None or self.pips is not None):
            raise ValueError("TileObservation: a face-down tile has no code and no pips")
        if self.pips is not None:
            pips = tuple(int(n) for n in self.pips)
            if len(pips) != 2 or not all(0 <= n <= 6 for n in pips):
                raise ValueError(f"TileObservation.pips: expected two counts of 0 to 6, got {self.pips!r}")
            if self.tile is not None and self.tile != f"{min(pips)}:{max(pips)}":
                raise ValueError(f"TileObservation: tile {self.tile!r} does not match pips {pips}")
            object.__setattr__(self, "pips", pips)
        if self.colours is not None and (len(self.colours) != 2 or any(c not in PIP_COLOURS for c in self.colours)):
            raise ValueError(f"TileObservation.colours: expected two of {PIP_COLOURS}, got {self.colours!r}")
        object.__setattr__(self, "confidence", confidence)
        object.__setattr__(self, "quad", tuple((float(x), float(y)) for x, y in corners))

    @property
    def center(self) -> tuple[float, float]:
        x, y = np.asarray(self.quad).mean(axis=0)
        return float(x), float(y)

    @property
    def total(self) -> int | None:
        return None if self.pips is None else sum(self.pips)

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of one tile in ``kibitz recognize --dominoes``."""
        return {
            "tile": self.tile,
            "pips": None if self.pips is None else list(self.pips),
            "confidence": round(self.confidence, 4),
            "quad": [[round(x, 1), round(y, 1)] for x, y in self.quad],
            "center": [round(v, 1) for v in self.center],
            "colours": None if self.colours is None else list(self.colours),
        }


@dataclass(frozen=True)
class DominoTableObservation:
    """Every tile seen in one frame (face up and face down), the set they were read against, and ms per stage."""

    image_size: tuple[int, int]
    tiles: tuple[TileObservation, ...]
    tile_set: str
    timings_ms: Mapping[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        width, height = (int(v) for v in self.image_size)
        if width <= 0 or height <= 0:
            raise ValueError(f"DominoTableObservation.image_size: expected positive sizes, got {self.image_size}")
        tiles = tuple(self.tiles)
        if not all(isinstance(t, TileObservation) for t in tiles):
            raise TypeError("DominoTableObservation.tiles: expected TileObservation items")
        timings = {str(k): float(v) for k, v in self.timings_ms.items()}
        if any(not np.isfinite(v) or v < 0 for v in timings.values()):
            raise ValueError(f"DominoTableObservation.timings_ms: expected non-negative times, got {timings}")
        object.__setattr__(self, "image_size", (width, height))
        object.__setattr__(self, "tiles", tiles)
        object.__setattr__(self, "timings_ms", MappingProxyType(timings))

    @property
    def face_up(self) -> tuple[TileObservation, ...]:
        return tuple(t for t in self.tiles if not t.face_down)

    @property
    def face_down(self) -> int:
        return sum(t.face_down for t in self.tiles)

    @property
    def pip_total(self) -> int:
        """Pips of every tile read face up (what a player's turned-over tiles count against them)."""
        return sum(t.total or 0 for t in self.face_up)

    @property
    def total_ms(self) -> float:
        return float(sum(self.timings_ms.values()))

    def labels(self) -> list[str]:
        """Tile codes, and ``back`` for each face-down tile (the labels.csv vocabulary)."""
        return [t.tile if t.tile is not None else ("back" if t.face_down else "unknown") for t in self.tiles]

    def to_dict(self, image: str | None = None) -> dict[str, Any]:
        """The per-image object of ``kibitz recognize --dominoes ... --json``."""
        return {
            "image": image,
            "tiles": [t.to_dict() for t in self.face_up],
            "face_down": self.face_down,
            "face_down_quads": [[[round(x, 1), round(y, 1)] for x, y in t.quad] for t in self.tiles if t.face_down],
            "pip_total": self.pip_total,
            "set": self.tile_set,
            "ms": round(self.total_ms, 1),
            "timings_ms": {k: round(v, 2) for k, v in self.timings_ms.items()},
        }
