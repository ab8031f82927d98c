"""Classifier crops: each card warped upright from its ground-truth quad, plus hard "not-a-card" examples.

Crops are cut from small rendered scenes (a few cards big in frame, all realism on), never from bare art, so
margins show neighbours, shadows, glare and blur exactly as a finder's quad would. Corners are jittered like
an imperfect finder and half of all crops are turned 180 degrees (a card upside down is the same card).
Chunks of crops are seeded by (seed, chunk) so the result does not depend on how many workers made it.
"""

from __future__ import annotations

import json
import multiprocessing
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from datasets.hanafuda.art import CODES, STYLES, TRAIN_STYLES
from datasets.hanafuda.canvas import turn
from datasets.hanafuda.config import SceneConfig, preset
from datasets.hanafuda.scenes import BACK, BLANK, Scene, render_scene

NOT_A_CARD = "not-a-card"
CLASSES = (*CODES, BACK, BLANK, NOT_A_CARD)
SOURCES = ("card", "partial", "cut", "background", "straddle", "object", "box-art")
CHUNK = 256


@dataclass(frozen=True)
class CropRules:
    """Which crops a scene gives and how they are labelled."""

    jitter: float = 0.03  # corner noise as a fraction of the card's height (finder error)
    views: int = 2  # crops cut per named card, each with its own jitter and turn (rendering costs more than cutting)
    flip: float = 0.5  # probability of presenting a crop turned by 180 degrees
    label_min_visible: float = 0.4  # a card not cut by the frame is named when this much of its face shows
    reject_max_visible: float = 0.25  # a card showing less than this (or cut and under 0.6) is not-a-card
    negatives: float = 0.2  # target share of not-a-card crops
    keep_partial: float = 0.3  # share of mostly hidden or cut cards kept as not-a-card (they are plentiful)
    # synthetic negatives besides the art on every card box in view
    negative_kinds: tuple[tuple[str, float], ...] = (("background", 0.35), ("straddle", 0.4), ("object", 0.25))


@dataclass(frozen=True)
class CropSet:
    """Crops and their truth: ``labels`` are in ``CLASSES``; ``visible`` is the share of the face the crop's
    card shows (0 for crops not cut around a card); ``sources`` says how each crop was made."""

    images: np.ndarray  # (N, H, W, 3) uint8 BGR
    labels: tuple[str, ...]
    visible: np.ndarray  # (N,) float32
    sources: tuple[str, ...]

    def __post_init__(self) -> None:
        n = len(self.labels)
        if self.images.ndim != 4 or self.images.shape[0] != n or self.images.shape[3] != 3:
            raise ValueError(f"crop images must be N x H x W x 3 with one label each, got {self.images.shape}, {n}")
        if self.images.dtype != np.uint8 or self.visible.shape != (n,) or len(self.sources) != n:
            raise ValueError("crop images must be uint8 and visible/sources must have one entry per crop")
        bad = sorted({x for x in self.labels if x not in CLASSES} | {s for s in self.sources if s not in SOURCES})
        if bad:
            raise ValueError(f"unknown crop labels or sources: {bad}")


def crop_quad(image: np.ndarray, quad: np.ndarray, size: tuple[int, int], replicate: bool = False) -> np.ndarray:
    """Warp the quad (top-left, top-right, bottom-right, bottom-left) to an upright ``size`` = (W, H) crop."""
    w, h = size
    dst = np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]], np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
    border = cv2.BORDER_REPLICATE if replicate else cv2.BORDER_CONSTANT
    return cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=border)


