"""Naming the tiles of a frame jointly under the set's rule, as the deck prior does for cards.

Each reading gives every face of the set a likelihood: both halves' counts (a doubtful pip may or may not be
one; a pip more or less is unlikely but possible) and, for a Chinese set, the pip colours (1s and 4s red).
The frame's faces are then the assignment of readings to the set's copies that maximises the product of
likelihoods (``vision.assign.solve_min_cost``): a Chinese set has no blanks, two of each civil tile and one of
each military tile, so a fourth 1:1 in a frame cannot be, and the runner-up reading is taken instead.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from vision.assign import solve_min_cost
from vision.dominoes.face_reader import CLASSES
from vision.dominoes.pips import HalfReading, PipReading, TileReading
from vision.dominoes.sets import DominoSet, Face, domino_set, face_code

_MISS = np.array([1.0, 0.04, 0.002, 1e-4, 1e-5, 1e-6, 1e-7])  # likelihood of a count off by 0, 1, 2... pips
_UNKNOWN = 1e-6  # the likelihood of "none of the set" for any reading
_REACH = {True: 0.04, False: 0.2}  # how far past the middle line (tile lengths) a half's pips may lie: divided or not
_DROP = 0.3  # likelihood factor per doubtful pip taken as no pip
_WRONG_COLOUR = 0.05  # a Chinese half of the wrong colour (a red pip among a 2's, a white one among a 4's)
_SPLIT = 0.5  # a split away from the middle line is less likely than one at it
FACE_WEIGHT = 3.0  # the face reader's probabilities count as their cube against the blob reader's likelihoods
FACE_FLOOR = 1e-4  # the least probability taken from the face reader for a face of the set
BLOB_FLOOR = 1e-5  # with the face reader: the least likelihood taken from the blob reader, above ``_UNKNOWN``, so
# a face the network is sure of is named where the blob reader lost the pips (a tinted light, a pip colour near the
# face's); the faces the network puts well below its favourite still fall below ``_UNKNOWN``
SURE_FACE = 0.95  # the face reader calls a blob reader's back a face this surely: a face
SURE_BACK = 0.9  # the face reader calls a blob reader's face a back this surely: a back (a logo read as pips; the
# held-out art's back print read as a 1:1 or 1:2 gets 0.90-0.95 back: README, session 19)
SURE_BACK_EUROPEAN: float | None = None  # the same for a European set, whose reader is a model of its own, taught
# with backs bearing bold marks; None: a back wherever back is its likeliest class. A maker's mark across a back ("RO"
# over a dotted bar, read as 0:0 or 0:1 by the blob reader) got 0.19-0.82 back from it, still its likeliest class, in
# a real photo changed as a phone would change it (README, session 34)


@dataclass(frozen=True)
class Resolved:
    """One reading named: its face as (top, bottom) in the crop's order, and the confidence in it."""

    face: Face | None
    flipped: bool  # the face's lower number is on the crop's bottom half
    confidence: float
    face_down: bool = False


_NUMBERS = np.arange(7)


def _count_likelihoods(half: HalfReading) -> np.ndarray:
    """The likelihood of each number of pips, 0-6, on a half read as ``half`` (its doubtful pips may be pips)."""
    off = np.maximum(half.count - _NUMBERS, 0) + np.maximum(_NUMBERS - half.count - half.doubtful, 0)
    return _MISS[np.minimum(off, len(_MISS) - 1)]


def _colour_factor(share: float, expected: np.ndarray) -> np.ndarray:
    """``_WRONG_COLOUR`` where a side's red share (NaN: no pips) is off the face's expected one (NaN: colour says
    nothing), else 1."""
    wrong = np.abs(share - expected) > 0.34  # False wherever either is NaN
    return np.where(wrong, _WRONG_COLOUR, 1.0)


@dataclass(frozen=True)
class _Faces:
    """A set's faces both ways up, as arrays (faces x 2): the number on top and below, and the red share each
    half should have (NaN: colour says nothing); and, by pip total, the (face, way up) pairs with that total.
    Every reading is scored against all of them at once."""

    top: np.ndarray
    bottom: np.ndarray
    red_top: np.ndarray
    red_bottom: np.ndarray
    by_total: dict[int, list[tuple[int, int]]]
    classes: np.ndarray  # each face's index in the face reader's ``CLASSES``


def _faces(tile_set: DominoSet) -> _Faces:
    return _faces_of(tile_set.name)


@cache
def _faces_of(name: str) -> _Faces:
    tile_set = domino_set(name)
    ways = [((a, b), (b, a)) for a, b in tile_set.faces]
    top = np.array([[t for t, _ in w] for w in ways])
    bottom = np.array([[b for _, b in w] for w in ways])

    def red(numbers: np.ndarray) -> np.ndarray:
        shares = [[tile_set.red_share(face, int(n)) for n in row] for face, row in zip(tile_set.faces, numbers,
                                                                                      strict=True)]
        return np.array([[np.nan if s is None else s for s in row] for row in shares])

    by_total: dict[int, list[tuple[int, int]]] = {}
    for i, (a, b) in enumerate(tile_set.faces):
        for way in (0, 1):
            by_total.setdefault(a + b, []).append((i, way))
    classes = np.array([CLASSES.index(face_code(face)) for face in tile_set.faces])
    return _Faces(top, bottom, red(top), red(bottom), by_total, classes)


