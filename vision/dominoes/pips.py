"""Reading one tile: warp its face upright, find the divider and the pips, count and colour each half.

Everything is measured against the tile's own face colour (the median of the crop in Lab), so ivory tiles
with black pips, black tiles with white pips and pink tiles with yellow pips read alike. A pip is a blob that
differs from the face, about round, of a plausible size; the divider is a thin bar across the middle, found
by opening the difference mask with a long horizontal line; where a loosely found quad is turned a few degrees
the divider runs aslant, so its slope is measured and the tile read again from the quad turned to it. A
divider near each end of the crop means the quad holds halves of two tiles pressed together. Pips on the
middle line (the Chinese 3:3) are shared out between the halves. A face with neither pips nor divider is a
face-down tile.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.dominoes.layout import CORNER_SIZE, Blob, canonical_half, in_corner

CROP_WIDTH = 48
_BIN = 12  # Lab histogram bin for the face colour
_WEIGHTS = (0.8, 1.0, 1.0)  # Lab distance: lightness, then the two colour axes
_MIN_RADIUS = 0.05  # a pip's radius, at least, as a share of the tile's width (the smallest are ~0.07)


@dataclass(frozen=True)
class HalfReading:
    """Pips counted on one half: sure ones, doubtful ones (faint or odd-shaped), and their colour."""

    count: int
    doubtful: int
    colour: str  # "red", "white", "black" or "none"
    red_share: float


@dataclass(frozen=True)
class PipReading:
    """One pip: where it lies along the tile (0 on the middle line, -0.5 at the top end, 0.5 at the bottom)."""

    along: float
    colour: str
    doubtful: bool


@dataclass(frozen=True)
class TileReading:
    """Both halves' counts split at the middle line (or the divider), and every pip, so that a face whose
    pips spread past the middle (a Chinese three drawn down the whole tile) can be split elsewhere."""

    top: HalfReading
    bottom: HalfReading
    divider: bool
    face_down: bool
    contrast: float  # how far the pips stand from the face (Lab distance)
    uniformity: float  # spread of the face colour outside pips: high on textured non-tiles
    pips: tuple[PipReading, ...] = ()
    straddles: bool = False  # the quad holds halves of two tiles pressed together (a divider near each end)
    face: tuple[float, float, float] = (0.0, 0.0, 0.0)  # the face's (or back's) colour, Lab
    seams: tuple[float, ...] = ()  # where those dividers lie along the quad, one near each end (0 top, 1 bottom)


def _crop_matrix(quad: np.ndarray, width: int, grow: float) -> tuple[np.ndarray, tuple[int, int]]:
    """Perspective from image px to the upright crop of ``crop_tile``, and the crop's size. (Scalar arithmetic:
    numpy's per-call cost on four points is most of this, and it runs for every tile read.)"""
    quad = np.asarray(quad, np.float32)
    if grow:
        u, v = quad[1] - quad[0], quad[3] - quad[0]
        pad = grow * math.hypot(*u)
        u, v = u / max(math.hypot(*u), 1e-6), v / max(math.hypot(*v), 1e-6)
        offsets = quad - quad.mean(axis=0)
        quad = (quad + pad * (np.sign(offsets @ u)[:, None] * u + np.sign(offsets @ v)[:, None] * v)).astype(np.float32)
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = quad.tolist()
    short = (math.hypot(x1 - x0, y1 - y0) + math.hypot(x2 - x3, y2 - y3)) / 2
    long = (math.hypot(x3 - x0, y3 - y0) + math.hypot(x2 - x1, y2 - y1)) / 2
    height = round(width * min(max(long / max(short, 1e-6), 1.2), 3.5))
    target = np.array([[-0.5, -0.5], [width - 0.5, -0.5], [width - 0.5, height - 0.5], [-0.5, height - 0.5]],
                      np.float32)
    return cv2.getPerspectiveTransform(quad, target), (width, height)


