"""A second look at each candidate quad: a small network sees the candidate with its surroundings at a finer scale
than the finder did, and says where the object it is about really lies and whether it is there at all.

The finders look at the whole frame at a coarse scale (its short side at 288 or 384 px), where tiles pressed end to
end are one long strip and a card half hidden in a pile is a strip among strips: their quads are often a third of
an object off, and what is read from such a quad is wrong. Here each candidate is warped upright into a crop twice
its size (``CropGeometry``: the candidate fills the middle half, so what lies past its ends and sides is in view),
and the network regresses the corners of the object the candidate is about in the crop's frame, plus the
probability that a whole one is there. The subclasses name the model: ``vision.dominoes.tile_refiner.TileRefiner``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

import cv2
import numpy as np

from vision.finder_learned import read_metadata
from vision.geometry import order_quads, side_vectors
from vision.imageio import as_bgr
from vision.onnx import crop_input, open_session

UNIT_SQUARE = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32)  # the candidate, in the network's units


class RefinerModelError(RuntimeError):
    """The model file exists but is not a readable kibitz refiner model."""


def shifted(quad: np.ndarray, along: float, across: float = 0.0) -> np.ndarray:
    """The ordered ``quad`` moved ``along`` times its length and ``across`` times its width."""
    q = order_quads(np.asarray(quad, np.float32)[None])
    u, v = side_vectors(q)
    return (q[0] + along * v[0] + across * u[0]).astype(np.float32)


@dataclass(frozen=True)
class CropGeometry:
    """A crop of ``width`` (across the object) x ``height`` (along it) px with the candidate in its middle, spanning
    ``share`` of each side (a half: as much again past each side and end of the candidate). The network's corners
    are in units of half the candidate's sides from the crop's centre (the candidate is ``UNIT_SQUARE``); the centre
    lies between pixel centres, so a crop turned 180 degrees about it is the crop of the candidate's other order
    (the training turns crops so)."""

    width: int
    height: int
    share: float = 0.5

    @property
    def centre(self) -> np.ndarray:
        return np.array([(self.width - 1) / 2, (self.height - 1) / 2], np.float32)

    @property
    def half(self) -> np.ndarray:
        return np.array([self.width * self.share / 2, self.height * self.share / 2], np.float32)

    @property
    def candidate(self) -> np.ndarray:
        """The candidate's corners (TL, TR, BR, BL) in crop px."""
        return (self.centre + UNIT_SQUARE * self.half).astype(np.float32)

    def matrices(self, quads: np.ndarray) -> np.ndarray:
        """Perspectives (N x 3 x 3) from image px to each quad's crop: the ordered quad (long side top to bottom)
        onto ``candidate``."""
        ordered = order_quads(np.asarray(quads, np.float32).reshape(-1, 4, 2))
        target = self.candidate
        return np.array([cv2.getPerspectiveTransform(q, target) for q in ordered], np.float32).reshape(-1, 3, 3)

    def crops(self, image: np.ndarray, matrices: np.ndarray) -> np.ndarray:
        """uint8 BGR crops N x height x width x 3, one per perspective."""
        out = np.empty((len(matrices), self.height, self.width, 3), np.uint8)
        for i, matrix in enumerate(matrices):
            out[i] = cv2.warpPerspective(image, matrix, (self.width, self.height), flags=cv2.INTER_AREA,
                                         borderMode=cv2.BORDER_REPLICATE)
        return out

    def encode(self, matrix: np.ndarray, quad: np.ndarray) -> np.ndarray:
        """An object's quad (image px) as the network's target in the crop of ``matrix``: 8 numbers, its corners
        starting at the one nearest the candidate's first (a tile or card looks the same turned 180 degrees, so
        either order is right; the nearest is the one to learn)."""
        inside = cv2.perspectiveTransform(order_quads(np.asarray(quad, np.float32)[None]), matrix)[0]
        units = (inside - self.centre) / self.half
        turns = [np.roll(units, -k, axis=0) for k in range(4)]
        best = min(turns, key=lambda t: float(np.abs(t - UNIT_SQUARE).sum()))
        return best.reshape(8).astype(np.float32)

    def decode(self, matrices: np.ndarray, corners: np.ndarray) -> np.ndarray:
        """The network's corners (N x 8) back to quads in image px (N x 4 x 2), ordered."""
        if not len(corners):
            return np.zeros((0, 4, 2), np.float32)
        inside = corners.reshape(-1, 4, 2) * self.half + self.centre
        quads = [cv2.perspectiveTransform(c[None].astype(np.float32), np.linalg.inv(m))[0]
                 for c, m in zip(inside, matrices, strict=True)]
        return order_quads(np.array(quads, np.float32))


def _knobs(meta: dict[str, Any], path: Path) -> tuple[int, float]:
    """The looks to take and the least probability of an object, from the model's metadata."""
    passes, threshold = meta.get("passes"), (meta.get("thresholds") or {}).get("tile")
    if not isinstance(passes, int) or passes < 1 or not isinstance(threshold, int | float):
        raise RefinerModelError(f"{path}: incomplete kibitz metadata (passes {passes!r}, tile threshold {threshold!r})")
    return passes, float(threshold)


class QuadRefiner:
    """Owns one onnxruntime session on the CPU with explicit thread counts; holds no per-frame state. Calling it
    on a frame and candidate quads gives each candidate's object quad and the probability that a whole object is
    there (``passes`` looks, from the metadata: each later one starts from the quad the one before gave).
    ``TASK`` is the metadata's task a model must have, ``DEFAULT_MODEL`` the shipped file; the crop's size comes
    from the model's input."""

    TASK = "quad-refiner"
    DEFAULT_MODEL = ""
    same_iou = 0.7  # two refined quads overlapping this much are one object
    def __init__(self, model_path: str | Path | None = None, threads: int = 1) -> None:
        what = self.TASK.replace("-", " ")
        path, self._session = open_session(model_path, self.DEFAULT_MODEL, threads, what, RefinerModelError)
        self.path = path
        self.threads = threads
        meta = read_metadata(self._session, path, self.TASK, RefinerModelError)
        self._input_name, (width, height) = crop_input(self._session, path, RefinerModelError)
        share = (meta.get("input") or {}).get("share", 0.5)  # the older models' metadata leaves it out: a half
        self.geometry = CropGeometry(width=width, height=height, share=float(share))
        self.passes, self.threshold = _knobs(meta, path)
        self.metadata: MappingProxyType[str, Any] = MappingProxyType(meta)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self.path)!r}, threads={self.threads})"

    def look(self, image: np.ndarray, quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """One pass: each quad's object quad (N x 4 x 2, image px) and its probability (N)."""
        quads = np.asarray(quads, np.float32).reshape(-1, 4, 2)
        if not len(quads):
            return quads, np.zeros(0, np.float32)
        matrices = self.geometry.matrices(quads)
        corners, tile = self._session.run(None, {self._input_name: self.geometry.crops(image, matrices)})
        return self.geometry.decode(matrices, corners), tile.reshape(-1)

    def __call__(self, image: np.ndarray, quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        image = as_bgr(image)
        quads = np.asarray(quads, np.float32).reshape(-1, 4, 2)
        tile = np.zeros(len(quads), np.float32)
        for _ in range(self.passes):
            quads, tile = self.look(image, quads)
        return quads, tile