def crops_from_scene(
    rng: np.random.Generator, scene: Scene, size: tuple[int, int], rules: CropRules | None = None
) -> list[tuple[np.ndarray, str, float, str]]:
    """(crop, label, visible, source) for every usable card of ``scene``, the art on every card box in view
    (the hardest negative there is), and synthetic negatives up to the rules' share."""
    rules = rules or CropRules()
    out: list[tuple[np.ndarray, str, float, str]] = []
    negatives = 0
    for label, quad, vis, cut in zip(scene.labels, scene.quads, scene.visible, scene.cut, strict=True):
        if vis >= rules.label_min_visible and not cut:
            out.extend((_cut(rng, scene, quad, size, rules), label, float(vis), "card") for _ in range(rules.views))
        elif (vis <= rules.reject_max_visible or (cut and vis < 0.6)) and rng.random() < rules.keep_partial * (
            1.0 if vis > 0.02 else 0.3  # wholly hidden cards are mostly other cards' faces: fewer of those
        ):
            out.append((_cut(rng, scene, quad, size, rules), NOT_A_CARD, float(vis), "cut" if cut else "partial"))
            negatives += 1
    for art in _box_art(scene):  # as many views as a card gets: it must never pass for one
        out.extend((_cut(rng, scene, art, size, rules), NOT_A_CARD, 0.0, "box-art") for _ in range(rules.views))
        negatives += rules.views
    positives = len(out) - negatives
    wanted = positives * rules.negatives / max(1.0 - rules.negatives, 1e-6) - negatives
    count = int(wanted) + int(rng.random() < wanted - int(wanted)) if wanted > 0 else 0
    kinds = [k for k, _ in rules.negative_kinds]
    weights = np.array([w for _, w in rules.negative_kinds], np.float64)
    for _ in range(count):
        kind = kinds[int(rng.choice(len(kinds), p=weights / weights.sum()))]
        made = _negative_quad(rng, scene, kind)
        if made is not None:
            out.append((_cut(rng, scene, made[0], size, rules), NOT_A_CARD, 0.0, made[1]))
    return out


def _box_art(scene: Scene) -> list[np.ndarray]:
    """Quads of the card art printed on card boxes whose art is in the frame."""
    h, w = scene.image.shape[:2]
    arts = [p.art_quad for p in scene.props if p.art_quad is not None]
    return [a.astype(np.float64) for a in arts if _in_frame(a.mean(axis=0), w, h)]


def _cut(
    rng: np.random.Generator, scene: Scene, quad: np.ndarray, size: tuple[int, int], rules: CropRules
) -> np.ndarray:
    """Jitter the corners like a finder would, maybe turn by 180 degrees, and warp."""
    height = float(np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    sigma = rules.jitter * height
    noisy = quad + np.clip(rng.normal(0, sigma, (4, 2)), -2.5 * sigma, 2.5 * sigma) + rng.normal(0, sigma * 0.5, 2)
    if rng.random() < rules.flip:
        noisy = np.roll(noisy, 2, axis=0)
    return crop_quad(scene.image, noisy, size, replicate=bool(rng.random() < 0.5))


def _negative_quad(rng: np.random.Generator, scene: Scene, kind: str) -> tuple[np.ndarray, str] | None:
    """A card-sized quad that frames no single card (bare table, two half cards, an object) and the kind it
    really is (a scene without objects falls back to bare table)."""
    if len(scene.labels) == 0:
        return None
    h, w = scene.image.shape[:2]
    ref = scene.quads[int(rng.integers(len(scene.labels)))].astype(np.float64)
    shape = ref - ref.mean(axis=0)
    if kind == "straddle":
        axis = (ref[1] - ref[0]) if rng.random() < 0.6 else (ref[3] - ref[0])
        return ref + axis * rng.uniform(0.4, 0.6) * rng.choice([-1.0, 1.0]), kind
    things = [p for p in scene.props if _in_frame(p.polygon.mean(axis=0), w, h)]
    if kind == "object" and things:
        poly = things[int(rng.integers(len(things)))].polygon
        centre = poly[int(rng.integers(len(poly)))] * 0.5 + poly.mean(axis=0) * 0.5
        quad = turn(shape, rng.uniform(0, 2 * np.pi)) + centre
        return (quad, "object") if _card_share(scene, quad) < 0.5 else None
    for _ in range(8):
        quad = turn(shape, rng.uniform(0, 2 * np.pi)) + rng.uniform([0, 0], [w, h])
        if _card_share(scene, quad) < 0.3:
            return quad, "background"
    return None


def _in_frame(point: np.ndarray, w: int, h: int) -> bool:
    return bool(0 <= point[0] < w and 0 <= point[1] < h)


def _card_share(scene: Scene, quad: np.ndarray) -> float:
    """Share of the quad's in-frame pixels that show some card (one card or several)."""
    mask = np.zeros(scene.index_map.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad * 16).astype(np.int32), 1, cv2.LINE_8, shift=4)
    inside = mask.astype(bool)
    total = int(inside.sum())
    return float((scene.index_map[inside] >= 0).sum() / total) if total else 1.0


def crop_scene_config(styles: tuple[str, ...] = TRAIN_STYLES) -> SceneConfig:
    """The small scenes crops are cut from (the ``crops`` preset)."""
    return preset("crops", styles=tuple(styles))


