"""Find cards (face up or down) in a BGR frame, without markers: one oriented quad per card.

Pipeline, all classical OpenCV, searched at reduced resolution and refined at full resolution:
1. shrink the frame so the smallest expected card is ~``work_card_width`` px wide; colour Canny; keep only
   straight runs (``finder_edges``), so wood grain or felt do not turn into outlines;
2. candidate outlines: blobs the edges enclose, and quads closed by three square corners of the straight
   segments (``finder_split``); an outline counts when every side lies on an edge (``finder_score``);
3. the card-shaped outlines give the table's tilt and the card size across the frame (``finder_shape``);
   under that tilt a pair of touching cards or a phone no longer looks like a card;
4. outlines that are several cards are cut up: a block of touching cards into its grid, a row or a fanned
   pile along its card edges (``finder_strips``), the covered cards of a fan marked partial;
5. what is left is searched from corners: card-sized quads grown from one corner or spanned by two, kept
   when their sides lie on edges, partial when some of their sides are hidden under cards already found;
6. a card that another card's edges cross is under it: partial. Every quad is refitted to its edges at full
   resolution (``finder_refine``) and returned as TL, TR, BR, BL with the long side vertical.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.finder_edges import blobs, edge_maps
from vision.finder_refine import refine_quads
from vision.finder_score import edge_support, inside_any, outward_normals, side_points, step_support
from vision.finder_shape import SizeModel, TableMetric
from vision.finder_split import Pick, frame_corners, pick_cards, split_block, triple_hypotheses
from vision.finder_strips import split_strip
from vision.geometry import CARD_ASPECT, iou_matrix, order_quad, order_quads, quad_area, quad_sides
from vision.imageio import as_bgr
from vision.observation import Detections


@dataclass(frozen=True)
class FinderConfig:
    """Knobs of the card finder. Sizes are card short sides in full-resolution pixels."""

    min_card_width_px: float = 40.0
    max_card_width_px: float = 500.0
    work_card_width: float = 26.0
    """The search runs at the scale where the smallest card is this wide (never above full resolution)."""
    canny_low: float = 30.0
    canny_high: float = 90.0
    contrast: float = 14.0
    """Colour step (grey levels, any channel) that counts as an edge under a card side."""
    aspect_range: tuple[float, float] = (0.42, 0.88)
    """Apparent short/long side ratio allowed; 0.63 seen flat, wider under perspective."""
    min_fill: float = 0.86
    """Blob area over its quad's area for a blob to count as one clean card."""
    size_tolerance: float = 0.2
    """A clean blob this much bigger than the cards around it is split (a 2 x 2 block of cards looks clean)."""
    refine: bool = True

    def __post_init__(self) -> None:
        if not 0 < self.min_card_width_px < self.max_card_width_px:
            raise ValueError("FinderConfig: need 0 < min_card_width_px < max_card_width_px")
        if self.work_card_width < 12:
            raise ValueError("FinderConfig.work_card_width: below 12 px cards cannot be told apart")
        low, high = self.aspect_range
        if not 0 < low < high <= 1:
            raise ValueError("FinderConfig.aspect_range: need 0 < low < high <= 1")

    def work_scale(self) -> float:
        return min(1.0, self.work_card_width / self.min_card_width_px)


def _quad_of(contour: np.ndarray) -> np.ndarray | None:
    hull = cv2.convexHull(contour)
    if len(hull) < 4:
        return None
    quad = cv2.approxPolyN(hull, 4).reshape(-1, 2).astype(np.float32)
    return order_quad(quad) if len(quad) == 4 else None


def _shape_ok(quads: np.ndarray, low: float = 50.0, high: float = 130.0) -> np.ndarray:
    """Convex, with every corner between ``low`` and ``high`` degrees (a card seen at up to ~35 degrees)."""
    edges = np.roll(quads, -1, axis=1) - quads
    prev = -np.roll(edges, 1, axis=1)
    cross = edges[..., 0] * np.roll(edges, -1, axis=1)[..., 1] - edges[..., 1] * np.roll(edges, -1, axis=1)[..., 0]
    convex = (cross > 0).all(axis=1) | (cross < 0).all(axis=1)
    norms = np.linalg.norm(edges, axis=2) * np.linalg.norm(prev, axis=2) + 1e-9
    angles = np.degrees(np.arccos(np.clip((edges * prev).sum(axis=2) / norms, -1, 1)))
    return convex & ((angles >= low) & (angles <= high)).all(axis=1)


