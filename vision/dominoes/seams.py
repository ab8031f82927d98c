"""Quads of a line put back on their tiles where the face reader reads them better: pulled apart, or slid along.

Tiles laid end to end in a line touch, so their quads should too. Where the quads of two face-up tiles in a line
overlap along it, one of them (or both) is off by that much: it holds a pip row of its neighbour and misses one of
its own, and reads as another tile (a 2:6 as a 5:6, a 3:4 as a 1:3). Which one is off the overlap does not say, so
the pair is read again as it lies, with either quad moved back by the overlap, and with both moved by half of it; the
face reader (``FaceReader``) scores each way by how sure it is of both faces. A way other than the pair as it lies
is taken when that surety reaches ``SURE`` and beats the pair's own by ``MARGIN``, and when it does not press either
tile into a third (a tile overlapped from both ends is not pushed from one neighbour into the other: the face reader
looks at a crop grown past the quad, so it reads a tile moved off its place about as surely). Pairs are taken from the
largest overlap down, each tile moved at most once.

A tile the face reader doubts (its likeliest face under ``DOUBT``) whose quad no neighbour's overlaps may still lie off
along its line, the neighbour's quad missing or short: it slides along its length by ``SLIDES`` either way, to where
the face reader is surest of a face from ``SLID_SURE``, pressing no other tile further (``slid_along``; session 19
slid doubted tiles without that guard, and they slid onto their neighbours).

A doubted tile (under ``FIT_DOUBT``) whose quad is off the frame's shape, longer or wider than the other tiles' by
more than ``OFF_SHAPE`` of their median aspect, or shorter or narrower, is made that shape from either end or its
middle (``refit``, session 26): a quad stretched onto a neighbour's pips or short of its own far row reads as
another tile, and its shape gives it away where no neighbour's quad overlaps it.

A doubted tile (under ``NUDGE_DOUBT``) lying by another is nudged (``nudged``, still photos, session 28): moved a
little along its length (``NUDGE_ALONG``) and read again by both readers; a move where the two name another face,
the face reader surer of it by ``NUDGE_MARGIN``, is taken. Beside another tile a quad may hold a sliver of its
neighbour's pips, or miss a sliver of its own, by less than a slide; a lone tile's quad is on its tile (in the
held-out scenes, nudging lone doubted tiles under a red light moved two read right off their pips).

A doubted tile (under ``RELOOK_DOUBT``) is shown to the refiner once more (``relooked``, still photos, session 39):
where it moves the quad, and the face reader is then surer of a face by ``RELOOK_MARGIN``, the move is taken. The
quads a still photo reads come from the refiner's two looks at a finder candidate, or from a look beside a found tile;
a quad a little across a row of tiles side by side holds a sliver of its neighbour's pips, and one more look puts it
on its own tile.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.dominoes.lines import end_to_end
from vision.geometry import convex_intersection, iou_matrix, order_quads, quad_sides
from vision.quad_refiner import shifted

SURE = 0.7  # the product of the two faces' probabilities a new way needs
MARGIN = 0.1  # and how much more than the pair as it lies
MIN_OVERLAP = 0.05  # an overlap along the line, in the first tile's lengths, worth a look (quads are a little loose)
MAX_OFF_LINE = 0.3  # the second tile's centre off the first's long middle line, in the first's widths, at most
COLLINEAR = 0.95  # |cos| of the angle between the two tiles' long sides, at least
PRESS = 0.02  # a way may overlap the other tiles this much more (IoU) than the pair as it lies
DOUBT = 0.7  # a tile the face reader names with less than this is doubted and may slide along its length
SLIDES = (0.15, 0.3)  # how far, in its lengths
SLID_SURE = 0.95  # the face reader's probability of a face a slid quad needs
FIT_DOUBT = 0.9  # a tile named with less than this whose shape is off the frame's may be made its shape
FIT_SURE = 0.75  # and the face reader's probability of a face the new shape needs
FIT_MARGIN = 0.05  # and how much surer than the quad as it lies (its shape off is evidence of its own)
OFF_SHAPE = 0.1  # off by more than this share of the typical aspect
MIN_SHAPED = 3  # tiles in view a typical aspect needs
NUDGE_DOUBT = 0.7  # a tile the face reader names with less than this may be nudged (still photos)
NUDGE_ALONG = (-0.2, -0.1, -0.05, 0.05, 0.1, 0.2)  # the nudges along the tile, in its lengths
NUDGE_MARGIN = 0.05  # how much surer of a face than the quad as it lies a nudged quad must be named
RELOOK_DOUBT = 0.7  # a tile the face reader names with less than this is shown to the refiner again (still photos)
RELOOK_MARGIN = 0.2  # and put where it moves it where the face reader is then surer of a face by this much
NUDGE_REACH = 1.5  # a tile is nudged only where its quad this many times as long (about its middle) meets another


def overlapping_pairs(quads: list[np.ndarray]) -> list[tuple[int, int, np.ndarray]]:
    """Pairs (a, b, shift) of quads lying end to end on one line with an overlap along it, the largest overlap
    first: ``shift`` (x, y) moves b off a by the whole overlap (a moves by minus it)."""
    units, lengths, widths, on_line, off_line, apart = end_to_end(
        order_quads(np.asarray(quads, np.float32).reshape(-1, 4, 2)))
    overlap = -apart
    lined = ((np.abs(units @ units.T) >= COLLINEAR) & (off_line <= MAX_OFF_LINE * widths[:, None])
             & (overlap > MIN_OVERLAP * lengths[:, None]))
    pairs = [(float(overlap[a, b]), int(a), int(b), np.sign(on_line[a, b]) * overlap[a, b] * units[a])
             for a, b in zip(*np.nonzero(np.triu(lined, 1)), strict=True)]
    pairs.sort(key=lambda p: -p[0])
    return [(a, b, shift.astype(np.float32)) for _, a, b, shift in pairs]


def pulled_apart(quads: list[np.ndarray], read: Callable[[np.ndarray], np.ndarray]) -> list[np.ndarray]:
    """``quads`` with overlapping pairs moved apart where ``read`` (quads K x 4 x 2 -> the face reader's
    probabilities K x classes, the last a back) is surer of both faces."""
    out = [np.asarray(q, np.float32) for q in quads]
    moved: set[int] = set()
    for a, b, shift in overlapping_pairs(out):
        if a in moved or b in moved:
            continue
        ways = [(out[a], out[b]), (out[a] - shift, out[b]), (out[a], out[b] + shift),
                (out[a] - shift / 2, out[b] + shift / 2)]
        others = np.array([q for i, q in enumerate(out) if i not in (a, b)], np.float32).reshape(-1, 4, 2)
        faces = read(np.array([q for way in ways for q in way], np.float32))[:, :-1].max(axis=1)
        sure = faces[0::2] * faces[1::2]
        sure[1:] *= [not _pressed(way, ways[0], others) for way in ways[1:]]
        best = int(sure.argmax())
        if best and sure[best] >= SURE and sure[best] >= sure[0] + MARGIN:
            out[a], out[b] = ways[best]
            moved.update((a, b))
    return out


def _pressed(way: tuple[np.ndarray, ...], before: tuple[np.ndarray, ...], others: np.ndarray) -> bool:
    """Whether moving the tiles (a pair, or one) so overlaps another tile more than before: a tile between two
    neighbours that both overlap it is not pushed from one into the other."""
    if not len(others):
        return False
    now = iou_matrix(np.array(way, np.float32), others).max(axis=1)
    then = iou_matrix(np.array(before, np.float32), others).max(axis=1)
    return bool((now > then + PRESS).any())


def slid_along(quads: list[np.ndarray], before: list[np.ndarray], seen: np.ndarray,
               read: Callable[[np.ndarray], np.ndarray], others: list[np.ndarray]) -> list[np.ndarray]:
    """``quads`` (``pulled_apart``'s, from ``before``, whose face reader rows are ``seen``) with each tile the face
    reader doubts (its likeliest face under ``DOUBT``) and that was not moved slid along its length by ``SLIDES``,
    either way, to where the face reader is surest of a face, from ``SLID_SURE``, pressing no other tile (``others``:
    the face-down ones) further: a quad off along a line whose neighbour's quad does not overlap it."""
    out = [np.asarray(q, np.float32) for q in quads]
    doubted = [i for i in range(len(out)) if np.array_equal(out[i], before[i]) and seen[i, :-1].max() < DOUBT]
    for i in doubted:
        tries = np.array([shifted(out[i], sign * step) for step in SLIDES for sign in (1, -1)], np.float32)
        out[i] = surest_unpressed(out, i, tries, read, others, SLID_SURE)
    return out


def surest_unpressed(out: list[np.ndarray], i: int, tries: np.ndarray, read: Callable[[np.ndarray], np.ndarray],
                     others: list[np.ndarray], least: float) -> np.ndarray:
    """Of ``tries`` for tile ``i`` of ``out``, the one the face reader is surest of a face on, from ``least``, that
    presses no other tile (of ``out`` or ``others``) further; else the tile's quad as it is."""
    sure = read(tries)[:, :-1].max(axis=1)
    rest = np.array([q for j, q in enumerate(out) if j != i] + list(others), np.float32).reshape(-1, 4, 2)
    for k in np.argsort(-sure, kind="stable"):
        if sure[k] < least:
            break
        if not _pressed((tries[k],), (out[i],), rest):
            return np.asarray(tries[k], np.float32)
    return out[i]


def nudged(quads: list[np.ndarray], seen: np.ndarray,
           named: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]], others: list[np.ndarray]) -> list[np.ndarray]:
    """``quads`` (face up, their face reader rows ``seen``) with each doubted tile (under ``NUDGE_DOUBT``) that lies by
    another (of ``quads`` or ``others``) nudged where ``named`` (quads K x 4 x 2 -> the face both readers name, -1 for
    none, and how surely) names another face surer by ``NUDGE_MARGIN``, pressing no other tile further. A nudge that
    names the same face is not taken: a quad grown or slid reads surer for what else it shows."""
    out = [np.asarray(q, np.float32) for q in quads]
    for i in range(len(out)):
        if seen[i, :-1].max() >= NUDGE_DOUBT or seen[i].argmax() == seen.shape[1] - 1:  # sure, or a back
            continue
        rest = np.array([q for j, q in enumerate(out) if j != i] + list(others), np.float32).reshape(-1, 4, 2)
        reach = _resized(out[i], NUDGE_REACH, 0.5, True)
        if not any(convex_intersection(reach, q) > 0 for q in order_quads(rest)):
            continue
        ways = [shifted(out[i], along) for along in NUDGE_ALONG]
        tries = np.array([out[i]] + [w for w in ways if not _pressed((w,), (out[i],), rest)], np.float32)
        sure, face = named(tries)
        best = int(sure.argmax())
        if best and face[best] != face[0] and sure[best] >= sure[0] + NUDGE_MARGIN:
            out[i] = tries[best]
    return out


