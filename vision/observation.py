"""Typed results of looking at a frame: ``Detections`` (numpy arrays, for the pipeline) and
``TableObservation`` (one object per frame, for callers and JSON).

Both are frozen and validated on construction, in the style of supervision: a bad shape, a NaN corner or a
confidence of 1.3 fails where it is made, not three modules later. Labels are plain strings ("pine-crane",
"back", "unknown", later domino names) so that vision needs no game enums.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

UNKNOWN = "unknown"
BACK = "back"
NO_CLASS = -1
NO_ZONE = -1


def _frozen(array: np.ndarray) -> np.ndarray:
    array = np.ascontiguousarray(array)
    array.flags.writeable = False
    return array


def _as_array(name: str, value: Any, kinds: str, dtype: type, shape_tail: tuple[int, ...]) -> np.ndarray:
    """Convert ``value`` to ``dtype`` when its dtype kind is one of ``kinds``, and check the trailing shape."""
    array = np.asarray(value)
    if array.size == 0 and array.dtype.kind == "f" and "f" not in kinds:
        array = array.astype(dtype)  # np.asarray([]) is float64; an empty list is fine for any field
    if array.dtype.kind not in kinds:
        raise TypeError(f"Detections.{name}: expected dtype kind {kinds!r}, got {array.dtype}")
    if array.ndim != 1 + len(shape_tail) or array.shape[1:] != shape_tail:
        expected = " x ".join(["N", *map(str, shape_tail)])
        raise ValueError(f"Detections.{name}: expected shape {expected}, got {array.shape}")
    return array.astype(dtype, copy=False)


@dataclass(frozen=True, eq=False)
class Detections:
    """N oriented quads found in one frame, with what is known about each.

    ``quads`` are image pixels, corners ordered top-left, top-right, bottom-right, bottom-left with the card's
    long side vertical. ``class_id`` is ``NO_CLASS`` until a classifier names the quad; ``zone_id`` is
    ``NO_ZONE`` off the mat or without one. ``partial`` marks a quad extrapolated from a partly hidden card.
    """

    quads: np.ndarray
    confidence: np.ndarray | None = None
    class_id: np.ndarray | None = None
    partial: np.ndarray | None = None
    zone_id: np.ndarray | None = None

    def __post_init__(self) -> None:
        quads = _as_array("quads", self.quads, "fiu", np.float32, (4, 2))
        n = len(quads)
        defaults = {
            "confidence": np.ones(n, np.float32),
            "class_id": np.full(n, NO_CLASS, np.int64),
            "partial": np.zeros(n, bool),
            "zone_id": np.full(n, NO_ZONE, np.int64),
        }
        kinds = {"confidence": ("fiu", np.float32), "class_id": ("iu", np.int64), "partial": ("b", bool),
                 "zone_id": ("iu", np.int64)}
        values: dict[str, np.ndarray] = {"quads": quads}
        for name, default in defaults.items():
            raw = getattr(self, name)
            kind, dtype = kinds[name]
            array = default if raw is None else _as_array(name, raw, kind, dtype, ())
            if len(array) != n:
                raise ValueError(f"Detections.{name}: has {len(array)} entries for {n} quads")
            values[name] = array
        if not np.isfinite(quads).all():
            raise ValueError("Detections.quads: corners must be finite")
        confidence = values["confidence"]
        if not np.isfinite(confidence).all() or (confidence < 0).any() or (confidence > 1).any():
            raise ValueError("Detections.confidence: values must lie in [0, 1]")
        if (values["class_id"] < NO_CLASS).any():
            raise ValueError(f"Detections.class_id: ids are >= 0, or {NO_CLASS} for not classified")
        if (values["zone_id"] < NO_ZONE).any():
            raise ValueError(f"Detections.zone_id: ids are >= 0, or {NO_ZONE} for no zone")
        for name, array in values.items():
            object.__setattr__(self, name, _frozen(array))

    @classmethod
    def empty(cls) -> Detections:
        return cls(np.zeros((0, 4, 2), np.float32))

    def __len__(self) -> int:
        return len(self.quads)

    def __getitem__(self, index: int | slice | np.ndarray | Sequence[int]) -> Detections:
        """Select by integer, slice, index array or boolean mask; always returns Detections."""
        if isinstance(index, int | np.integer):
            index = [int(index)]
        return Detections(self.quads[index], self.confidence[index], self.class_id[index],
                          self.partial[index], self.zone_id[index])

    @classmethod
    def concatenate(cls, parts: Sequence[Detections]) -> Detections:
        """All detections of ``parts``, in order."""
        if not parts:
            return cls.empty()
        return cls(*(np.concatenate([getattr(p, name) for p in parts]) for name in
                     ("quads", "confidence", "class_id", "partial", "zone_id")))

    def replace(self, **fields: Any) -> Detections:
        """A copy with some fields changed (validated again)."""
        current = {"quads": self.quads, "confidence": self.confidence, "class_id": self.class_id,
                   "partial": self.partial, "zone_id": self.zone_id}
        unknown = set(fields) - set(current)
        if unknown:
            raise TypeError(f"Detections.replace: unknown fields {sorted(unknown)}")
        return Detections(**{**current, **fields})

    @property
    def centers(self) -> np.ndarray:
        """Mean of the four corners, N x 2."""
        return self.quads.mean(axis=1)


def _point(name: str, value: Any, length: int) -> tuple[float, ...]:
    array = np.asarray(value, dtype=np.float64).reshape(-1)
    if array.shape != (length,) or not np.isfinite(array).all():
        raise ValueError(f"{name}: expected {length} finite numbers, got {value!r}")
    return tuple(float(v) for v in array)


@dataclass(frozen=True)
class CardObservation:
    """One card (or tile) seen in a frame. ``position_mm`` is on the mat, when a mat was seen."""

    label: str
    confidence: float
    quad: tuple[tuple[float, float], ...]
    zone: str | None = None
    position_mm: tuple[float, float] | None = None
    partial: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.label, str) or not self.label:
            raise ValueError(f"CardObservation.label: expected a non-empty string, got {self.label!r}")
        confidence = float(self.confidence)
        if not 0.0 <= confidence <= 1.0:
            raise ValueError(f"CardObservation.confidence: expected a value in [0, 1], got {self.confidence!r}")
        corners = np.asarray(self.quad, dtype=np.float64)
        if corners.shape != (4, 2) or not np.isfinite(corners).all():
            raise ValueError(f"CardObservation.quad: expected 4 finite (x, y) corners, got {self.quad!r}")
        if self.zone is not None and (not isinstance(self.zone, str) or not self.zone):
            raise ValueError(f"CardObservation.zone: expected a zone name or None, got {self.zone!r}")
        object.__setattr__(self, "confidence", confidence)
        object.__setattr__(self, "quad", tuple((float(x), float(y)) for x, y in corners))
        object.__setattr__(self, "partial", bool(self.partial))
        if self.position_mm is not None:
            object.__setattr__(self, "position_mm", _point("CardObservation.position_mm", self.position_mm, 2))

    @property
    def center(self) -> tuple[float, float]:
        x, y = np.asarray(self.quad).mean(axis=0)
        return float(x), float(y)

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of ``kibitz recognize``: card, confidence, quad, zone (plus position and partial)."""
        return {
            "card": self.label,
            "confidence": round(self.confidence, 4),
            "quad": [[round(x, 1), round(y, 1)] for x, y in self.quad],
            "zone": self.zone,
            "position_mm": None if self.position_mm is None else [round(v, 1) for v in self.position_mm],
            "partial": self.partial,
        }


