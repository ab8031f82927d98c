"""Naming the tiles of a frame jointly under the set's rule, as the deck prior does for cards.

Each reading gives every face of the set a likelihood: both halves' counts (a doubtful pip may or may not be
one; a pip more or less is unlikely but possible) and, for a Chinese set, the pip colours (1s and 4s red).
The frame's faces are then the assignment of readings to the set's copies that maximises the product of
likelihoods (``vision.assign.solve_min_cost``): a Chinese set has no blanks, two of each civil tile and one of
each military tile, so a fourth 1:1 in a frame cannot be, and the runner-up reading is taken instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.assign import solve_min_cost
from vision.dominoes.pips import HalfReading, PipReading, TileReading
from vision.dominoes.sets import DominoSet, Face

_MISS = (1.0, 0.04, 0.002, 1e-4, 1e-5, 1e-6, 1e-7)  # likelihood of a count off by 0, 1, 2... pips
_UNKNOWN = 1e-6  # the likelihood of "none of the set" for any reading
_REACH = {True: 0.04, False: 0.2}  # how far past the middle line (tile lengths) a half's pips may lie: divided or not
_DROP = 0.3  # likelihood factor per doubtful pip taken as no pip
_WRONG_COLOUR = 0.05  # a Chinese half of the wrong colour (a red pip among a 2's, a white one among a 4's)
_SPLIT = 0.5  # a split away from the middle line is less likely than one at it


@dataclass(frozen=True)
class Resolved:
    """One reading named: its face as (top, bottom) in the crop's order, and the confidence in it."""

    face: Face | None
    flipped: bool  # the face's lower number is on the crop's bottom half
    confidence: float


def _count_likelihood(half: HalfReading, n: int) -> float:
    low, high = half.count, half.count + half.doubtful
    off = 0 if low <= n <= high else min(abs(n - low), abs(n - high))
    return _MISS[min(off, len(_MISS) - 1)]


def _colour_likelihood(half: HalfReading, expected: float | None) -> float:
    if expected is None or half.count + half.doubtful == 0:
        return 1.0
    return 1.0 if abs(half.red_share - expected) <= 0.34 else _WRONG_COLOUR


def _red_share(pips: Sequence[PipReading]) -> float:
    return sum(p.colour == "red" for p in pips) / max(len(pips), 1)


def _split_likelihood(reading: TileReading, top: int, bottom: int, tile_set: DominoSet, face: Face) -> float:
    """Likelihood of ``top`` pips above ``bottom`` ones when the pips, in order along the tile, are split after
    the ``top``-th, wherever that falls near the middle: the pips of a Chinese three may run past the middle
    line (the shared art draws them down the tile), and only the colours then tell a 1:3 from a 2:2."""
    halves = reading.top.count + reading.top.doubtful + reading.bottom.count + reading.bottom.doubtful
    if len(reading.pips) != halves:
        return 0.0  # a reading that lists no pips (made from counts alone) is split at its middle only
    sure = [p for p in reading.pips if not p.doubtful]
    best = 0.0
    for pips, prior in ((list(reading.pips), 1.0), (sure, _DROP ** (len(reading.pips) - len(sure)))):
        if len(pips) != top + bottom or prior <= best:
            continue
        upper, lower = pips[:top], pips[top:]
        reach = _REACH[reading.divider]
        over = max(0.0, (upper[-1].along if upper else -1.0) - reach) + max(0.0, -reach - (lower[0].along if lower
                                                                                           else 1.0))
        p = _SPLIT * prior * float(np.exp(-((over / 0.04) ** 2)))
        for half, n in ((upper, top), (lower, bottom)):
            expected = tile_set.red_share(face, n)
            if expected is not None and half and abs(_red_share(half) - expected) > 0.34:
                p *= _WRONG_COLOUR
        best = max(best, p)
    return best


def face_likelihoods(reading: TileReading, tile_set: DominoSet) -> tuple[np.ndarray, np.ndarray]:
    """Likelihood of each face of the set, and whether it is read with its higher number on top."""
    faces = tile_set.faces
    like = np.empty(len(faces))
    flipped = np.zeros(len(faces), bool)
    for i, (a, b) in enumerate(faces):
        options = []
        for top, bottom in ((a, b), (b, a)):
            p = _count_likelihood(reading.top, top) * _count_likelihood(reading.bottom, bottom)
            p *= _colour_likelihood(reading.top, tile_set.red_share((a, b), top))
            p *= _colour_likelihood(reading.bottom, tile_set.red_share((a, b), bottom))
            options.append(max(p, _split_likelihood(reading, top, bottom, tile_set, (a, b))))
        like[i] = max(options)
        flipped[i] = options[1] > options[0]
    return like, flipped


def resolve(readings: Sequence[TileReading], tile_set: DominoSet) -> list[Resolved]:
    """Name every face-up reading under the set's copy counts (face-down readings come back as None)."""
    up = [i for i, r in enumerate(readings) if not r.face_down]
    out = [Resolved(None, False, 1.0) for _ in readings]
    if not up:
        return out
    faces = tile_set.faces
    rows = [face_likelihoods(readings[i], tile_set) for i in up]
    like = np.array([r[0] for r in rows])
    slot_face = np.repeat(np.arange(len(faces)), [tile_set.copies[f] for f in faces])
    slot_face = np.concatenate([slot_face, np.full(len(up), -1)])  # "unknown" slots, as many as readings
    probs = np.where(slot_face[None, :] >= 0, like[:, np.maximum(slot_face, 0)], _UNKNOWN)
    column = solve_min_cost(-np.log(probs + 1e-300))
    chosen = slot_face[column]
    taken = np.bincount(chosen[chosen >= 0], minlength=len(faces))
    capacity = np.array([tile_set.copies[f] for f in faces])
    for row, (i, face_index) in enumerate(zip(up, chosen, strict=True)):
        if face_index < 0:
            out[i] = Resolved(None, False, 0.0)
            continue
        others = taken.copy()
        others[face_index] -= 1
        open_like = np.where(others < capacity, like[row], 0.0)
        confidence = float(open_like[face_index] / max(open_like.sum() + _UNKNOWN, 1e-300))
        out[i] = Resolved(faces[face_index], bool(rows[row][1][face_index]), min(max(confidence, 0.0), 1.0))
    return out