def relooked(quads: list[np.ndarray], seen: np.ndarray,
             look: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]], read: Callable[[np.ndarray], np.ndarray],
             others: list[np.ndarray]) -> list[np.ndarray]:
    """``quads`` (face up, their face reader rows ``seen``) with each doubted tile (under ``RELOOK_DOUBT``, not read
    as a back) put where ``look`` (quads K x 4 x 2 -> those quads moved, and whether a tile is there) moves it, where
    ``read`` (the face reader) is then surer of a face by ``RELOOK_MARGIN``, pressing no other tile (of ``quads`` or
    ``others``) further."""
    out = [np.asarray(q, np.float32) for q in quads]
    backs = seen.shape[1] - 1
    doubted = [i for i in range(len(out)) if seen[i, :-1].max() < RELOOK_DOUBT and seen[i].argmax() != backs]
    if not doubted:
        return out
    moved, there = look(np.array([out[i] for i in doubted], np.float32))
    for i, quad, tile in zip(doubted, moved, there, strict=True):
        if tile:
            out[i] = surest_unpressed(out, i, quad[None], read, others, float(seen[i, :-1].max()) + RELOOK_MARGIN)
    return out


def aspect(quad: np.ndarray) -> float:
    """The quad's length over its width (``geometry.quad_sides``: means of opposite sides)."""
    short, long = quad_sides(quad)
    return long / max(short, 1e-6)


