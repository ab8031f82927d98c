"""The shared Chinese tile art (``domino-art/paigow-turtleflyer``): 21 black faces with white and red pips.

``tiles.csv`` names each file's two numbers but not which is drawn on top, so the loader counts the pips of
each half on the picture itself (a pip on the middle line, as in the 3:3, counts half to each side) and checks
the counts against the table. The art stays in the shared folder; it is decoded once per process.
"""

from __future__ import annotations

import csv
import functools
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from datasets.hanafuda.art import shared_data_dir

ART_DIR = ("domino-art", "paigow-turtleflyer")


@dataclass(frozen=True)
class ArtTile:
    top: int
    bottom: int
    image: np.ndarray  # BGRA float32, straight alpha, long side vertical


def _count_halves(image: np.ndarray) -> tuple[int, int]:
    """Pips above and below the middle of a face; pips across the middle are shared out evenly."""
    bright = (image[:, :, :3].max(axis=2) > 0.5) & (image[:, :, 3] > 0.5)
    n, _, stats, centres = cv2.connectedComponentsWithStats(bright.astype(np.uint8), connectivity=8)
    h = image.shape[0]
    big = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] > 0.002 * image.shape[0] * image.shape[1]]
    middle = [i for i in big if abs(centres[i][1] - h / 2) < 0.03 * h]
    top = sum(1 for i in big if i not in middle and centres[i][1] < h / 2)
    bottom = len(big) - len(middle) - top
    return top + len(middle) // 2, bottom + len(middle) - len(middle) // 2


@functools.cache
def load_art(root: Path | None = None) -> tuple[ArtTile, ...]:
    """All 21 faces of the shared art, with the number drawn on each half."""
    folder = (root or shared_data_dir()).joinpath(*ART_DIR)
    table = folder / "tiles.csv"
    if not table.is_file():
        raise FileNotFoundError(f"domino art table not found: {table}")
    tiles = []
    with table.open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            path = folder / row["file"].replace("svg/", "png/").replace(".svg", ".png")
            raw = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
            if raw is None or raw.ndim != 3 or raw.shape[2] != 4:
                raise ValueError(f"{path}: expected a BGRA png")
            image = raw.astype(np.float32) / 255.0
            top, bottom = _count_halves(image)
            expected = sorted((int(row["end_a"]), int(row["end_b"])))
            if sorted((top, bottom)) != expected:
                raise ValueError(f"{path}: counted {top}:{bottom} pips, tiles.csv says {expected[0]}:{expected[1]}")
            tiles.append(ArtTile(top, bottom, image))
    if len(tiles) != 21:
        raise ValueError(f"{table}: expected the 21 Chinese faces, found {len(tiles)}")
    return tuple(tiles)


def art_face(top: int, bottom: int, height: int) -> np.ndarray:
    """The art for the tile ``top:bottom`` resized to ``height`` and turned so that ``top`` is on top."""
    for tile in load_art():
        if (tile.top, tile.bottom) in ((top, bottom), (bottom, top)):
            h, w = tile.image.shape[:2]
            width = max(round(height * w / h), 4)
            sprite = cv2.resize(tile.image, (width, height), interpolation=cv2.INTER_AREA)
            flipped = (tile.top, tile.bottom) != (top, bottom)
            return np.ascontiguousarray(sprite[::-1, ::-1]) if flipped else sprite
    raise ValueError(f"the Chinese art has no {top}:{bottom} tile")
