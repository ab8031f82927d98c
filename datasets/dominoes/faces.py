"""Procedural domino faces: where the pips of each number go, and the sprite of a face or a back.

Positions are in tile coordinates (u across the short side, v along the long side, both in [0, 1]) with the
first number's half on top. The bottom half repeats the top half's pattern turned by 180 degrees, as on real
tiles. Chinese sets colour every 1 and 4 red, draw the 1 large, and have two special faces: the 3:3 ("long
three", a single column of pips with a pair across the middle) and the 6:6 with one column of each half red.
Sprites are BGRA float32 with the long side vertical; alpha holds the rounded corners.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from datasets.dominoes.styles import BIG_PIP, Colour, TileStyle
from datasets.hanafuda.backgrounds import draw_text
from datasets.hanafuda.canvas import rounded_alpha
from datasets.hanafuda.noise import fractal_noise

Pip = tuple[float, float, float, bool]  # u, v, diameter scale, red

_O = 0.27  # corner offset of a pip within its half (fraction of the half)
_HALF = {
    0: [],
    1: [(0.5, 0.5)],
    2: [(_O, _O), (1 - _O, 1 - _O)],
    3: [(_O, _O), (0.5, 0.5), (1 - _O, 1 - _O)],
    4: [(_O, _O), (1 - _O, _O), (_O, 1 - _O), (1 - _O, 1 - _O)],
    5: [(_O, _O), (1 - _O, _O), (0.5, 0.5), (_O, 1 - _O), (1 - _O, 1 - _O)],
    6: [(_O, 0.2), (1 - _O, 0.2), (_O, 0.5), (1 - _O, 0.5), (_O, 0.8), (1 - _O, 0.8)],
}
_LONG_THREE = [(0.5, 0.08), (0.5, 0.28), (0.27, 0.5), (0.73, 0.5), (0.5, 0.72), (0.5, 0.92)]


_PAIR_ACROSS = [(_O, 0.5), (1 - _O, 0.5)]
_END = (0.14, 0.9)  # where in its half (0 at the tile's end) a moved pip's centre may lie


def pip_layout(top: int, bottom: int, chinese: bool, spread: float = 1.0, to_end: float = 0.0,
               pair_across: bool = False) -> list[Pip]:
    """Every pip of the face ``top:bottom`` (top number on the upper half). ``spread``, ``to_end`` and
    ``pair_across`` lay a half's pips out otherwise (``TileStyle``): spread along the half about its middle, moved
    that share of the half towards the tile's end, a two side by side across the tile."""
    for n in (top, bottom):
        if not 0 <= n <= 6:
            raise ValueError(f"a half has 0 to 6 pips, not {n}")
    if chinese and top == bottom == 3:
        return [(u, v, 1.0, False) for u, v in _LONG_THREE]
    pips: list[Pip] = []
    for n, flip in ((top, False), (bottom, True)):
        pattern = _PAIR_ACROSS if pair_across and n == 2 else _HALF[n]
        for x, y in pattern:
            if spread != 1.0 or to_end:
                y = float(np.clip(0.5 + (y - 0.5) * spread - to_end, *_END))
            u, w = (1 - x, 1 - y) if flip else (x, y)
            v = (1 + w) / 2 if flip else w / 2
            v = 0.5 + (v - 0.5) * 0.96  # a hair of space around the middle
            red = chinese and (n in (1, 4) or (n == 6 and top == bottom == 6 and x < 0.5))
            pips.append((u, v, 1.35 if chinese and n == 1 else 1.0, red))
    return pips


def pip_room(style: TileStyle) -> float:
    """The biggest pip diameter (share of the short side) at which no two pips of any face of ``style``'s layout
    touch and every pip keeps a hair of face between it and the tile's edge: how big ``big_pips`` may draw them."""
    room = float("inf")
    margin = 0.04  # face left between a pip and the edge, in widths
    for top in range(1, 7):
        for bottom in range(top, 7):
            pips = pip_layout(top, bottom, style.chinese, style.spread, style.to_end, style.pair_across)
            at = np.array([(u, v * style.aspect) for u, v, _, _ in pips], np.float64)  # in widths
            scale = np.array([p[2] for p in pips])
            edge = np.minimum(np.minimum(at[:, 0], 1 - at[:, 0]), np.minimum(at[:, 1], style.aspect - at[:, 1]))
            room = min(room, float((2 * (edge - margin) / scale).min()))
            apart = np.linalg.norm(at[:, None] - at[None], axis=2) * 2 / (scale[:, None] + scale[None])
            np.fill_diagonal(apart, np.inf)
            room = min(room, float(apart.min()))
    return room


def big_pips(style: TileStyle, rng: np.random.Generator) -> TileStyle:
    """``style`` with pips as big as some sets have them (``BIG_PIP``; the shared art's are 0.39 of the tile's
    width, nearly touching), shrunk to the room its layout leaves (``pip_room``)."""
    rim = 1.15 if style.pip_kind == "dimple" else 1.0  # a dimple's darker rim reaches past the pip
    wanted = min(float(rng.uniform(*BIG_PIP)), 0.92 * pip_room(style) / rim)
    return replace(style, pip_size=max(wanted, style.pip_size))  # a tight layout keeps the pips it had


