"""Cards grown from corners: where two straight segments meet at a square-ish angle, a card may have its corner.

Three corners of one card close its quad with no assumption at all (``triple_hypotheses``); two corners at the
ends of one side measure that side, and the card's aspect under the table metric gives the other
(``paired_hypotheses``); one corner plus the expected card size gives a guess (``hypotheses``). Quads are
scored by the edge support of their sides and picked greedily (``pick_cards``): a card whose every side is
seen is whole; one whose sides are partly hidden under cards already found, or cut by the frame, is partial,
extended to full size from its visible corners. ``split_block`` cuts a clean block of touching cards into
its grid. All work is capped so that a busy texture costs bounded time.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.finder_score import edge_support, inside_any
from vision.finder_shape import SizeModel, TableMetric
from vision.geometry import CARD_ASPECT

_GRID = (np.stack(np.meshgrid(np.linspace(0.15, 0.85, 5), np.linspace(0.15, 0.85, 5)), -1).reshape(-1, 2)
         .astype(np.float32))


def segment_corners(segments: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Possible card corners where an end of one straight segment meets another segment at 50-130 degrees.

    Returns corner points K x 2 and unit directions u, v (K x 2 each) pointing along the two sides away from
    the corner, with u x v > 0 so that corner, +u, +v run clockwise on screen. An end meeting the middle of
    another segment (a T, where two touching cards share a side) gives a corner on each side of it.
    """
    if len(segments) < 2:
        empty = np.zeros((0, 2), np.float32)
        return empty, empty, empty
    a, b = segments[:, 0].astype(np.float64), segments[:, 1].astype(np.float64)
    length = np.linalg.norm(b - a, axis=1)
    direction = (b - a) / length[:, None]
    ends = np.concatenate([a, b])  # end e belongs to segment e % n and points into it along +-direction
    n = len(segments)
    owner = np.tile(np.arange(n), 2)
    inward = np.concatenate([direction, -direction])
    rel = ends[:, None, :] - a[None]  # end x segment
    along = (rel * direction[None]).sum(-1)
    across = np.abs(rel[..., 0] * direction[None, :, 1] - rel[..., 1] * direction[None, :, 0])
    cos = np.abs((inward[:, None, :] * direction[None]).sum(-1))
    near = (across <= reach) & (along >= -reach) & (along <= length[None] + reach) & (cos <= np.cos(np.radians(50)))
    near[np.arange(2 * n), owner] = False
    e, s = np.nonzero(near)
    if not len(e):
        empty = np.zeros((0, 2), np.float32)
        return empty, empty, empty
    # Corner = intersection of the two lines; the segment's end is within ``reach`` of it.
    d_e, d_s = inward[e], direction[s]
    denom = d_e[:, 0] * d_s[:, 1] - d_e[:, 1] * d_s[:, 0]
    diff = a[s] - ends[e]
    t = (diff[:, 0] * d_s[:, 1] - diff[:, 1] * d_s[:, 0]) / denom
    corner = ends[e] + d_e * t[:, None]
    at = ((corner - a[s]) * d_s).sum(-1)
    corners, us, vs = [], [], []
    for sign, keep in ((1.0, at <= length[s] - reach), (-1.0, at >= reach)):  # room to run along +-d_s
        corners.append(corner[keep])
        us.append(d_e[keep])
        vs.append(sign * d_s[keep])
    corner, u, v = (np.concatenate(x) for x in (corners, us, vs))
    clockwise = u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0] > 0
    u, v = np.where(clockwise[:, None], u, v), np.where(clockwise[:, None], v, u)
    _, unique = np.unique(np.round(np.column_stack([corner / 2, u * 8, v * 8])), axis=0, return_index=True)
    return (corner[unique].astype(np.float32), u[unique].astype(np.float32), v[unique].astype(np.float32))