def crop_tile(image: np.ndarray, quad: np.ndarray, width: int = CROP_WIDTH, grow: float = 0.0) -> np.ndarray:
    """The face warped upright: ``width`` px wide, as long as the quad's aspect says, top half on top. The quad
    is grown by ``grow`` of its short side all round: a found outline may sit a little inside the rim, and a pip
    near the rim must not be cut."""
    matrix, size = _crop_matrix(quad, width, grow)
    return cv2.warpPerspective(image, matrix, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def turned_quad(quad: np.ndarray, slope: float, width: int = CROP_WIDTH) -> np.ndarray:
    """``quad`` turned about its centre so that a line of ``slope`` (rows per column) in its crop becomes level:
    the divider of a loosely found tile shows how far the quad is turned from the tile."""
    matrix, (w, h) = _crop_matrix(quad, width, 0.0)
    corners = np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]], np.float32)
    centre = np.array([(w - 1) / 2, (h - 1) / 2], np.float32)
    c, s = np.cos(np.arctan(slope)), np.sin(np.arctan(slope))
    turned = (corners - centre) @ np.array([[c, s], [-s, c]], np.float32) + centre
    return cv2.perspectiveTransform(turned[None], np.linalg.inv(matrix))[0]


PALE = 0.13  # a red pip's chroma over its lightness (8-bit Lab), at least: pink pips are paler


def _colour_name(pip_lab: Sequence[float], face_lab: np.ndarray) -> str:
    lightness, a, b = (float(v) for v in pip_lab[:3])
    a, b = a - 128.0, b - 128.0
    chroma = math.hypot(a, b)
    hue = math.degrees(math.atan2(b, a))
    if chroma > max(22.0, PALE * lightness) and a > 18 and -40 < hue < 50:
        return "red"  # a pale pink (a light pip of the shared art) is no red however pink
    return "white" if lightness > float(face_lab[0]) else "black"


def _half(labels: list[tuple[float, bool, str]]) -> HalfReading:
    sure = [c for _, doubt, c in labels if not doubt]
    colours = sure or [c for _, _, c in labels]
    if not colours:
        return HalfReading(0, 0, "none", 0.0)
    red = sum(c == "red" for c in colours) / len(colours)
    counts = Counter(c for c in colours if c != "red") or Counter(["red"])
    colour = "red" if red >= 0.5 else min(counts, key=lambda c: (-counts[c], c))  # ties: the first by name
    return HalfReading(len(sure), len(labels) - len(sure), colour, red)


_KEY = np.array([1024, 32, 1], np.float32)  # a histogram bin's index from its Lab bin numbers


