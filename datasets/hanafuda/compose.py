"""Laying things into the frame: card layers (cut edge plus printed face), shadows, premultiplied compositing
and the index map that records which card is on top at every pixel."""

from __future__ import annotations

import cv2
import numpy as np

from datasets.hanafuda.art import StyleArt
from datasets.hanafuda.canvas import Canvas, Layer, hull
from datasets.hanafuda.effects import Look
from datasets.hanafuda.printing import DeckPrint, back_sprite, blank_sprite, face_sprite

BACK, BLANK = "back", "blank"
TABLE, PROP = -1, -2  # index map values that are not cards


class SpriteMaker:
    """Card sprites for one scene: faces printed by the deck, one back and one blank design shared by all."""

    def __init__(self, rng: np.random.Generator, art: StyleArt, deck: DeckPrint) -> None:
        self.art, self.deck = art, deck
        self.seeds = {BACK: int(rng.integers(0, 2**31)), BLANK: int(rng.integers(0, 2**31))}
        self.plain: dict[tuple[str, int], np.ndarray] = {}

    def __call__(self, label: str, height: float) -> np.ndarray:
        if label not in self.seeds:
            return face_sprite(self.art, label, self.deck, height)
        bucket = 1 << max(int(np.ceil(np.log2(max(height, 16.0)))), 4)
        key = (label, bucket)
        if key not in self.plain:
            make = back_sprite if label == BACK else blank_sprite
            self.plain[key] = make(np.random.default_rng(self.seeds[label]), self.deck, bucket)
        return self.plain[key]


def card_layer(
    rng: np.random.Generator,
    sprite: np.ndarray,
    top: np.ndarray,
    bottom: np.ndarray,
    deck: DeckPrint,
    size: tuple[int, int],
) -> Layer:
    """A card lying with its face on the image quad ``top``: its cut edge shows between ``bottom`` and
    ``top`` where the tilt lets it, and the face catches the light a little unevenly (cards bend)."""
    h, w = sprite.shape[:2]
    shade = rng.uniform(0.94, 1.06) + (
        np.linspace(-1, 1, h, dtype=np.float32)[:, None] * np.float32(rng.normal(0, 0.04))
        + np.linspace(-1, 1, w, dtype=np.float32)[None, :] * np.float32(rng.normal(0, 0.04))
    )
    premultiplied = np.empty_like(sprite)
    premultiplied[:, :, 3] = sprite[:, :, 3]
    np.multiply(sprite[:, :, :3], (shade * sprite[:, :, 3])[..., None], out=premultiplied[:, :, :3])
    canvas = Canvas(np.vstack([top, bottom]), size)
    outline = hull(np.vstack([top, bottom]))
    face = top.astype(np.float32)
    if cv2.contourArea(outline) - cv2.contourArea(face) > 0.5 * cv2.arcLength(face, True):
        canvas.fill(outline, deck.edge_colour)
    canvas.warp(premultiplied, top, premultiplied=True)
    return canvas.layer(deck.thickness_mm, deck.gloss)


def composite(image: np.ndarray, gloss: np.ndarray, layer: Layer, look: Look, px_per_mm: float) -> None:
    """Cast the layer's shadow onto what lies below, then lay it over the image and the gloss map, in place."""
    if look.shadow_strength > 0:
        cast_shadow(image, layer, look, px_per_mm)
    window = _window(image.shape, layer.origin, layer.rgba.shape)
    if window is None:
        return
    (iy0, iy1, ix0, ix1), (ly0, ly1, lx0, lx1) = window
    patch = layer.rgba[ly0:ly1, lx0:lx1]
    alpha = patch[:, :, 3:]
    roi = image[iy0:iy1, ix0:ix1]
    roi *= 1.0 - alpha
    roi += patch[:, :, :3]
    shine = gloss[iy0:iy1, ix0:ix1]
    shine += (layer.gloss - shine) * alpha[:, :, 0]