def _resized(quad: np.ndarray, scale: float, anchor: float, along: bool) -> np.ndarray:
    """The ordered ``quad`` with its length (``along``) or width times ``scale``, the point ``anchor`` of the way from
    its top (left) end to its bottom (right) one staying put: 0 keeps the top end, 1 the bottom, 0.5 the middle."""
    q = order_quads(np.asarray(quad, np.float32)[None])[0]
    start, end = ((q[0], q[1]), (q[3], q[2])) if along else ((q[0], q[3]), (q[1], q[2]))
    out = {}
    for (i, j), a, b in zip(((0, 3), (1, 2)) if along else ((0, 1), (3, 2)), start, end, strict=True):
        fixed = a + anchor * (b - a)
        out[i], out[j] = fixed + (a - fixed) * scale, fixed + (b - fixed) * scale
    return np.array([out[k] for k in range(4)], np.float32)


def refit(quads: list[np.ndarray], before: list[np.ndarray], seen: np.ndarray,
          read: Callable[[np.ndarray], np.ndarray], others: list[np.ndarray], typical: float,
          refine: Callable[[np.ndarray], np.ndarray] | None = None) -> list[np.ndarray]:
    """``quads`` with each doubted tile (its likeliest face under ``FIT_DOUBT``) not yet moved whose shape is off the
    frame's ``typical`` aspect by more than ``OFF_SHAPE`` made that shape: its length or its width changed from
    either end or about its middle, and each such quad also as ``refine`` (quads K x 4 x 2 -> quads) moves it where
    that keeps the shape. The face reader's surest of a face wins, from ``FIT_SURE`` and surer than before by
    ``FIT_MARGIN``, pressing no other tile further: a quad that runs onto a neighbour's pips, or stops short of its own
    far pip row, reads as another tile (a 2:5 as a 5:5, a 5:5 as a 2:5)."""
    out = [np.asarray(q, np.float32) for q in quads]
    for i in range(len(out)):
        now = aspect(out[i])
        if (not np.array_equal(out[i], before[i]) or seen[i, :-1].max() >= FIT_DOUBT
                or abs(now / typical - 1) <= OFF_SHAPE):
            continue
        tries = np.array([_resized(out[i], scale, anchor, along)
                          for along, scale in ((True, typical / now), (False, now / typical))
                          for anchor in (0.0, 0.5, 1.0)], np.float32)
        if refine is not None:
            moved = refine(tries)
            shaped = [abs(aspect(q) / typical - 1) <= OFF_SHAPE for q in moved]
            tries = np.concatenate([tries, moved[shaped]])
        out[i] = surest_unpressed(out, i, tries, read, others, max(FIT_SURE, float(seen[i, :-1].max()) + FIT_MARGIN))
    return out
