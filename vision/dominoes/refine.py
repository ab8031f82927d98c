"""Tightening a found tile's quad to its face, where the face stands out from what is around it.

The learned finder places corners to a few pixels of its 512x288 input: at full resolution a loose quad may
take in table past one end, miss a pip near the rim or be turned a few degrees. Around each quad (grown a
little, warped upright) the face is the region of the face's colour that holds the quad's middle; its
minimum-area rectangle replaces the quad when it agrees with it (about the same size, shape and place). Where
the region runs on (tiles pressed together, an ivory tile on white paper) or is no rectangle, each side is
snapped on its own to where the face ends near it (pips filled in; two stretches per side, so it may turn a
little) and the sides that find no end stay where they were.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.dominoes.pips import face_colour
from vision.geometry import order_quads

SHORT = 40  # the quad's short side in the working crop, px
GROW = 0.3  # the crop reaches this share of the short side past each side of the quad
_WEIGHTS = np.array([0.8, 1.0, 1.0], np.float32)  # Lab distance: lightness weighs less than colour


def _frame(q: np.ndarray) -> tuple[np.ndarray, tuple[int, int], float]:
    """Perspective from image px to an upright crop holding the ordered quad ``q`` grown by ``GROW``; the crop's
    size; where the quad's bottom side lies in it."""
    short = (math.dist(q[1], q[0]) + math.dist(q[2], q[3])) / 2
    long = (math.dist(q[3], q[0]) + math.dist(q[2], q[1])) / 2
    pad = GROW * SHORT
    bottom = long * SHORT / max(short, 1e-3) + pad
    target = np.array([[pad, pad], [pad + SHORT, pad], [pad + SHORT, bottom], [pad, bottom]], np.float32)
    return cv2.getPerspectiveTransform(q, target), (round(SHORT + 2 * pad), round(bottom + pad)), bottom


