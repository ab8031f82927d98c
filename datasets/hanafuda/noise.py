"""Randomness helpers: smooth noise fields built from upsampled random grids, table-driven pixel noise and
weighted picks. Numpy and OpenCV only."""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np


def smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cell: tuple[float, float]) -> np.ndarray:
    """Zero-mean, unit-ish noise whose features are ``cell`` = (cell_h, cell_w) pixels big. float32 (h, w).

    A random grid is read with cubic interpolation at a quarter of the cell size, then stretched linearly to
    full size: smooth fields need no more samples than that, and the cost no longer grows with the cell size.
    """
    h, w = shape
    cell_h, cell_w = max(cell[0], 1e-3), max(cell[1], 1e-3)
    step_h, step_w = max(cell_h / 4, 1.0), max(cell_w / 4, 1.0)
    fine = step_h == step_w == 1.0
    small = (h, w) if fine else (max(int(np.ceil(h / step_h)) + 1, 2), max(int(np.ceil(w / step_w)) + 1, 2))
    grid = rng.standard_normal((int(h / cell_h) + 4, int(w / cell_w) + 4)).astype(np.float32)
    offset = rng.uniform(1, 2, 2)
    warp = np.array([[step_w / cell_w, 0, offset[0]], [0, step_h / cell_h, offset[1]]], np.float64)
    flags = (cv2.INTER_CUBIC if min(cell_h, cell_w) >= 6 else cv2.INTER_LINEAR) | cv2.WARP_INVERSE_MAP
    field = cv2.warpAffine(grid, warp, small[::-1], flags=flags, borderMode=cv2.BORDER_REFLECT)
    if fine:
        return field
    # the small field's sample k sits at pixel k * step: scale and crop so pixels line up with it
    full = cv2.resize(field, (round(small[1] * step_w), round(small[0] * step_h)), interpolation=cv2.INTER_LINEAR)
    return np.ascontiguousarray(full[:h, :w])


def fractal_noise(
    rng: np.random.Generator,
    shape: tuple[int, int],
    cell: float,
    octaves: int = 4,
    persistence: float = 0.5,
    stretch: float = 1.0,
) -> np.ndarray:
    """Sum of octaves of ``smooth_noise`` normalised to about [-1, 1]; ``stretch`` > 1 elongates features along x."""
    total = np.zeros(shape, np.float32)
    amplitude, norm = 1.0, 0.0
    for octave in range(octaves):
        size = cell / (2**octave)
        if size < 1.0:
            break
        total += amplitude * smooth_noise(rng, shape, (size, size * stretch))
        norm += amplitude
        amplitude *= persistence
    return total / max(norm, 1e-6) / 1.5


_TABLE_SIZE = 1 << 22
_table: np.ndarray | None = None


def pixel_noise(rng: np.random.Generator, shape: tuple[int, ...], sigma: float) -> np.ndarray:
    """White gaussian noise as float32, cut from a fixed table at random offsets (drawing fresh normals per
    pixel costs more than the rest of a scene; sensor noise needs no better randomness than this)."""
    global _table
    if _table is None:
        _table = np.random.default_rng(12345).standard_normal(_TABLE_SIZE, dtype=np.float32)
    count = int(np.prod(shape))
    parts = []
    while count > 0:
        take = min(count, _TABLE_SIZE // 2)
        start = int(rng.integers(0, _TABLE_SIZE - take))
        parts.append(_table[start : start + take])
        count -= take
    flat = parts[0] if len(parts) == 1 else np.concatenate(parts)
    return (flat * np.float32(sigma)).reshape(shape)


def pick(rng: np.random.Generator, weights: Mapping[str, float]) -> str:
    """One key of ``weights`` drawn in proportion to its weight (keys with weight 0 never come up)."""
    names = [k for k, v in weights.items() if v > 0]
    if not names:
        raise ValueError(f"nothing to choose from: every weight is 0 in {dict(weights)}")
    p = np.array([weights[k] for k in names], np.float64)
    return names[int(rng.choice(len(names), p=p / p.sum()))]
