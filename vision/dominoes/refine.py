"""Tightening a found tile's quad to its face, where the face stands out from what is around it.

The learned finder places corners to a few pixels of its 512x288 input: at full resolution a loose quad may
take in table past one end or miss a pip near the rim. Around each quad (grown a little, warped upright) the
face is the region of the face's colour that holds the quad's centre, its pips filled in; its minimum-area
rectangle replaces the quad when it agrees with it (about the same size, shape and place). Where the region
runs on (tiles pressed together, an ivory tile on white paper) it does not agree, and the quad stays as found.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.dominoes.pips import face_colour
from vision.geometry import iou_matrix, order_quads

SHORT = 40  # the quad's short side in the working crop, px
GROW = 0.3  # the crop reaches this share of the short side past each side of the quad


def _frame(quad: np.ndarray) -> tuple[np.ndarray, tuple[int, int]]:
    """Perspective from image px to an upright crop holding the quad grown by ``GROW``; the crop's size."""
    q = order_quads(quad[None])[0].astype(np.float32)
    short = (np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2
    long = (np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2
    scale = SHORT / max(float(short), 1e-3)
    pad = GROW * SHORT
    width, height = SHORT + 2 * pad, long * scale + 2 * pad
    target = np.array([[pad, pad], [pad + SHORT, pad], [pad + SHORT, height - pad], [pad, height - pad]], np.float32)
    return cv2.getPerspectiveTransform(q, target), (round(width), round(height))


def refine_quad(image: np.ndarray, quad: np.ndarray, tolerance: float = 0.12) -> np.ndarray:
    """The tile's face rectangle near ``quad`` (4 x 2 image px), or ``quad`` itself when none agrees with it."""
    matrix, (width, height) = _frame(np.asarray(quad, np.float32))
    crop = cv2.warpPerspective(image, matrix, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    pad = round(GROW * SHORT)
    core = lab[pad + SHORT // 4 : height - pad - SHORT // 4, pad + SHORT // 4 : pad + SHORT - SHORT // 4]
    face = face_colour(core.reshape(-1, 3))
    distance = np.linalg.norm((lab - face) * np.array([0.8, 1.0, 1.0], np.float32), axis=2)
    near = (distance < 22.0).astype(np.uint8)
    _, labels = cv2.connectedComponents(near, connectivity=4)
    centre = labels[height // 2, width // 2]
    if centre == 0:
        return np.asarray(quad, np.float32)
    region = (labels == centre).astype(np.uint8)
    if region[0].any() or region[-1].any() or region[:, 0].any() or region[:, -1].any():
        return np.asarray(quad, np.float32)  # the face's colour runs on out of the crop: a neighbour, the table
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=cv2.contourArea)
    (cx, cy), (w, h), angle = cv2.minAreaRect(outline)
    box = cv2.boxPoints(((cx, cy), (w + 1.0, h + 1.0), angle)).astype(np.float32)
    if cv2.contourArea(outline) < 0.85 * w * h:
        return np.asarray(quad, np.float32)  # not a filled rectangle: the region ran on past the tile
    found = cv2.perspectiveTransform(box[None], np.linalg.inv(matrix))[0]
    old = order_quads(np.asarray(quad, np.float32)[None])
    new = order_quads(found[None])
    area_old, area_new = (abs(cv2.contourArea(q[0])) for q in (old, new))
    if abs(area_new / max(area_old, 1e-6) - 1) > 2 * tolerance or iou_matrix(old, new)[0, 0] < 1 - 2 * tolerance:
        return np.asarray(quad, np.float32)
    return new[0]
