"""A second reader of each tile's face: a small network names the face from the tile's crop, beside the pip blob
reader (``vision.dominoes.pips``).

The blob reader counts what it sees, and so does badly where a pip is lost: a quad a third of a pip row short of
the tile's end, red pips on a black tile in dim light, blur. The network has seen thousands of such crops of every
face (``datasets.dominoes.face_data``, trained by ``datasets.training.train_faces``) and gives a probability to
each face of a double-six set and to a back; ``vision.dominoes.resolve`` weighs those with the blob reader's
likelihoods. Its crop is the tile's quad, grown a little (``GROW``) so that a quad a little short still shows the
pips past its end, warped upright to the model's input size; a tile looks the same turned 180 degrees, so either
end may come first. For still photos it may also read each tile from its quad slid a little along the tile either way
and average the three (``slides``): a found quad a few pixels off its tile can turn the network from one face to
another (a 2:5 named 2:5 with 0.83 from its true quad, 5:5 with 0.14 from a quad 3 px towards its 2).
"""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import Any

import cv2
import numpy as np

from models import model_path
from vision.finder_learned import read_metadata
from vision.geometry import order_quads, side_vectors
from vision.imageio import as_bgr
from vision.onnx import crop_input, open_session

CLASSES = (*(f"{a}:{b}" for a in range(7) for b in range(a, 7)), "back")  # every double-six face, then a back
# The shipped model per set. A European set's reader has also seen backs bearing a bold maker's mark with a bar that
# passes for a divider (a real photo's "RO" backs); taught so, a reader names more of the held-out Chinese art's
# sparse faces backs (README, session 21), so a Chinese set keeps the reader trained without them.
SET_MODELS = MappingProxyType({"chinese": "domino-faces.onnx", "double-six": "domino-faces-european.onnx"})
GROW = 0.12  # the crop reaches this share of the tile's width past each side of its quad
CROP_SIZE = (32, 80)  # width (across the tile) x height (along it) of the shipped model's crops


class FaceReaderModelError(RuntimeError):
    """The model file exists but is not a readable kibitz face reader model."""


def face_crops(image: np.ndarray, quads: np.ndarray, size: tuple[int, int] = CROP_SIZE,
               grow: float = GROW) -> np.ndarray:
    """uint8 BGR crops (N x height x width x 3) of the tiles ``quads`` (N x 4 x 2, image px), each grown by ``grow``
    of its width all round and warped upright, long side from top to bottom."""
    width, height = size
    quads = order_quads(np.asarray(quads, np.float32).reshape(-1, 4, 2))
    out = np.empty((len(quads), height, width, 3), np.uint8)
    if not len(quads):
        return out
    across, along = side_vectors(quads)
    pad = grow * np.linalg.norm(across, axis=1)[:, None]
    unit_across = across / np.maximum(np.linalg.norm(across, axis=1), 1e-6)[:, None]
    unit_along = along / np.maximum(np.linalg.norm(along, axis=1), 1e-6)[:, None]
    signs = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32)  # (across, along) of TL, TR, BR, BL
    grown = quads + pad[:, None] * (signs[None, :, :1] * unit_across[:, None]
                                    + signs[None, :, 1:] * unit_along[:, None])
    target = np.array([[-0.5, -0.5], [width - 0.5, -0.5], [width - 0.5, height - 0.5], [-0.5, height - 0.5]],
                      np.float32)
    for i, quad in enumerate(grown.astype(np.float32)):
        matrix = cv2.getPerspectiveTransform(quad, target)
        out[i] = cv2.warpPerspective(image, matrix, (width, height), flags=cv2.INTER_AREA,
                                     borderMode=cv2.BORDER_REPLICATE)
    return out


class FaceReader:
    """Owns one onnxruntime session on the CPU with explicit thread counts; holds no per-frame state. Calling it on
    a frame and tile quads gives, per tile, a probability for each of ``CLASSES``. The crop's size comes from the
    model's input, the classes and the crop's margin from its metadata."""

    TASK = "domino-face-reader"
    DEFAULT_MODEL = "domino-faces.onnx"

    def __init__(self, model_path: str | Path | None = None, threads: int = 1, slides: tuple[float, ...] = ()) -> None:
        if any(not 0 < slide < 0.5 for slide in slides):
            raise ValueError(f"slides are shares of a tile's length between 0 and 0.5, not {slides}")
        self.slides = tuple(slides)  # each tile also read from its quad slid these shares of its length either way
        path, self._session = open_session(model_path, self.DEFAULT_MODEL, threads, "domino face reader",
                                           FaceReaderModelError)
        self.path = path
        self.threads = threads
        meta = read_metadata(self._session, path, self.TASK, FaceReaderModelError)
        self._input_name, self.size = crop_input(self._session, path, FaceReaderModelError)
        if tuple(meta.get("classes", ())) != CLASSES or not isinstance(meta.get("grow"), int | float):
            raise FaceReaderModelError(f"{path}: its metadata must list the classes {CLASSES} and the crop's grow")
        self.grow = float(meta["grow"])
        self.metadata: MappingProxyType[str, Any] = MappingProxyType(meta)

    @classmethod
    def for_set(cls, tile_set: str, threads: int = 1, slides: tuple[float, ...] = ()) -> FaceReader:
        """The shipped reader for ``tile_set`` (``SET_MODELS``)."""
        return cls(model_path(SET_MODELS[tile_set]), threads, slides)

    def __repr__(self) -> str:
        return f"FaceReader({str(self.path)!r}, threads={self.threads}, slides={self.slides!r})"

    def __call__(self, image: np.ndarray, quads: np.ndarray) -> np.ndarray:
        """Probabilities (N x len(CLASSES)) for the tiles ``quads`` (N x 4 x 2) of a BGR frame: the mean over the
        quad as it lies and slid by each of ``slides`` either way."""
        quads = np.asarray(quads, np.float32).reshape(-1, 4, 2)
        if not len(quads):
            return np.zeros((0, len(CLASSES)), np.float32)
        image = as_bgr(image)
        looks = [quads]
        if self.slides:  # still photos; the live table reads each quad as it lies, with nothing more to work out
            ordered = order_quads(quads)
            along = side_vectors(ordered)[1]
            looks += [ordered + np.float32(way * slide) * along[:, None] for slide in self.slides for way in (1, -1)]
        crops = np.concatenate([face_crops(image, look, self.size, self.grow) for look in looks])
        (probs,) = self._session.run(None, {self._input_name: crops})
        return np.asarray(probs, np.float32).reshape(len(looks), len(quads), len(CLASSES)).mean(axis=0)
