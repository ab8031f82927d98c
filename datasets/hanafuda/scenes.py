"""Compose one photo of cards on a table, with full ground truth for every card.

Order of work: pick a deck and a layout, aim a camera at the table, lay the surface, drop each card (shadow,
cut edge, printed face) bottom first, put objects and hands on top, then light and photograph it. An index
map records the topmost card at every pixel, which gives each card's visible share exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from datasets.hanafuda.art import CODES, StyleArt, load_style
from datasets.hanafuda.backgrounds import render_table
from datasets.hanafuda.camera import Camera, make_camera
from datasets.hanafuda.compose import (
    BACK,
    BLANK,
    TABLE,
    SpriteMaker,
    card_layer,
    composite,
    frame_area_of,
    inside_frame,
    mark_prop,
    raster_area,
    touches_frame,
)
from datasets.hanafuda.config import SceneConfig
from datasets.hanafuda.effects import Look, apply_camera, apply_glare, apply_lighting, sample_look, washed_out
from datasets.hanafuda.hands import hand
from datasets.hanafuda.layouts import CARD_COUNTS, LAYOUTS, LayoutRules, Placement, card_corners, stack_lifts
from datasets.hanafuda.noise import pick
from datasets.hanafuda.objects import OBJECTS, Prop
from datasets.hanafuda.printing import DeckPrint, sample_deck

__all__ = ["BACK", "BLANK", "LABELS", "Scene", "render_scene"]

LABELS = (*CODES, BACK, BLANK)
CARD_HEIGHT_MM = 54.0


@dataclass(frozen=True)
class Scene:
    """A rendered photo and its truth. Quads are image pixels (pixel centres at integers), in the card's own
    printed order top-left, top-right, bottom-right, bottom-left: an upside-down card starts at the bottom right."""

    image: np.ndarray  # (H, W, 3) uint8 BGR
    labels: tuple[str, ...]  # per card: one of the 48 codes, "back" or "blank"
    quads: np.ndarray  # (N, 4, 2) float32
    visible: np.ndarray  # (N,) float32: share of the face seen (not covered, not outside the frame)
    cut: np.ndarray  # (N,) bool: part of the card lies outside the frame
    washed: np.ndarray  # (N,) float32: share of what is seen of the card that glare washes out (``washed_out``)
    index_map: np.ndarray  # (H, W) int16: topmost card per pixel, -1 table, -2 object or hand
    props: tuple[Prop, ...]
    style: str
    layout: str

    def __post_init__(self) -> None:
        n = len(self.labels)
        if self.image.ndim != 3 or self.image.shape[2] != 3 or self.image.dtype != np.uint8:
            raise ValueError(f"scene image must be HxWx3 uint8, got {self.image.shape} {self.image.dtype}")
        if (self.quads.shape != (n, 4, 2) or self.visible.shape != (n,) or self.cut.shape != (n,)
                or self.washed.shape != (n,)):
            raise ValueError("quads, visible, cut and washed must have one entry per label")
        if self.index_map.shape != self.image.shape[:2]:
            raise ValueError("index map and image differ in size")
        bad = [x for x in self.labels if x not in LABELS]
        faces = [x for x in self.labels if x in CODES]
        if bad or len(set(faces)) != len(faces):
            raise ValueError(f"scene labels must be distinct card codes, back or blank; got {bad or faces}")

    def records(self) -> list[dict[str, object]]:
        """One JSON-ready dict per card, as written to a manifest."""
        return [
            {
                "card": label,
                "quad": np.round(q.astype(float), 2).tolist(),
                "visible": round(float(v), 4),
                "cut": bool(c),
                "washed": round(float(w), 4),
            }
            for label, q, v, c, w in zip(self.labels, self.quads, self.visible, self.cut, self.washed, strict=True)
        ]


def render_scene(rng: np.random.Generator | int, config: SceneConfig | None = None) -> Scene:
    """Render one scene. The same seed (or generator state) and config give a byte-identical image."""
    rng = np.random.default_rng(rng) if isinstance(rng, int | np.integer) else rng
    cfg = config or SceneConfig()
    style = cfg.styles[int(rng.integers(len(cfg.styles)))]
    art = load_style(style)
    deck = sample_deck(rng, art, cfg.print_variation, cfg.ink_recolour)
    layout = pick(rng, cfg.layouts)
    camera = _sample_camera(rng, cfg, layout)
    look = sample_look(rng, cfg)
    size_mm = (CARD_HEIGHT_MM * deck.aspect, CARD_HEIGHT_MM)
    placements = _lay_cards(rng, cfg, layout, camera, size_mm)
    stack_lifts(placements, size_mm, deck.thickness_mm)

    image, gloss = render_table(rng, camera, dict(cfg.surfaces), cfg.sheet_probability, cfg.texture_detail)
    index_map = np.full(image.shape[:2], TABLE, np.int16)
    sprites = SpriteMaker(rng, art, deck)
    near = camera.visible_table().astype(np.float32)
    labels: list[str] = []
    quads: list[np.ndarray] = []
    areas: list[int] = []
    for p in placements:
        if cv2.pointPolygonTest(near, (float(p.centre[0]), float(p.centre[1])), True) < -CARD_HEIGHT_MM:
            continue  # far outside the frame (perhaps beyond the horizon): nothing of it can be seen
        corners = card_corners(p.centre, p.angle, size_mm)
        top = camera.project(corners, p.lift + deck.thickness_mm)
        if not touches_frame(top, cfg.size):
            continue
        edge_px = float(max(np.linalg.norm(top[3] - top[0]), np.linalg.norm(top[2] - top[1])))
        height_px = min(edge_px, 2.0 * max(cfg.size))
        layer = card_layer(rng, sprites(p.label, height_px), top, camera.project(corners, p.lift), deck, cfg.size)
        composite(image, gloss, layer, look, camera.scale_at(p.centre))
        fixed = np.round(top * 16).astype(np.int32)
        cv2.fillConvexPoly(index_map, fixed, len(labels), cv2.LINE_8, shift=4)
        labels.append(p.label)
        quads.append(top)
        areas.append(raster_area(fixed))

    props = _place_props(rng, cfg, camera, art, deck, quads, image, gloss, index_map, look)
    apply_lighting(image, look, rng)
    kept = apply_glare(image, gloss, look, quads)
    photo = apply_camera(image, look, rng)

    counts = np.bincount(index_map[index_map >= 0].ravel(), minlength=len(labels))[: len(labels)]
    quad_array = np.array(quads, np.float32).reshape(-1, 4, 2)
    return Scene(
        image=photo,
        labels=tuple(labels),
        quads=quad_array,
        visible=np.clip(counts / np.maximum(np.array(areas, np.float64), 1.0), 0.0, 1.0).astype(np.float32),
        cut=np.array([not inside_frame(q, cfg.size) for q in quad_array], bool),
        washed=washed_out(kept, index_map, len(labels)),
        index_map=index_map,
        props=tuple(props),
        style=style,
        layout=layout,
    )


def _sample_camera(rng: np.random.Generator, cfg: SceneConfig, layout: str) -> Camera:
    """Aim the camera so cards come out the layout's size; tilt any way; mostly a landscape-held camera."""
    fraction = {"whole-mat": cfg.whole_mat_card_height, "single": cfg.single_card_height}.get(layout, cfg.card_height)
    w, h = cfg.size
    roll = rng.choice([0.0, 90.0, 180.0, 270.0], p=[0.7, 0.1, 0.1, 0.1]) + rng.normal(0, 8)
    offset = rng.normal(0, 0.01, 2) * (w, h)
    return make_camera(
        cfg.size,
        card_height_px=rng.uniform(*fraction) * h,
        tilt_deg=rng.uniform(0, cfg.tilt_max_deg),
        azimuth_deg=rng.uniform(0, 360),
        roll_deg=float(roll),
        fov_deg=rng.uniform(*cfg.fov_deg),
        card_height_mm=CARD_HEIGHT_MM,
        principal_offset=(float(offset[0]), float(offset[1])),
    )


