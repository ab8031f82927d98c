"""Compose one photo of domino tiles on a table, with the ground truth of every tile.

The table, camera, light and lens come from the hanafuda scene modules (``camera``, ``backgrounds``,
``effects``, ``compose``): only the tiles are new. Tiles are solid blocks: their sides show at oblique views and
their top face carries the pips. An index map records the topmost tile at every pixel, which gives each tile's
visible share exactly (the lower layer of a wall is hidden by the upper one).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from datasets.dominoes.art import art_face
from datasets.dominoes.faces import back_sprite, big_pips, face_sprite
from datasets.dominoes.layouts import LAYOUTS, TilePlacement, scattered, wall
from datasets.dominoes.styles import (
    PROCEDURAL,
    STYLES,
    TRAIN_STYLES,
    TileStyle,
    printed_back,
    sample_style,
    varied_pips,
)
from datasets.hanafuda.backgrounds import render_table
from datasets.hanafuda.camera import Camera, make_camera
from datasets.hanafuda.canvas import Canvas, hull
from datasets.hanafuda.compose import TABLE, composite, inside_frame, mark_prop, raster_area, touches_frame
from datasets.hanafuda.config import SceneConfig
from datasets.hanafuda.effects import Look, apply_camera, apply_glare, apply_lighting, sample_look, washed_out
from datasets.hanafuda.layouts import card_corners
from datasets.hanafuda.noise import pick
from datasets.hanafuda.objects import coin

BACK = "back"
CIVIL = ((6, 6), (1, 1), (4, 4), (1, 3), (5, 5), (3, 3), (2, 2), (5, 6), (4, 6), (1, 6), (1, 5))


def chinese_set() -> list[tuple[int, int]]:
    """The 32 Chinese tiles: no blanks, civil tiles twice."""
    faces = [(a, b) for a in range(1, 7) for b in range(a, 7)]
    return faces + list(CIVIL)


def double_six_set() -> list[tuple[int, int]]:
    return [(a, b) for a in range(7) for b in range(a, 7)]


@dataclass(frozen=True)
class DominoSceneConfig:
    """How domino scenes are drawn; ``photo`` carries the table, light and camera knobs of the card scenes."""

    size: tuple[int, int] = (1280, 720)
    styles: tuple[str, ...] = TRAIN_STYLES
    layouts: Mapping[str, float] = field(
        default_factory=lambda: {"scattered": 0.3, "play": 0.35, "row": 0.2, "wall": 0.15})
    tiles: tuple[int, int] = (3, 14)
    tile_length: tuple[float, float] = (0.13, 0.3)  # a tile's long side as a share of the frame height
    tilt_max_deg: float = 30.0
    pip_variety: float = 0.0  # share of procedural sets whose pips are laid out otherwise (``styles.varied_pips``)
    big_pips: float = 0.0  # share of procedural Chinese sets with big pips (``faces.big_pips``)
    back_prints: float = 0.0  # share of European sets with a bold maker's mark on the back (``styles.printed_back``)
    chips: float = 0.0  # chance of a coin laid against the end of a tile or two (a marker, a stake beside the line)
    photo: SceneConfig = field(default_factory=lambda: SceneConfig(props=0.0, hands=0.0, glare=0.3))

    def __post_init__(self) -> None:
        unknown = [s for s in self.styles if s not in STYLES]
        if unknown or not self.styles:
            raise ValueError(f"unknown domino styles {unknown}; choose from {', '.join(STYLES)}")
        bad = [k for k in self.layouts if k not in (*LAYOUTS, "play")]
        if bad:
            raise ValueError(f"unknown domino layouts {bad}")


@dataclass(frozen=True)
class DominoScene:
    """A rendered photo and its truth. ``faces`` are (top, bottom) pips as drawn on each tile; ``quads`` the top
    face's corners as drawn (top-left, top-right, bottom-right, bottom-left, long side from top to bottom)."""

    image: np.ndarray
    faces: tuple[tuple[int, int], ...]
    face_up: np.ndarray  # (N,) bool
    quads: np.ndarray  # (N, 4, 2) float32
    visible: np.ndarray  # (N,) float32
    cut: np.ndarray  # (N,) bool
    washed: np.ndarray  # (N,) float32: share of what is seen of the tile that glare washes out (``washed_out``)
    style: str
    layout: str
    tile_set: str  # "chinese" or "double-six"

    def whole(self, min_visible: float = 0.98) -> np.ndarray:
        """Which tiles are whole in view (N bool): at least ``min_visible`` of them shows and the frame cuts none."""
        return (np.asarray(self.visible) >= min_visible) & ~np.asarray(self.cut, bool)

    def labels(self, min_visible: float = 0.98) -> list[str]:
        """What a recogniser should name: ``a:b`` (a ≤ b) or ``back``, for whole tiles in view."""
        return [f"{min(self.faces[k])}:{max(self.faces[k])}" if self.face_up[k] else BACK
                for k in np.flatnonzero(self.whole(min_visible))]


