"""Changes a phone or a room makes to a photo, for the benchmarks that ask how far the recognisers hold under them
(``bench_dominoes_photos``: the real domino photos; ``bench_cards_changes``: held-out hanafuda scenes)."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np


def _turned(image: np.ndarray, degrees: float) -> np.ndarray:
    """``image`` turned about its centre on a canvas that holds all of it, the border repeated."""
    h, w = image.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    cos, sin = abs(matrix[0, 0]), abs(matrix[0, 1])
    size = (int(h * sin + w * cos), int(h * cos + w * sin))
    matrix[:, 2] += (size[0] - w) / 2, (size[1] - h) / 2
    return cv2.warpAffine(image, matrix, size, borderMode=cv2.BORDER_REPLICATE)


SLANT = 0.15  # the slanted change: the top edge this share of the width narrower at each end


def slant(width: int, height: int, share: float = SLANT) -> np.ndarray:
    """The homography of a camera tilted towards a frame's bottom edge: its top edge ``share`` narrower at each end."""
    source = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    target = np.float32([[share * width, 0], [width - share * width, 0], [width, height], [0, height]])
    return cv2.getPerspectiveTransform(source, target)


def _slanted(image: np.ndarray, share: float) -> np.ndarray:
    """``image`` as a camera tilted towards its bottom edge sees it (``slant``)."""
    h, w = image.shape[:2]
    return cv2.warpPerspective(image, slant(w, h, share), (w, h), borderMode=cv2.BORDER_REPLICATE)


def further_away(image: np.ndarray, taller: float = 1.75, wider: float = 1.15, fill: int | None = None
                 ) -> tuple[np.ndarray, tuple[int, int]]:
    """``image`` in the middle of a canvas ``taller`` times as high and ``wider`` times as wide, its border repeated
    (or ``fill`` round it): the same table from further away, every object smaller against the frame's short side.
    Also where the image's top-left corner lies on the canvas (x, y)."""
    h, w = image.shape[:2]
    top, left = (int(taller * h) - h) // 2, (int(wider * w) - w) // 2
    sides = (top, int(taller * h) - h - top, left, int(wider * w) - w - left)
    if fill is None:
        return cv2.copyMakeBorder(image, *sides, cv2.BORDER_REPLICATE), (left, top)
    return cv2.copyMakeBorder(image, *sides, cv2.BORDER_CONSTANT, value=fill), (left, top)


def _scaled(image: np.ndarray, gain: float, offset: float = 0.0, tint: tuple[float, float, float] = (1, 1, 1)
            ) -> np.ndarray:
    return np.clip(image.astype(np.float32) * gain * np.float32(tint) + offset, 0, 255).astype(np.uint8)


def _jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    return cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


def _noisy(image: np.ndarray) -> np.ndarray:
    noise = np.random.default_rng(0).normal(0, 8, image.shape)
    return np.clip(image.astype(np.float32) + noise, 0, 255).astype(np.uint8)


CHANGES: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "as-taken": lambda im: im,
    "turned-90": lambda im: cv2.rotate(im, cv2.ROTATE_90_CLOCKWISE),
    "turned-180": lambda im: cv2.rotate(im, cv2.ROTATE_180),
    "turned-30": lambda im: _turned(im, 30),
    "half-size": lambda im: cv2.resize(im, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA),
    "1.5-size": lambda im: cv2.resize(im, None, fx=1.5, fy=1.5, interpolation=cv2.INTER_CUBIC),
    "further": lambda im: further_away(im)[0],
    "dim": lambda im: _scaled(im, 0.45),
    "dark": lambda im: _scaled(im, 0.3),
    "bright": lambda im: _scaled(im, 1.3, 20),
    "warm-light": lambda im: _scaled(im, 1.0, 0, (0.75, 0.95, 1.15)),
    "blur": lambda im: cv2.GaussianBlur(im, (0, 0), 1.5),
    "jpeg-30": lambda im: _jpeg(im, 30),
    "noise": _noisy,
    "slanted": lambda im: _slanted(im, SLANT),
}
