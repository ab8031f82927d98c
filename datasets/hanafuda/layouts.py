"""Where cards lie on the table (in millimetres): scattered, in rows, in fanned piles, a whole mat, one big card.

Layouts only decide positions and angles in draw order (bottom first); the scene turns them into pixels.
A card's angle turns its printed "up" clockwise as seen from above; angle pi is a card lying upside down.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass
class Placement:
    """One card on the table: its label, centre (mm), angle (rad) and how far above the table its face sits."""

    label: str
    centre: np.ndarray
    angle: float
    lift: float = 0.0


@dataclass(frozen=True)
class LayoutRules:
    """The knobs layouts read (a subset of the scene config)."""

    card_size: tuple[float, float]  # (width, height) mm
    free_rotation: float  # probability that a scattered card lies at any angle rather than roughly aligned
    upside_down: float  # probability that a card lies turned by 180 degrees
    jitter_deg: float  # how carelessly aligned cards are laid
    touch: float  # probability that a card is laid edge to edge with another
    overlap: float  # probability that scattered cards may overlap a little
    edge_cut: float  # probability that a card may hang over the frame edge


def card_corners(centre: np.ndarray, angle: float, size: tuple[float, float]) -> np.ndarray:
    """(4, 2) table corners: the card's own top-left, top-right, bottom-right, bottom-left."""
    w, h = size
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return local @ _rot(angle).T + centre


def _rot(angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s], [s, c]])


def overlap_area(a: np.ndarray, b: np.ndarray) -> float:
    """Area shared by two convex quads (mm²)."""
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(area)


def _inside(region: np.ndarray, point: np.ndarray, margin: float = 0.0) -> bool:
    return cv2.pointPolygonTest(region.astype(np.float32), (float(point[0]), float(point[1])), True) >= margin


def _aligned_angle(rng: np.random.Generator, base: float, rules: LayoutRules) -> float:
    flip = np.pi if rng.random() < rules.upside_down else 0.0
    return base + flip + np.radians(rng.normal(0, rules.jitter_deg))


def _into_region(
    rng: np.random.Generator, group: list[Placement], region: np.ndarray, spread: float
) -> list[Placement]:
    """Move a layout built around the origin to near the middle of the visible region."""
    shift = region.mean(axis=0) + rng.uniform(-spread, spread, 2) * np.ptp(region, axis=0)
    for p in group:
        p.centre = p.centre + shift
    return group


def scattered(
    rng: np.random.Generator, labels: Sequence[str], region: np.ndarray, rules: LayoutRules, base: float
) -> list[Placement]:
    """Cards dropped on the table: loose positions, some edge to edge, a few overlapping."""
    size = rules.card_size
    card_area = size[0] * size[1]
    max_overlap = rng.uniform(0.05, 0.35) if rng.random() < rules.overlap else 0.0
    margin = -0.3 * size[1] if rng.random() < rules.edge_cut else 0.55 * size[1]
    lo, hi = region.min(axis=0), region.max(axis=0)
    placed: list[Placement] = []
    corners: list[np.ndarray] = []
    for label in labels:
        for _ in range(40):
            if placed and rng.random() < rules.touch:
                centre, angle = _touching(rng, placed[int(rng.integers(len(placed)))], rules)
            else:
                centre = rng.uniform(lo, hi)
                if rng.random() < rules.free_rotation:
                    angle = rng.uniform(0, 2 * np.pi)
                else:
                    angle = _aligned_angle(rng, base + np.pi / 2 * int(rng.random() < 0.15), rules)
            if not _inside(region, centre, margin):
                continue
            quad = card_corners(centre, angle, size)
            if _worst_overlap(quad, corners) <= max_overlap * card_area + 0.5:
                placed.append(Placement(label, centre, angle))
                corners.append(quad)
                break
    return placed


def _worst_overlap(quad: np.ndarray, others: list[np.ndarray]) -> float:
    """Largest area ``quad`` shares with any of ``others``; cards far apart are ruled out by distance first."""
    if not others:
        return 0.0
    centres = np.array([o[0] + o[2] for o in others]) / 2
    reach = float(np.linalg.norm(quad[2] - quad[0]))  # two cards this far apart cannot touch
    near = np.flatnonzero(np.hypot(*(centres - (quad[0] + quad[2]) / 2).T) < reach)
    return max((overlap_area(quad, others[i]) for i in near), default=0.0)


