"""Whether blobs found on one half of a tile could be a domino half's pips, or are a print on a face-down tile.

A Chinese tile has pips on both halves (no blanks), so a reading with blobs on one half only is either a face
whose other half was missed or a back with a maker's mark printed on one half (a logo, an asterisk, letters).
The pips of a real half are of one size and lie in one of the canonical layouts (1-6 pips on a 3x3 or 2x3
grid: centred across the tile, point-symmetric about their centre, at most two side by side), of the set's
colours (a lone Chinese pip is the red 1); a print's strokes and letters break one of these. No layout puts a
pip in a corner of the tile either.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

MAX_PIPS = 6  # pips on one half, at most
MAX_SIZE_RATIO = 1.45  # a half's biggest pip over its smallest, at most (the Chinese 1 is alone)
MAX_OFF_CENTRE = 0.07  # the pips' centre from the tile's long middle line, tile widths
MIRROR = 0.12  # how far a pip's mirror image through the pips' centre may lie from a pip, tile widths
CENTRE_COLUMN = 0.08  # a pip this near the pips' centre across the tile is in the middle column, tile widths
COLUMN_SPREAD = 0.08  # the side pips' distances from the middle column agree within this, tile widths
ROW = 0.6  # pips closer than this many radii along the tile are side by side (a row holds two at most)
CORNER = 0.16  # no pip's centre lies this near (tile widths) both a side and an end: a rounded corner's shade
CORNER_SIZE = 0.85  # a blob there smaller than this share of the tile's pips is that shade (the shared art's big
# pips may reach into a corner)


@dataclass(frozen=True)
class Blob:
    """A pip as found: its centre (across from the long middle line, along the tile) and radius, all in tile
    widths, and whether it reads red."""

    across: float
    along: float
    radius: float
    red: bool


def canonical_half(blobs: Sequence[Blob], red_pips: bool = True) -> bool:
    """Whether ``blobs`` (one half's sure pips) could be a domino half: 1-6 pips of one size, centred across the
    tile, in a middle column (an odd count holds one there, an even one none or two) and two side columns as far
    out as each other, point-symmetric about their centre, no three side by side; one pip alone must be red
    where the set has ``red_pips`` (a Chinese 1). (Other halves' colours are not checked: a whole face whose quad
    slipped along the tile shows in one half, a 2:2 as four white pips.)"""
    n = len(blobs)
    if not 1 <= n <= MAX_PIPS:
        return False
    at = np.array([(b.across, b.along) for b in blobs], np.float64)
    radii = np.array([b.radius for b in blobs], np.float64)
    if radii.max() > MAX_SIZE_RATIO * radii.min():
        return False
    centre = at.mean(axis=0)
    if abs(centre[0]) > MAX_OFF_CENTRE:
        return False
    if n == 1:
        return blobs[0].red or not red_pips
    off = np.abs(at[:, 0] - centre[0])
    middle = off < CENTRE_COLUMN
    if middle.sum() % 2 != n % 2 or ((~middle).any() and np.ptp(off[~middle]) > COLUMN_SPREAD):
        return False  # pips stand in a middle column and two side columns the same way out
    mirrored = 2 * centre - at
    gaps = np.linalg.norm(mirrored[:, None] - at[None], axis=-1).min(axis=1)
    if gaps.max() > MIRROR:
        return False
    side_by_side = np.abs(at[:, None, 1] - at[None, :, 1]) < ROW * radii.mean()
    return bool(side_by_side.sum(axis=1).max() <= 2)


def in_corner(centre: tuple[float, float], w: int, h: int) -> bool:
    """Whether a blob's centre (crop pixels, crop ``w`` x ``h``) lies in a corner, where layouts put no pip (they
    sit a quarter of the width in from the sides): the shade of a rounded corner, or the table past it, makes a
    speck there."""
    x, y = centre
    near = CORNER * w
    return min(x, w - x) < near and min(y, h - y) < near
