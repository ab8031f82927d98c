"""Rows and fanned piles: a blob that is a band of cards side by side, or overlapping like a hand of cards.

Players lay captures as a row (cards touching) or a fan (each card covering part of the one before). Either
way the blob is a four-sided band as tall as one card, and every card edge across the band is a straight
line between its two long sides. Scanning the band for those lines gives the edge positions; a stretch one
card wide between two edges with no edge inside is a whole card (the top of a fan, or each card of a row),
and every other edge starts a card whose rest is hidden under its neighbours: a partial card, extended to
full size towards the hidden side.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np

from vision.finder_score import step_support
from vision.finder_shape import TableMetric
from vision.geometry import CARD_ASPECT

_T = np.linspace(0.08, 0.92, 12, dtype=np.float32)


def _axes(quad: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The band's four corners renamed so that the stacking direction runs start0 -> end0 (and start1 -> end1)."""
    tl, tr, br, bl = quad
    return (tl, tr, bl, br) if axis == 0 else (tl, bl, tr, br)


def edge_profile(image: np.ndarray, quad: np.ndarray, axis: int, contrast: float) -> tuple[np.ndarray, np.ndarray]:
    """Share of each cross line (one per pixel along the stacking axis) lying on an edge; and the line positions
    as fractions 0..1 of the band."""
    start0, end0, start1, end1 = _axes(quad, axis)
    length = 0.5 * (np.linalg.norm(end0 - start0) + np.linalg.norm(end1 - start1))
    f = np.linspace(0, 1, max(int(length) + 1, 2), dtype=np.float32)[:, None]
    a = start0 + (end0 - start0) * f  # one end of each cross line
    b = start1 + (end1 - start1) * f
    points = a[:, None, :] + (b - a)[:, None, :] * _T[None, :, None]
    direction = (end0 - start0) + (end1 - start1)
    normal = (direction / max(float(np.linalg.norm(direction)), 1e-6)).astype(np.float32)
    supported, _ = step_support(image, points, normal[None, None, :], contrast)
    return supported.mean(axis=1), f[:, 0]


