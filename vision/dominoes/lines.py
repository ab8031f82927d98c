"""Lines of play laid out again: the tiles of a line put end to end along it, where their quads slipped.

Tiles laid end to end touch, and a quad across the touching ends of two of them shows a tile's worth of pips: to
both readers it is a tile, and often a sure one (a 3:5 and a 3:6 read as a 3:3 and a 6:6, half a tile along). The
finder's quads then slip along the line together, leaving a gap of half a tile at one end of the run or overlapping
each other, while the line itself still holds a whole number of tiles. ``lines`` finds the runs of face-up quads
lying end to end on one line; ``laid_out`` says, for a run whose quads leave a gap or an overlap along it of more
than ``OFF_SEAM`` of a tile (or meet, but end off every such layout's seams: ``_uneven``), where a whole number of
tiles would lie end to end from one end of it to the other. The recogniser (``DominoRecognizer._relaid``) keeps such
a layout only where the refiner calls every tile of it a tile and leaves it in place, and the face reader is surer of
its faces than of the quads it replaces (README, *Domino vision*, sessions 33 and 41).
"""

from __future__ import annotations

import math
from itertools import pairwise

import numpy as np

from vision.geometry import order_quads, side_vectors

COLLINEAR = 0.95  # |cos| of the angle between two tiles' long sides in one line, at least
OFF_LINE = 0.35  # a tile's centre off the line through its neighbour's, in that one's widths, at most
LINE_GAP = 0.6  # neighbours in a line: the gap between their quads along it, in tile lengths, at most
OFF_SEAM = 0.15  # a gap or overlap between neighbours' quads of more than this share of a length: the run slipped
SHAPE_SPAN = (0.85, 1.2)  # a layout's tiles' length over width, as a share of the run's quads' median
IN_LINE = 0.5  # another quad reaching this share of the line's width into its band cuts the line there
SIZE_OFF = 0.1  # a quad's width this far off the run's first fit is left out of the second