def _touching(rng: np.random.Generator, other: Placement, rules: LayoutRules) -> tuple[np.ndarray, float]:
    """A spot edge to edge with ``other`` (a hair apart or a hair over), nearly parallel to it."""
    w, h = rules.card_size
    gap = rng.uniform(-0.6, 1.0)
    side = int(rng.integers(4))
    offset = [
        np.array([w + gap, 0.0]),
        np.array([-(w + gap), 0.0]),
        np.array([0.0, h + gap]),
        np.array([0.0, -(h + gap)]),
    ][side]
    offset = offset + np.array([0.0, rng.normal(0, h * 0.12)] if side < 2 else [rng.normal(0, w * 0.12), 0.0])
    centre = other.centre + _rot(other.angle) @ offset
    angle = other.angle + np.radians(rng.normal(0, 2.0)) + (np.pi if rng.random() < rules.upside_down else 0.0)
    return centre, angle


def rows(
    rng: np.random.Generator, labels: Sequence[str], region: np.ndarray, rules: LayoutRules, base: float
) -> list[Placement]:
    """The koi-koi field: one to three rows, cards edge to edge or with small gaps."""
    w, h = rules.card_size
    n_rows = max(int(rng.integers(1, 4)) if len(labels) > 4 else 1, int(np.ceil(len(labels) / 8)))
    per_row = int(np.ceil(len(labels) / n_rows))
    gap = rng.uniform(-0.4, 0.6) if rng.random() < rules.touch else rng.uniform(1.0, 12.0)
    row_gap = rng.uniform(-0.4, 0.6) if rng.random() < rules.touch * 0.5 else rng.uniform(2.0, 25.0)
    group = []
    for i, label in enumerate(labels):
        r, c = divmod(i, per_row)
        local = np.array([(c - (per_row - 1) / 2) * (w + gap), (r - (n_rows - 1) / 2) * (h + row_gap)])
        local += rng.normal(0, 0.6, 2)
        group.append(Placement(label, _rot(base) @ local, _aligned_angle(rng, base, rules)))
    return _into_region(rng, group, region, spread=0.12 if rng.random() > rules.edge_cut else 0.3)


def fanned_pile(
    rng: np.random.Generator, labels: Sequence[str], rules: LayoutRules, step: float, vertical: bool, angle: float
) -> list[Placement]:
    """A captured pile: each card laid over the previous one, shifted so ``step`` of its face stays visible."""
    w, h = rules.card_size
    out = []
    for i, label in enumerate(labels):
        along = np.array([0.0, i * step * h]) if vertical else np.array([i * step * w, 0.0])
        along += rng.normal(0, 0.8, 2)
        a = (
            angle
            + np.radians(rng.normal(0, rules.jitter_deg * 0.6))
            + (np.pi if rng.random() < rules.upside_down else 0)
        )
        out.append(Placement(label, _rot(angle) @ along, a))
    return out