def refine_quad(image: np.ndarray, quad: np.ndarray, tolerance: float = 0.12) -> np.ndarray:
    """The tile's face rectangle near ``quad`` (4 x 2 image px), or ``quad`` itself when none agrees with it."""
    quad = np.asarray(quad, np.float32)
    q = order_quads(quad[None])[0]
    matrix, (width, height), bottom = _frame(q)
    crop = cv2.warpPerspective(image, matrix, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    pad, quarter = round(GROW * SHORT), SHORT // 4
    face = face_colour(lab[pad + quarter : height - pad - quarter, pad + quarter : pad + SHORT - quarter])
    diff = (lab - face) * _WEIGHTS
    distance = np.sqrt(np.einsum("ijk,ijk->ij", diff, diff))
    _, labels = cv2.connectedComponents((distance < EDGE).astype(np.uint8), connectivity=4)
    middle = labels[height // 2 - quarter : height // 2 + quarter, width // 2 - quarter : width // 2 + quarter]
    centre = int(np.bincount(middle.ravel()).argmax())  # not the very centre: a European divider lies there
    if centre == 0:
        return quad  # pips cover the middle: nothing sure to fit
    region = (labels == centre).astype(np.uint8)
    if region[0].any() or region[-1].any() or region[:, 0].any() or region[:, -1].any():
        return _snapped(quad, q, matrix, distance, bottom, tolerance)  # the face's colour runs on: a neighbour
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=cv2.contourArea)
    (cx, cy), (w, h), angle = cv2.minAreaRect(outline)
    if cv2.contourArea(outline) < 0.85 * w * h:
        return _snapped(quad, q, matrix, distance, bottom, tolerance)  # no filled rectangle: it ran on somewhere
    box = cv2.boxPoints(((cx, cy), (w + 1.0, h + 1.0), angle)).astype(np.float32)
    found = order_quads(cv2.perspectiveTransform(box[None], np.linalg.inv(matrix)))[0]
    return _agreeing(quad, q, found, tolerance)


EDGE = 22.0  # Lab distance from the face colour past which a pixel is not face
DEPTH = 0.3  # a side's search starts this share of the short side inside the quad, and reaches as far outside
MAX_SLOPE = 0.1  # a snapped side turns at most this much (about 6 degrees) from the quad's


def _edge(profile: np.ndarray, start: int, outward: int, reach: int) -> float | None:
    """Where ``profile`` (share of face pixels) first falls below half walking outward from ``start`` (the
    boundary between the last face pixel and the first other one), or None when the walk starts off the face or
    never leaves it."""
    stop = int(np.clip(start + outward * reach, 0, len(profile) - 1))
    path = profile[start : stop + outward : outward] if outward > 0 or stop > 0 else profile[start::-1]
    over = np.flatnonzero(path < 0.5)
    if not len(over) or over[0] == 0:
        return None
    return start + outward * (int(over[0]) - 0.5)


def _side_lines(distance: np.ndarray, pad: int, bottom: float) -> list[tuple[float, float] | None]:
    """Each side (top, right, bottom, left) of the face in the crop as ``across = a + b * along``, or None where
    the face does not end near it. Measured on two stretches of the side, so a side may turn a little; a
    stretch is face where most of its pixels are (pips cover fewer)."""
    depth = round(DEPTH * SHORT)
    face = (distance < EDGE).astype(np.uint8)
    _, labels = cv2.connectedComponents(1 - face, connectivity=4)
    border = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    face = np.where(np.isin(labels, border) & (face == 0), 0, 1).astype(np.float32)  # pips filled in
    out: list[tuple[float, float] | None] = []
    for side, edge in enumerate((pad, pad + SHORT, round(bottom), pad)):
        long_side = side in (1, 3)
        first, last = (pad, round(bottom)) if long_side else (pad, pad + SHORT)
        outward = 1 if side in (1, 2) else -1
        points = []
        for a, b in ((0.15, 0.5), (0.5, 0.85)):
            lo, hi = round(first + a * (last - first)), round(first + b * (last - first))
            block = face[lo:hi] if long_side else face[:, lo:hi].T
            found = _edge(block.mean(axis=0), edge - outward * depth, outward, 2 * depth)
            if found is not None:
                points.append(((lo + hi - 1) / 2, found))
        if len(points) < 2:
            out.append(None)  # the face runs on past the side, or a pip stands in the way
            continue
        slope = (points[1][1] - points[0][1]) / (points[1][0] - points[0][0])
        if abs(slope) > MAX_SLOPE:
            out.append(None)  # the two stretches disagree: one ended at a pip, not at the rim
            continue
        along, across = np.mean(points, axis=0)
        out.append((float(across - slope * along), slope))
    return out


def _snapped(quad: np.ndarray, q: np.ndarray, matrix: np.ndarray, distance: np.ndarray, bottom: float,
             tolerance: float) -> np.ndarray:
    """The ordered quad ``q`` with each side moved to where the face ends near it: the face's colour may run on
    past one side (a neighbour pressed to it, a table of its colour) and still stop at the others."""
    pad = round(GROW * SHORT)
    default = [(GROW * SHORT, 0.0), (GROW * SHORT + SHORT, 0.0), (bottom, 0.0), (GROW * SHORT, 0.0)]
    lines = [line or fallback for line, fallback in zip(_side_lines(distance, pad, bottom), default, strict=True)]
    corners = []
    for horizontal, vertical in ((0, 3), (0, 1), (2, 1), (2, 3)):  # TL, TR, BR, BL
        (ay, by), (ax, bx) = lines[horizontal], lines[vertical]  # y = ay + by * x, x = ax + bx * y
        x = (ax + bx * ay) / (1 - bx * by)
        corners.append((x, ay + by * x))
    found = cv2.perspectiveTransform(np.array([corners], np.float32), np.linalg.inv(matrix))[0]
    return _agreeing(quad, q, found, tolerance)  # corners in the order of q's


def _agreeing(quad: np.ndarray, q: np.ndarray, found: np.ndarray, tolerance: float) -> np.ndarray:
    """``found`` (ordered as ``q``, the ordered ``quad``) when it is about the size and place of ``q``, else
    ``quad`` as given."""
    area_old, area_new = abs(cv2.contourArea(q)), abs(cv2.contourArea(found))
    overlap = max(float(cv2.intersectConvexConvex(q, found)[0]), 0.0)
    iou = overlap / max(area_old + area_new - overlap, 1e-6)
    if abs(area_new / max(area_old, 1e-6) - 1) > 2 * tolerance or iou < 1 - 2 * tolerance:
        return quad
    return found