def _sprite(style: TileStyle, p: TilePlacement, height: int, rng: np.random.Generator) -> np.ndarray:
    if not p.face_up:
        return back_sprite(style, height, rng)
    if style.family == "paigow-art":
        return art_face(p.top, p.bottom, height)
    return face_sprite(style, p.top, p.bottom, height, rng)


def _tile_layer(
    canvas_size: tuple[int, int], camera: Camera, p: TilePlacement, size: tuple[float, float], style: TileStyle,
    rng: np.random.Generator,
) -> tuple[np.ndarray, Canvas]:
    """The tile's sides and face painted on a canvas; returns the face quad too."""
    corners = card_corners(p.centre, p.angle, size)
    top = camera.project(corners, p.lift + style.thickness_mm)
    base = camera.project(corners, p.lift)
    canvas = Canvas(np.vstack([top, base]), canvas_size)
    outline = hull(np.vstack([top, base]))
    if cv2.contourArea(outline) - cv2.contourArea(top.astype(np.float32)) > 0.5:
        canvas.fill(outline, tuple(c * rng.uniform(0.75, 1.0) for c in style.side))
    length = float(max(np.linalg.norm(top[3] - top[0]), np.linalg.norm(top[2] - top[1])))
    height = int(np.clip(round(length * 1.5), 16, 1200))
    canvas.warp(_sprite(style, p, height, rng), top)
    return top, canvas


def _placements(
    rng: np.random.Generator, cfg: DominoSceneConfig, layout: str, camera: Camera, style: TileStyle,
    size: tuple[float, float],
) -> list[TilePlacement]:
    faces = chinese_set() if style.chinese else double_six_set()
    order = rng.permutation(len(faces))
    n = int(rng.integers(cfg.tiles[0], cfg.tiles[1] + 1))
    chosen = [faces[i] for i in order]
    region = camera.visible_table()
    centre, right = camera.to_table(np.array([[cfg.size[0] / 2, cfg.size[1] / 2], [cfg.size[0] / 2 + 10,
                                                                                  cfg.size[1] / 2]]))
    base = float(np.arctan2(right[1] - centre[1], right[0] - centre[0]))
    base += np.radians(rng.normal(0, 5)) if rng.random() < 0.6 else rng.uniform(0, 2 * np.pi)
    if layout == "wall":
        return wall(rng, chosen[: 2 * min(n, 8)], region, size, base, style.thickness_mm)
    if layout == "play":
        line = LAYOUTS["chain"](rng, chosen[:n], region, size, base)
        extra = chosen[n : n + int(rng.integers(0, 5))]
        return line + scattered(rng, extra, region, size, base, around=line, down=1.0)
    return LAYOUTS[layout](rng, chosen[:n], region, size, base)


def _lay_chips(rng: np.random.Generator, chance: float, camera: Camera, tiles: list[TilePlacement],
               size: tuple[float, float], image: np.ndarray, gloss: np.ndarray, index_map: np.ndarray,
               look: Look) -> None:
    """With ``chance``, a coin or two each laid against the end of a tile (touching it or nearly), as a player marks
    the closed end of a line or leaves a stake beside it: round, shiny and the size of a pip's half of a tile."""
    if rng.random() >= chance:
        return
    for _ in range(int(rng.integers(1, 3))):
        tile = tiles[int(rng.integers(len(tiles)))]
        corners = card_corners(tile.centre, tile.angle, size)
        along = (corners[3] + corners[2] - corners[0] - corners[1]) / 2  # top edge to bottom edge: the length
        unit = along / max(float(np.linalg.norm(along)), 1e-6) * (1 if rng.random() < 0.5 else -1)
        centre = tile.centre + unit * (size[1] / 2 + rng.uniform(9.0, 16.0))  # a coin's radius is 9-14 mm
        layer, _ = coin(rng, camera, centre, None, None)  # type: ignore[arg-type]  # a coin bears no card print
        composite(image, gloss, layer, look, camera.scale_at(centre))
        mark_prop(index_map, layer)