def hypotheses(corners: np.ndarray, u: np.ndarray, v: np.ndarray, short: np.ndarray, metric: TableMetric,
               scales: tuple[float, ...] = (0.92, 1.0, 1.09)) -> np.ndarray:
    """Card-sized clockwise quads at each corner, both ways round: M x 4 x 2.

    ``short`` is the card's short side on the table (metric units) at each corner; the metric turns it into
    image lengths along u and v, so the quads are foreshortened like the real cards.
    """
    unit_u = np.sqrt(np.einsum("ni,ij,nj->n", u, metric.matrix, u))[:, None]
    unit_v = np.sqrt(np.einsum("ni,ij,nj->n", v, metric.matrix, v))[:, None]
    quads = []
    for scale in scales:
        s = (short * scale)[:, None]
        lng = s / CARD_ASPECT
        for da, db in ((s / unit_u, lng / unit_v), (lng / unit_u, s / unit_v)):
            quads.append(np.stack([corners, corners + u * da, corners + u * da + v * db, corners + v * db], 1))
    return np.concatenate(quads).astype(np.float32)


def split_block(quad: np.ndarray, metric: TableMetric, short: float, max_cards: int = 8) -> np.ndarray | None:
    """Cut a clean rectangular blob into the grid of touching cards it is made of (a row, a 2 x 2 block...).

    ``short`` is the card's short side on the table here. Returns the cell quads, or None when the blob's
    sides are not close to whole multiples of a card's sides either way round.
    """
    q = np.asarray(quad, np.float64)
    first = np.sqrt((q[1] - q[0]) @ metric.matrix @ (q[1] - q[0]))
    second = np.sqrt((q[3] - q[0]) @ metric.matrix @ (q[3] - q[0]))
    best = None
    for along_first, along_second in ((short, short / CARD_ASPECT), (short / CARD_ASPECT, short)):
        n1, n2 = first / along_first, second / along_second
        k1, k2 = max(1, round(n1)), max(1, round(n2))
        error = max(abs(n1 - k1) / k1 ** 0.5, abs(n2 - k2) / k2 ** 0.5)
        if k1 * k2 <= max_cards and error < 0.25 and (best is None or error < best[0]):
            best = (error, k1, k2)
    if best is None or best[1] * best[2] == 1:
        return None
    _, k1, k2 = best
    to_quad = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), q.astype(np.float32))
    cells = []
    for j in range(k2):
        for i in range(k1):
            unit = np.float32([[i / k1, j / k2], [(i + 1) / k1, j / k2], [(i + 1) / k1, (j + 1) / k2],
                               [i / k1, (j + 1) / k2]])
            cells.append(cv2.perspectiveTransform(unit[None], to_quad)[0])
    return np.asarray(cells, np.float32)


def _pair_matrix(corners: np.ndarray, u: np.ndarray, v: np.ndarray, length_range: tuple[float, float],
                 reach: float) -> np.ndarray:
    """matches[i, j]: corner j is the next corner clockwise from corner i on the same card (i's u side)."""
    rel = corners[None, :, :] - corners[:, None, :]  # i -> j
    along = (rel * u[:, None, :]).sum(-1)
    off = np.abs(rel[..., 0] * u[:, None, 1] - rel[..., 1] * u[:, None, 0])
    lo, hi = length_range
    turn_u = (u[None, :, :] * v[:, None, :]).sum(-1) > 0.9  # j's u runs along i's v ...
    turn_v = (v[None, :, :] * -u[:, None, :]).sum(-1) > 0.9  # ... and j's v back along i's u
    return (along >= lo) & (along <= hi) & (off <= reach) & turn_u & turn_v


def triple_hypotheses(corners: np.ndarray, u: np.ndarray, v: np.ndarray, length_range: tuple[float, float],
                      reach: float, limit: int = 1500) -> np.ndarray:
    """Quads closed by three corners of one card (corner, next clockwise, previous): no size, aspect or tilt
    assumed, so these are measurements that can calibrate the rest. M x 4 x 2."""
    if len(corners) < 3:
        return np.zeros((0, 4, 2), np.float32)
    matches = _pair_matrix(corners, u, v, length_range, reach)
    quads = []
    for i in np.flatnonzero(matches.any(axis=1) & matches.any(axis=0)):
        for j in np.flatnonzero(matches[i]):
            for k in np.flatnonzero(matches[:, i]):  # k -> i -> j: k is the corner before i
                if j != k:
                    quads.append([corners[i], corners[j], corners[j] + corners[k] - corners[i], corners[k]])
        if len(quads) > limit:
            break
    return np.asarray(quads, np.float32).reshape(-1, 4, 2)