def _render_chunk(args: tuple[int, int, int, tuple[int, int], CropRules, SceneConfig]) -> CropSet:
    seed, chunk, count, size, rules, config = args
    if multiprocessing.parent_process() is not None:
        cv2.setNumThreads(1)  # one worker per core: OpenCV's own threads would only fight over them
    rng = np.random.default_rng([seed, chunk])
    items: list[tuple[np.ndarray, str, float, str]] = []
    while len(items) < count:
        scene = render_scene(rng, config)
        items.extend(crops_from_scene(rng, scene, size, rules))
    items = items[:count]
    return CropSet(
        images=np.stack([x[0] for x in items]) if items else np.zeros((0, size[1], size[0], 3), np.uint8),
        labels=tuple(x[1] for x in items),
        visible=np.array([x[2] for x in items], np.float32),
        sources=tuple(x[3] for x in items),
    )


def render_crop_set(
    n: int,
    seed: int,
    styles: tuple[str, ...] | list[str] = TRAIN_STYLES,
    size: tuple[int, int] = (48, 80),
    rules: CropRules | None = None,
    config: SceneConfig | None = None,
    workers: int = 1,
) -> CropSet:
    """``n`` crops of ``size`` = (W, H) with labels, visible fractions and sources; same seed, same crops."""
    styles = tuple(styles)
    bad = [s for s in styles if s not in STYLES]
    if bad or not styles:
        raise ValueError(f"unknown art styles {bad}; choose from {', '.join(STYLES)}")
    if n < 0 or size[0] < 8 or size[1] < 8:
        raise ValueError(f"need n >= 0 and a crop size of at least 8x8, got n={n}, size={size}")
    config = replace(config, styles=styles) if config is not None else crop_scene_config(styles)
    rules = rules or CropRules()
    jobs = [(seed, k, min(CHUNK, n - k * CHUNK), size, rules, config) for k in range((n + CHUNK - 1) // CHUNK)]
    if workers > 1 and len(jobs) > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            parts = pool.map(_render_chunk, jobs)
    else:
        parts = [_render_chunk(job) for job in jobs]
    if not parts:
        return _render_chunk((seed, 0, 0, size, rules, config))
    return CropSet(
        images=np.concatenate([p.images for p in parts]),
        labels=tuple(x for p in parts for x in p.labels),
        visible=np.concatenate([p.visible for p in parts]),
        sources=tuple(x for p in parts for x in p.sources),
    )


def render_crops(
    n: int, seed: int, styles: tuple[str, ...] | list[str] = TRAIN_STYLES, size: tuple[int, int] = (48, 80)
) -> tuple[np.ndarray, list[str]]:
    """``n`` crops (N x H x W x 3 uint8 BGR) and their labels (48 codes, back, blank, not-a-card)."""
    crops = render_crop_set(n, seed, styles, size)
    return crops.images, list(crops.labels)


INK_SHARE = 0.3  # decks whose black fills are printed in another colour, in ``render_crops_ink``


def render_crops_ink(
    n: int, seed: int, styles: tuple[str, ...] | list[str] = TRAIN_STYLES, size: tuple[int, int] = (48, 80)
) -> tuple[np.ndarray, list[str]]:
    """``render_crops`` with ``INK_SHARE`` of the decks printing their black fills in another colour: the art a
    player's deck was drawn from may fill in green what both training styles fill in black (the held-out style's
    willow and pampas hills). ``train_cards --renderer datasets.hanafuda.crops:render_crops_ink``."""
    config = replace(crop_scene_config(tuple(styles)), ink_recolour=INK_SHARE)
    crops = render_crop_set(n, seed, styles, size, config=config)
    return crops.images, list(crops.labels)


def save_crops(path: Path | str, crops: CropSet, meta: dict[str, object] | None = None) -> None:
    """Write an .npz with images, labels (as class indices and names), visible, sources and a JSON meta."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    index = {name: i for i, name in enumerate(CLASSES)}
    np.savez_compressed(
        path,
        images=crops.images,
        labels=np.array([index[x] for x in crops.labels], np.int16),
        label_names=np.array(crops.labels),
        classes=np.array(CLASSES),
        visible=crops.visible,
        sources=np.array(crops.sources),
        meta=np.array(json.dumps(meta or {})),
    )


def load_crops(path: Path | str) -> CropSet:
    """Read a file written by ``save_crops``."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no crops file at {path}")
    with np.load(path, allow_pickle=False) as data:
        return CropSet(
            images=data["images"],
            labels=tuple(str(x) for x in data["label_names"]),
            visible=data["visible"],
            sources=tuple(str(x) for x in data["sources"]),
        )
