"""Walls of tiles laid out again: tiles side by side, split evenly across the block they make.

Tiles stood side by side in a wall (or a hand turned down) are alike, long side by long side, and the refiner sees
little to tell one column from the next: its quads lie a little across the seams, two of them lean onto one column and
leave the next with none, and the look beside the found tiles then finds no room there (README, *Domino vision*,
session 39). The wall as a whole is plain to see, though. ``side_by_side`` finds the groups of quads lying long side by
long side; ``wall_layouts`` splits the block a group covers into as many equal columns as the tiles' width says it
holds, and one fewer and one more. The recogniser (``DominoRecognizer._walls_laid``) keeps a layout only where the
refiner calls each column a tile, leaves it in place and is sure of them on the whole, and every column reads face down.
"""

from __future__ import annotations

import numpy as np

from vision.dominoes.lines import COLLINEAR, linked_groups, tile_frames
from vision.geometry import order_quads

LENGTHS_APART = 1.33  # two tiles side by side: the longer at most this many times as long as the other
ALONG = 0.5  # one's centre off the other's across its length, in lengths, at most
ACROSS = (0.4, 1.6)  # and their centres apart across, in their mean width: a quad may lean onto its neighbour


def side_by_side(quads: list[np.ndarray]) -> list[list[int]]:
    """Groups of two or more of ``quads`` linked by pairs lying long side by long side (parallel: ``COLLINEAR``, of a
    length: ``LENGTHS_APART``, level: ``ALONG``, beside each other: ``ACROSS``), as index lists."""
    if len(quads) < 2:
        return []
    centres, units, lengths, widths = tile_frames(order_quads(np.asarray(quads, np.float32).reshape(-1, 4, 2)))
    gap = centres[None] - centres[:, None]  # [a, b]: from a's centre to b's
    along = np.abs(np.einsum("abd,ad->ab", gap, units))
    across = np.abs(gap[..., 0] * units[:, None, 1] - gap[..., 1] * units[:, None, 0])
    mean_width = (widths[:, None] + widths[None]) / 2
    ratio = lengths[:, None] / np.maximum(lengths[None], 1e-6)
    linked = ((np.abs(units @ units.T) >= COLLINEAR) & (ratio <= LENGTHS_APART) & (ratio >= 1 / LENGTHS_APART)
              & (along <= ALONG * lengths[:, None]) & (across >= ACROSS[0] * mean_width)
              & (across <= ACROSS[1] * mean_width))
    return [members for members in linked_groups(np.triu(linked, 1)) if len(members) >= 2]


def wall_layouts(quads: list[np.ndarray]) -> list[np.ndarray]:
    """The ways the block round ``quads`` (a group of ``side_by_side``, as they lie) may hold tiles side by side: split
    across into n equal columns (n x 4 x 2, ordered), n the block's width over the quads' median width, and one
    fewer and one more, never fewer than the quads nor than two."""
    ordered = order_quads(np.asarray(quads, np.float32).reshape(-1, 4, 2))
    _, units, _, widths = tile_frames(ordered)
    unit = np.median(units * np.sign(units @ units[0])[:, None], axis=0)
    unit /= max(float(np.linalg.norm(unit)), 1e-6)
    normal = np.array([-unit[1], unit[0]], np.float32)
    points = ordered.reshape(-1, 2)
    on, off = points @ unit, points @ normal
    count = round(float(off.max() - off.min()) / max(float(np.median(widths)), 1e-6))
    layouts = []
    for n in (count - 1, count, count + 1):
        if n < max(len(quads), 2):
            continue
        edges = np.linspace(off.min(), off.max(), n + 1)
        columns = np.array([[unit * on.min() + normal * edges[k], unit * on.min() + normal * edges[k + 1],
                             unit * on.max() + normal * edges[k + 1], unit * on.max() + normal * edges[k]]
                            for k in range(n)], np.float32)
        layouts.append(order_quads(columns))
    return layouts