def _lay_cards(
    rng: np.random.Generator, cfg: SceneConfig, layout: str, camera: Camera, size_mm: tuple[float, float]
) -> list[Placement]:
    """Draw distinct cards (plus backs and maybe a blank) and lay them out, often squared to the camera."""
    lo, hi = CARD_COUNTS[layout]
    n = int(rng.integers(lo, hi + 1))
    labels: list[str] = [CODES[i] for i in rng.choice(len(CODES), n, replace=False)]
    if layout == "whole-mat":
        labels += [BACK] * int(rng.integers(3, 9))  # the stock
    elif layout != "single":
        for _ in range(int(rng.binomial(n, cfg.back_probability))):
            labels.insert(int(rng.integers(len(labels) + 1)), BACK)
    if rng.random() < cfg.blank_probability:
        labels.insert(int(rng.integers(len(labels) + 1)), BLANK)
    rules = LayoutRules(
        size_mm, cfg.free_rotation, cfg.upside_down, cfg.jitter_deg, cfg.touch, cfg.overlap, cfg.edge_cut
    )
    centre, right = camera.to_table(
        np.array([[cfg.size[0] / 2, cfg.size[1] / 2], [cfg.size[0] / 2 + 10, cfg.size[1] / 2]])
    )
    squared = np.arctan2(right[1] - centre[1], right[0] - centre[0]) + np.pi / 2 * int(rng.integers(4))
    base = squared + np.radians(rng.normal(0, 4)) if rng.random() < 0.6 else rng.uniform(0, 2 * np.pi)
    return LAYOUTS[layout](rng, labels, camera.visible_table(), rules, float(base))