def tile_frames(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each ordered quad's centre, unit vector along its length, length and width."""
    across, along = side_vectors(quads)
    lengths = np.linalg.norm(along, axis=1)
    return quads.mean(axis=1), along / np.maximum(lengths, 1e-6)[:, None], lengths, np.linalg.norm(across, axis=1)


def end_to_end(ordered: np.ndarray) -> tuple[np.ndarray, ...]:
    """How ordered quads lie to each other along their lines: each one's unit vector along its length, length and
    width, and for each pair [a, b] how far b's centre lies along a's long side (signed), how far off that line, and
    the gap between their ends along it (< 0: an overlap). Also for ``seams.overlapping_pairs``."""
    centres, units, lengths, widths = tile_frames(ordered)
    gap = centres[None] - centres[:, None]  # [a, b]: from a's centre to b's
    on_line = np.einsum("abd,ad->ab", gap, units)
    off_line = np.linalg.norm(gap - on_line[..., None] * units[:, None], axis=2)
    apart = np.abs(on_line) - (lengths[:, None] + lengths[None]) / 2
    return units, lengths, widths, on_line, off_line, apart


def lines(quads: list[np.ndarray]) -> list[list[int]]:
    """Runs of two or more of ``quads`` lying end to end on one line (each with a neighbour on its line within
    ``LINE_GAP`` of a length along it), as index lists in order along the line."""
    if len(quads) < 2:
        return []
    ordered = order_quads(np.asarray(quads, np.float32).reshape(-1, 4, 2))
    units, lengths, widths, on_line, off_line, apart = end_to_end(ordered)
    linked = ((np.abs(units @ units.T) >= COLLINEAR) & (off_line <= OFF_LINE * widths[:, None])
              & (apart <= LINE_GAP * lengths[:, None]) & (np.abs(on_line) >= 0.25 * lengths[:, None]))
    linked &= linked.T
    centres = ordered.mean(axis=1)
    out = []
    for members in linked_groups(linked):
        if len(members) < 2:
            continue
        axis = line_axis(units[members])
        out.append(sorted(members, key=lambda i: float(centres[i] @ axis)))
    return out


def linked_groups(linked: np.ndarray) -> list[list[int]]:
    """The groups of indices 0..n-1 that chains of ``linked`` pairs join (n x n bool; [i, j] or [j, i] links i and
    j), each in ascending order, the groups in the order of their first index; an index linked to none is a group."""
    parent = list(range(len(linked)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b in zip(*np.nonzero(linked), strict=True):
        parent[root(int(a))] = root(int(b))
    groups: dict[int, list[int]] = {}
    for i in range(len(linked)):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def line_axis(units: np.ndarray) -> np.ndarray:
    """The mean direction of unit vectors taken either way (a line's tiles point along it, either end first)."""
    signs = np.where(units @ units[0] >= 0, 1.0, -1.0)
    mean = (units * signs[:, None]).sum(axis=0)
    return mean / max(float(np.linalg.norm(mean)), 1e-6)


def laid_out(quads: list[np.ndarray], run: list[int], others: list[np.ndarray]
             ) -> list[tuple[list[int], list[np.ndarray]]]:
    """Where the tiles of ``run`` (indices into ``quads``, from ``lines``) might lie end to end, for each stretch of
    it whose quads slipped: a gap or an overlap of more than ``OFF_SEAM`` of a length between neighbours, or between
    a quad and the end of its stretch, or quads that meet but end off the layouts' seams (``_uneven``). ``others``
    (the quads not in the run) that lie across the line cut it into stretches (a tile turned across a line, a corner);
    the run's own quads reach to its ends. Each stretch: the run's indices in it, and its layouts (``_layouts``), each
    the tiles' quads (n x 4 x 2) in order along the line."""
    ordered = order_quads(np.asarray([quads[i] for i in run], np.float32))
    centres, units, lengths, widths = tile_frames(ordered)
    axis = line_axis(units)
    normal = np.array([-axis[1], axis[0]])
    origin = centres.mean(axis=0)
    along = (ordered - origin) @ axis  # (members, 4)
    across = (ordered - origin) @ normal
    starts, ends, middles = along.min(axis=1), along.max(axis=1), along.mean(axis=1)
    low, high = float(np.median(across.min(axis=1))), float(np.median(across.max(axis=1)))
    middle = float(np.median(across.mean(axis=1)))  # the tiles' middle line, off the centres' mean
    cuts = [(float(starts.min()) - 1e9, float(starts.min()))]  # (from, to) along the line where no tile of it lies
    for other in others:
        o = np.asarray(other, np.float64) - origin
        o_along, o_across = o @ axis, o @ normal
        if min(high, float(o_across.max())) - max(low, float(o_across.min())) >= IN_LINE * (high - low):
            cuts.append((float(o_along.min()), float(o_along.max())))
    cuts.append((float(ends.max()), float(ends.max()) + 1e9))
    cuts.sort()
    width, shape = _fitted(middles, widths), float(np.median(lengths / widths))
    out = []
    for (_, first), (last, _) in pairwise(cuts):
        inside = [k for k in range(len(run)) if first < middles[k] < last]
        if not inside:
            continue
        reach = LINE_GAP * float(np.median(lengths[inside]))  # a cut this near an end of the stretch bounds it
        begin, end = float(starts[inside].min()), float(ends[inside].max())
        first = first if begin - reach <= first <= begin + reach else begin
        last = last if end - reach <= last <= end + reach else end
        bounds = np.array([first, *np.ravel(np.column_stack([starts[inside], ends[inside]])), last])
        seams = bounds[1::2] - bounds[0::2]  # each gap (> 0) or overlap (< 0) along the stretch
        slack = OFF_SEAM * float(np.median(lengths[inside]))
        spans = _layouts(first, last, width, shape)
        if np.abs(seams).max(initial=0.0) <= slack and not _uneven(
                spans, starts[inside], ends[inside], lengths[inside], (first == begin, last == end), slack):
            continue
        layouts = [_tiles(edges, width, origin + middle * normal, axis) for edges in spans]
        if layouts:
            out.append(([run[k] for k in inside], layouts))
    return out


def _uneven(spans: list[np.ndarray], starts: np.ndarray, ends: np.ndarray, lengths: np.ndarray,
            open_ends: tuple[bool, bool], slack: float) -> bool:
    """Whether a stretch whose quads meet end to end still slipped: one quad too long and its neighbour too short
    leave no gap, but some quad's end lies more than ``slack`` from every tile end of each layout (``spans``). Only
    where the stretch's ends are sure: a tile across the line bounds it, or the quad at an open end (``open_ends``:
    first, last) is of the stretch's usual length. A quad at an open end that reaches over a tile not found (seed 99
    scene 4's 2:6 over half a 2:3) would lay the whole stretch out a third of a tile off."""
    usual = float(np.median(lengths))
    for is_open, k in zip(open_ends, (int(np.argmin(starts)), int(np.argmax(ends))), strict=True):
        if is_open and abs(float(lengths[k]) - usual) > slack:
            return False
    quad_ends = np.concatenate([starts, ends])
    return bool(spans) and all(np.abs(quad_ends[:, None] - edges[None]).min(axis=1).max() > slack
                               for edges in spans)


def _tiles(edges: np.ndarray, width: tuple[float, float], origin: np.ndarray, axis: np.ndarray) -> np.ndarray:
    """Ordered quads of the tiles between ``edges`` (positions along ``axis`` from ``origin``, on the tiles' middle
    line), each as wide as ``width`` (``a + b * position``) says at its middle."""
    normal = np.array([-axis[1], axis[0]])
    quads = []
    for a, b in pairwise(edges):
        half = (width[0] + width[1] * (a + b) / 2) / 2
        quads.append([origin + s * axis + t * normal for s, t in ((a, -half), (a, half), (b, half), (b, -half))])
    return order_quads(np.array(quads, np.float32))


def _fitted(middles: np.ndarray, values: np.ndarray) -> tuple[float, float]:
    """``values`` of the run's quads (their widths) as ``a + b * position`` along the line, those off the first fit
    by more than ``SIZE_OFF`` left out of a second: a tilted camera shows the near tiles bigger."""
    keep = np.ones(len(values), bool)
    a, b = float(np.median(values)), 0.0
    for _ in range(2):
        if keep.sum() >= 2 and np.ptp(middles[keep]) > 0:
            b, a = (float(v) for v in np.polyfit(middles[keep], values[keep], 1))
        else:
            a, b = float(np.median(values[keep] if keep.any() else values)), 0.0
        keep = np.abs(values - (a + b * middles)) <= SIZE_OFF * np.abs(a + b * middles)
    return a, b


def _layouts(first: float, last: float, width: tuple[float, float], shape: float) -> list[np.ndarray]:
    """The tiles' ends along the line from ``first`` to ``last`` (n + 1 positions) for the whole numbers n of tiles
    next to what the stretch holds, its tiles a length over width within ``SHAPE_SPAN`` of ``shape`` (the run's
    quads' median: a tile slipped along the line keeps its width but may be cut short) on the whole. A tilted camera
    shows the near tiles bigger: ``width`` (``a + b * position``) grows by a factor q from one end to the other, and
    the tiles' ends follow a projective map of the line whose tiles grow in length by q (the line runs across the
    tilt) or by q squared (it runs along the tilt, foreshortened): both are laid out."""
    a, b = width
    near, far = a + b * first, a + b * last
    if near <= 0 or far <= 0:
        return []
    widths = (last - first) / a if abs(b) < 1e-9 else float(np.log(far / near) / b)  # the integral of 1 / width
    growth = float(np.clip(far / near, 0.5, 2.0))
    out = []
    for count in sorted({math.floor(widths / shape), math.ceil(widths / shape)}):
        if count < 1 or not SHAPE_SPAN[0] <= widths / count / shape <= SHAPE_SPAN[1]:
            continue
        steps = np.arange(count + 1) / count
        for r in sorted({round(math.sqrt(growth), 3), round(growth, 3)}):
            out.append(first + (last - first) * steps / (steps + r * (1 - steps)))  # tile lengths grow by r squared
    return out