def render_scene(rng: np.random.Generator | int, config: DominoSceneConfig | None = None) -> DominoScene:
    """Render one scene; the same seed and config give the same image."""
    rng = np.random.default_rng(rng) if isinstance(rng, int | np.integer) else rng
    cfg = config or DominoSceneConfig()
    photo = replace(cfg.photo, size=cfg.size)
    family = cfg.styles[int(rng.integers(len(cfg.styles)))]
    style = sample_style(rng, family)
    if cfg.pip_variety and family in PROCEDURAL:  # drawn aside, so the scenes of a seed stay as they were without
        varied = rng.spawn(1)[0]
        if varied.random() < cfg.pip_variety:
            style = varied_pips(style, varied)
    if cfg.big_pips and family in PROCEDURAL and style.chinese:  # drawn aside too
        big = rng.spawn(1)[0]
        if big.random() < cfg.big_pips:
            style = big_pips(style, big)
    if cfg.back_prints and family in PROCEDURAL and not style.chinese:  # drawn aside too
        printed = rng.spawn(1)[0]
        if printed.random() < cfg.back_prints:
            style = printed_back(style, printed)
    length_mm = float(rng.uniform(55, 60) if style.chinese else rng.uniform(44, 52))
    size = (length_mm / style.aspect, length_mm)
    layout = pick(rng, cfg.layouts)
    w, h = cfg.size
    camera = make_camera(
        cfg.size, card_height_px=rng.uniform(*cfg.tile_length) * h, tilt_deg=rng.uniform(0, cfg.tilt_max_deg),
        azimuth_deg=rng.uniform(0, 360), roll_deg=float(rng.normal(0, 8)), fov_deg=rng.uniform(50, 70),
        card_height_mm=length_mm,
    )
    look: Look = sample_look(rng, photo)
    placements = _placements(rng, cfg, layout, camera, style, size)
    image, gloss = render_table(rng, camera, dict(photo.surfaces), photo.sheet_probability, photo.texture_detail)
    index_map = np.full(image.shape[:2], TABLE, np.int16)
    kept: list[TilePlacement] = []
    quads: list[np.ndarray] = []
    areas: list[int] = []
    for p in placements:
        top, canvas = _tile_layer(cfg.size, camera, p, size, style, rng)
        if not touches_frame(top, cfg.size):
            continue
        composite(image, gloss, canvas.layer(p.lift + style.thickness_mm, style.gloss), look, camera.scale_at(p.centre))
        fixed = np.round(top * 16).astype(np.int32)
        cv2.fillConvexPoly(index_map, fixed, len(kept), cv2.LINE_8, shift=4)
        kept.append(p)
        quads.append(top)
        areas.append(raster_area(fixed))
    if cfg.chips and kept:  # drawn aside, so the scenes of a seed stay as they were without
        _lay_chips(rng.spawn(1)[0], cfg.chips, camera, kept, size, image, gloss, index_map, look)
    apply_lighting(image, look, rng)
    contrast = apply_glare(image, gloss, look, quads)
    photo_image = apply_camera(image, look, rng)
    counts = np.bincount(index_map[index_map >= 0].ravel(), minlength=len(kept))[: len(kept)]
    quad_array = np.array(quads, np.float32).reshape(-1, 4, 2)
    return DominoScene(
        image=photo_image,
        faces=tuple((p.top, p.bottom) for p in kept),
        face_up=np.array([p.face_up for p in kept], bool),
        quads=quad_array,
        visible=np.clip(counts / np.maximum(np.array(areas, np.float64), 1.0), 0, 1).astype(np.float32),
        cut=np.array([not inside_frame(q, (w, h)) for q in quad_array], bool),
        washed=washed_out(contrast, index_map, len(kept)),
        style=family,
        layout=layout,
        tile_set="chinese" if style.chinese else "double-six",
    )