def _blob_quads(contours: list[np.ndarray], shape: tuple[int, ...], config: FinderConfig,
                short_min: float) -> np.ndarray:
    """Four-sided blobs not cut by the frame: single cards, rows, fans, blocks (and phones or boxes,
    which the shape tests reject later). K x 4 x 2."""
    height, width = shape[:2]
    quads = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < 0.5 * short_min * short_min / CARD_ASPECT:
            continue
        x, y, w, h = cv2.boundingRect(contour)
        if x <= 1 or y <= 1 or x + w >= width - 1 or y + h >= height - 1:
            continue  # cut by the frame: only the corner search may report it, as partial
        quad = _quad_of(contour)
        if quad is not None and area >= config.min_fill * quad_area(quad):
            quads.append(quad)
    return np.array(quads, np.float32).reshape(-1, 4, 2)


def _outlines(small: np.ndarray, blob_quads: np.ndarray, corner_quads: np.ndarray, config: FinderConfig,
              short_min: float) -> np.ndarray:
    """The candidate quads that are convex, big enough and have every side on an edge (duplicates dropped).

    Quads closed from corners alone need stronger evidence than blob outlines: art and textures have
    corners too.
    """
    quads = order_quads(np.concatenate([blob_quads, corner_quads]))
    from_blob = np.arange(len(quads)) < len(blob_quads)
    shape_ok = _shape_ok(quads)
    quads, from_blob = quads[shape_ok], from_blob[shape_ok]
    if not len(quads):
        return quads
    support = edge_support(small, quads, config.contrast)
    strong = (support.weakest >= 0.8) & (support.score >= 0.9) & (support.border >= 0.6)
    good = np.where(from_blob, (support.weakest >= 0.5) & (support.score >= 0.7), strong)
    good &= _short_sides(quads) >= 0.8 * short_min
    return _distinct(quads[good], support.score[good] + from_blob[good])


def _short_sides(quads: np.ndarray) -> np.ndarray:
    lengths = np.linalg.norm(quads - np.roll(quads, -1, axis=1), axis=2)
    return np.minimum(lengths[:, 0] + lengths[:, 2], lengths[:, 1] + lengths[:, 3]) / 2


def _distinct(quads: np.ndarray, scores: np.ndarray, tolerance: float = 0.15) -> np.ndarray:
    """Drop near-duplicates (every corner within ``tolerance`` short sides of another's), keeping the best."""
    if len(quads) < 2:
        return quads
    order = np.argsort(-scores, kind="stable")
    quads = quads[order]
    shifts = np.stack([np.roll(quads, k, axis=1) for k in range(4)], axis=1)  # N x 4 x 4 x 2
    gaps = np.linalg.norm(quads[:, None, None] - shifts[None], axis=-1).max(axis=-1).min(axis=-1)  # N x N
    short = _short_sides(quads)
    duplicate = gaps <= tolerance * np.minimum(short[:, None], short[None])
    keep = np.ones(len(quads), bool)
    for i in range(len(quads)):
        if keep[i]:
            keep[i + 1 :] &= ~duplicate[i, i + 1 :]
    return quads[keep]


def _singles(outlines: np.ndarray, config: FinderConfig) -> tuple[np.ndarray, TableMetric, SizeModel | None]:
    """The outlines that are one card each, the table metric they share and the card size they show."""
    aspect = np.array([quad_sides(q)[0] / quad_sides(q)[1] for q in outlines]).reshape(-1)
    low, high = config.aspect_range
    plausible = (aspect >= low) & (aspect <= high)
    metric, card_shaped = TableMetric.fit(outlines[plausible])
    quads = outlines[plausible][card_shaped]
    size = SizeModel.fit(quads.mean(axis=1), metric.short_sides(quads)) if len(quads) else None
    if size is not None and len(quads) >= 3:
        ratio = metric.short_sides(quads) / size.short_side(quads.mean(axis=1))
        quads = quads[(ratio <= 1 + config.size_tolerance) & (ratio >= 1 - 1.5 * config.size_tolerance)]
        size = SizeModel.fit(quads.mean(axis=1), metric.short_sides(quads)) if len(quads) else None
    return quads, metric, size


def _split_outline(small: np.ndarray, outline: np.ndarray, metric: TableMetric, size: SizeModel | None,
                   config: FinderConfig) -> list[Pick]:
    """Cards in an outline that is not a single card: a block of touching cards, a row or a fan."""
    short = None if size is None else float(size.short_side(outline.mean(axis=0))[0])
    if short is not None:
        cells = split_block(outline, metric, short)
        if cells is not None:
            support = edge_support(small, cells, config.contrast)
            if (support.weakest >= 0.6).all():
                return [Pick(cell, float(score), False) for cell, score in zip(cells, support.score, strict=True)]
    for full, partial in split_strip(small, outline, metric, short, config.contrast):
        # A fan's cards are each turned a little: refit each cell's sides to its own edges before checking.
        reach = max(2.0, 0.1 * (short or float(metric.short_sides(np.stack(full)).mean())))
        full_quads = np.stack(full)
        for _ in range(2):
            full_quads = refine_quads(small, full_quads, reach=reach, contrast=config.contrast)
        support = edge_support(small, full_quads, config.contrast)
        if (support.weakest < 0.6).any():
            continue
        picks = [Pick(q, float(score), False) for q, score in zip(full_quads, support.score, strict=True)]
        if partial:
            partial_quads = refine_quads(small, np.stack(partial), reach=reach, contrast=config.contrast)
            picks += [Pick(q, 0.5, True) for q in partial_quads]
        return picks
    return []


