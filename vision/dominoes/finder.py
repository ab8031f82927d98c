"""Finding domino tiles: oriented rectangles of one face colour, bounded by edges.

A tile's top face is a region that no edge crosses (its pips are holes in it, its divider rarely reaches the
rim) and whose outline is a rectangle about twice or two and a half times as long as wide. So the finder
draws edges in all three Lab channels (a pink tile on orange cloth differs in colour more than in lightness),
labels the regions between edges, and keeps the ones that fill their minimum-area rectangle. Touching tiles
stay apart where an edge shows between them; a filled rectangle too long for one tile is cut into tiles end
to end, and one that holds a row of tiles side by side is cut where grooves (colour steps) run along the cuts.
Regions that leak into the table through a gap in the outline are eroded apart and tried again. Two edge
thresholds (raised with the frame's noise) are tried and the fullest rectangle wins.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class FinderParams:
    """Knobs of the tile finder; sizes are shares of the frame's longer side unless named otherwise."""

    work_size: int = 960  # the longer side of the image the finder works on, px
    min_length: float = 0.035  # a tile's long side, at least
    max_length: float = 0.95
    aspect: float = 2.0  # the set's long / short side (Chinese tiles are about 2.5)
    aspect_tolerance: float = 0.3  # accepted aspects: aspect * (1 - tol) .. aspect * (1 + tol) (perspective)
    min_fill: float = 0.84  # region area / its minimum-area rectangle
    thresholds: tuple[tuple[int, int], ...] = ((18, 45), (35, 90))


@dataclass(frozen=True)
class Candidate:
    quad: np.ndarray  # (4, 2) float32 work px: long side vertical, TL, TR, BR, BL
    fill: float


def upright_quad(box: np.ndarray) -> np.ndarray:
    """Order four rectangle corners TL, TR, BR, BL with the long side running from top to bottom, the top
    edge the one nearer the image top (so a tile is read the same way whatever its angle)."""
    box = np.asarray(box, np.float32).reshape(4, 2)
    centre = box.mean(axis=0)
    angles = np.arctan2(box[:, 1] - centre[1], box[:, 0] - centre[0])
    box = box[np.argsort(angles)]  # clockwise on screen (y down), starting anywhere
    if np.linalg.norm(box[1] - box[0]) > np.linalg.norm(box[2] - box[1]):
        box = np.roll(box, -1, axis=0)  # make box[0] -> box[1] a short side
    if (box[0][1] + box[1][1]) > (box[2][1] + box[3][1]):
        box = np.roll(box, 2, axis=0)
    return box