@dataclass(frozen=True)
class TableObservation:
    """Everything recognised in one frame: image size (width, height), the cards, and time per stage in ms.

    ``timings_ms`` uses stage names such as "find", "warp", "classify", "assign"; ``mat`` names the mat layout
    whose markers were seen (None without a mat, in which case zones and positions are None too).
    """

    image_size: tuple[int, int]
    cards: tuple[CardObservation, ...]
    timings_ms: Mapping[str, float] = field(default_factory=dict)
    mat: str | None = None

    def __post_init__(self) -> None:
        width, height = (int(v) for v in self.image_size)
        if width <= 0 or height <= 0:
            raise ValueError(f"TableObservation.image_size: expected positive (width, height), got {self.image_size}")
        cards = tuple(self.cards)
        if not all(isinstance(card, CardObservation) for card in cards):
            raise TypeError("TableObservation.cards: expected CardObservation items")
        timings = {str(k): float(v) for k, v in self.timings_ms.items()}
        if any(not np.isfinite(v) or v < 0 for v in timings.values()):
            raise ValueError(f"TableObservation.timings_ms: expected non-negative times, got {timings}")
        object.__setattr__(self, "image_size", (width, height))
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "timings_ms", MappingProxyType(timings))

    @property
    def backs(self) -> int:
        """How many face-down cards were seen."""
        return sum(card.label == BACK for card in self.cards)

    @property
    def total_ms(self) -> float:
        return float(sum(self.timings_ms.values()))

    def labels(self) -> list[str]:
        return [card.label for card in self.cards]

    def to_dict(self, image: str | None = None) -> dict[str, Any]:
        """The per-image object of ``kibitz recognize --json``."""
        return {
            "image": image,
            "cards": [card.to_dict() for card in self.cards],
            "backs": self.backs,
            "ms": round(self.total_ms, 1),
            "timings_ms": {k: round(v, 2) for k, v in self.timings_ms.items()},
            "mat": self.mat,
        }