def _half_share(half: HalfReading) -> float:
    return half.red_share if half.count + half.doubtful else np.nan


def _split_at(pips: Sequence[PipReading], top: int, reach: float) -> tuple[float, float, float]:
    """Splitting ``pips`` (in order along the tile) after the ``top``-th: how likely so far from the middle, before
    colours, and the red shares above and below (NaN where there are none)."""
    upper, lower = pips[:top], pips[top:]
    over = max(0.0, (upper[-1].along if upper else -1.0) - reach) + max(0.0, -reach - (lower[0].along if lower
                                                                                       else 1.0))

    def red(side: Sequence[PipReading]) -> float:
        return sum(p.colour == "red" for p in side) / len(side) if side else np.nan

    return _SPLIT * math.exp(-((over / 0.04) ** 2)), red(upper), red(lower)


def face_likelihoods(reading: TileReading, tile_set: DominoSet) -> tuple[np.ndarray, np.ndarray]:
    """Likelihood of each face of the set, and whether it is read with its higher number on top: the halves' counts
    and colours as read, or, whichever is likelier, the pips in order along the tile split elsewhere than at the
    middle line, all of them or the sure ones alone. The pips of a Chinese three may run past the middle (the
    shared art draws them down the tile), and only the colours then tell a 1:3 from a 2:2."""
    faces = _faces(tile_set)
    counts = [_count_likelihoods(half) for half in (reading.top, reading.bottom)]
    like = counts[0][faces.top] * counts[1][faces.bottom]
    like *= _colour_factor(_half_share(reading.top), faces.red_top)
    like *= _colour_factor(_half_share(reading.bottom), faces.red_bottom)
    halves = reading.top.count + reading.top.doubtful + reading.bottom.count + reading.bottom.doubtful
    if len(reading.pips) == halves:  # a reading that lists no pips (made from counts alone) is split at its middle
        sure = [p for p in reading.pips if not p.doubtful]
        for pips, prior in ((reading.pips, 1.0), (sure, _DROP ** (len(reading.pips) - len(sure)))):
            for i, way in faces.by_total.get(len(pips), ()):
                top = int(faces.top[i, way])
                p, above, below = _split_at(pips, top, _REACH[reading.divider])
                for share, expected in ((above, faces.red_top[i, way]), (below, faces.red_bottom[i, way])):
                    if abs(share - expected) > 0.34:  # False wherever either is NaN
                        p *= _WRONG_COLOUR
                like[i, way] = max(like[i, way], prior * p)
    return like.max(axis=1), like[:, 1] > like[:, 0]


def face_down(readings: Sequence[TileReading], tile_set: DominoSet, seen: np.ndarray | None) -> list[bool]:
    """Which readings are backs: as the blob reader says, unless the face reader is sure otherwise (``SURE_FACE``;
    ``SURE_BACK``, for a European set ``SURE_BACK_EUROPEAN``: its likeliest class). A blob reader's back is overruled
    by the set's faces against the back alone: to a Chinese set, a blank the face reader sees on a plain tile (a back
    with a streak of glare read as 0:0) is no face of the set."""
    down = [r.face_down for r in readings]
    if seen is None:
        return down
    back = seen[:, CLASSES.index("back")]
    face = seen[:, _faces(tile_set).classes].sum(axis=1)
    overruled = face >= SURE_FACE * (face + back)  # for a European set (every face its own) face + back is 1
    bar = SURE_BACK if tile_set.chinese else SURE_BACK_EUROPEAN
    sure = back >= bar if bar is not None else seen.argmax(axis=1) == CLASSES.index("back")
    return [bool(b or (d and not o)) for d, b, o in zip(down, sure, overruled, strict=True)]


def resolve(readings: Sequence[TileReading], tile_set: DominoSet, seen: np.ndarray | None = None,
            weight: float = FACE_WEIGHT) -> list[Resolved]:
    """Name every face-up reading under the set's copy counts (face-down ones come back as None). ``seen``: the
    face reader's probabilities (readings x ``CLASSES``), weighed in as their ``weight``-th power, relative to its
    likeliest face of the set, the blob reader's then counting for no less than ``BLOB_FLOOR``; a reading it is sure
    of overrules the blob reader's face up or down."""
    down = face_down(readings, tile_set, seen)
    up = [i for i, d in enumerate(down) if not d]
    out = [Resolved(None, False, 1.0, face_down=True) for _ in readings]
    if not up:
        return out
    faces = tile_set.faces
    rows = [face_likelihoods(readings[i], tile_set) if not readings[i].face_down
            else (np.ones(len(faces)), np.zeros(len(faces), bool)) for i in up]  # a back to the blob reader: no say
    like = np.array([r[0] for r in rows])
    if seen is not None:
        model = np.maximum(seen[up][:, _faces(tile_set).classes], FACE_FLOOR)
        like = np.maximum(like, BLOB_FLOOR) * (model / model.max(axis=1, keepdims=True)) ** weight
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
        if seen is not None:  # as sure as the face reader is that a face is there at all
            confidence *= 1.0 - float(seen[i, CLASSES.index("back")])
        out[i] = Resolved(faces[face_index], bool(rows[row][1][face_index]), min(max(confidence, 0.0), 1.0))
    return out
