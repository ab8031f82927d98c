"""Table surfaces: the shared tiles plus procedural wood, felt, cloth, paper, plain desks and printed mats.

Surfaces are made flat in table millimetres (so a felt fibre or a wood plank has a physical size) and then seen
through the scene camera, which gives them the same perspective as the cards. Each texel carries a gloss value
too: glare only shows where something can shine.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from datasets.hanafuda.camera import Camera
from datasets.hanafuda.noise import fractal_noise, pick, pixel_noise, smooth_noise

Texture = tuple[np.ndarray, np.ndarray]  # (BGR float32 in [0, 1], gloss float32 in [0, 1])
Maker = Callable[[np.random.Generator, tuple[int, int], float], Texture]

# Tiles that are one long gradient strip rather than a repeating pattern: stretched, not tiled.
_STRETCHED_TILES = ("Fade_", "RGB", "Rainbow")
# Shared tiles that look like something a table could be covered with; wallpapers only appear as printed mats.
_TABLE_TILES = (
    "Baize", "Felt_Blue", "Felt_Green", "Felt_Red", "Wood", "Jean", "Marble", "Nostalgy", "Pale_Satin",
    "Stone_Wall", "Argyle", "Brown_Diamonds", "Chequered_Field", "Floral", "Gammi", "Isometric_Blocks",
    "Metal_Plate", "Olive_Fossils", "Ice", "Abstract_Metallic", "Colored_Cloud", "Gold", "Orange_Abstract",
    "Orange_Ornaments", "Pink_Hearts", "Purple_Mosaic", "Fade_Green", "Fade_Blue", "Fade_White", "Fade_Yellow",
)  # fmt: skip


def hsv_colour(h: float, s: float, v: float) -> np.ndarray:
    """One BGR float colour from hue in degrees, saturation and value in [0, 1]."""
    pixel = np.array([[[h / 2.0, s * 255.0, v * 255.0]]], np.float32).clip(0, 255).astype(np.uint8)
    return cv2.cvtColor(pixel, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32) / 255.0


def _lerp(a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    return a + (b - a) * t[..., None]


def _constant_gloss(shape: tuple[int, int], value: float) -> np.ndarray:
    return np.full(shape, value, np.float32)


def wood(rng: np.random.Generator, shape: tuple[int, int], ppm: float) -> Texture:
    """Planks with growth rings distorted by noise, fibres along the grain and dark seams."""
    h, w = shape
    light = hsv_colour(rng.uniform(18, 38), rng.uniform(0.3, 0.65), rng.uniform(0.45, 0.92))
    dark = light * rng.uniform(0.45, 0.8) * np.array([0.85, 0.92, 1.0], np.float32)
    plank = rng.uniform(70, 220) * ppm
    ys = np.arange(h, dtype=np.float32)[:, None]
    offset = rng.uniform(0, plank)
    index = np.floor((ys + offset) / plank)
    warp = fractal_noise(rng, shape, cell=rng.uniform(15, 60) * ppm, octaves=3, stretch=rng.uniform(6, 15))
    ring_mm = rng.uniform(1.2, 5.0)
    phase = (index * 37.31) % 7.0
    rings = ((ys / ppm + warp * rng.uniform(3, 12) + phase * ring_mm) / ring_mm) % 1.0
    late = np.clip((rings - 0.7) / 0.3, 0, 1) ** 1.5
    fibre = smooth_noise(rng, shape, (max(0.3 * ppm, 1.0), max(12 * ppm, 4.0)))
    tone = 0.55 * late + 0.12 * fibre + 0.15 * warp
    per_plank = ((index * 0.618) % 1.0 - 0.5) * rng.uniform(0.0, 0.5)
    tone = np.clip(tone + per_plank, 0, 1)
    image = _lerp(light, dark, tone)
    seam_px = max(ppm * rng.uniform(0.3, 1.2), 0.6)
    seam = np.minimum((ys + offset) % plank, plank - (ys + offset) % plank) < seam_px
    if rng.random() < 0.8:
        image = np.where(seam[..., None], image * 0.45, image)
    image = np.array(np.broadcast_to(image, (h, w, 3)), np.float32, order="C")
    return image, _constant_gloss(shape, rng.uniform(0.1, 0.55))


def felt(rng: np.random.Generator, shape: tuple[int, int], ppm: float) -> Texture:
    """Card-table felt or baize: fine fuzzy fibres over a slow mottle."""
    hue = rng.choice([120.0, 140.0, 210.0, 0.0, 350.0, 30.0, 0.0])
    sat = rng.uniform(0.0, 0.15) if rng.random() < 0.2 else rng.uniform(0.4, 0.85)
    base = hsv_colour(hue + rng.normal(0, 8), sat, rng.uniform(0.18, 0.6))
    fuzz = cv2.GaussianBlur(pixel_noise(rng, shape, 1.0), (0, 0), max(0.25 * ppm, 0.5))
    mottle = fractal_noise(rng, shape, cell=rng.uniform(20, 60) * ppm, octaves=3)
    gain = 1.0 + 0.12 * fuzz / max(float(fuzz.std()), 1e-6) + 0.07 * mottle
    return (base * gain[..., None]).astype(np.float32), _constant_gloss(shape, rng.uniform(0.0, 0.05))


def cloth(rng: np.random.Generator, shape: tuple[int, int], ppm: float) -> Texture:
    """A woven tablecloth: plain weave threads, optionally gingham checks or stripes."""
    h, w = shape
    base = hsv_colour(rng.uniform(0, 360), rng.uniform(0.0, 0.7), rng.uniform(0.45, 0.95))
    period = rng.uniform(0.5, 1.6) * ppm
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    weave = np.ones(shape, np.float32)
    if period >= 2.5:
        ix, iy = np.floor(xs / period), np.floor(ys / period)
        over = ((ix + iy) % 2) == 0
        across = np.where(
            over, np.cos(np.pi * ((ys / period) % 1.0 - 0.5)), np.cos(np.pi * ((xs / period) % 1.0 - 0.5))
        )
        weave = 0.8 + 0.2 * across
    weave *= 1.0 + 0.05 * smooth_noise(rng, shape, (max(2 * ppm, 2.0), max(2 * ppm, 2.0)))
    image = base * weave[..., None]
    pattern = rng.random()
    if pattern < 0.5:
        second = hsv_colour(rng.uniform(0, 360), rng.uniform(0.4, 0.9), rng.uniform(0.3, 0.8))
        check = rng.uniform(4, 25) * ppm
        sx = ((xs / check) % 1.0 < 0.5).astype(np.float32)
        sy = ((ys / check) % 1.0 < 0.5).astype(np.float32) if pattern < 0.35 else np.zeros(shape, np.float32)
        mix = (sx + sy) / 2.0 * rng.uniform(0.5, 1.0)
        image = _lerp(image, second * weave[..., None], mix)
    return image.astype(np.float32), _constant_gloss(shape, rng.uniform(0.0, 0.08))


def paper(rng: np.random.Generator, shape: tuple[int, int], ppm: float) -> Texture:
    """White, off-white or kraft paper with faint fibres."""
    h, w = shape
    if rng.random() < 0.8:
        base = hsv_colour(rng.uniform(20, 60), rng.uniform(0.0, 0.12), rng.uniform(0.82, 1.0))
    else:
        base = hsv_colour(rng.uniform(22, 35), rng.uniform(0.35, 0.55), rng.uniform(0.55, 0.8))
    layer = np.zeros(shape, np.float32)
    count = min(int(h * w / max(ppm * ppm, 1e-3) * rng.uniform(0.02, 0.08)), 6000)
    starts = rng.uniform([0, 0], [w, h], (count, 1, 2))
    lengths = rng.uniform(1.0, 5.0, (count, 1, 1)) * ppm
    angles = rng.uniform(0, np.pi, (count, 1)) + rng.normal(0, 0.4, (count, 1)) * np.linspace(0, 1, 5)
    steps = np.linspace(0, 1, 5)[None, :, None] * lengths
    fibres = (starts + steps * np.dstack([np.cos(angles), np.sin(angles)])).astype(np.int32)
    half = count // 2
    cv2.polylines(layer, list(fibres[:half]), False, 1.0, 1, cv2.LINE_AA)
    cv2.polylines(layer, list(fibres[half:]), False, -0.6, 1, cv2.LINE_AA)
    layer = cv2.GaussianBlur(layer, (0, 0), 0.6)
    grain = 0.02 * fractal_noise(rng, shape, cell=max(3 * ppm, 2), octaves=2)
    shading = 0.03 * fractal_noise(rng, shape, cell=80 * ppm, octaves=2)
    gain = 1.0 + 0.05 * layer + grain + shading
    return (base * gain[..., None]).astype(np.float32), _constant_gloss(shape, rng.uniform(0.02, 0.12))


def plain_desk(rng: np.random.Generator, shape: tuple[int, int], ppm: float) -> Texture:
    """Laminate or painted desks: one colour, a faint gradient and very little texture, often glossy."""
    h, w = shape
    if rng.random() < 0.6:
        base = hsv_colour(
            rng.uniform(0, 60), rng.uniform(0.0, 0.15), rng.choice([rng.uniform(0.08, 0.3), rng.uniform(0.6, 0.97)])
        )
    else:
        base = hsv_colour(rng.uniform(0, 360), rng.uniform(0.2, 0.7), rng.uniform(0.3, 0.9))
    other = base * rng.uniform(0.75, 1.2)
    angle = rng.uniform(0, 2 * np.pi)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    ramp = (
        np.clip(0.5 + np.cos(angle) * (xs / w - 0.5) + np.sin(angle) * (ys / h - 0.5), 0, 1)
        if rng.random() < 0.5
        else None
    )
    image = np.array(np.broadcast_to(base, (h, w, 3)), np.float32, order="C")
    if ramp is not None:
        image = _lerp(base, other, ramp.astype(np.float32))
    image = image * (1.0 + 0.02 * fractal_noise(rng, shape, cell=max(4 * ppm, 2), octaves=2))[..., None]
    return image.astype(np.float32), _constant_gloss(shape, rng.uniform(0.2, 0.8))


def gradient(rng: np.random.Generator, shape: tuple[int, int], ppm: float) -> Texture:
    """Linear or radial blend of two colours, like a backdrop or a lit sheet."""
    h, w = shape
    a = hsv_colour(rng.uniform(0, 360), rng.uniform(0, 0.8), rng.uniform(0.15, 0.95))
    b = hsv_colour(rng.uniform(0, 360), rng.uniform(0, 0.8), rng.uniform(0.15, 0.95))
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    if rng.random() < 0.5:
        angle = rng.uniform(0, 2 * np.pi)
        t = (np.cos(angle) * (xs - w / 2) + np.sin(angle) * (ys - h / 2)) / max(w, h) + 0.5
    else:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        t = np.hypot(xs - cx, ys - cy) / max(w, h)
    t = np.clip(t, 0, 1).astype(np.float32)
    image = _lerp(a, b, t) * (1.0 + 0.015 * fractal_noise(rng, shape, cell=max(3 * ppm, 2), octaves=2))[..., None]
    return image.astype(np.float32), _constant_gloss(shape, rng.uniform(0.0, 0.5))


def printed_mat(rng: np.random.Generator, shape: tuple[int, int], ppm: float) -> Texture:
    """A printed play mat: zones outlined and labelled, marker squares, grids or a printed picture."""
    h, w = shape
    paper_like, _ = (paper if rng.random() < 0.5 else plain_desk)(rng, shape, ppm)
    image = paper_like
    if rng.random() < 0.3:
        image = _print_picture(rng, image, ppm)
    ink = hsv_colour(rng.uniform(0, 360), rng.uniform(0, 0.9), rng.uniform(0.0, 0.5))
    line = max(round(rng.uniform(0.4, 2.0) * ppm), 1)
    for _ in range(int(rng.integers(2, 9))):
        zw, zh = rng.uniform(60, 300) * ppm, rng.uniform(50, 200) * ppm
        x0, y0 = rng.uniform(-zw / 2, w), rng.uniform(-zh / 2, h)
        p0, p1 = (int(x0), int(y0)), (int(x0 + zw), int(y0 + zh))
        if rng.random() < 0.3:
            fill = hsv_colour(rng.uniform(0, 360), rng.uniform(0.1, 0.5), rng.uniform(0.6, 0.95))
            cv2.rectangle(image, p0, p1, tuple(float(c) for c in fill), -1)
        cv2.rectangle(image, p0, p1, tuple(float(c) for c in ink), line, cv2.LINE_AA)
        words = ("FIELD", "STOCK", "PLAYER 1", "PLAYER 2", "CAPTURED", "HAND", "DISCARD", "BRIGHTS", "RIBBONS")
        scale = rng.uniform(4, 12) * ppm / 22.0
        org = (int(x0 + 4 * ppm), int(y0 + 14 * ppm))
        draw_text(image, str(rng.choice(words)), org, scale, ink)
    if rng.random() < 0.5:
        for _ in range(int(rng.integers(1, 5))):
            _draw_marker(rng, image, rng.uniform(0, w), rng.uniform(0, h), rng.uniform(20, 50) * ppm)
    if rng.random() < 0.3:
        step = rng.uniform(10, 40) * ppm
        for x in np.arange(rng.uniform(0, step), w, step):
            cv2.line(image, (int(x), 0), (int(x), h), tuple(float(c) * 0.5 + 0.4 for c in ink), 1, cv2.LINE_AA)
        for y in np.arange(rng.uniform(0, step), h, step):
            cv2.line(image, (0, int(y)), (w, int(y)), tuple(float(c) * 0.5 + 0.4 for c in ink), 1, cv2.LINE_AA)
    return image, _constant_gloss(shape, rng.uniform(0.05, 0.45))


def draw_text(image: np.ndarray, text: str, org: tuple[int, int], scale: float, colour: np.ndarray,
              weight: float = 1.0) -> None:
    """Anti-aliased text on a float image (OpenCV only draws text on 8-bit images); ``weight`` thickens the
    strokes."""
    thickness = max(1, int(scale * 2 * weight))
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    x0, y0 = max(org[0], 0), max(org[1] - th - thickness, 0)
    x1, y1 = min(org[0] + tw + thickness, image.shape[1]), min(org[1] + base + thickness, image.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.putText(mask, text, (org[0] - x0, org[1] - y0), cv2.FONT_HERSHEY_SIMPLEX, scale, 255, thickness, cv2.LINE_AA)
    alpha = mask.astype(np.float32)[..., None] / 255.0
    roi = image[y0:y1, x0:x1]
    roi[:] = roi * (1.0 - alpha) + np.asarray(colour, np.float32) * alpha


def _draw_marker(rng: np.random.Generator, image: np.ndarray, x: float, y: float, size: float) -> None:
    """A black square with a random white bit pattern, like the ArUco markers on a kibitz mat."""
    bits = rng.random((6, 6)) < 0.5
    bits[0, :] = bits[-1, :] = bits[:, 0] = bits[:, -1] = False
    cell = size / 6.0
    for (r, c), on in np.ndenumerate(bits):
        colour = (1.0, 1.0, 1.0) if on else (0.03, 0.03, 0.03)
        p0 = (int(x + c * cell), int(y + r * cell))
        p1 = (int(x + (c + 1) * cell), int(y + (r + 1) * cell))
        cv2.rectangle(image, p0, p1, colour, -1)


def _print_picture(rng: np.random.Generator, image: np.ndarray, ppm: float) -> np.ndarray:
    """Blend one of the shared wallpapers in, as the printed art of a neoprene play mat."""
    pictures = [p for p in _tile_files() if p.parent.name in ("save-aspect", "stretch")]
    if not pictures:
        return image
    picture = _read_tile(str(pictures[int(rng.integers(len(pictures)))]))
    h, w = image.shape[:2]
    scaled = cv2.resize(picture, (w, h), interpolation=cv2.INTER_LINEAR)
    return _lerp(image, scaled, np.full((h, w), rng.uniform(0.5, 1.0), np.float32)).astype(np.float32)


def tiled(rng: np.random.Generator, shape: tuple[int, int], ppm: float) -> Texture:
    """One of the shared PySolFC tiles repeated at a physical scale, turned, with its colours nudged."""
    files = [p for p in _tile_files() if p.stem in _TABLE_TILES]
    if not files:
        return felt(rng, shape, ppm)
    path = files[int(rng.integers(len(files)))]
    tile = _read_tile(str(path))
    h, w = shape
    if path.stem.startswith(_STRETCHED_TILES):
        image = cv2.resize(tile, (w, h), interpolation=cv2.INTER_LINEAR)
    else:
        tile_mm = rng.uniform(15, 120)
        zoom = tile_mm * ppm / max(tile.shape[:2])
        angle = rng.uniform(0, 2 * np.pi) if rng.random() < 0.3 else 0.0
        c, s = np.cos(angle) / zoom, np.sin(angle) / zoom
        shift = rng.uniform(0, tile.shape[1]), rng.uniform(0, tile.shape[0])
        inverse = np.array([[c, -s, shift[0]], [s, c, shift[1]]], np.float64)
        image = cv2.warpAffine(tile, inverse, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_WRAP)  # fmt: skip
    image = image * rng.uniform(0.75, 1.15, 3).astype(np.float32)
    image *= 1.0 + 0.05 * fractal_noise(rng, shape, cell=40 * ppm, octaves=2)[..., None]
    return image.astype(np.float32), _constant_gloss(shape, rng.uniform(0.0, 0.35))


@functools.cache
def _tile_files() -> tuple[Path, ...]:
    from datasets.hanafuda.art import shared_data_dir

    folder = shared_data_dir() / "backgrounds" / "pysolfc-tiles" / "tiles"
    return tuple(sorted(p for p in folder.rglob("*") if p.suffix.lower() in (".png", ".jpg")))


@functools.cache
def _read_tile(path: str) -> np.ndarray:
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None:
        raise OSError(f"cannot decode background tile {path}")
    if max(image.shape[:2]) > 800:
        f = 800 / max(image.shape[:2])
        image = cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    return image.astype(np.float32) / 255.0


SURFACES: dict[str, Maker] = {
    "wood": wood,
    "felt": felt,
    "cloth": cloth,
    "paper": paper,
    "plain": plain_desk,
    "gradient": gradient,
    "printed-mat": printed_mat,
    "tiles": tiled,
}
DEFAULT_SURFACE_WEIGHTS: dict[str, float] = {
    "wood": 0.22,
    "felt": 0.14,
    "cloth": 0.12,
    "paper": 0.12,
    "plain": 0.12,
    "gradient": 0.05,
    "printed-mat": 0.1,
    "tiles": 0.13,
}
# Things laid on a table: a sheet of paper, a felt mat, a printed play mat (A4, A3 or play mat size, mm).
_SHEETS = {"paper": ((210, 297), (297, 420)), "felt": ((350, 600), (400, 400)), "printed-mat": ((300, 420), (350, 600))}


def render_table(
    rng: np.random.Generator,
    camera: Camera,
    weights: dict[str, float] | None = None,
    sheet_probability: float = 0.25,
    max_texels: float = 2.5,
) -> tuple[np.ndarray, np.ndarray]:
    """The table seen by ``camera``: BGR float32 image and gloss map, both at the camera's size.

    The texture covers the visible table in a randomly turned frame, at about the nearest part's resolution,
    capped at ``max_texels`` times the image's pixel count.
    """
    weights = weights or DEFAULT_SURFACE_WEIGHTS
    w, h = camera.size
    polygon = camera.visible_table(margin=4.0)
    angle = rng.uniform(0, 2 * np.pi)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    local = polygon @ rot  # table -> texture frame (rows are points: p @ rot == rot.T @ p)
    lo, hi = local.min(0), local.max(0)
    ppm = max(camera.scale_at(p) for p in polygon)
    area_mm = float(np.prod(hi - lo))
    ppm = min(ppm, np.sqrt(max_texels * w * h / max(area_mm, 1e-6)))
    tw, th = int(np.ceil((hi - lo)[0] * ppm)) + 2, int(np.ceil((hi - lo)[1] * ppm)) + 2
    image, gloss = SURFACES[pick(rng, weights)](rng, (th, tw), ppm)
    if rng.random() < sheet_probability:
        image, gloss = _lay_sheet(rng, image, gloss, ppm, -lo * ppm, angle)
    # texture px -> table mm: p = rot @ (u / ppm + lo)
    to_table = np.eye(3)
    to_table[:2, :2] = rot / ppm
    to_table[:2, 2] = rot @ lo
    warp = camera.homography @ to_table
    stacked = np.dstack([image, gloss]).astype(np.float32)
    out = cv2.warpPerspective(stacked, warp, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    return np.ascontiguousarray(out[:, :, :3]), np.ascontiguousarray(out[:, :, 3])


def _lay_sheet(
    rng: np.random.Generator, image: np.ndarray, gloss: np.ndarray, ppm: float, origin: np.ndarray, angle: float
) -> Texture:
    """Lay a sheet (paper, felt or printed mat) under the play area, with a soft contact shadow at its edges."""
    kind = str(rng.choice(list(_SHEETS)))
    size_mm = np.array(_SHEETS[kind][int(rng.integers(2))], np.float64)
    if rng.random() < 0.5:
        size_mm = size_mm[::-1]
    th, tw = image.shape[:2]
    sheet, sheet_gloss = SURFACES[kind](rng, (th, tw), ppm)
    centre = origin + rng.normal(0, 40, 2) * ppm
    turn = np.degrees(-angle) + rng.normal(0, 8)
    box = cv2.boxPoints(((float(centre[0]), float(centre[1])), tuple(float(v) for v in size_mm * ppm), turn))
    mask = np.zeros((th, tw), np.float32)
    cv2.fillConvexPoly(mask, np.round(box * 16).astype(np.int32), 1.0, cv2.LINE_AA, shift=4)
    shadow = cv2.GaussianBlur(mask, (0, 0), max(1.5 * ppm, 1.0))
    image = image * (1.0 - 0.35 * shadow * (1.0 - mask))[..., None]
    image = _lerp(image, sheet, mask)
    gloss = gloss + (sheet_gloss - gloss) * mask
    return image.astype(np.float32), gloss.astype(np.float32)
