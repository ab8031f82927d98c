"""Reading one tile: warp its face upright, find the divider and the pips, count and colour each half.

Everything is measured against the tile's own face colour (the median of the crop in Lab), so ivory tiles
with black pips, black tiles with white pips and pink tiles with yellow pips read alike. A pip is a blob that
differs from the face, about round, of a plausible size; the divider is a thin bar across the middle, found
by opening the difference mask with a long horizontal line. Pips on the middle line (the Chinese 3:3) are
shared out between the halves. A face with neither pips nor divider is a face-down tile.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

CROP_WIDTH = 64


@dataclass(frozen=True)
class HalfReading:
    """Pips counted on one half: sure ones, doubtful ones (faint or odd-shaped), and their colour."""

    count: int
    doubtful: int
    colour: str  # "red", "white", "black" or "none"
    red_share: float


@dataclass(frozen=True)
class TileReading:
    top: HalfReading
    bottom: HalfReading
    divider: bool
    face_down: bool
    contrast: float  # how far the pips stand from the face (Lab distance)
    uniformity: float  # spread of the face colour outside pips: high on textured non-tiles


def crop_tile(image: np.ndarray, quad: np.ndarray, width: int = CROP_WIDTH, grow: float = 0.0) -> np.ndarray:
    """The face warped upright: ``width`` px wide, as long as the quad's aspect says, top half on top. The quad
    is grown by ``grow`` of its short side all round: a found outline may sit a little inside the rim, and a pip
    near the rim must not be cut."""
    quad = np.asarray(quad, np.float32)
    u, v = quad[1] - quad[0], quad[3] - quad[0]
    pad = grow * float(np.linalg.norm(u))
    u, v = u / max(float(np.linalg.norm(u)), 1e-6), v / max(float(np.linalg.norm(v)), 1e-6)
    offsets = quad - quad.mean(axis=0)
    quad = (quad + pad * (np.sign(offsets @ u)[:, None] * u + np.sign(offsets @ v)[:, None] * v)).astype(np.float32)
    short = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    long = (np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    height = round(width * np.clip(long / max(short, 1e-6), 1.2, 3.5))
    target = np.array([[-0.5, -0.5], [width - 0.5, -0.5], [width - 0.5, height - 0.5], [-0.5, height - 0.5]],
                      np.float32)
    matrix = cv2.getPerspectiveTransform(quad, target)
    return cv2.warpPerspective(image, matrix, (width, height), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)


def _colour_name(pip_lab: np.ndarray, face_lab: np.ndarray) -> str:
    lightness, a, b = (float(v) for v in pip_lab)
    a, b = a - 128.0, b - 128.0
    chroma = np.hypot(a, b)
    hue = np.degrees(np.arctan2(b, a))
    if chroma > 22 and a > 18 and -40 < hue < 50:
        return "red"
    return "white" if lightness > float(face_lab[0]) else "black"


def _half(labels: list[tuple[float, bool, str]]) -> HalfReading:
    sure = [c for _, doubt, c in labels if not doubt]
    colours = sure or [c for _, _, c in labels]
    if not colours:
        return HalfReading(0, 0, "none", 0.0)
    red = sum(c == "red" for c in colours) / len(colours)
    names, counts = np.unique([c for c in colours if c != "red"] or ["red"], return_counts=True)
    colour = "red" if red >= 0.5 else str(names[int(np.argmax(counts))])
    return HalfReading(len(sure), len(labels) - len(sure), colour, red)


def _face_distance(lab: np.ndarray, margin: int) -> tuple[np.ndarray, np.ndarray]:
    """Lab distance of every pixel from the face colour, taken as the median of a ring just inside the rim
    (pips may cover most of a half, but rarely the rim), per half, so light falling off along the tile
    does not read as a pip."""
    h, w = lab.shape[:2]
    ring = np.zeros((h, w), bool)
    ring[margin : h - margin, margin : w - margin] = True
    ring[2 * margin + 1 : h - 2 * margin - 1, 2 * margin + 1 : w - 2 * margin - 1] = False
    distance = np.empty((h, w), np.float32)
    faces = []
    for rows in (slice(0, h // 2), slice(h // 2, h)):
        face = np.median(lab[rows][ring[rows]], axis=0).astype(np.float32)
        diff = lab[rows].astype(np.float32) - face
        diff[:, :, 0] *= 0.8  # lightness steps from shading matter a little less than colour steps
        distance[rows] = np.sqrt((diff * diff).sum(axis=2))
        faces.append(face)
    return distance, (faces[0] + faces[1]) / 2


def _without_rim(mask: np.ndarray, edge: int) -> np.ndarray:
    """Drop long thin structures along the crop's border (a shaded bevel, the table past a loose quad): they
    would enclose the pips or swallow a pip near the rim; whatever of them is thick (that pip) stays."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = mask.shape
    x, y, bw, bh = stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3]
    touches = (x <= edge) | (y <= edge) | (x + bw >= w - edge) | (y + bh >= h - edge)
    rim = touches & ((bw >= 0.6 * w) | (bh >= 0.6 * w))
    rim[0] = False
    strip = rim[labels].astype(np.uint8)
    radius = max(int(0.05 * w), 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    thick = cv2.morphologyEx(strip, cv2.MORPH_OPEN, disc)  # a pip the strip runs into survives, the strip not
    return ((mask & (1 - strip)) | thick).astype(np.uint8)


@dataclass(frozen=True)
class _Blob:
    contour: np.ndarray
    centre: tuple[float, float]
    diameter: float
    pip: bool
    doubtful: bool


def _blobs(mask: np.ndarray, width: int) -> list[_Blob]:
    """Outer outlines of the mask (so a pip with a shiny centre counts whole), judged as pips by size and
    roundness."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out = []
    for contour in contours:
        area = cv2.contourArea(contour) + 0.5 * cv2.arcLength(contour, True)  # pixel area, not the polygon's
        x, y, bw, bh = cv2.boundingRect(contour)
        diameter = float(np.sqrt(4 * area / np.pi))
        box = float(max(bw, bh))
        roundness = area / max(np.pi * box * box / 4, 1.0)
        elongation = box / max(min(bw, bh), 1)
        pip = 0.09 * width <= diameter <= 0.55 * width and roundness > 0.5 and elongation < 1.8
        doubtful = roundness < 0.62 or diameter < 0.12 * width
        out.append(_Blob(contour, (x + bw / 2, y + bh / 2), diameter, pip, pip and doubtful))
    return out


def read_tile(image: np.ndarray, quad: np.ndarray, divided: bool = True) -> TileReading:
    """Count the pips of each half of the tile whose face is ``quad`` (TL, TR, BR, BL; long side vertical).
    ``divided``: the set's tiles have a divider line (European); Chinese tiles have none, and their big pips
    side by side could pass for one."""
    crop = crop_tile(image, quad)
    h, w = crop.shape[:2]
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)
    margin = max(int(0.06 * w), 1)
    distance, face = _face_distance(lab, margin)
    inner = (slice(margin, h - margin), slice(margin, w - margin))
    spread = float(np.median(distance[inner]))
    mask = (distance > max(18.0, 4.0 * spread)).astype(np.uint8)
    band = margin // 2 + 1
    mask[:band], mask[h - band :], mask[:, :band], mask[:, w - band :] = 0, 0, 0, 0
    mask = _without_rim(mask, band)

    # the divider: a long horizontal run near the middle; removed before the pips are looked for
    bar = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (int(0.35 * w), 1)))
    rows = bar.sum(axis=1)
    centre_rows = slice(int(0.38 * h), int(0.62 * h) + 1)
    divider = divided and bool(rows[centre_rows].max(initial=0) >= 0.45 * w)
    middle = h / 2
    if divider:
        middle = float(np.flatnonzero(rows[centre_rows] >= 0.45 * w).mean()) + centre_rows.start + 0.5
        mask = mask & ~cv2.dilate(bar, np.ones((3, 3), np.uint8))

    blobs = _blobs(mask, w)
    typical = float(np.median([b.diameter for b in blobs if b.pip])) if any(b.pip for b in blobs) else 0.15 * w
    halves: dict[str, list[tuple[float, bool, str]]] = {"top": [], "bottom": [], "middle": []}
    contrast = []
    pip_pixels = np.zeros_like(mask)
    for blob in (b for b in blobs if b.pip):
        cv2.drawContours(pip_pixels, [blob.contour], -1, 1, -1)
        x, y, bw, bh = cv2.boundingRect(blob.contour)
        inside = pip_pixels[y : y + bh, x : x + bw] > 0
        colour = _colour_name(np.median(lab[y : y + bh, x : x + bw][inside], axis=0), face)
        contrast.append(float(np.median(distance[y : y + bh, x : x + bw][inside])))
        cy = blob.centre[1]
        side = "middle" if abs(cy - middle) < 0.3 * typical and not divider else ("top" if cy < middle else "bottom")
        halves[side].append((cy, blob.doubtful, colour))
    shared = halves["middle"]
    halves["top"] += shared[: len(shared) // 2]
    halves["bottom"] += shared[len(shared) // 2 :]
    top, bottom = _half(halves["top"]), _half(halves["bottom"])
    face_down = not divider and top.count + bottom.count == 0
    rest = distance[inner][pip_pixels[inner] == 0]
    uniformity = float(np.percentile(rest, 90)) if rest.size else 0.0
    return TileReading(top, bottom, divider, face_down, float(np.median(contrast)) if contrast else 0.0, uniformity)