def _covered(small: np.ndarray, picks: list[Pick], contrast: float) -> list[Pick]:
    """Mark as partial every card that another card lies on: where two quads overlap, the one whose sides
    show as edges inside the other is on top (its edge runs across the lower card's face)."""
    if len(picks) < 2:
        return picks
    quads = np.stack([p.quad for p in picks])
    overlap = iou_matrix(quads, quads)
    points = side_points(quads)  # M x 4 x S x 2
    supported, _ = step_support(small, points, outward_normals(quads)[:, :, None, :], contrast)
    out = list(picks)
    for lower, upper in zip(*np.nonzero(overlap > 0.05), strict=True):
        if lower == upper or out[lower].partial:
            continue
        shrunk = quads[lower].mean(axis=0) + 0.85 * (quads[lower] - quads[lower].mean(axis=0))
        inside = inside_any(points[upper], [shrunk])
        if inside.sum() >= 4 and supported[upper][inside].mean() >= 0.7:
            out[lower] = Pick(out[lower].quad, out[lower].score * 0.5, True)
    return out


def _dedupe(quads: np.ndarray, scores: np.ndarray, partial: np.ndarray, overlap: float = 0.5) -> np.ndarray:
    """Indices to keep after dropping the weaker of two quads that overlap (IoU above ``overlap``), or one
    that lies inside a kept one (the inner frame of a card's border). Ties go to the bigger quad."""
    areas = np.array([quad_area(q) for q in quads])
    order = np.lexsort((-areas, -(np.round(scores, 1) - partial * 0.5)))
    iou = iou_matrix(quads, quads)
    centers = quads.mean(axis=1)
    keep: list[int] = []
    for i in order:
        inside = [j for j in keep if areas[j] > areas[i] and inside_any(centers[i][None], [quads[j]])[0]
                  and iou[i, j] > 0.4]
        if not inside and all(iou[i, j] < overlap for j in keep):
            keep.append(int(i))
    return np.array(sorted(keep), dtype=np.int64)


def find_cards(image: np.ndarray, config: FinderConfig | None = None) -> Detections:
    """Quads of every card in a BGR frame (full-resolution pixels), with confidence and a partial flag."""
    config = config or FinderConfig()
    image = as_bgr(image)
    scale = config.work_scale()
    short_min = config.min_card_width_px * scale
    maps = edge_maps(image, scale, config.canny_low, config.canny_high, min_line=0.4 * short_min)
    short_range = (short_min, config.max_card_width_px * scale)
    corners = frame_corners(maps.segments, short_min)
    side_range = (0.8 * short_min, 1.2 * short_range[1] / CARD_ASPECT)
    outlines = _outlines(maps.small, _blob_quads(blobs(maps.edges, close=5), maps.small.shape, config, short_min),
                         triple_hypotheses(*corners, side_range, reach=max(2.0, 0.1 * short_min)), config, short_min)
    singles, metric, size = _singles(outlines, config)
    picks = [Pick(q, 1.0, False) for q in singles]
    for outline in outlines:
        if not any(np.array_equal(outline, q) for q in singles):
            picks += _split_outline(maps.small, outline, metric, size, config)
    if size is None and any(not p.partial for p in picks):  # no lone card, but rows or fans showed the size
        full = np.stack([p.quad for p in picks if not p.partial])
        size = SizeModel.fit(full.mean(axis=1), metric.short_sides(full))
    picks += pick_cards(maps.small, corners, size, metric, short_range, config.contrast, [p.quad for p in picks])
    if not picks:
        return Detections.empty()
    quads = order_quads(np.stack([p.quad for p in picks]))
    keep = _dedupe(quads, np.array([p.score for p in picks]), np.array([p.partial for p in picks]))
    picks = _covered(maps.small, [Pick(quads[i], picks[i].score, picks[i].partial) for i in keep], config.contrast)
    quads = np.stack([p.quad for p in picks]) / scale
    if config.refine:
        quads = refine_quads(image, quads, reach=1.5 / scale + 1.0, contrast=config.contrast)
    scores = np.clip([p.score for p in picks], 0, 1).astype(np.float32)
    partial = np.array([p.partial for p in picks], bool)
    return Detections(order_quads(quads), confidence=scores, partial=partial)


@dataclass(frozen=True)
class CardFinder:
    """``find_cards`` with its configuration bound, for pipelines that pass a finder around."""

    config: FinderConfig = FinderConfig()

    def __call__(self, image: np.ndarray) -> Detections:
        return find_cards(image, self.config)
