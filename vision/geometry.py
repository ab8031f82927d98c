"""Quadrilateral helpers shared by the finder, the mat and the classifier: corner order, aspect, overlap and
the batch warp of card quads into canonical upright crops.

Corner order everywhere is top-left, top-right, bottom-right, bottom-left (clockwise on screen) with the
card's long side vertical. Which short side is "top" is the one nearer the top of the image; a card lying
upside down is the classifier's business, not geometry's.
"""

from __future__ import annotations

import cv2
import numpy as np

CARD_ASPECT = 0.63
"""Width over height of a hanafuda card (54 x 33-35 mm)."""


def _signed_area(quad: np.ndarray) -> float:
    x, y = quad[:, 0], quad[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))


def order_quad(quad: np.ndarray) -> np.ndarray:
    """Reorder 4 corners to TL, TR, BR, BL: clockwise on screen, first edge a short side, that side on top
    (on a tie, for a card lying flat, the left one)."""
    return order_quads(np.asarray(quad, dtype=np.float32).reshape(1, 4, 2))[0]


def order_quads(quads: np.ndarray) -> np.ndarray:
    """``order_quad`` for an N x 4 x 2 array, vectorised (the finder orders thousands of hypotheses)."""
    q = np.asarray(quads, dtype=np.float32).reshape(-1, 4, 2).copy()
    if not len(q):
        return q
    if len(q) == 1:
        return _order_one(q[0])[None]  # a quarter of the time: the recognisers order single quads per tile
    x, y = q[..., 0].astype(np.float64), q[..., 1].astype(np.float64)
    area = (x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1)
    q[area < 0] = q[area < 0, ::-1]
    sides = np.linalg.norm(q - np.roll(q, -1, axis=1), axis=2)
    start = np.where(sides[:, 0] + sides[:, 2] <= sides[:, 1] + sides[:, 3], 0, 1)
    index = (start[:, None] + np.arange(4)[None]) % 4
    first = np.take_along_axis(q, index[..., None], axis=1)
    second = np.roll(first, -2, axis=1)
    key_first = np.round(first[:, :2, 1].mean(axis=1), 3), first[:, :2, 0].mean(axis=1)
    key_second = np.round(second[:, :2, 1].mean(axis=1), 3), second[:, :2, 0].mean(axis=1)
    take_second = (key_second[0] < key_first[0]) | ((key_second[0] == key_first[0]) & (key_second[1] < key_first[1]))
    return np.where(take_second[:, None, None], second, first)


def _order_one(q: np.ndarray) -> np.ndarray:
    """``order_quads`` of one float32 quad, in scalars: the same sums in the same precision (float64 for the
    area, float32 for the sides and the keys), so the same corners come first."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = q.tolist()
    area = (x0 * y1 - x1 * y0) + (x1 * y2 - x2 * y1) + (x2 * y3 - x3 * y2) + (x3 * y0 - x0 * y3)
    corners = list(q) if area >= 0 else list(q[::-1])
    sides = [np.sqrt(d[0] * d[0] + d[1] * d[1]) for d in (corners[i] - corners[(i + 1) % 4] for i in range(4))]
    start = 0 if sides[0] + sides[2] <= sides[1] + sides[3] else 1
    first = corners[start:] + corners[:start]
    second = first[2:] + first[:2]
    two = np.float32(2)

    def key(c: list[np.ndarray]) -> tuple[np.float32, np.float32]:
        return np.round((c[0][1] + c[1][1]) / two, 3), (c[0][0] + c[1][0]) / two

    (y_first, x_first), (y_second, x_second) = key(first), key(second)
    take_second = y_second < y_first or (y_second == y_first and x_second < x_first)
    return np.array(second if take_second else first, np.float32)


def side_vectors(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each ordered quad's (N x 4 x 2: TL, TR, BR, BL) mean side vectors: across (TL to TR) and along (TL to BL)."""
    across = (quads[:, 1] - quads[:, 0] + quads[:, 2] - quads[:, 3]) / 2
    along = (quads[:, 3] - quads[:, 0] + quads[:, 2] - quads[:, 1]) / 2
    return across, along