def _base(style: TileStyle, height: int, colour: Colour, rng: np.random.Generator) -> np.ndarray:
    """A plain tile of one colour with a slight mottle and a darker rounded edge, BGRA float32."""
    width = max(round(height / style.aspect), 4)
    alpha = rounded_alpha(height, width, style.corner_radius * width)
    mottle = 1.0 + 0.025 * fractal_noise(rng, (height, width), cell=max(width / 3, 2), octaves=2)
    rgb = np.empty((height, width, 3), np.float32)
    rgb[:] = np.asarray(colour, np.float32)
    rgb *= mottle[..., None]
    inside = cv2.distanceTransform((alpha > 0.5).astype(np.uint8), cv2.DIST_L2, 3)
    band = max(0.06 * width, 1.0)
    rgb *= (1.0 - style.bevel * np.clip(1.0 - inside / band, 0, 1) ** 2)[..., None]
    return np.dstack([np.clip(rgb, 0, 1), alpha]).astype(np.float32)


def _disc(image: np.ndarray, centre: tuple[float, float], radius: float, colour: Colour) -> None:
    c = (round(centre[0] * 16), round(centre[1] * 16))
    cv2.circle(image, c, max(round(radius * 16), 8), colour, -1, cv2.LINE_AA, shift=4)


def _brass() -> Colour:
    return (0.25, 0.62, 0.78)


def face_sprite(style: TileStyle, top: int, bottom: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """The face ``top:bottom`` drawn ``height`` px tall (long side vertical)."""
    sprite = _base(style, height, style.face, rng)
    h, w = sprite.shape[:2]
    rgb = np.ascontiguousarray(sprite[:, :, :3])
    radius = style.pip_size * w / 2
    for u, v, scale, red in pip_layout(top, bottom, style.chinese, style.spread, style.to_end, style.pair_across):
        colour = style.red if red else style.pip
        centre = (u * w - 0.5, v * h - 0.5)
        r = radius * scale
        if style.pip_kind == "dimple":
            rim = tuple(0.5 * (a + b) * 0.85 for a, b in zip(colour, style.face, strict=True))
            _disc(rgb, centre, r * 1.15, rim)  # type: ignore[arg-type]
        _disc(rgb, centre, r, colour)
        if style.pip_kind == "shiny":
            shine = tuple(min(1.0, c + 0.35) for c in colour)
            _disc(rgb, (centre[0] - r * 0.3, centre[1] - r * 0.3), r * 0.25, shine)  # type: ignore[arg-type]
    if style.divider:
        thick = max(0.035 * w, 1.0)
        y = h / 2 - 0.5
        x0, x1 = w * 0.12, w * 0.88
        pts = np.array([[x0, y - thick / 2], [x1, y - thick / 2], [x1, y + thick / 2], [x0, y + thick / 2]])
        cv2.fillConvexPoly(rgb, np.round(pts * 16).astype(np.int32), style.pip, cv2.LINE_AA, shift=4)
        if style.spinner:
            _disc(rgb, (w / 2 - 0.5, y), 0.06 * w, _brass())
    sprite[:, :, :3] = rgb
    return sprite


def _underline(rgb: np.ndarray, y: float, style: TileStyle, ink: np.ndarray) -> None:
    """A bar across the back under its logo, about as thick as a divider, with ``style.underline`` small dots of the
    back's colour along it."""
    w = rgb.shape[1]
    thick = max(0.05 * w, 1.0)
    x0, x1 = w * 0.12, w * 0.88
    pts = np.array([[x0, y - thick / 2], [x1, y - thick / 2], [x1, y + thick / 2], [x0, y + thick / 2]])
    cv2.fillConvexPoly(rgb, np.round(pts * 16).astype(np.int32), ink.tolist(), cv2.LINE_AA, shift=4)
    for x in np.linspace(x0, x1, style.underline + 2)[1:-1]:
        _disc(rgb, (x, y), 0.3 * thick, style.back)


def back_sprite(style: TileStyle, height: int, rng: np.random.Generator) -> np.ndarray:
    """The back of a tile in the set's back colour: plain, or with the set's logo printed on its upper half (where
    and how big the style says, with a bar under it if ``style.underline``)."""
    sprite = _base(style, height, style.back, rng)
    if style.logo:
        rgb = np.ascontiguousarray(sprite[:, :, :3])
        h, w = rgb.shape[:2]
        (tw, th), _ = cv2.getTextSize(style.logo, cv2.FONT_HERSHEY_SIMPLEX, 1.0, 2)
        scale = style.logo_width * w / max(tw, th)
        org = (round(w / 2 - tw * scale / 2), round(h * style.logo_at + th * scale / 2))
        ink = np.asarray(style.pip if rng.random() < 0.7 else style.red)
        draw_text(rgb, style.logo, org, scale, ink, style.logo_weight / 2)
        if style.underline >= 0:
            _underline(rgb, org[1] + 0.12 * w, style, ink)
        sprite[:, :, :3] = rgb
    return sprite
