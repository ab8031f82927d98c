"""Sub-pixel corners at full resolution: each side of a rough quad is re-fitted to the colour step nearest to
it, and the corners become the intersections of the fitted sides.

The search happens at reduced resolution, so a rough corner is a pixel or two off at full size; fitting
whole sides (not corners) is what makes the result stable against rounded card corners and JPEG noise.
"""

from __future__ import annotations

import numpy as np

from vision.finder_score import outward_normals, sample

_SAMPLES = 14
_T = np.linspace(0.1, 0.9, _SAMPLES, dtype=np.float32)
_STEP = 0.5


def _profiles(image: np.ndarray, quads: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """Colour step magnitude across each side: M x 4 x S x K, and the offsets K (outwards positive)."""
    offsets = np.arange(-reach, reach + _STEP / 2, _STEP, dtype=np.float32)
    start, end = quads, np.roll(quads, -1, axis=1)
    points = start[:, :, None] + (end - start)[:, :, None] * _T[None, None, :, None]
    normals = outward_normals(quads)[:, :, None, None, :]
    samples = points[:, :, :, None, :] + normals * offsets[:, None]
    profile = sample(image, samples)
    step = np.zeros(profile.shape[:-1], np.float32)
    jump = np.abs(profile[..., 2:, :] - profile[..., :-2, :])
    step[..., 1:-1] = np.max(jump, axis=-1) if jump.shape[-1] != 3 else np.maximum(  # a 3-wide reduction is slow
        np.maximum(jump[..., 0], jump[..., 1]), jump[..., 2])
    return step, offsets


def _edge_offsets(step: np.ndarray, offsets: np.ndarray, contrast: float) -> tuple[np.ndarray, np.ndarray]:
    """Sub-pixel offset of the card's outline near each sample, and whether one was found.

    A printed border gives two parallel steps (table to border, border to art); the outline is the outer
    one, so of the local maxima that reach ``contrast`` and a third of the strongest, the outermost wins.
    """
    inner = step[..., 1:-1]
    is_peak = (inner >= step[..., :-2]) & (inner > step[..., 2:])
    strong = is_peak & (inner >= contrast) & (inner >= 0.35 * step.max(axis=-1, keepdims=True))
    index = np.arange(1, step.shape[-1] - 1)
    best = np.where(strong.any(axis=-1), np.where(strong, index, -1).max(axis=-1), np.argmax(step, axis=-1))
    best = np.clip(best, 1, step.shape[-1] - 2)
    take = np.take_along_axis
    left, mid, right = (take(step, (best + d)[..., None], axis=-1)[..., 0] for d in (-1, 0, 1))
    denom = left - 2 * mid + right
    shift = np.where(np.abs(denom) > 1e-6, 0.5 * (left - right) / np.where(denom == 0, 1, denom), 0.0)
    offset = offsets[best] + np.clip(shift, -0.5, 0.5) * _STEP
    return offset.astype(np.float32), mid >= contrast


def _fit_sides(offset: np.ndarray, found: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Fit offset = a + b * t per side with two rounds of outlier trimming; returns a, b and a usable flag."""
    weight = found.astype(np.float32)
    t = _T[None, None, :]
    a = np.zeros(offset.shape[:2], np.float32)
    b = np.zeros_like(a)
    for _ in range(3):
        sw, st, stt = weight.sum(-1), (weight * t).sum(-1), (weight * t * t).sum(-1)
        so, sto = (weight * offset).sum(-1), (weight * t * offset).sum(-1)
        det = sw * stt - st * st
        ok = (sw >= 5) & (np.abs(det) > 1e-6)
        safe = np.where(ok, det, 1.0)
        a = np.where(ok, (stt * so - st * sto) / safe, 0.0)
        b = np.where(ok, (sw * sto - st * so) / safe, 0.0)
        residual = np.abs(offset - (a[..., None] + b[..., None] * t))
        weight = found & (residual <= 1.0)
    usable = weight.sum(-1) >= 5
    return a.astype(np.float32), b.astype(np.float32), usable


def _intersect(p0: np.ndarray, d0: np.ndarray, p1: np.ndarray, d1: np.ndarray) -> np.ndarray:
    cross = d0[..., 0] * d1[..., 1] - d0[..., 1] * d1[..., 0]
    diff = p1 - p0
    s = (diff[..., 0] * d1[..., 1] - diff[..., 1] * d1[..., 0]) / np.where(np.abs(cross) < 1e-9, 1e-9, cross)
    return p0 + d0 * s[..., None]


def refine_quads(image: np.ndarray, quads: np.ndarray, reach: float, contrast: float) -> np.ndarray:
    """Refit the sides of clockwise quads (M x 4 x 2, full-resolution pixels) to the nearest colour step."""
    quads = np.asarray(quads, np.float32).reshape(-1, 4, 2)
    if not len(quads):
        return quads
    step, offsets = _profiles(image, quads, reach)
    offset, found = _edge_offsets(step, offsets, contrast)
    a, b, usable = _fit_sides(offset, found)
    a, b = np.where(usable, a, 0.0), np.where(usable, b, 0.0)
    normals = outward_normals(quads)
    start, end = quads, np.roll(quads, -1, axis=1)
    p0 = start + normals * a[..., None]
    p1 = end + normals * (a + b)[..., None]
    direction = p1 - p0
    # Corner i is where side i-1 meets side i.
    corners = _intersect(np.roll(p0, 1, axis=1), np.roll(direction, 1, axis=1), p0, direction)
    moved = np.linalg.norm(corners - quads, axis=-1).max(axis=1)
    sane = np.isfinite(corners).all(axis=(1, 2)) & (moved <= 2.5 * reach)
    return np.where(sane[:, None, None], corners, quads).astype(np.float32)