def _noise(image: np.ndarray) -> float:
    """Sensor noise of the frame as a robust standard deviation of lightness about its local mean."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    residual = grey - cv2.GaussianBlur(grey, (0, 0), 1.0)
    return float(1.4826 * np.median(np.abs(residual)))


def _edges(lab: np.ndarray, low: int, high: int) -> np.ndarray:
    edges = cv2.Canny(lab[:, :, 0], low, high, L2gradient=True)
    for channel in (1, 2):  # chroma varies less than lightness: lower thresholds
        edges |= cv2.Canny(lab[:, :, channel], low // 2 + 4, high // 2 + 4, L2gradient=True)
    return edges


def _pieces(rect: tuple, count: int) -> list[np.ndarray]:
    """Cut a rotated rectangle into ``count`` equal parts along its long side, corners in cut order: each
    part's corners 3 and 2 are the next part's corners 0 and 1."""
    tl, tr, br, bl = upright_quad(cv2.boxPoints(rect))
    out = []
    for k in range(count):
        a, b = k / count, (k + 1) / count
        out.append(np.array([tl + (bl - tl) * a, tr + (br - tr) * a, tr + (br - tr) * b, tl + (bl - tl) * b]))
    return out


def _support(lab: np.ndarray, pieces: list[np.ndarray], threshold: float) -> float:
    """How well the cuts between neighbouring pieces follow grooves: the weakest cut's share of points whose
    colour differs from the faces on both sides of it (a groove or shadow line is darker or lighter than the
    faces it parts; the middle of one tile is not)."""
    worst = 1.0
    h, w = lab.shape[:2]
    t = np.linspace(0.08, 0.92, 24)[:, None]

    def sample(points: np.ndarray) -> np.ndarray:
        xs = np.clip(np.round(points[:, 0]).astype(int), 0, w - 1)
        ys = np.clip(np.round(points[:, 1]).astype(int), 0, h - 1)
        return lab[ys, xs].astype(np.float32)

    for a in pieces[:-1]:
        line = a[3] + (a[2] - a[3]) * t
        inward = (a[0] + a[1]) / 2 - (a[2] + a[3]) / 2
        step = inward / max(float(np.linalg.norm(inward)), 1e-6) * max(2.0, 0.12 * float(np.linalg.norm(a[1] - a[0])))
        sides = (sample(line + step) + sample(line - step)) / 2
        unit = step / np.linalg.norm(step)
        groove = np.max([np.linalg.norm(sample(line + o * unit) - sides, axis=1) for o in (-1.0, 0.0, 1.0)], axis=0)
        worst = min(worst, float((groove >= threshold).mean()))
    return worst


def _tiles_in(rect: tuple, p: FinderParams, lo: float, hi: float, lab: np.ndarray, threshold: float
              ) -> list[np.ndarray]:
    """The tiles a filled rectangle holds: one, several end to end, or several side by side (a row of tiles
    touching along their long sides). A split into tiles side by side needs edges along every cut (the grooves
    between tiles); so does a split end to end, unless the rectangle is too long to be one tile."""
    w, h = rect[1]
    long, short = max(w, h), min(w, h)
    ratio = long / short
    fits = [abs(ratio / n / p.aspect - 1) <= p.aspect_tolerance and lo <= long / n <= hi for n in (1, 2, 3, 4)]
    along = next((n for n, ok in zip((1, 2, 3, 4), fits, strict=True) if ok), 0)
    options: list[tuple[float, list[np.ndarray]]] = []
    if along:
        pieces = _pieces(rect, along)
        options.append((1.0 if along > 1 and not fits[0] else 0.5 if along == 1 else _support(lab, pieces, threshold),
                        pieces))
    across = round(ratio * p.aspect)
    if across >= 2 and abs(ratio * p.aspect / across - 1) <= p.aspect_tolerance and lo <= short <= hi:
        pieces = _pieces(rect, across)
        support = _support(lab, pieces, threshold)
        if support >= 0.75:
            options.append((support, pieces))
    if not options:
        return []
    return [upright_quad(q) for q in max(options, key=lambda o: o[0])[1]]


def _candidates_from_mask(mask: np.ndarray, origin: tuple[int, int], p: FinderParams, lo: float, hi: float,
                          lab: np.ndarray, threshold: float, depth: int = 0) -> list[Candidate]:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out: list[Candidate] = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < (lo * lo) / (p.aspect * 1.6):
            continue
        (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
        w, h = w + 2.0, h + 2.0  # the edge pixels themselves belong to the tile
        fill = area / max((w - 1.0) * (h - 1.0), 1.0)
        rect = ((cx + origin[0], cy + origin[1]), (w, h), angle)
        if fill >= p.min_fill and max(w, h) <= hi * 2.6:
            tiles = _tiles_in(rect, p, lo, hi, lab, threshold)
            if tiles:
                out += [Candidate(q, fill) for q in tiles]
                continue
        if depth == 0 and area > (lo * lo) / p.aspect:
            # a region that leaked through a gap in a tile's outline: erode the neck and try the parts
            x, y, bw, bh = cv2.boundingRect(contour)
            part = np.zeros((bh + 2, bw + 2), np.uint8)
            cv2.drawContours(part, [contour], -1, 1, -1, offset=(1 - x, 1 - y))
            radius = max(2, round(lo / (p.aspect * 6)))
            kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
            opened = cv2.morphologyEx(part, cv2.MORPH_OPEN, kernel)
            if opened.any() and opened.sum() < part.sum() * 0.97:
                out += _candidates_from_mask(opened, (origin[0] + x - 1, origin[1] + y - 1), p, lo, hi, lab, threshold,
                                             depth + 1)
    return out


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    union = cv2.contourArea(a.astype(np.float32)) + cv2.contourArea(b.astype(np.float32)) - inter
    return float(inter / union) if union > 0 else 0.0


def _suppress(candidates: list[Candidate]) -> list[Candidate]:
    """Keep the fullest rectangle where candidates overlap."""
    kept: list[Candidate] = []
    for c in sorted(candidates, key=lambda c: -c.fill):
        if all(_iou(c.quad, k.quad) < 0.3 for k in kept):
            kept.append(c)
    return kept


def _regions(free: np.ndarray, p: FinderParams, lo: float, hi: float, lab: np.ndarray, threshold: float
             ) -> list[Candidate]:
    """Candidates from the connected regions of a mask of pixels on no edge."""
    _n, labels, stats, _ = cv2.connectedComponentsWithStats(free, connectivity=4)
    out: list[Candidate] = []
    for i in np.flatnonzero(stats[:, cv2.CC_STAT_AREA] >= lo * lo / (p.aspect * 1.6)):
        x, y, w, h = stats[i, :4]
        if (i == 0 and free[0, 0] == 0) or max(w, h) > hi * 2.7 + 4:
            continue
        mask = (labels[y : y + h, x : x + w] == i).astype(np.uint8)
        out += _candidates_from_mask(mask, (int(x), int(y)), p, lo, hi, lab, threshold)
    return out


def find_tiles(image: np.ndarray, params: FinderParams | None = None) -> np.ndarray:
    """Quads (N, 4, 2) float32 in image px of the tiles' top faces, long side vertical (see ``upright_quad``)."""
    p = params or FinderParams()
    height, width = image.shape[:2]
    scale = min(1.0, p.work_size / max(height, width))
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else image
    noise = _noise(small)
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (0, 0), min(1.0 + 0.3 * noise, 2.5)), cv2.COLOR_BGR2LAB)
    side = max(small.shape[:2])
    lo, hi = p.min_length * side, p.max_length * side
    candidates: list[Candidate] = []
    for low, high in p.thresholds:
        edges = _edges(lab, int(low + 3 * noise), int(high + 7 * noise))
        free = (edges == 0).astype(np.uint8)
        # a tile whose outline has a gap leaks into the table: opening the free mask cuts the neck
        radius = max(1, round(lo / p.aspect / 8))
        neck = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
        for regions in (free, cv2.morphologyEx(free, cv2.MORPH_OPEN, neck)):
            candidates += _regions(regions, p, lo, hi, lab, max(8.0, 3.0 * noise))
    quads = [c.quad / scale for c in _suppress(candidates)]
    return np.array(quads, np.float32).reshape(-1, 4, 2)