def paired_hypotheses(corners: np.ndarray, u: np.ndarray, v: np.ndarray, metric: TableMetric,
                      length_range: tuple[float, float], reach: float) -> np.ndarray:
    """Card quads spanned by two corners at the ends of one side (TL and TR of the same card): the side's
    length is then measured, not assumed, and the other side follows from the card's aspect. M x 4 x 2."""
    if len(corners) < 2:
        return np.zeros((0, 4, 2), np.float32)
    matches = _pair_matrix(corners, u, v, length_range, reach)
    i, j = np.nonzero(matches)
    if not len(i):
        return np.zeros((0, 4, 2), np.float32)
    start, side = corners[i], corners[j] - corners[i]
    unit_u = np.sqrt(np.einsum("ni,ij,nj->n", side, metric.matrix, side))  # metric length of the side
    down = (v[i] + u[j]) / np.linalg.norm(v[i] + u[j], axis=1, keepdims=True)
    unit_v = np.sqrt(np.einsum("ni,ij,nj->n", down, metric.matrix, down))
    quads = []
    for ratio in (1 / CARD_ASPECT, CARD_ASPECT):  # the measured side is the short one, or the long one
        depth = (unit_u * ratio / unit_v)[:, None]
        quads.append(np.stack([start, corners[j], corners[j] + down * depth, start + down * depth], 1))
    return np.concatenate(quads).astype(np.float32)


def snap_sides(image: np.ndarray, quad: np.ndarray, contrast: float, reach: int) -> np.ndarray:
    """Slide each side of a quad along its normal (up to ``reach`` px) to where its edge support peaks;
    of equally good positions, the smallest move. All four sides are tried in one batch."""
    quad = quad.astype(np.float32)
    shifts = np.arange(-reach, reach + 1, dtype=np.float32)
    edges = np.roll(quad, -1, axis=0) - quad
    normals = np.stack([edges[:, 1], -edges[:, 0]], axis=1) / np.maximum(
        np.linalg.norm(edges, axis=1, keepdims=True), 1e-6)
    moved = np.repeat(quad[None, None], 4, axis=0).repeat(len(shifts), axis=1)  # side x shift x 4 x 2
    for side in range(4):
        offset = shifts[:, None] * normals[side]
        moved[side, :, side] += offset
        moved[side, :, (side + 1) % 4] += offset
    support = edge_support(image, moved.reshape(-1, 4, 2), contrast).sides.reshape(4, len(shifts), 4)
    own = support[np.arange(4), :, np.arange(4)]  # side s's support when side s is moved
    penalty = np.abs(shifts)[None] * 1e-3
    best = shifts[np.argmax(own - penalty, axis=1)]
    lines = [(quad[s] + best[s] * normals[s], quad[(s + 1) % 4] + best[s] * normals[s]) for s in range(4)]
    corners = []
    for s in range(4):
        (p0, p1), (q0, q1) = lines[s - 1], lines[s]
        d0, d1 = p1 - p0, q1 - q0
        cross = d0[0] * d1[1] - d0[1] * d1[0]
        if abs(cross) < 1e-6:
            return quad
        t = ((q0 - p0)[0] * d1[1] - (q0 - p0)[1] * d1[0]) / cross
        corners.append(p0 + d0 * t)
    return np.asarray(corners, np.float32)


@dataclass(frozen=True)
class Pick:
    quad: np.ndarray
    score: float
    partial: bool