def _peaks(profile: np.ndarray, positions: np.ndarray, threshold: float = 0.6,
           gap: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """Local maxima of the profile above the threshold, at least ``gap`` samples apart, plus both ends:
    their positions (sorted) and strengths."""
    order = np.argsort(-profile)
    taken: list[int] = []
    for i in order:
        if profile[i] < threshold:
            break
        if all(abs(int(i) - j) > gap for j in taken):
            taken.append(int(i))
    inner = sorted(i for i in taken if gap < i < len(positions) - 1 - gap)
    where = np.array([0.0, *positions[inner], 1.0], np.float32)
    strength = np.array([1.0, *profile[inner], 1.0], np.float32)
    return where, strength


def _chain(edges: np.ndarray, strength: np.ndarray, start: int, direction: int, width: float,
           slack: float) -> list[tuple[float, float]]:
    """Whole cards laid one after another from the band's end ``start`` (index into edges) inwards: each ends
    at the strongest edge about one card further on, and no strong edge may cut through it."""
    cells: list[tuple[float, float]] = []
    e = float(edges[start])
    while True:
        near, far = sorted((e + direction * (1 - slack) * width, e + direction * (1 + slack) * width))
        window = np.flatnonzero((edges >= near) & (edges <= far))
        clean = None
        for i in window[np.argsort(-strength[window], kind="stable")]:  # strongest first, if nothing cuts it
            low, high = sorted((e, float(edges[i])))
            cutting = (edges > low + slack * width) & (edges < high - slack * width) & (strength >= 0.85)
            if not cutting.any():
                clean = float(edges[i])
                break
        if clean is None:
            return cells
        end = clean
        low, high = sorted((e, end))
        cells.append((low, high))
        e = end
        width = abs(high - low)  # the card just measured is the best guess for the next


def _cells(edges: np.ndarray, strength: np.ndarray, width: float,
           slack: float = 0.25) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Full and partial card spans (as fractions of the band) explained by the edge positions.

    ``width`` is one card's width as a fraction of the band, known to within ``slack``. A row is whole cards
    end to end; a fan is one whole card at its top end and, towards the other end, one card starting at each
    strong edge, hidden under the cards above it.
    """
    from_left = _chain(edges, strength, 0, 1, width, slack)
    from_right = _chain(edges, strength, len(edges) - 1, -1, width, slack)
    if from_left and from_right and max(b for _, b in from_left) >= min(a for a, _ in from_right) - 1e-6:
        row = sorted(set(from_left) | set(from_right))
        if all(b0 <= a1 + slack * width for (_, b0), (a1, _) in pairwise(row)):
            return row, []  # a row of touching cards
        return [], []
    full = from_left or from_right
    if not full:
        return [], []
    top_left = bool(from_left)
    measured = float(np.median([b - a for a, b in full]))
    covered = [(a - slack * measured, b + slack * measured) for a, b in full]
    # Each strong edge outside the whole cards starts a card hidden towards the top card; a card shows at
    # least a quarter of its width, so weaker edges closer than that to a stronger one are its inner lines.
    kept: list[float] = []
    outward = edges if top_left else -edges  # of equally strong edges, the card's outline is the outer one
    for i in np.lexsort((-outward, -np.round(strength, 2))):
        e = float(edges[i])
        if strength[i] < 0.75 or any(a < e < b for a, b in covered) or any(abs(e - k) < 0.3 * measured
                                                                          for k in kept):
            continue
        if (top_left and i == 0) or (not top_left and i == len(edges) - 1):
            continue
        kept.append(e)
    partial = [(e - measured, e) if top_left else (e, e + measured) for e in sorted(kept)]
    return full, partial


def _span_quad(quad: np.ndarray, axis: int, span: tuple[float, float]) -> np.ndarray:
    start0, end0, start1, end1 = _axes(quad, axis)
    a, b = span
    p0, p1 = start0 + (end0 - start0) * a, start0 + (end0 - start0) * b
    q0, q1 = start1 + (end1 - start1) * a, start1 + (end1 - start1) * b
    return np.array([p0, p1, q1, q0] if axis == 0 else [p0, q0, q1, p1], np.float32)


def split_strip(image: np.ndarray, quad: np.ndarray, metric: TableMetric, short: float | None,
                contrast: float) -> list[tuple[list[np.ndarray], list[np.ndarray]]]:
    """Ways to read a band as a row or a fan: (full quads, partial quads) per reading, most complete first.
    The caller keeps the first whose whole cards check out.

    ``short`` is the expected card short side on the table (None when unknown: the band's height then
    tells the card size, roughly, since the tilt is not known yet).
    """
    quad = np.asarray(quad, np.float32)
    readings: list[tuple[float, list[np.ndarray], list[np.ndarray]]] = []
    for axis in (0, 1):
        start0, end0, start1, _ = _axes(quad, axis)
        along = float(np.sqrt((end0 - start0) @ metric.matrix @ (end0 - start0)))
        across = float(np.sqrt((start1 - start0) @ metric.matrix @ (start1 - start0)))
        profile = None
        for card_across, card_along in ((1 / CARD_ASPECT, 1.0), (1.0, 1 / CARD_ASPECT)):  # in units of short
            unit = across / card_across
            if short is not None and abs(unit / short - 1) > 0.18:
                continue
            width = unit * card_along / along
            if width > 0.8 or width < 0.05:
                continue
            if profile is None:
                profile = _peaks(*edge_profile(image, quad, axis, contrast))
            full, partial = _cells(*profile, width)
            if full:
                coverage = sum(b - a for a, b in full) + sum(b - a for a, b in partial)
                readings.append((coverage, [_span_quad(quad, axis, s) for s in full],
                                 [_span_quad(quad, axis, s) for s in partial]))
    readings.sort(key=lambda r: -r[0])
    return [(full, partial) for _, full, partial in readings]