def piles(
    rng: np.random.Generator, labels: Sequence[str], region: np.ndarray, rules: LayoutRules, base: float
) -> list[Placement]:
    """Captured piles side by side: fanned so that each card shows 40-60% of its face."""
    w, h = rules.card_size
    count = int(np.clip(rng.integers(1, 5), np.ceil(len(labels) / 8), max(len(labels) // 2, 1)))
    order = rng.permutation(len(labels))  # piles of about equal size (a captured pile rarely exceeds 8 cards)
    groups = [[labels[i] for i in sorted(chunk)] for chunk in np.array_split(order, count)]
    vertical = rng.random() < 0.25  # fanned along the card's height instead of its width
    placed: list[Placement] = []
    cursor = 0.0
    for group in groups:
        pile = fanned_pile(rng, group, rules, rng.uniform(0.4, 0.6), vertical, base + np.radians(rng.normal(0, 3)))
        across = np.array([cursor, 0.0]) if vertical else np.array([0.0, cursor])
        for p in pile:
            p.centre = p.centre + _rot(base) @ across
        placed.extend(pile)
        cursor += (w if vertical else h) + rng.uniform(3, 20)
    centre = np.mean([p.centre for p in placed], axis=0)
    for p in placed:
        p.centre = p.centre - centre
    return _into_region(rng, placed, region, spread=0.1 if rng.random() > rules.edge_cut else 0.25)


def whole_mat(
    rng: np.random.Generator, labels: Sequence[str], region: np.ndarray, rules: LayoutRules, base: float
) -> list[Placement]:
    """A whole koi-koi table: the field in two rows, the stock of backs beside it, both players' fanned captures."""
    w, h = rules.card_size
    faces = [x for x in labels if x not in ("back", "blank")]
    stock = [x for x in labels if x in ("back", "blank")]
    n_field = min(int(rng.integers(8, 13)), len(faces))
    field, captured = faces[:n_field], faces[n_field:]
    gap = rng.uniform(-0.3, 0.5) if rng.random() < rules.touch else rng.uniform(2.0, 10.0)
    per_row = (n_field + 1) // 2
    placed = []
    for i, label in enumerate(field):
        r, c = divmod(i, per_row)
        local = np.array([(c - (per_row - 1) / 2) * (w + gap), (r - 0.5) * (h + rng.uniform(3, 12))])
        placed.append(Placement(label, _rot(base) @ (local + rng.normal(0, 0.6, 2)), _aligned_angle(rng, base, rules)))
    field_half = per_row * (w + gap) / 2
    stock_at = np.array([-(field_half + w * rng.uniform(0.8, 1.6)), rng.normal(0, 8)])
    for label in stock:
        angle = base + np.radians(rng.normal(0, 3)) + np.pi * (rng.random() < 0.5)
        placed.append(Placement(label, _rot(base) @ (stock_at + rng.normal(0, 1.2, 2)), angle))
    halves = [captured[: len(captured) // 2], captured[len(captured) // 2 :]]
    for side, cards in zip((-1.0, 1.0), halves, strict=True):
        if not cards:
            continue
        x = -field_half - rng.uniform(0, 30)
        y = side * (h * rng.uniform(1.8, 2.6))
        for chunk in np.array_split(np.array(cards, dtype=object), min(4, len(cards))):
            step = rng.uniform(0.4, 0.6)
            pile = fanned_pile(rng, list(chunk), rules, step, False, base)
            for p in pile:
                p.centre = p.centre + _rot(base) @ np.array([x + w / 2, y + rng.normal(0, 3)])
            placed.extend(pile)
            x += (len(chunk) - 1) * step * w + w + rng.uniform(8, 35)
    return _into_region(rng, placed, region, spread=0.04)


def single(
    rng: np.random.Generator, labels: Sequence[str], region: np.ndarray, rules: LayoutRules, base: float
) -> list[Placement]:
    """One card big in the frame, perhaps with a neighbour peeking in."""
    angle = rng.uniform(0, 2 * np.pi) if rng.random() < rules.free_rotation else _aligned_angle(rng, base, rules)
    main = Placement(labels[0], region.mean(axis=0) + rng.normal(0, 0.05, 2) * np.ptp(region, axis=0), angle)
    out = [main]
    for label in labels[1:]:
        centre, a = _touching(rng, main, rules)
        out.insert(0, Placement(label, centre + rng.normal(0, 5, 2), a))
    return out


Layout = Callable[[np.random.Generator, Sequence[str], np.ndarray, LayoutRules, float], list[Placement]]
LAYOUTS: dict[str, Layout] = {
    "scattered": scattered,
    "rows": rows,
    "piles": piles,
    "whole-mat": whole_mat,
    "single": single,
}
# How many face-up cards each layout shows: (low, high) inclusive.
CARD_COUNTS: dict[str, tuple[int, int]] = {
    "scattered": (3, 16),
    "rows": (4, 16),
    "piles": (5, 24),
    "whole-mat": (30, 48),
    "single": (1, 3),
}


def stack_lifts(placements: list[Placement], size: tuple[float, float], thickness: float) -> None:
    """Give each card the height of the cards below it, so piles stand up towards the camera."""
    quads = [card_corners(p.centre, p.angle, size) for p in placements]
    centres = np.array([p.centre for p in placements]).reshape(-1, 2)
    reach = float(np.hypot(*size))
    levels: list[int] = []
    for i, quad in enumerate(quads):
        near = np.flatnonzero(np.hypot(*(centres[:i] - centres[i]).T) < reach)
        below = [levels[j] + 1 for j in near if overlap_area(quad, quads[j]) > 1.0]
        levels.append(max(below, default=0))
        placements[i].lift = levels[-1] * thickness