def _ranked(image: np.ndarray, quads: np.ndarray, contrast: float, occluders: list[np.ndarray]) -> np.ndarray:
    """First-pass score of hypotheses: side support, discounted for hidden sides and a mixed inside colour."""
    support = edge_support(image, quads, contrast, occluders)
    return support.score * (0.5 + 0.5 * support.visibility) * (0.5 + 0.5 * support.border)


def frame_corners(segments: np.ndarray, short_min: float, occluders: list[np.ndarray] | None = None,
                  max_segments: int = 250, max_corners: int = 300) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Corners of the longest segments (capped, so that a busy texture costs bounded time)."""
    if len(segments) > max_segments:
        segments = segments[np.argsort(-np.linalg.norm(segments[:, 1] - segments[:, 0], axis=1))[:max_segments]]
    corners, u, v = segment_corners(segments, reach=max(2.0, 0.15 * short_min))
    if len(corners) and occluders:
        free = ~inside_any(corners + 2 * (u + v), occluders)  # a corner inside a known card is its art
        corners, u, v = corners[free], u[free], v[free]
    if len(corners) > max_corners:  # an even spread over the frame, the same for the same image
        keep = np.linspace(0, len(corners) - 1, max_corners).astype(np.int64)
        corners, u, v = corners[keep], u[keep], v[keep]
    return corners, u, v


def pick_cards(image: np.ndarray, corners: tuple[np.ndarray, np.ndarray, np.ndarray], size: SizeModel | None,
               metric: TableMetric, short_range: tuple[float, float], contrast: float,
               occluders: list[np.ndarray], min_visible: float = 0.3, max_tries: int = 40) -> list[Pick]:
    """Cards (full or partial) grown from corners, skipping what ``occluders`` already explain."""
    lo, hi = short_range
    corners, u, v = corners
    if len(corners) and occluders:
        free = ~inside_any(corners + 2 * (u + v), occluders)
        corners, u, v = corners[free], u[free], v[free]
    if not len(corners):
        return []
    quads = paired_hypotheses(corners, u, v, metric, (0.8 * lo, 1.2 * hi / CARD_ASPECT), reach=max(2.0, 0.1 * lo))
    if size is not None:
        quads = np.concatenate([quads, hypotheses(corners, u, v, size.short_side(corners), metric)])
    if not len(quads):
        return []
    first = _ranked(image, quads, contrast, occluders)
    order = np.argsort(-first)
    order = order[first[order] >= 0.5][:max_tries]
    interior = _interior_points(quads[order])
    picks: list[Pick] = []
    accepted = list(occluders)
    reach = max(2, int(0.1 * lo))
    for rank, index in enumerate(order):
        if accepted and inside_any(interior[rank], accepted).mean() > 1 - min_visible:
            continue
        quad = snap_sides(image, quads[index], contrast, reach)
        check = edge_support(image, quad[None], contrast, accepted)
        visibility, strength, weakest = check.visibility[0], check.score[0], check.weakest[0]
        short = float(metric.short_sides(quad[None])[0])
        expected = short if size is None else float(size.short_side(quad.mean(axis=0))[0])
        shaped = (abs(float(metric.true_aspect(quad[None])[0]) - CARD_ASPECT) <= 0.07
                  and abs(short / expected - 1) <= 0.25 and lo * 0.8 <= short <= hi)
        plausible = shaped and check.border[0] >= 0.6 and weakest >= 0.75 and strength >= 0.85
        full = plausible and visibility >= 0.97
        partial = plausible and not full and visibility >= min_visible
        if full or partial:
            picks.append(Pick(quad, float(strength * (1.0 if full else visibility)), bool(partial)))
            accepted.append(quad)
    return picks


def _interior_points(quads: np.ndarray) -> np.ndarray:
    """5 x 5 grid of points inside each quad (bilinear in the corners): M x 25 x 2."""
    u, v = _GRID[:, 0][None, :, None], _GRID[:, 1][None, :, None]
    q = quads[:, None]
    return (q[..., 0, :] * (1 - u) * (1 - v) + q[..., 1, :] * u * (1 - v) + q[..., 2, :] * u * v
            + q[..., 3, :] * (1 - u) * v)
