"""The finder's low-resolution view of a frame: edge map, gradient field and the blobs the edges enclose.

Card outlines are long straight edges; wood grain, foil or felt give short, curly ones. Canny edges are
therefore kept only where they belong to a straight run long enough to be part of a card side, which lets
the same blob extraction work on a plain cloth and on a busy texture.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class EdgeMaps:
    """Everything the search needs at work scale (``scale`` = work pixels per frame pixel)."""

    scale: float
    small: np.ndarray
    edges: np.ndarray
    segments: np.ndarray


def straight_segments(edges: np.ndarray, min_length: float) -> np.ndarray:
    """Straight runs of at least ``min_length`` pixels in an edge map: K x 2 x 2 (end points), no duplicates."""
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    lengths = np.fromiter(map(len, contours), np.int64, len(contours))
    found = []
    for i in np.flatnonzero(lengths >= 1.8 * min_length):  # a thin chain's contour runs there and back
        poly = cv2.approxPolyDP(contours[i], 1.5, closed=False).reshape(-1, 2)
        ends = np.linalg.norm(np.diff(poly, axis=0), axis=1)
        found.extend(poly[j : j + 2] for j in np.flatnonzero(ends >= min_length))
    if not found:
        return np.zeros((0, 2, 2), np.float32)
    segments = np.asarray(found, np.float32)
    # The way back along a chain gives each segment twice, reversed: keep one of each.
    x0, y0, x1, y1 = segments[:, 0, 0], segments[:, 0, 1], segments[:, 1, 0], segments[:, 1, 1]
    swap = (x0 > x1) | ((x0 == x1) & (y0 > y1))
    segments[swap] = segments[swap, ::-1]
    _, unique = np.unique(np.round(segments.reshape(-1, 4) / 3), axis=0, return_index=True)
    return segments[np.sort(unique)]


def edge_maps(image: np.ndarray, scale: float, low: float, high: float, min_line: float) -> EdgeMaps:
    """Shrink the frame to work scale; find its straight edge segments and draw them as an edge map."""
    small = image if scale == 1.0 else cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    smooth = cv2.GaussianBlur(small, (3, 3), 0)
    edges = cv2.Canny(smooth, low, high, L2gradient=True)
    segments = straight_segments(edges, min_line)
    straight = np.zeros_like(edges)
    cv2.polylines(straight, np.round(segments).astype(np.int32), False, 255, 1)
    return EdgeMaps(scale, small, straight, segments)


def blobs(edges: np.ndarray, close: int) -> list[np.ndarray]:
    """Outer contours of the regions that edges enclose, after closing gaps of about ``close`` pixels."""
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (close, close))
    closed = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, kernel)
    closed = cv2.dilate(closed, cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3)))
    contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return list(contours)