def _modes(pixels: np.ndarray, count: int = 2) -> list[np.ndarray]:
    """The ``count`` commonest colours of ``pixels`` (N x 3 Lab): a coarse histogram's mode, refined by the mean
    of the pixels near it, then the same among the pixels far from those found. (Distances by the expanded
    square, means by a matrix product: this runs for every half of every tile.)"""
    out: list[np.ndarray] = []
    total = len(pixels)
    keys = (np.floor(pixels * (1.0 / _BIN)) @ _KEY).astype(np.int32)
    square = np.einsum("ij,ij->i", pixels, pixels)
    for _ in range(count):
        if len(pixels) < 8:
            break
        mode = int(np.bincount(keys).argmax())
        centre = (np.array([mode // 1024, (mode // 32) % 32, mode % 32], np.float32) + 0.5) * _BIN
        near = (square - 2.0 * (pixels @ centre) + float(centre @ centre) < (1.5 * _BIN) ** 2).astype(np.float32)
        out.append((near @ pixels) / max(float(near.sum()), 1.0))
        far = square - 2.0 * (pixels @ out[-1]) + float(out[-1] @ out[-1]) >= (3 * _BIN) ** 2
        pixels, keys, square = pixels[far], keys[far], square[far]
        if len(pixels) < 0.1 * total:
            break  # one colour all over: a face-down tile
    return out


def percentiles(values: np.ndarray, qs: tuple[float, ...]) -> list[float]:
    """``np.percentile(values, qs)`` (linear interpolation) by one partition: np.percentile's own overhead is
    most of its cost on the few thousand pixels of a tile, and it runs twice per tile."""
    flat = values.ravel()
    positions = [q / 100.0 * (flat.size - 1) for q in qs]
    ranks = sorted({min(int(p) + k, flat.size - 1) for p in positions for k in (0, 1)})
    ordered = np.partition(flat, ranks)
    out = []
    for p in positions:
        lo = int(p)
        hi = min(lo + 1, flat.size - 1)
        out.append(float(ordered[lo]) + (p - lo) * (float(ordered[hi]) - float(ordered[lo])))
    return out


def face_colour(pixels: np.ndarray) -> np.ndarray:
    """The commonest colour of N x 3 Lab pixels: a tile face's, round its centre, where pips are fewer."""
    modes = _modes(np.asarray(pixels, np.float32).reshape(-1, 3))
    return modes[0] if modes else np.median(np.asarray(pixels, np.float32).reshape(-1, 3), axis=0)


MIN_FACE_SPAN = 0.6  # the face's largest patch spans at least this share of a half (bounding box)


def square_distance(pixels: np.ndarray, colour: np.ndarray, weights: tuple[float, float, float] = (1.0, 1.0, 1.0)
                    ) -> np.ndarray:
    """Squared (weighted) distance of every Lab pixel (any shape x 3) from ``colour``: by OpenCV's per-channel
    arithmetic, several times faster than numpy's on a tile's few thousand pixels (it runs a dozen times a tile)."""
    shape = pixels.shape[:-1]
    diff = cv2.subtract(np.asarray(pixels, np.float32).reshape(-1, 1, 3), (*(float(c) for c in colour), 0.0))
    if weights != (1.0, 1.0, 1.0):
        diff = cv2.multiply(diff, (*weights, 0.0))
    return cv2.transform(cv2.multiply(diff, diff), _SUM).reshape(shape)


_SUM = np.ones((1, 3), np.float32)


def _near(pixels: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """Which Lab ``pixels`` (any shape x 3) lie within two histogram bins of ``colour``."""
    return square_distance(pixels, colour) < (2 * _BIN) ** 2


def _span(near: np.ndarray) -> float:
    """How much of a half its largest patch of one colour spans (bounding box over the half's area): the face
    runs between the pips all over, while pips, however big, are blobs."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(near.astype(np.uint8), connectivity=8)
    if n < 2:
        return 0.0
    return float((stats[1:, cv2.CC_STAT_WIDTH] * stats[1:, cv2.CC_STAT_HEIGHT]).max()) / near.size


def _face_distance(lab: np.ndarray, margin: int) -> tuple[np.ndarray, np.ndarray]:
    """Lab distance of every pixel from the face colour, per half (light falling off along the tile must not
    read as pips). The face is one of the two commonest colours of the half's inner part (big pips may cover
    more than half a face): the one that holds more of a ring just inside the rim, where a face shows between
    pips even when they run close to the edge. Where that colour's patch does not span the half (big pips of two
    colours fill a tight quad and the rim), the face is sought among three, from those whose patch spans most.
    Colour steps weigh more than lightness steps (a dark red pip on a black tile differs in hue more than in
    lightness)."""
    h, w = lab.shape[:2]
    ring = _ring(h, w, margin)
    pixels = lab.astype(np.float32)
    distance = np.empty((h, w), np.float32)
    faces = []
    for rows in (slice(0, h // 2), slice(h // 2, h)):
        part = pixels[rows]
        first, last = max(2 * margin - rows.start, 0), min(h - 2 * margin, rows.stop) - rows.start
        core = part[first:last, 2 * margin : w - 2 * margin]  # the half's part of ``inner``: a rectangle
        sample = (core if core.size >= 24 else part).reshape(-1, 3)[::2]
        rim = part[ring[rows]]

        def on_rim(c: np.ndarray, rim: np.ndarray = rim) -> int:
            return int(_near(rim, c).sum())

        face = max(_modes(sample), key=on_rim)
        if _span(_near(part, face)) < MIN_FACE_SPAN:  # a pip's colour: look further
            candidates = _modes(sample, 3)
            spans = [_span(_near(part, c)) for c in candidates]
            face = max((c for c, s in zip(candidates, spans, strict=True) if s >= 0.8 * max(spans)), key=on_rim)
        distance[rows] = np.sqrt(square_distance(part, face, _WEIGHTS))
        faces.append(face)
    return distance, (faces[0] + faces[1]) / 2


@lru_cache(maxsize=64)
def _ring(h: int, w: int, margin: int) -> np.ndarray:
    """Mask of a ring just inside a crop's rim (crops come in few sizes)."""
    ring = np.zeros((h, w), bool)
    ring[margin : h - margin, margin : w - margin] = True
    ring[2 * margin : h - 2 * margin, 2 * margin : w - 2 * margin] = False
    ring.flags.writeable = False
    return ring


def _without_rim(mask: np.ndarray, edge: int) -> np.ndarray:
    """Drop long thin structures along the crop's border (a shaded bevel, the table past a loose quad): they
    would enclose the pips or swallow a pip near the rim; whatever of them is thick (that pip) stays."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = mask.shape
    x, y, bw, bh = stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3]
    touches = (x <= edge) | (y <= edge) | (x + bw >= w - edge) | (y + bh >= h - edge)
    rim = touches & ((bw >= 0.6 * w) | (bh >= 0.6 * w))
    rim[0] = False
    if not rim.any():
        return mask
    strip = rim[labels].astype(np.uint8)
    radius = max(int(0.05 * w), 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    thick = cv2.morphologyEx(strip, cv2.MORPH_OPEN, disc)  # a pip the strip runs into survives, the strip not
    return ((mask & (1 - strip)) | thick).astype(np.uint8)


@dataclass(frozen=True)
class _Pip:
    centre: tuple[float, float]
    radius: float
    doubtful: bool


_ALONG = np.linspace(0.0, 1.0, 9)[:, None]  # points tried on the line between two peaks


def _ridged(depth: np.ndarray, peaks: list[tuple[float, float, float]]) -> set[int]:
    """Peaks joined to a neighbour by a ridge: touching pips meet at a narrow neck (the distance to the edge dips
    between their centres), while the peaks along a stroke of a printed logo stay as deep all the way."""
    out: set[int] = set()
    if len(peaks) < 2:
        return out
    t = _ALONG
    for i, (xi, yi, ri) in enumerate(peaks):
        for j in range(i + 1, len(peaks)):
            xj, yj, rj = peaks[j]
            if (xi - xj) ** 2 + (yi - yj) ** 2 > (2.2 * max(ri, rj)) ** 2:
                continue
            line = np.rint(np.array([xi, yi]) + (np.array([xj, yj]) - np.array([xi, yi])) * t).astype(np.int64)
            if depth[line[:, 1], line[:, 0]].min() >= 0.8 * min(ri, rj):
                out |= {i, j}
    return out


def _pips(mask: np.ndarray, width: int) -> list[_Pip]:
    """Pip centres: peaks of the distance to the mask's edge. Touching pips (the big pips of a Chinese six)
    make one blob but keep one peak each, parted by a saddle; a peak must be about as deep as the blob's
    deepest (a pip, not a corner of the join), and a blob too thin for a pip (a printed logo's strokes, the
    rim) has none."""
    depth = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    peaks = (depth >= cv2.dilate(depth, np.ones((3, 3), np.uint8))) & (depth >= _MIN_RADIUS * width)
    ys, xs = np.nonzero(peaks)
    out: list[_Pip] = []
    for component in range(1, n):
        here = labels[ys, xs] == component
        if not here.any():
            continue
        py, px = ys[here], xs[here]
        values = depth[py, px]
        deepest = float(values.max())
        order = np.argsort(-values, kind="stable")
        kept: list[tuple[float, float, float]] = []
        for i in order:
            r = float(values[i])
            if r < 0.55 * deepest:
                break
            x, y = float(px[i]), float(py[i])
            if all((x - kx) ** 2 + (y - ky) ** 2 > (1.4 * max(r, kr)) ** 2 for kx, ky, kr in kept):
                kept.append((x, y, r))
        bw, bh = stats[component, 2:4]
        area = float(stats[component, cv2.CC_STAT_AREA])
        discs = sum(np.pi * (r + 0.5) ** 2 for _, _, r in kept)
        if not 0.55 <= discs / area <= 1.45:
            continue  # strokes (a logo, a scratch) hold more or fewer discs than pips do
        if len(kept) == 1 and max(bw, bh) > 2 * (deepest + 0.5) * 1.45:
            continue  # one peak in a long blob: a stroke, not a pip
        ridged = _ridged(depth, kept)
        out += [_Pip((x + 0.5, y + 0.5), r, doubtful=r < 0.7 * deepest)
                for i, (x, y, r) in enumerate(kept) if i not in ridged]
    return out


_SLOPES = np.linspace(-0.16, 0.16, 17)  # divider slopes tried (rows per column), about +-9 degrees
_MIN_TILT = 0.03  # a divider turned less than this reads level


def _divider_slope(lines: np.ndarray) -> float:
    """The slope of the longest thin bar across the middle of a crop's line mask, whether it reads level or
    not (0 when there is none): a loosely found quad may be turned a few degrees from the tile."""
    h, w = lines.shape
    top = int(0.3 * h)
    bar = cv2.morphologyEx(lines[top : int(0.7 * h) + 1], cv2.MORPH_OPEN,
                           cv2.getStructuringElement(cv2.MORPH_RECT, (max(int(0.18 * w), 3), 1)))
    ys, xs = np.nonzero(bar)
    if len(ys) < 0.45 * w:
        return 0.0
    shift = np.rint(ys[None, :] - _SLOPES[:, None] * (xs[None, :] - w / 2)).astype(np.int64)
    shift -= shift.min()
    span = int(shift.max()) + 1
    counts = np.bincount((shift + span * np.arange(len(_SLOPES))[:, None]).ravel(),
                         minlength=span * len(_SLOPES)).reshape(len(_SLOPES), span)
    best = int(np.argmax(counts.max(axis=1)))
    return float(_SLOPES[best]) if counts[best].max() >= 0.45 * w else 0.0


def _end_bars(long_rows: np.ndarray, band: int) -> list[float]:
    """Where the crop's ends hold a divider of their own (as shares of its length): a thin bar with face between it
    and the end (the table past a loose quad's end touches the end). A quad with two holds halves of two tiles."""
    h = len(long_rows)
    runs = np.flatnonzero(np.diff(np.concatenate([[0], long_rows.astype(np.int8), [0]])))
    bars = []
    for first, last in zip(runs[::2], runs[1::2] - 1, strict=True):
        thin = last - first + 1 <= max(2, 0.05 * h)
        inside = first > band and last < h - band - 1
        if thin and inside and (last < 0.25 * h or first > 0.75 * h):
            bars.append((first + last + 1) / 2 / h)
    return bars


def _divider_rows(rows: np.ndarray, on: np.ndarray, h: int) -> np.ndarray:
    """The divider's rows among the rows ``on`` near the middle that a long bar fills (``rows``: how much): the
    run of them filled furthest (the nearest the middle of equal ones). Two big pips side by side just past the
    divider fill rows too, but less, with a gap between them: taken for the divider they would be erased and
    shift the middle."""
    runs = np.split(on, np.flatnonzero(np.diff(on) > 1) + 1)
    return min(runs, key=lambda run: (-int(rows[run].max()), abs(float(run.mean()) + 0.5 - h / 2)))


def read_tile(image: np.ndarray, quad: np.ndarray, divided: bool = True) -> TileReading:
    """Count the pips of each half of the tile whose face is ``quad`` (TL, TR, BR, BL; long side vertical).
    ``divided``: the set's tiles have a divider line (European); Chinese tiles have none, and their big pips
    side by side could pass for one. A European tile whose divider is not found level is read again with the
    quad turned to its divider."""
    reading, slope = _read(image, quad, divided)
    if abs(slope) < _MIN_TILT:
        return reading
    return _read(image, turned_quad(quad, slope), divided)[0]


def _read(image: np.ndarray, quad: np.ndarray, divided: bool) -> tuple[TileReading, float]:
    """``read_tile`` on the quad as given, and the slope of a divider that does not read level (else 0)."""
    crop = crop_tile(image, quad)
    h, w = crop.shape[:2]
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)
    margin = max(int(0.06 * w), 1)
    distance, face = _face_distance(lab, margin)
    inner = (slice(margin, h - margin), slice(margin, w - margin))
    # pips may cover more than half the face: the threshold sits between the face's noise (a low percentile) and
    # the strongest pips (a high one), not at a multiple of the median
    sharp = distance
    distance = cv2.GaussianBlur(distance, (0, 0), 0.02 * w + 0.3)  # smooth pips; the thin divider is read sharp
    low, high = percentiles(distance[inner], (10, 98))
    threshold = max(18.0, 4.0 * low, 0.3 * high)
    band = margin // 2 + 1
    masks = []
    # a thin divider loses contrast in the shrunk crop: a lower bar for it (the long opening below stops noise)
    for level, cut in ((distance, threshold), (sharp, max(12.0, 3.0 * low, 0.6 * threshold))):
        mask = (level > cut).astype(np.uint8)
        mask[:band], mask[h - band :], mask[:, :band], mask[:, w - band :] = 0, 0, 0, 0
        masks.append(mask)
    mask, lines = _without_rim(masks[0], band), masks[1]  # the divider may run into a shaded side

    # the divider: a long horizontal run near the middle (a brass spinner may part it in two); removed before the
    # pips are looked for
    bar = cv2.morphologyEx(lines, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (int(0.28 * w), 1)))
    rows = bar.sum(axis=1)
    centre_rows = slice(int(0.38 * h), int(0.62 * h) + 1)
    divider = divided and bool(rows[centre_rows].max(initial=0) >= 0.45 * w)
    middle = h / 2
    bars = _end_bars(rows >= 0.45 * w, band) if divided else []
    # one near each end (two near one end are a rim's edge and a bar of pips, or the like: ``y8.jpg`` turned over)
    seams = (bars[0], bars[-1]) if bars and bars[0] < 0.5 < bars[-1] else ()
    straddles = bool(seams)
    if divider:
        on = _divider_rows(rows, np.flatnonzero(rows[centre_rows] >= 0.45 * w) + centre_rows.start, h)
        middle = float(on.mean()) + 0.5
        reach = max(2, round(0.03 * h))  # only the divider's rows and their soft edges: big pips are as wide
        bar[: max(on.min() - reach, 0)], bar[on.max() + reach + 1 :] = 0, 0  # as the kernel
        mask = mask & ~cv2.dilate(bar, np.ones((5, 3), np.uint8))

    pips = _pips(mask, w)
    typical = statistics.median(p.radius for p in pips) if pips else 0.08 * w
    pips = [p for p in pips if not (in_corner(p.centre, w, h) and p.radius < CORNER_SIZE * typical)]
    pips = [_Pip(p.centre, p.radius, p.doubtful or p.radius < 0.65 * typical) for p in pips
            if p.radius >= 0.4 * typical]  # specks beside pips of the tile's size
    halves: dict[str, list[tuple[float, bool, str]]] = {"top": [], "bottom": [], "middle": []}
    along: list[PipReading] = []
    blobs: list[Blob] = []  # the sure pips, for the layout check
    contrast = []
    pip_pixels = np.zeros_like(mask)
    for pip in pips:
        x, y = pip.centre
        cv2.circle(pip_pixels, (round(x), round(y)), max(1, round(0.7 * pip.radius)), 1, -1)
        x0, x1 = max(int(x - pip.radius * 0.7), 0), int(x + pip.radius * 0.7) + 1
        y0, y1 = max(int(y - pip.radius * 0.7), 0), int(y + pip.radius * 0.7) + 1
        colour = _colour_name(cv2.mean(lab[y0:y1, x0:x1]), face)  # the pip's core: one colour
        contrast.append(cv2.mean(distance[y0:y1, x0:x1])[0])
        side = "middle" if abs(y - middle) < 0.6 * typical and not divider else ("top" if y < middle else "bottom")
        halves[side].append((y, pip.doubtful, colour))
        along.append(PipReading((y - middle) / h, colour, pip.doubtful))
        if not pip.doubtful:
            blobs.append(Blob(x / w - 0.5, y / w, pip.radius / w, colour == "red"))
    shared = halves["middle"]
    halves["top"] += shared[: len(shared) // 2]
    halves["bottom"] += shared[len(shared) // 2 :]
    top, bottom = _half(halves["top"]), _half(halves["bottom"])
    # a divided set's faces all have the divider: without it the tile shows its back, whatever is printed there;
    # a Chinese face has pips on both halves, a back may bear a print on one (a real half missed keeps its layout)
    one_sided = (top.count + top.doubtful == 0) != (bottom.count + bottom.doubtful == 0)
    face_down = not divider if divided else (top.count + bottom.count == 0
                                             or (one_sided and not canonical_half(blobs)))
    rest = distance[inner][pip_pixels[inner] == 0]
    uniformity = percentiles(rest, (90,))[0] if rest.size else 0.0
    slope = _divider_slope(lines) if divided and not divider else 0.0
    return TileReading(top, bottom, divider, face_down, statistics.median(contrast) if contrast else 0.0, uniformity,
                       tuple(sorted(along, key=lambda p: p.along)), straddles,
                       (float(face[0]), float(face[1]), float(face[2])), seams), slope