def _place_props(
    rng: np.random.Generator,
    cfg: SceneConfig,
    camera: Camera,
    art: StyleArt,
    deck: DeckPrint,
    quads: list[np.ndarray],
    image: np.ndarray,
    gloss: np.ndarray,
    index_map: np.ndarray,
    look: Look,
) -> list[Prop]:
    """Objects on the table (mostly where there is room, sometimes on cards), then a hand reaching for a card;
    both hide what is under them in the index map."""
    region = camera.visible_table(margin=-20.0)
    wanted: list[tuple[str, np.ndarray]] = []
    if rng.random() < cfg.props:
        taken = [camera.to_table(q).mean(axis=0) for q in quads]
        for _ in range(int(rng.integers(1, cfg.max_props + 1))):
            u, v = rng.random((2, 6))
            spots = region[0] + u[:, None] * (region[1] - region[0]) + v[:, None] * (region[3] - region[0])
            if rng.random() < 0.75 and taken:  # people put things down where there is room
                room = [min(float(np.linalg.norm(t - spot)) for t in taken) for spot in spots]
                spots = spots[np.argsort(room)]
            wanted.append((pick(rng, cfg.prop_kinds), spots[-1]))
            taken.append(spots[-1])
    if rng.random() < cfg.hands:
        target = region.mean(axis=0)
        if quads:  # a fingertip lands near the edge of a card
            quad = quads[int(rng.integers(len(quads)))]
            k = int(rng.integers(4))
            target = camera.to_table((quad[k] + (quad[(k + 1) % 4] - quad[k]) * rng.uniform(0, 1))[None, :])[0]
        wanted.append(("hand", target))
    props = []
    for kind, where in wanted:
        layer, prop = (hand if kind == "hand" else OBJECTS[kind])(rng, camera, where, art, deck)
        too_close = layer.height_mm > 0.4 * camera.height
        if too_close or frame_area_of(prop.polygon, image.shape) > 0.6 * image.shape[0] * image.shape[1]:
            continue  # a close-up: the thing would hide the whole table or reach up to the lens
        composite(image, gloss, layer, look, camera.scale_at(where))
        mark_prop(index_map, layer)
        props.append(prop)
    return props
