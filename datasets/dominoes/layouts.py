"""Where tiles lie on the table (millimetres): scattered, a line of play, a player's turned-over row, a wall.

Layouts decide positions, angles and heights in draw order (bottom first). A tile's angle turns its top half's
direction clockwise from "up" (table -y), as ``card_corners`` does for cards; its top half holds ``top`` pips.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from datasets.hanafuda.layouts import card_corners, overlap_area

Face = tuple[int, int]


@dataclass
class TilePlacement:
    top: int
    bottom: int
    face_up: bool
    centre: np.ndarray
    angle: float
    lift: float = 0.0


Layout = Callable[[np.random.Generator, Sequence[Face], np.ndarray, tuple[float, float], float], list[TilePlacement]]


def _inside(region: np.ndarray, point: np.ndarray, margin: float) -> bool:
    return cv2.pointPolygonTest(region.astype(np.float32), (float(point[0]), float(point[1])), True) >= margin


def _angle_towards(direction: np.ndarray) -> float:
    """The angle that points a tile's top half towards ``-direction`` (its bottom half leads)."""
    return float(np.arctan2(-direction[0], direction[1]))


def _unit(angle: float) -> np.ndarray:
    return np.array([np.cos(angle), np.sin(angle)])


def scattered(
    rng: np.random.Generator, faces: Sequence[Face], region: np.ndarray, size: tuple[float, float], base: float,
    around: Sequence[TilePlacement] = (), down: float | None = None,
) -> list[TilePlacement]:
    """Tiles dropped on the table at any angle, some face down, never on top of each other (nor on ``around``)."""
    lo, hi = region.min(axis=0), region.max(axis=0)
    placed: list[TilePlacement] = []
    quads = [card_corners(p.centre, p.angle, (size[0] + 2, size[1] + 2)) for p in around]
    down = rng.uniform(0, 0.3) if down is None else down
    for top, bottom in faces:
        for _ in range(40):
            centre = rng.uniform(lo, hi)
            angle = rng.uniform(0, 2 * np.pi) if rng.random() < 0.6 else base + np.pi / 2 * int(rng.integers(4))
            if not _inside(region, centre, 0.6 * size[1]):
                continue
            quad = card_corners(centre, angle, (size[0] + 2, size[1] + 2))
            if all(overlap_area(quad, q) < 0.5 for q in quads):
                placed.append(TilePlacement(top, bottom, bool(rng.random() >= down), centre, angle))
                quads.append(quad)
                break
    return placed


def chain(
    rng: np.random.Generator, faces: Sequence[Face], region: np.ndarray, size: tuple[float, float], base: float
) -> list[TilePlacement]:
    """A line of play: tiles end to end, matching numbers where the faces allow, doubles laid across, turning
    a corner where the table runs out."""
    w, h = size
    pool = list(faces)
    first = pool.pop(0)
    direction = _unit(base + np.pi / 2 * int(rng.integers(4)))
    start = region.mean(axis=0) - direction * rng.uniform(0.5, 2.5) * h + rng.normal(0, 0.3 * h, 2)
    placed: list[TilePlacement] = []
    end, open_number, face = start, first[1], first
    turns = 0
    while True:
        gap = rng.uniform(0.0, 0.8)
        double = face[0] == face[1] and placed and rng.random() < 0.7
        reach = w if double else h
        centre = end + direction * (gap + reach / 2)
        angle = _angle_towards(direction) + (np.pi / 2 if double else 0.0)
        if not _inside(region, centre + direction * reach / 2, 2.0):
            if turns >= 2 or not placed:
                break
            turns += 1
            last = placed[-1]
            side = 1 if rng.random() < 0.5 else -1
            new = np.array([-direction[1], direction[0]]) * side
            if not _inside(region, last.centre + new * 2.5 * h, 0.0):
                new = -new
            last_along = h / 2 if abs(np.dot(_unit(last.angle - np.pi / 2), direction)) > 0.7 else w / 2
            last_across = w / 2 if last_along == h / 2 else h / 2
            centre = last.centre + direction * (last_along - w / 2) + new * (last_across + gap + h / 2)
            direction, angle, reach = new, _angle_towards(new), h
            if not _inside(region, centre + direction * h / 2, 2.0):
                break
        top, bottom = (face if face[0] == open_number or face[1] != open_number else face[::-1])
        placed.append(TilePlacement(top, bottom, True, centre, angle))
        open_number = bottom
        end = centre + direction * reach / 2
        if not pool:
            break
        matching = [i for i, f in enumerate(pool) if open_number in f]
        face = pool.pop(matching[int(rng.integers(len(matching)))] if matching else 0)
    return placed


def _side_by_side(
    rng: np.random.Generator, faces: Sequence[Face], centre: np.ndarray, size: tuple[float, float], angle: float,
    face_up: bool, lift: float = 0.0,
) -> list[TilePlacement]:
    """Tiles in a row with their long sides touching (a hair apart), centred on ``centre``."""
    w, _ = size
    across = _unit(angle)
    step = w + rng.uniform(0.5, 1.5)
    offsets = (np.arange(len(faces)) - (len(faces) - 1) / 2) * step
    jitter = np.radians(rng.normal(0, 0.4, len(faces)))
    flips = rng.random(len(faces)) < 0.5
    return [
        TilePlacement(top, bottom, face_up, centre + across * o + rng.normal(0, 0.3, 2),
                      angle + float(j) + (np.pi if flip else 0.0), lift)
        for (top, bottom), o, j, flip in zip(faces, offsets, jitter, flips, strict=True)
    ]


def row(
    rng: np.random.Generator, faces: Sequence[Face], region: np.ndarray, size: tuple[float, float], base: float
) -> list[TilePlacement]:
    """A player's tiles turned over for counting: one row, long sides touching."""
    faces = faces[:8]
    angle = base + np.radians(rng.normal(0, 5))
    centre = region.mean(axis=0) + rng.normal(0, 0.2 * size[1], 2)
    return _side_by_side(rng, faces, centre, size, angle, True)


def wall(
    rng: np.random.Generator, faces: Sequence[Face], region: np.ndarray, size: tuple[float, float], base: float,
    thickness: float = 8.0,
) -> list[TilePlacement]:
    """The wall: stacks of two face-down tiles side by side; only the upper layer shows its back."""
    n = min(len(faces) // 2, 8)
    angle = base + np.radians(rng.normal(0, 3))
    centre = region.mean(axis=0) + rng.normal(0, 0.2 * size[1], 2)
    lower = _side_by_side(rng, faces[:n], centre, size, angle, False)
    upper = _side_by_side(rng, faces[n : 2 * n], centre, size, angle, False, lift=thickness)
    return lower + upper


LAYOUTS: dict[str, Layout] = {"scattered": scattered, "chain": chain, "row": row, "wall": wall}