def cast_shadow(image: np.ndarray, layer: Layer, look: Look, px_per_mm: float) -> None:
    """Darken the image under the layer's silhouette, shifted away from the light and softened by height."""
    height = layer.height_mm + 0.4  # cards lift a little off the table at their edges
    dx, dy = (round(v) for v in np.asarray(look.light_dir) * height * px_per_mm * 0.35)
    sigma = max(look.shadow_softness * (0.25 + height / 12.0) * px_per_mm / 3.0, 0.6)
    pad = int(np.ceil(3 * sigma)) + max(abs(dx), abs(dy)) + 1
    alpha = np.ascontiguousarray(layer.rgba[:, :, 3])
    shadow = cv2.copyMakeBorder(alpha, pad + dy, pad - dy, pad + dx, pad - dx, cv2.BORDER_CONSTANT, value=0)
    shadow = cv2.GaussianBlur(shadow, (0, 0), sigma)
    window = _window(image.shape, (layer.origin[0] - pad, layer.origin[1] - pad), shadow.shape)
    if window is None:
        return
    (iy0, iy1, ix0, ix1), (sy0, sy1, sx0, sx1) = window
    strength = look.shadow_strength * min(1.0, 0.5 + height / 20.0)
    image[iy0:iy1, ix0:ix1] *= (1.0 - strength * shadow[sy0:sy1, sx0:sx1])[..., None]


def mark_prop(index_map: np.ndarray, layer: Layer) -> None:
    """Whatever a prop covers (more than half) is no longer visible card."""
    window = _window(index_map.shape, layer.origin, layer.rgba.shape)
    if window is not None:
        (iy0, iy1, ix0, ix1), (ly0, ly1, lx0, lx1) = window
        covered = layer.rgba[ly0:ly1, lx0:lx1, 3] > 0.5
        index_map[iy0:iy1, ix0:ix1][covered] = PROP


def _window(
    shape: tuple[int, ...], origin: tuple[int, int], patch_shape: tuple[int, ...]
) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]] | None:
    """Rows and columns where a patch at ``origin`` overlaps the image: (image window, patch window)."""
    h, w = shape[:2]
    x0, y0 = origin
    ix0, iy0 = max(x0, 0), max(y0, 0)
    ix1, iy1 = min(x0 + patch_shape[1], w), min(y0 + patch_shape[0], h)
    if ix1 <= ix0 or iy1 <= iy0:
        return None
    return (iy0, iy1, ix0, ix1), (iy0 - y0, iy1 - y0, ix0 - x0, ix1 - x0)


def raster_area(fixed: np.ndarray) -> int:
    """Pixels the index map's rasteriser gives a whole quad (4-bit fixed point) when nothing clips it, so a
    card nothing hides has a visible share of exactly 1."""
    lo = (fixed.min(axis=0) >> 4) - 1
    hi = (fixed.max(axis=0) >> 4) + 2
    canvas = np.zeros((int(hi[1] - lo[1]), int(hi[0] - lo[0])), np.uint8)
    cv2.fillConvexPoly(canvas, fixed - (lo << 4), 1, cv2.LINE_8, shift=4)
    return int(np.count_nonzero(canvas))


def touches_frame(quad: np.ndarray, size: tuple[int, int]) -> bool:
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    return bool(hi[0] >= 0 and hi[1] >= 0 and lo[0] <= size[0] - 1 and lo[1] <= size[1] - 1)


def inside_frame(quad: np.ndarray, size: tuple[int, int]) -> bool:
    """All of the quad lies within the frame (pixel centres at integers, so edges at -0.5 and size - 0.5)."""
    return bool((quad >= -0.5).all() and (quad[:, 0] <= size[0] - 0.5).all() and (quad[:, 1] <= size[1] - 0.5).all())


def frame_area_of(polygon: np.ndarray, shape: tuple[int, ...]) -> float:
    """Area of the polygon's convex hull within the frame, px²."""
    frame = np.array([[0, 0], [shape[1], 0], [shape[1], shape[0]], [0, shape[0]]], np.float32)
    area, _ = cv2.intersectConvexConvex(cv2.convexHull(polygon.astype(np.float32)), frame)
    return float(area)