def quad_sides(quad: np.ndarray) -> tuple[float, float]:
    """Mean short and mean long side length of an ordered quad (TL, TR, BR, BL)."""
    shorts, longs = quads_sides(np.asarray(quad).reshape(1, 4, 2))
    return float(shorts[0]), float(longs[0])


def quads_sides(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``quad_sides`` of N ordered quads at once: their mean short and mean long sides."""
    q = np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2)
    lengths = np.linalg.norm(q - np.roll(q, -1, axis=1), axis=2)
    a, b = (lengths[:, 0] + lengths[:, 2]) / 2, (lengths[:, 1] + lengths[:, 3]) / 2
    return np.minimum(a, b), np.maximum(a, b)


def quad_aspect(quad: np.ndarray) -> float:
    """Short side over long side (about 0.63 for a card seen from above)."""
    short, long = quad_sides(quad)
    return short / long if long > 0 else 0.0


def quad_area(quad: np.ndarray) -> float:
    return abs(_signed_area(np.asarray(quad, dtype=np.float64).reshape(4, 2)))


def is_convex(quad: np.ndarray) -> bool:
    q = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    edges = np.roll(q, -1, axis=0) - q
    cross = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(edges, -1, axis=0)[:, 0]
    return bool((cross > 0).all() or (cross < 0).all())


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads (0 when either is degenerate)."""
    pa = order_quad(a).astype(np.float32)
    pb = order_quad(b).astype(np.float32)
    area_a, area_b = quad_area(pa), quad_area(pb)
    if area_a <= 0 or area_b <= 0:
        return 0.0
    inter = convex_intersection(pa, pb)
    return inter / (area_a + area_b - inter)


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pairwise IoU, len(a) x len(b); a cheap bounding-box test skips far pairs."""
    return iou_of(*overlap_areas(a, b))


def smaller_share_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pairwise share of the smaller quad's area that lies in the other, len(a) x len(b): 1 where one holds the
    other, however much bigger it is (which IoU does not say)."""
    return smaller_share_of(*overlap_areas(a, b))


def overlap_areas(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The area each pair shares (len(a) x len(b); 0 for pairs whose boxes do not meet, and for a degenerate quad)
    and each quad's area: what ``iou_of`` and ``smaller_share_of`` are computed from, once for both."""
    a, b = order_quads(a), order_quads(b)
    area_a, area_b = quad_areas(a), quad_areas(b)
    shared = np.zeros((len(a), len(b)), np.float64)
    if not len(a) or not len(b):
        return shared, area_a, area_b
    lo_a, hi_a, lo_b, hi_b = a.min(1), a.max(1), b.min(1), b.max(1)
    overlap = ((lo_a[:, None] < hi_b[None]) & (lo_b[None] < hi_a[:, None])).all(-1)
    overlap &= (area_a[:, None] > 0) & (area_b[None] > 0)
    for i, j in zip(*np.nonzero(overlap), strict=True):
        shared[i, j] = convex_intersection(a[i], b[j])
    return shared, area_a, area_b


def iou_of(shared: np.ndarray, area_a: np.ndarray, area_b: np.ndarray) -> np.ndarray:
    """Pairwise IoU from ``overlap_areas``."""
    union = area_a[:, None] + area_b[None] - shared
    return np.divide(shared, union, out=np.zeros_like(shared), where=shared > 0)


def smaller_share_of(shared: np.ndarray, area_a: np.ndarray, area_b: np.ndarray) -> np.ndarray:
    """Pairwise share of the smaller quad inside the other, from ``overlap_areas``."""
    smaller = np.minimum(area_a[:, None], area_b[None])
    return np.divide(shared, smaller, out=np.zeros_like(shared), where=shared > 0)


def quad_areas(quads: np.ndarray) -> np.ndarray:
    """Areas of N x 4 x 2 quads (shoelace, vectorised)."""
    x, y = quads[..., 0].astype(np.float64), quads[..., 1].astype(np.float64)
    return np.abs((x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1)) / 2


def expected_areas(faces: np.ndarray, quads: np.ndarray, least: int = 4) -> np.ndarray:
    """The area a card would have where each of ``quads`` lies, from the areas of the cards ``faces`` (both N x 4 x 2).
    The cards lie on one table, and a plane's inverse depth is affine in image coordinates; so, near enough, is a
    card's side in the image. Fitted by least squares (each face's root area against its centre) and clamped to the
    faces' own range, so that it never reaches past what was seen; with under ``least`` faces, their median area."""
    areas = quad_areas(faces)
    if len(faces) < least:
        return np.full(len(quads), float(np.median(areas)) if len(areas) else np.nan)
    roots, centres = np.sqrt(areas), faces.mean(axis=1).astype(np.float64)
    scale = float(np.abs(centres).max()) or 1.0  # a well-scaled fit
    coefficients, *_ = np.linalg.lstsq(np.column_stack([np.ones(len(faces)), centres / scale]), roots, rcond=None)
    there = np.column_stack([np.ones(len(quads)), quads.mean(axis=1) / scale]) @ coefficients
    clamped: np.ndarray = np.clip(there, roots.min(), roots.max()) ** 2
    return clamped


_PART = np.float32(1 - 1e-4)


def convex_intersection(a: np.ndarray, b: np.ndarray) -> float:
    """Area shared by two ordered float32 convex quads (OpenCV may return -1 for none). OpenCV's clipping miscounts
    quads whose edges are (nearly) collinear: a quad and a copy of it may share 0.75 of their area, two cards side by
    side all of it. ``a`` shrunk by a ten-thousandth about its centre parts such edges; the area hardly changes."""
    centre = a.mean(axis=0)
    return max(float(cv2.intersectConvexConvex((a - centre) * _PART + centre, b)[0]), 0.0)


def convex_iou(a: np.ndarray, b: np.ndarray, area_a: float, area_b: float) -> float:
    """IoU of two ordered float32 quads whose areas are known (0 when either is degenerate)."""
    if area_a <= 0 or area_b <= 0:
        return 0.0
    inter = convex_intersection(a, b)
    return inter / (area_a + area_b - inter)


def within_frame(quads: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Which of N quads lie wholly inside an image of ``shape`` (height, width, ...)."""
    height, width = shape[:2]
    inside: np.ndarray = ((quads >= 0).all(axis=(1, 2)) & (quads[..., 0] < width).all(axis=1)
                          & (quads[..., 1] < height).all(axis=1))
    return inside


def warp_quads(image: np.ndarray, quads: np.ndarray, size: tuple[int, int] = (64, 100), as_given: bool = False
               ) -> np.ndarray:
    """Warp each quad to an upright W x H crop (long side vertical): returns N x H x W x 3 uint8. ``as_given``:
    each quad's corners are the crop's top left, top right, bottom right and bottom left as they come, its long side
    or not (a card seen at a grazing angle may look wider than long: ``Recognizer.quarter_turn``).

    Large quads are first warped at an integer multiple of the crop size and then shrunk with area
    averaging, so a card filling the frame does not alias into a noisy crop.
    """
    width, height = size
    quads = np.asarray(quads, np.float32).reshape(-1, 4, 2) if as_given else order_quads(quads)
    out = np.empty((len(quads), height, width, image.shape[2] if image.ndim == 3 else 1), np.uint8)
    shorts, longs = quads_sides(quads)
    for i, quad in enumerate(quads):
        factor = int(np.clip(min(shorts[i] / width, longs[i] / height), 1, 4))
        w, h = width * factor, height * factor
        target = np.float32([[0, 0], [w, 0], [w, h], [0, h]]) - 0.5  # corners lie on pixel borders
        matrix = cv2.getPerspectiveTransform(quad, target)
        crop = cv2.warpPerspective(image, matrix, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        if factor > 1:
            crop = cv2.resize(crop, (width, height), interpolation=cv2.INTER_AREA)
        out[i] = crop.reshape(height, width, -1)
    return out if image.ndim == 3 else out[..., 0]
