"""One call from a frame to the dominoes on the table: find the tiles, read each, name them jointly.

Tiles are found by the learned tile finder (``TileFinder``, ``models/domino-finder.onnx``) unless ``learned=False``
asks for the classical one. Tiles cut by the frame edge or flagged partial (covered) are dropped: nothing sure can
be read from them (a quad reaching past the frame by a sliver, ``MAX_CUT``, is pulled into it: the tile's rim is cut
at most, or the quad was a little loose), and so are quads across the touching ends of two tiles (a divider near
each end; in their place the two tiles centred on those dividers are read, ``_split``). Plain candidates are checked
further: textured ones (a floor board, leather: a tile's back is one colour; classical finder only), ones of another
size than the tiles read face up (all tiles of a set are the same size) and, in a European set, ones of another
colour than those tiles (such a tile is one colour all over) are dropped. Each learned quad is tightened to the face
where it stands out (``refine``). Where nothing whole is found at the finder's usual scale, it takes a close-up look
(``TileFinder.close_up``): a tile filling the frame, its rim cut a little by the frame's edges, is read (the quad
pulled into the frame); in a Chinese set only when that look sees one tile. A still photo takes it also where the usual
look is weak and the close-up look sure (``close_sure``: pieces of a tile filling the frame were boxed as tiles), and a
still photo of a few European tiles looks at a coarser scale too, whose tiles stand in for pieces of them the usual
look boxed (``coarse``, ``_pieces_joined``). The recogniser keeps no per-frame state.

In a Chinese set the learned finder's candidates are then looked at again by the refiner (``TileRefiner``,
``REFINER``): each is moved onto the tile it is about, and kept where the refiner says a whole tile is (or the finder
was sure of it). The finder's quads slip along lines of touching tiles, and the refiner sees them finer, with what
lies past their ends; so the candidates are taken from below the finder's own threshold too (``CANDIDATE_HEAT``).

A still photo (``DominoRecognizer.for_photos``: ``kibitz recognize --dominoes``, ``eval-vision --dominoes``) also
gets finer looks (``more_looks=PHOTO_LOOKS``: the frame at twice and two and a half times the finder's scale, four
and six times its cost, each where the tiles found are not too big for it at that scale, ``MAX_LOOK_LENGTH``): a tile
on a busy pattern the usual look misses may stand out there. Only what those looks are sure of (heat 0.7), what
overlaps nothing found and what then reads face up is added: at that scale a dark square of a checked cloth passes
for a face-down tile (a tile the usual look had a candidate on, which gave way to the finer look's quad, was found by
both: ``_only_more_looks``). It gets two looks of the refiner, not one, and the tiles beside the found ones are looked
for (``neighbours``, ``_beside``; a European back found so must touch a row of backs, ``_backs_in_touch``). The live
table leaves these off, for speed. A Chinese set's still photo is refined by the photo refiner
(``TileRefiner.PHOTO_MODEL``): it reads the held-out art better, but the live table followed fewer deals with it and
European sets lost tiles (``models/domino-photo-refiner.md``).

Where the quads of two face-up tiles of a line overlap, they are pulled apart where the face reader reads both better,
and a tile it doubts slides along its length to where it is sure (``seams``, ``vision.dominoes.seams``): a quad
reaching into its neighbour reads one of the neighbour's pip rows. A still photo also nudges a doubted tile lying by
another a little along its line, where both readers then name another face surer (``nudge``, ``seams.nudged``), and
shows a doubted tile to the refiner once more, taking the move where the face reader is much surer (``relook``,
``seams.relooked``). A still photo also reads whole tiles whose loose quads reach past the frame (``edge``,
``_at_edge``). Before those, a still photo lays out again the face-up tiles of a line whose quads slipped along it
together, leaving a gap or an overlap while the line holds a whole number of tiles (``relay``, ``_relaid``,
``vision.dominoes.lines``). It also looks for a double laid across each found tile's end (``crossing``,
``_crossing``), and, in a Chinese set, lets walls of backs size and colour the frame's other backs (``wall_sized``,
``_by_walls``) and lays a short quad across the ends of two tiles side by side out as the pair (``pairs``,
``_paired``); in a European set, quads straddling two tiles go before the look beside (``_straddling``).

Frames are not brightened as the card recogniser's are (``vision.exposure``): a white tile alone on a dark table is
less than the frame's brightest percent, and the gain washed it out (README, session 28). A European set's colour
check takes its distances at that gain, though: in a dim room a patch of dark table is near any colour (``_plausible``).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from models import model_path as shipped_model_path
from vision.capture import Frame
from vision.dominoes.face_reader import CLASSES, FaceReader
from vision.dominoes.finder import FinderParams, find_tiles
from vision.dominoes.lines import laid_out, line_axis, lines, linked_groups, tile_frames
from vision.dominoes.observation import DominoTableObservation, TileObservation
from vision.dominoes.pips import TileReading, read_tile
from vision.dominoes.refine import refine_quad
from vision.dominoes.resolve import Resolved, face_down, resolve
from vision.dominoes.seams import MIN_SHAPED, aspect, nudged, pulled_apart, refit, relooked, slid_along
from vision.dominoes.sets import domino_set, face_code
from vision.dominoes.tile_finder import TileFinder
from vision.dominoes.tile_refiner import TileRefiner
from vision.dominoes.walls import side_by_side, wall_layouts
from vision.exposure import exposure_gain
from vision.geometry import convex_intersection, iou_matrix, order_quads, quad_areas, quad_aspect, smaller_share_matrix
from vision.imageio import as_bgr
from vision.more_looks import Look, MoreLooks
from vision.observation import Detections
from vision.quad_refiner import shifted

# The looks a still photo gets: twice and two and a half times the finder's scale. They see print and table patterns
# at tile size, so they must be surer. (The mirror image and a copy a quarter bigger found more tiles of the held-out
# art, but read none more and added false ones: README.) A pink tile on a flowered tray got heat 0.4-0.79 from one of
# the two zooms or the other as the photo was changed (README, session 34).
PHOTO_LOOKS = MoreLooks((Look(zoom=2.0, least=0.7), Look(zoom=2.5, least=0.7)), max_overlap=0.2)
CLOSE_WEAK, CLOSE_SURE = 0.5, 0.8  # a still photo also takes the close-up look where the usual look is sure of no
# whole tile at 0.5 and the close-up look is of one at 0.8: the usual look's quads round pieces of a tile filling
# the frame reached its threshold in a noisy photo (``imagefortest.jpg``: 0.34, the close-up look's tile 0.92)
COARSE_ZOOM, COARSE_SURE = 0.6, 0.6  # a still photo of a few tiles also looks at 0.6 of the finder's scale; a tile it
# is sure of there (0.6) stands in for the pieces of it the usual look boxed: a white 4:4 or 5:6 on black, lying square
# to the frame, was boxed as two or three upright tiles of two pips each (README, session 34). European sets only: in
# a Chinese set's wall of backs two layers high, two upright quads of the coarse look across its rows took three backs'
# place (held-out art seed 11 scene 8)
COARSE_MOST = 4  # tiles the usual look is sure of, at most, for that look
PIECES_LEAST = 2  # the usual look's quads a coarse tile holds (centres inside, each under PIECE_AREA of it), at least
PIECE_AREA = 0.7
TILE_ASPECT = (0.38, 0.65)  # a coarse tile's short side over its long side: one tile, not two side by side or end on
MAX_LOOK_LENGTH = 150.0  # a zoomed look runs where the usual look's tiles, at its zoom, are at most this long (median,
# px at the finder's input): the model knows tiles up to half its input's height, and past that takes a tile's ends
# for tiles of their own (a white 4:5 on black seen at 2.5 times: README, session 34)
MAX_REFINED = 0.4  # the refiner was trained on tiles up to 0.3 of the frame's short side long (it shortens bigger ones)
# Whether the live table's refiner looks again at the candidates, per set. A European set's tiles are nearly all found
# and read without it (rendered, 40 scenes: 100 / 98.2 % and 99.1 / 92.7 %; with it 100 / 99.4 % and 99.1 / 92.4 %,
# but 7 ms a frame more), and the games followed live are all played with Chinese sets. Still photos of either set
# get it (``for_photos``): with it and the look beside the found tiles, the backs a finder misses are found (session
# 21: a real photo's "RO" backs, which the face reader now knows from backs printed so).
REFINER = {"chinese": True, "double-six": False}
CANDIDATE_HEAT = 0.1  # the refiner is shown the finder's candidates from this heat (the finder's own: 0.325)
LIVE_PASSES, PHOTO_PASSES = 1, 2  # the refiner's looks at each candidate: the live table cannot afford two
ASPECTS = {"chinese": 2.5, "double-six": 2.0}
MAX_TEXTURE = 32.0  # Lab distance: 90th percentile over a plain (face-down) candidate
MAX_BACK_COLOUR = 40.0  # Lab distance (lightness halved: shade) of a European back from the faces' colour
MAX_OVERLAP = 0.3  # share of the smaller of two found quads that may lie in the other
ROW_REACH = 0.7  # a quad a row holds spans this share of the row's width at least (a column of pips: about half)
SQUAT = 1.6  # a quad shorter than this many widths is not one tile's (tiles are 2-2.9 widths long)
MEMBER_ALONG = 1.2  # a tile of a line (not squat) runs along it this many times as far as it spans across, at least
MEMBER_LENGTH = 0.6  # or it is this share of the frame's tile length at least (a wall's tiles, side by side)
SURE_LEAF = 0.9  # a quad this sure holding no other gives the frame's tile length
ROW_SURER = 1.5  # a quad this many times as sure as every quad it holds is a tile, not a row
SAME_TILE = 0.7  # a more look's quad and a usual look's candidate overlapping this much (of the smaller) are one tile
WITHIN_SURE = 0.5  # a quad lying in a much bigger one goes only where that one is this share as sure, at least
MIN_SIZED = 4  # face-up tiles needed before a face-up one much shorter than theirs is dropped
DOUBTED_TILE = 0.5  # the least the refiner must give a tile where few read face up (``DominoRecognizer._undoubted``)
MIN_COLOURED = 3  # tiles of a European set read face up (with none face up: backs) before one of another colour goes;
# under it, in still photos of either set, the tiles the refiner doubts go (``DominoRecognizer._undoubted``)
MIN_UP_LENGTH = 0.65  # that short: a face-up quad's length over the face-up tiles' median, at least
BESIDE_ROUNDS = 2  # still photos: tiles looked for beside the found ones, then beside those (README, session 20)
BESIDE_LENGTH = 0.7  # a tile found beside the others is this share of their median length at least
BESIDE_CONTEST = 0.9  # still photos: a tile the look beside finds over a found quad contends with it from this surety
BESIDE_GROWN = 1.3  # still photos: a place beside, reading face up, that the refiner grows past this many of its
# lengths into a found quad is taken as placed (seed 8128 scene 4: a 2:3 between a line's corner and the next tile,
# stretched 1.4 times onto it; at 1.2, a place across two tiles of a line was taken too, seed 5 scene 13)
BESIDE_SURE = 0.5  # still photos: a tile only the look beside found is named with this confidence at least
BACK_ROW = 4  # European backs only the look beside found are kept in a row of this many touching backs
BACKS_TOUCH = 1.2  # a European back found beside is kept within this many tile lengths of a back (centre to centre)
OTHER_LENGTH = 0.15  # a found tile this far off the median length: the tiles beside it are looked for at both
BACK_LENGTH = (0.65, 1.5)  # a face-down quad's length over that median: a tilted camera shows near tiles longer
BLOCK_RATIO = 0.8  # a quad squatter than this share of the set's tile shape may hold tiles side by side (a wall)
TILE_SHAPE = (0.8, 1.25)  # a block's pieces are tiles where their shape is within these shares of the set's
PIECE_STAYS = 0.5  # IoU of a block's piece with where the refiner moves it, at least, for the piece to be a tile
LINE_LEAST = 0.5  # the face reader's least probability of a face for each tile of a line laid out again
LINE_MARGIN = 0.1  # and how much surer of the faces on the whole than of the quads the layout replaces (0.05 took
# a layout 0.15 of a tile off in a 1920 x 1080 photo, and read a 1:2 as a 1:6)
LINE_SURE = 0.85  # unless it is this sure of every tile: then no less sure on the whole
LINE_SLIDES = (-0.03, 0.03)  # each layout also tried slid along its line by these shares of a tile's length: the
# face reader's certainty swings with a few pixels (seed 2718 scene 19's 2:4: 0.70 laid out, 0.93 slid 6 px)
PHOTO_FACE_SLIDES = (0.03,)  # still photos: the face reader reads each tile from three quads (README, session 44)
PAIR_AMONG = 3  # face-up tiles a frame needs to size a pair's tiles by (``_paired``)
PAIR_SHORT = 0.8  # a quad at most this share of the face-up tiles' median length may be one end of a pair
PAIR_SPAN = 0.25  # if it is as long as two tiles are wide, within this share
PAIR_LEAST = 0.5  # the face reader's least probability of a face for each tile of the pair
WALL_LEAST = 3  # quads side by side that make a wall, whose backs size and colour the others (``_by_walls``)
WALL_SURE = 0.85  # the refiner's mean probability of a tile over a wall's columns laid out again, at least
WALL_ENDS = (1.0, -1.0)  # still photos: backs looked for these many tiles across from a wall's columns laid out again


def _inside(quad: np.ndarray, width: int, height: int, margin: float = 1.0) -> bool:
    x, y = quad[:, 0], quad[:, 1]
    return bool((x >= margin).all() and (y >= margin).all() and (x <= width - 1 - margin).all()
                and (y <= height - 1 - margin).all())


def _whole(found: Detections, width: int, height: int) -> list[int]:
    """Indices of the found tiles neither flagged partial (covered) nor cut by the frame."""
    return [i for i, (q, partial) in enumerate(zip(found.quads, found.partial, strict=True))
            if not partial and _inside(q, width, height)]


MAX_CUT = 0.04  # a quad may reach this share of its length past the frame (a tile's rim cut off, a loose quad)


def _into_frame(quads: np.ndarray, width: int, height: int) -> np.ndarray:
    """Each of ``quads`` (... x 4 x 2) pulled into the frame where it reaches past it by at most ``MAX_CUT`` of its
    length (the frame cuts a tile's rim at most, never its pips); else as it is (and dropped as cut)."""
    quads = np.asarray(quads, np.float64)
    past = _past_frame(quads, width, height).reshape(quads.shape[:-2])
    lengths = _quad_lengths(quads)
    return np.where((past <= MAX_CUT * lengths)[..., None, None], _clipped(quads, width, height), quads
                    ).astype(np.float32)


# Still photos (``DominoRecognizer._at_edge``): a whole candidate reaching past the frame by EDGE_REACH of its length
# at most is shown to the refiner, and kept where its quad then reaches past by EDGE_MOVED at most, the refiner gives a
# tile EDGE_TILE, the tile is EDGE_LENGTH of the refined tiles' median length at least, and read alone it is named
# with EDGE_SURE at least (EDGE_LENGTH 0.9 until session 46: under a tilted camera a tile at the frame's edge was
# 0.86 of the median, seed 8128 scene 20)
EDGE_REACH, EDGE_MOVED, EDGE_TILE, EDGE_LENGTH, EDGE_SURE = 0.25, 0.08, 0.9, 0.8, 0.9


def _quad_lengths(quads: np.ndarray) -> np.ndarray:
    """``_length`` of each of ``quads`` (... x 4 x 2)."""
    quads = np.asarray(quads, np.float64)
    return (np.linalg.norm(quads[..., 3, :] - quads[..., 0, :], axis=-1)
            + np.linalg.norm(quads[..., 2, :] - quads[..., 1, :], axis=-1)) / 2


def _clipped(quads: np.ndarray, width: int, height: int) -> np.ndarray:
    """``quads`` (... x 4 x 2) with every corner moved into the frame (its pixels less a one-pixel rim)."""
    return np.clip(np.asarray(quads, np.float64), [1.0, 1.0], [width - 2.0, height - 2.0])


def _past_frame(quads: np.ndarray, width: int, height: int) -> np.ndarray:
    """How far each of ``quads`` (n x 4 x 2) reaches past the frame (``_clipped``'s), in pixels."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    return np.abs(quads - _clipped(quads, width, height)).max(axis=(1, 2))


def _pulled_in(found: Detections, width: int, height: int) -> Detections:
    """``found`` with each quad pulled into the frame where it reaches a little past it (``_into_frame``)."""
    return found.replace(quads=_into_frame(np.asarray(found.quads, np.float32).reshape(-1, 4, 2), width, height))


def whole_candidates(finder: TileFinder, image: np.ndarray, threshold: float | None = None
                     ) -> tuple[list[np.ndarray], np.ndarray]:
    """The finder's whole tiles down to heat ``threshold`` (not partial, in the frame once pulled into it), each
    tightened to its face (``refine_quad``), and their heat."""
    height, width = image.shape[:2]
    found = _pulled_in(finder(image, threshold), width, height)
    whole = _whole(found, width, height)
    return [refine_quad(image, found.quads[i]) for i in whole], found.confidence[whole]


def _length(quad: np.ndarray) -> float:
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = np.asarray(quad, float).tolist()
    return (math.hypot(x3 - x0, y3 - y0) + math.hypot(x2 - x1, y2 - y1)) / 2


def _spans(ordered: np.ndarray, sides: np.ndarray, width: np.ndarray) -> np.ndarray:
    """[i, j]: how far quad j reaches in the direction of quad i's side in ``sides``, in i's widths."""
    units = sides / np.maximum(np.linalg.norm(sides, axis=1), 1e-6)[:, None]
    return np.ptp(np.einsum("jkd,id->ijk", ordered, units), axis=2) / width[:, None]


def _apart(quads: list[np.ndarray], scores: np.ndarray) -> list[int]:
    """Indices of the quads to keep where found quads overlap: tiles on a table do not overlap in view (a wall's
    lower tile is hidden), but the finder may put a second quad on half a tile, across the touching ends of two
    tiles in a line, or round a whole row. One that holds most of two or more others is a row taken for one tile
    and goes (quads round two columns of a tile's pips, side by side, do not make it one, nor do weak quads round a
    tile's pips, far less sure than it: ``ROW_SURER``, nor boxes lying across it shorter than the frame's tiles:
    ``MEMBER_ALONG``, ``MEMBER_LENGTH``), and so does one lying in a much bigger one (half a tile, a
    column of pips) at least half as sure (``WITHIN_SURE``); of the rest, no two overlapping by more than
    ``MAX_OVERLAP`` of the smaller are kept, and the kept ones are the surest in sum (``_heaviest_apart``): a quad
    across the touching ends of two tiles may be a little surer than either tile's own, not than both."""
    n = len(quads)
    if n < 2:
        return list(range(n))
    ordered = order_quads(np.array(quads, np.float32))
    areas = quad_areas(ordered)
    lo, hi = ordered.min(axis=1), ordered.max(axis=1)
    share = np.zeros((n, n))  # share[i, j]: how much of the smaller of i and j lies in the other
    near = ((lo[:, None] < hi[None]) & (lo[None] < hi[:, None])).all(axis=-1)
    for i, j in zip(*np.nonzero(np.triu(near, 1)), strict=True):
        share[i, j] = share[j, i] = _smaller_share(ordered[i], ordered[j], areas[i], areas[j])
    much_bigger = areas[:, None] > 1.5 * areas[None, :]  # much_bigger[i, j]: i is much the bigger
    across = ordered[:, 1] - ordered[:, 0]  # each quad's short side
    width = np.maximum(np.linalg.norm(across, axis=1), 1e-6)
    reach, run = _spans(ordered, across, width), _spans(ordered, ordered[:, 3] - ordered[:, 0], width)
    # reach[i, j]: how far j spans across i, in i's widths; run[i, j]: how far along it. The tiles a row holds span
    # it, or it is squat (two tiles side by side); columns of a tile's pips span half a tile-shaped quad. And the tiles
    # of a line lie along it, those of a wall side by side across it as long as the frame's tiles are; boxes round a
    # tile's pairs of pips or its back's print lie across it and are a third as long
    lengths = np.array([_length(q) for q in ordered])
    squat = lengths < SQUAT * width
    weights = np.asarray(scores, float)
    # the frame's tile length: of the sure quads holding none (rows and a mat's zones hold tiles), else of all
    holds = (share > MAX_OVERLAP) & much_bigger  # holds[i, j]: j lies in i, much the smaller
    sure_tiles = ~holds.any(axis=1) & (weights >= SURE_LEAF)
    typical = float(np.median(lengths[sure_tiles] if sure_tiles.any() else lengths))
    tile_like = (run >= MEMBER_ALONG * reach) | squat[:, None] | (lengths >= MEMBER_LENGTH * typical)[None]
    member = holds & ((reach >= ROW_REACH) | squat[:, None]) & tile_like  # member[i, j]: j a tile of row i
    much_surer = weights[:, None] >= ROW_SURER * weights[None, :]  # much_surer[i, j]: i far surer than j
    # a quad far surer than all it holds is a tile whose pips or pieces were boxed (a 2:2's two pairs at its ends), not
    # a row: of a row's tiles the finder is sure of one at least
    tile_of_pips = ~(member & ~much_surer).any(axis=1)
    row = (member.sum(axis=1) >= 2) & ~tile_of_pips
    # a quad lying in a much bigger one (not a row) is half of that tile, or a column of its pips; unless the finder
    # was much surer of it than of the bigger one (a weak box round a printed zone holding a whole tile)
    surer = weights[None, :] >= WITHIN_SURE * weights[:, None]  # surer[i, j]: j is sure enough to hold i
    within = ((share > 0.8) & much_bigger.T & ~row[None, :] & surer).any(axis=1)
    candidates = np.flatnonzero(~row & ~within)
    clash = share[np.ix_(candidates, candidates)] > MAX_OVERLAP
    return sorted(int(candidates[i]) for i in _heaviest_apart(clash, weights[candidates]))


MAX_EXACT = 16  # quads in one cluster of overlapping ones chosen among exactly; a bigger one greedily


def _heaviest_apart(clash: np.ndarray, weights: np.ndarray) -> list[int]:
    """Indices of a set of items no two of which ``clash`` (n x n bool) with the greatest sum of ``weights``:
    exactly for each cluster of clashing items up to ``MAX_EXACT`` (they hold a few quads), else surest first."""
    kept: list[int] = []
    for group in linked_groups(np.triu(clash, 1)):  # the clusters of clashing items, apart from each other
        members = sorted(group, key=lambda i: -weights[i])
        if len(members) <= MAX_EXACT:
            kept += (_heaviest(members, [], clash, weights) or (0.0, []))[1]
            continue
        for i in members:
            if not clash[i, kept].any():
                kept.append(i)
    return kept


def _heaviest(left: list[int], chosen: list[int], clash: np.ndarray, weights: np.ndarray,
              floor: float = -1.0) -> tuple[float, list[int]] | None:
    """The heaviest set of ``chosen`` plus some of ``left`` (surest first) with no two clashing, and its weight,
    if heavier than ``floor``; else None (branch and bound: a branch that cannot beat it is cut)."""
    total = float(weights[chosen].sum())
    if total + float(weights[left].sum()) <= floor:
        return None
    if not left:
        return total, chosen
    first, rest = left[0], left[1:]
    best = _heaviest(rest, [*chosen, first], clash, weights, floor) if not clash[first, chosen].any() else None
    without = _heaviest(rest, chosen, clash, weights, best[0] if best else floor)
    return without or best


def _plausible(quads: list[np.ndarray], readings: list[TileReading], texture: bool = True,
               same_back: bool = False, lit: float = 1.0, walls: bool = False) -> list[bool]:
    """Which candidates to keep: none that holds halves of two tiles; plain ones must be of the face-up tiles'
    size, (``texture``) plain and (``same_back``: a European set is one colour all over) of their colour, and so must
    face-up ones where enough read face up to know it (``MIN_COLOURED``: a barcode's bars pass for a divider), or
    else of the colour of all the tiles read, where enough are (a printed mat's label among backs reads face up);
    with no face up, backs must be of the colour of most backs, where enough are read to know it. Where
    enough tiles read face up to know their size, a face-up one much shorter than theirs goes too: a quad round
    one column of a tile's pips, or half a tile, reads as a small double and takes a real tile's name. (A longer
    one stays: tiles nearer a tilted camera look longer.) ``lit``: the frame's exposure gain, by which a tile's
    distance from the faces' colour is taken (``_off_colour``: in a dim room a patch of dark table passed for a back
    of pink tiles). ``walls``: a Chinese set's walls of backs rule out backs too (``_by_walls``). A European set's
    few face-up tiles must first be of the colour and size of a wall of more backs, where there is one
    (``_walled_up``)."""
    keep = [not r.straddles and (not (texture and r.face_down) or r.uniformity <= MAX_TEXTURE) for r in readings]
    up = [(q, r) for q, r, k in zip(quads, readings, keep, strict=True) if k and not r.face_down]
    if same_back and up and len(up) < MIN_SIZED:
        keep = _walled_up(quads, readings, keep, lit)
        up = [(q, r) for q, r, k in zip(quads, readings, keep, strict=True) if k and not r.face_down]
    if up:
        typical = float(np.median([_length(q) for q, _ in up]))
        face = np.median([r.face for _, r in up], axis=0)
        tiles = [r.face for r, k in zip(readings, keep, strict=True) if k]
        few_up = same_back and len(up) < MIN_COLOURED <= len(tiles)  # the set's colour is then all the tiles'
        colour = np.median(tiles, axis=0) if few_up else face
        for i, (quad, reading) in enumerate(zip(quads, readings, strict=True)):
            ratio = _length(quad) / typical
            if reading.face_down and not BACK_LENGTH[0] <= ratio <= BACK_LENGTH[1]:
                keep[i] = False
            if not reading.face_down and len(up) >= MIN_SIZED and ratio < MIN_UP_LENGTH:
                keep[i] = False
            if same_back and _off_colour(reading, face, lit) and (reading.face_down or len(up) >= MIN_COLOURED):
                keep[i] = False
            if few_up and not reading.face_down and _off_colour(reading, colour):
                keep[i] = False
    elif same_back:  # backs only (a wall, a hand turned down): the set's colour is most backs', where enough are read
        down = [i for i, (r, k) in enumerate(zip(readings, keep, strict=True)) if k and r.face_down]
        if len(down) >= MIN_COLOURED:
            back = np.median([readings[i].face for i in down], axis=0)
            for i in down:
                keep[i] = not _off_colour(readings[i], back)
    if walls and not same_back:
        keep = _by_walls(quads, readings, keep, sized=not up)
    return keep


def _backs_side_by_side(quads: list[np.ndarray], readings: list[TileReading], keep: list[bool]
                        ) -> tuple[list[int], list[list[int]]]:
    """The kept backs (indices) and the groups of them lying side by side (``walls.side_by_side``), as indices."""
    down = [i for i, (r, k) in enumerate(zip(readings, keep, strict=True)) if k and r.face_down]
    return down, [[down[k] for k in group] for group in side_by_side([quads[i] for i in down])]


def _walled_up(quads: list[np.ndarray], readings: list[TileReading], keep: list[bool], lit: float) -> list[bool]:
    """``keep``, less the few face-up tiles of a European set (under ``MIN_SIZED``) that a wall of more backs than
    them (``WALL_LEAST`` or more side by side) rules out: off the wall's colour, or much shorter or longer than its
    backs (``BACK_LENGTH``). A set is one colour and one size all over, and a printed zone or label read face up
    otherwise sizes and colours every back of the frame away (seed 11 scene 16: a 1:2 boxed on a printed mat, 83 px
    long, dropped all eight backs of a wall, 160 px; README, *Domino vision*, session 45)."""
    _, walls = _backs_side_by_side(quads, readings, keep)
    wall = max(walls, key=len, default=[])
    up = [i for i, (r, k) in enumerate(zip(readings, keep, strict=True)) if k and not r.face_down]
    if len(wall) < WALL_LEAST or len(wall) <= len(up):
        return keep
    colour = np.median([readings[i].face for i in wall], axis=0)
    typical = float(np.median([_length(quads[i]) for i in wall]))
    keep = list(keep)
    for i in up:
        if _off_colour(readings[i], colour, lit) or not BACK_LENGTH[0] <= _length(quads[i]) / typical <= BACK_LENGTH[1]:
            keep[i] = False
    return keep


def _by_walls(quads: list[np.ndarray], readings: list[TileReading], keep: list[bool], sized: bool) -> list[bool]:
    """``keep``, less the backs a Chinese set's walls (``WALL_LEAST`` backs side by side) rule out: a lone back (side
    by side with no other) off the colour of each of the walls' backs (a patch of cream mat beside a wall of black
    tiles, which the refiner called a tile: seed 12345 scene 19; each back against each, and two side by side stay,
    since a lamp or glare lights a wall's backs unevenly), and (``sized``: none face up to size them) one much shorter
    or longer than the largest wall's backs (a printed zone boxed too: seed 9001 scene 12; README, *Domino vision*,
    session 40)."""
    down, groups = _backs_side_by_side(quads, readings, keep)
    stood = [group for group in groups if len(group) >= WALL_LEAST]
    if not stood:
        return keep
    walled = {i for wall in stood for i in wall}
    members = {i for group in groups for i in group}
    typical = float(np.median([_length(quads[i]) for i in max(stood, key=len)]))
    keep = list(keep)
    for i in down:
        if i not in members and all(_off_colour(readings[i], np.asarray(readings[m].face)) for m in walled):
            keep[i] = False
        if sized and not BACK_LENGTH[0] <= _length(quads[i]) / typical <= BACK_LENGTH[1]:
            keep[i] = False
    return keep


def _full_length(quads: list[np.ndarray]) -> list[np.ndarray]:
    """The quads not much shorter than the median one, where there are enough to know a tile's length (``MIN_SIZED``):
    a quad round half a tile is dropped once read (``_plausible``), so it neither lends its place to nor blocks a
    tile looked for beside the others."""
    if len(quads) < MIN_SIZED:
        return quads
    typical = float(np.median([_length(q) for q in quads]))
    return [q for q in quads if _length(q) >= MIN_UP_LENGTH * typical]


def _block_cuts(quad: np.ndarray, aspect: float) -> list[list[np.ndarray]]:
    """The ways ``quad`` may hold 2-6 tiles of about ``aspect`` side by side (``TILE_SHAPE``): cut across its length
    (each tile as long as the quad is wide) or along it (each as long as the quad), each way as the pieces list."""
    q = order_quads(np.asarray(quad, np.float32)[None])[0]  # TL, TR, BR, BL: the short side first
    ratio = 1.0 / max(quad_aspect(q), 1e-6)  # long side over short
    cuts = []
    for n in range(2, 7):
        edges = np.linspace(0.0, 1.0, n + 1)[:, None]
        if TILE_SHAPE[0] <= n / ratio / aspect <= TILE_SHAPE[1]:  # slices along the length, one tile each
            left, right = q[0] + edges * (q[3] - q[0]), q[1] + edges * (q[2] - q[1])
            cuts.append([np.array([left[k], right[k], right[k + 1], left[k + 1]], np.float32) for k in range(n)])
        if TILE_SHAPE[0] <= n * ratio / aspect <= TILE_SHAPE[1]:  # slices across the width
            top, bottom = q[0] + edges * (q[1] - q[0]), q[3] + edges * (q[2] - q[3])
            cuts.append([np.array([top[k], top[k + 1], bottom[k + 1], bottom[k]], np.float32) for k in range(n)])
    return cuts


def _pair_tiles(quad: np.ndarray, length: float) -> list[np.ndarray]:
    """The two ways a pair of tiles side by side may lie whose one end ``quad`` (ordered, as long as the pair is
    wide) covers: reaching ``length`` from its outer side across it, to either side. Each: 2 x 4 x 2, ordered."""
    quad = np.asarray(quad, np.float64)
    top, bottom = (quad[0] + quad[1]) / 2, (quad[3] + quad[2]) / 2  # the quad's short sides' middles
    half = (bottom - top) / 2  # half the pair's width, along the quad's length
    centre = (top + bottom) / 2
    normal = np.array([-half[1], half[0]]) / max(float(np.linalg.norm(half)), 1e-6)
    thick = float(np.mean(np.linalg.norm(quad[[1, 2]] - quad[[0, 3]], axis=1)))  # the quad's width
    zero = np.zeros(2)
    out = []
    for sign in (1.0, -1.0):
        outer = centre - sign * normal * thick / 2
        far = outer + sign * normal * length
        tiles = [[outer + a, outer + b, far + b, far + a] for a, b in ((-half, zero), (zero, half))]
        out.append(order_quads(np.array(tiles, np.float32)))
    return out


def _slid(pieces: np.ndarray, shares: tuple[float, ...]) -> list[np.ndarray]:
    """A line's layout (``lines.laid_out``: n ordered quads, end to end) slid along the line by each share of a
    tile's length."""
    pieces = np.asarray(pieces, np.float32)
    _, units, lengths, _ = tile_frames(pieces)
    along = line_axis(units) * float(lengths.mean())
    return [pieces + np.float32(share) * along.astype(np.float32) for share in shares]


def _straddling(image: np.ndarray, quad: np.ndarray) -> bool:
    """Whether a European tile's quad holds halves of two tiles (a divider near each end), as ``_plausible`` would
    drop it later: dropped before the look beside (``DominoRecognizer._found``), it neither seeds it nor blocks the
    tiles it lies across. Photo ``Hda20a87…`` further away: the finder boxed two "RO" backs' logos across pairs of
    backs, and those quads hid the row's other backs from the look beside (README, *Domino vision*, session 41)."""
    return read_tile(image, quad, divided=True).straddles


def _held(pieces: np.ndarray, moved: np.ndarray, tile: np.ndarray, threshold: float) -> bool:
    """Whether proposed ``pieces`` hold tiles, as the refiner saw them (``moved``, ``tile``): it calls every piece a
    tile (``threshold``) and leaves it in place (IoU ``PIECE_STAYS``: it moves a slice of a tile onto the whole
    tile), and the moved pieces do not overlap (``MAX_OVERLAP``)."""
    shared = smaller_share_matrix(moved, moved)
    np.fill_diagonal(shared, 0.0)
    return bool(tile.min() >= threshold and np.diag(iou_matrix(moved, pieces)).min() >= PIECE_STAYS
                and shared.max() <= MAX_OVERLAP)


def _contested(quads: list[np.ndarray], kept: list[int], weights: np.ndarray,
               contenders: list[tuple[np.ndarray, float]]) -> tuple[list[np.ndarray], list[int], int]:
    """The kept quads and the contenders the look beside found over them, the surest in sum of those apart
    (``_heaviest_apart``): a quad across the touching ends of two tiles of a line, or of a wall, gives way to the
    two tiles the refiner is sure of there. Returns the quads (the contenders that won appended), the kept
    indices, and how many were appended."""
    pool = [quads[i] for i in kept] + [q for q, _ in contenders]
    scores = np.concatenate([weights[kept], [w for _, w in contenders]])
    clash = smaller_share_matrix(np.array(pool, np.float32), np.array(pool, np.float32)) > MAX_OVERLAP
    np.fill_diagonal(clash, False)
    chosen = set(_heaviest_apart(clash, scores))
    won = [q for k, (q, _) in enumerate(contenders) if len(kept) + k in chosen]
    kept = [i for k, i in enumerate(kept) if k in chosen] + list(range(len(quads), len(quads) + len(won)))
    return quads + won, kept, len(won)


def _lengths(quad: np.ndarray, typical: float | None) -> tuple[float | None, ...]:
    """The lengths a tile beside ``quad`` is looked for at: its own (None), and ``typical`` where that differs from
    it by more than ``OTHER_LENGTH``."""
    if typical is None or abs(typical / max(_length(quad), 1e-6) - 1.0) <= OTHER_LENGTH:
        return (None,)
    return (None, typical)


def _neighbour(quad: np.ndarray, along: float, across: float, length: float | None = None) -> np.ndarray:
    """The place of the tile beside ``quad``: ``along`` tiles along it and ``across`` tiles across it, ``length`` long
    (default: as long as ``quad``), so that its end meets ``quad``'s."""
    q = order_quads(np.asarray(quad, np.float32)[None])[0]
    own = max(_length(q), 1e-6)
    length = length or own
    moved = shifted(q, along * (own + length) / (2 * own), across)
    half = ((moved[3] + moved[2]) - (moved[0] + moved[1])) / 4  # the centre to the middle of the far end
    grow = (length / own - 1.0) * half
    return np.array([moved[0] - grow, moved[1] - grow, moved[2] + grow, moved[3] + grow], np.float32)


def _crossing(quad: np.ndarray, way: float) -> np.ndarray:
    """The place of a tile laid across ``quad``'s line past one end (``way`` 1 or -1): a double crossing a line of
    play, or the tile of a junction. It is as long and as wide as ``quad``, turned a quarter, centred on the line, its
    long side against ``quad``'s end."""
    q = order_quads(np.asarray(quad, np.float32)[None])[0]
    along = (q[3] + q[2] - q[0] - q[1]) / 2  # from the near end's middle to the far end's
    across = (q[1] + q[2] - q[0] - q[3]) / 2  # as the quad's own sides run (under a slant, not square to along)
    length, width = max(float(np.linalg.norm(along)), 1e-6), max(float(np.linalg.norm(across)), 1e-6)
    u, v = along / length, across / width
    centre = q.mean(axis=0) + way * (length + width) / 2 * u
    half_long, half_wide = length / 2 * v, width / 2 * u
    return np.array([centre - half_long - half_wide, centre + half_long - half_wide,
                     centre + half_long + half_wide, centre - half_long + half_wide], np.float32)


def _at_seams(quad: np.ndarray, seams: tuple[float, ...], length: float) -> list[np.ndarray]:
    """The two tiles a quad across the touching ends of two tiles holds halves of: each ``length`` long, centred on
    one of its dividers (``seams``: shares of the quad's length from its top end)."""
    tl, tr, br, bl = np.asarray(quad, np.float32)
    along = (bl - tl) + (br - tr)
    along *= length / 2 / max(float(np.linalg.norm(along)), 1e-6)
    tiles = []
    for seam in seams:
        left, right = tl + seam * (bl - tl), tr + seam * (br - tr)
        tiles.append(np.array([left - along, right - along, right + along, left + along], np.float32))
    return tiles


def _split(image: np.ndarray, quads: list[np.ndarray], readings: list[TileReading], keep: list[bool],
           dropped: list[np.ndarray]) -> tuple[list[np.ndarray], list[TileReading], list[bool]]:
    """Quads across the touching ends of two tiles (among those read, or ``dropped`` for overlapping kept ones: they
    hold halves of two) give way to the two tiles, each as long as the tiles read face up, centred on its divider:
    kept when it reads face up with its divider, lies in the frame, and is not a kept tile again (overlapping one by
    more than ``MAX_OVERLAP``), of the colour of the quad it came from (a tile's quad reaching past both its ends onto
    table has bars near both ends too, and the tiles centred on them lie half on table), and, where enough tiles read
    face up to know it (``MIN_COLOURED``), of their colour (a barcode's bars pass for dividers). A European set only:
    a Chinese tile has no divider."""
    up = [(q, r) for q, r, k in zip(quads, readings, keep, strict=True) if k and not r.face_down]
    if not up:
        return quads, readings, keep
    faces = np.median([r.face for _, r in up], axis=0)
    coloured = len(up) >= MIN_COLOURED
    read_dropped = [read_tile(image, q) for q in dropped]
    across = [(q, r.seams, np.asarray(r.face)) for q, r in zip(quads + dropped, readings + read_dropped, strict=True)
              if r.seams]
    length = float(np.median([_length(q) for q, _ in up]))
    height, width = image.shape[:2]
    kept = [q for q, k in zip(quads, keep, strict=True) if k]
    added: list[tuple[np.ndarray, TileReading]] = []
    for quad, seams, colour in across:
        for tile in _at_seams(quad, seams, length):
            if not _inside(tile, width, height) or _overlaps(tile, kept + [q for q, _ in added]):
                continue
            reading = read_tile(image, tile)
            if (reading.divider and not reading.face_down and not reading.straddles
                    and not _off_colour(reading, colour) and not (coloured and _off_colour(reading, faces))):
                added.append((tile, reading))
    return quads + [q for q, _ in added], readings + [r for _, r in added], keep + [True] * len(added)


def _touching(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two tiles touch: centres at most ``BACKS_TOUCH`` of their mean length apart."""
    return bool(np.linalg.norm(a.mean(axis=0) - b.mean(axis=0)) <= BACKS_TOUCH * (_length(a) + _length(b)) / 2)


def _backs_in_touch(quads: list[np.ndarray], face_down: list[bool], beside: list[bool]) -> list[bool]:
    """Which tiles to keep: all but the backs found only by the look beside (``beside``) that no chain of touching
    backs links to a back found otherwise, unless their chain holds ``BACK_ROW`` backs. A European back is a plain
    tile of the set's colour, and so is a patch of table beside a face-up tile under some light; the backs a
    finder misses lie in a row or a wall of backs (README, sessions 22 and 32). Touching: ``_touching``."""
    down = [i for i, d in enumerate(face_down) if d]
    keep = [not (b and d) for b, d in zip(beside, face_down, strict=True)]
    seen: set[int] = set()
    for start in down:
        if start in seen:
            continue
        group, todo = {start}, [start]
        while todo:
            i = todo.pop()
            for j in down:
                if j not in group and _touching(quads[i], quads[j]):
                    group.add(j)
                    todo.append(j)
        seen |= group
        if len(group) >= BACK_ROW or any(not beside[i] for i in group):
            for i in group:
                keep[i] = True
    return keep


def _only_more_looks(quads: list[np.ndarray], whole: list[int], kept: list[int], usual_gone: list[int], usual: int
                     ) -> list[bool]:
    """For each kept quad, whether only the more looks found its tile: a more look's quad that a usual look's
    candidate on the same tile gave way to (``_apart`` keeps the surer; ``SAME_TILE``) was found by both."""
    extra = np.array([whole[i] >= usual for i in kept], bool)
    if extra.any() and usual_gone:
        found_too = _overlapping([quads[kept[k]] for k in np.flatnonzero(extra)], [quads[j] for j in usual_gone],
                                 SAME_TILE)
        extra[np.flatnonzero(extra)[found_too]] = False
    return extra.tolist()


def _overlaps(quad: np.ndarray, others: list[np.ndarray]) -> bool:
    """Whether ``quad`` overlaps any of ``others`` by more than ``MAX_OVERLAP`` of the smaller."""
    return bool(_overlapping([quad], others)[0])


def _overlapping(quads: list[np.ndarray], others: list[np.ndarray], share: float = MAX_OVERLAP) -> np.ndarray:
    """For each of ``quads``, whether it overlaps any of ``others`` by more than ``share`` of the smaller (bounding
    boxes first: most pairs are far apart)."""
    out = np.zeros(len(quads), bool)
    if not quads or not others:
        return out
    a, b = order_quads(np.array(quads, np.float32)), order_quads(np.array(others, np.float32))
    area_a, area_b = quad_areas(a), quad_areas(b)
    lo_a, hi_a, lo_b, hi_b = a.min(1), a.max(1), b.min(1), b.max(1)
    near = ((lo_a[:, None] < hi_b[None]) & (lo_b[None] < hi_a[:, None])).all(-1)
    for i, j in zip(*np.nonzero(near), strict=True):
        if not out[i] and _smaller_share(a[i], b[j], area_a[i], area_b[j]) > share:
            out[i] = True
    return out


def _smaller_share(a: np.ndarray, b: np.ndarray, area_a: float, area_b: float) -> float:
    """How much of the smaller of two ordered quads lies in the other."""
    return convex_intersection(a, b) / max(min(area_a, area_b), 1e-6)


def _lab_distance(a: tuple[float, float, float] | np.ndarray, b: tuple[float, float, float] | np.ndarray) -> float:
    return float(np.linalg.norm((np.asarray(a) - np.asarray(b)) * np.array([0.5, 1.0, 1.0])))


def _off_colour(reading: TileReading, colour: np.ndarray, lit: float = 1.0) -> bool:
    """Whether a tile read so is not of a European set's ``colour`` (its faces' or backs'): a set is one colour.
    ``lit``: the gain that would bring the frame to a room's light; a dim frame brings all colours near black and so
    near each other, and their distance is taken as that light would show it."""
    return _lab_distance(reading.face, colour) * lit > MAX_BACK_COLOUR


def _observation(quad: np.ndarray, reading: TileReading, named: Resolved) -> TileObservation:
    if named.face_down:
        return TileObservation(None, None, quad, named.confidence, face_down=True)
    colours = (reading.top.colour, reading.bottom.colour)
    if named.flipped:  # turn the quad so the lower number's half comes first
        quad = np.roll(quad, 2, axis=0)
        colours = colours[::-1]
    if named.face is None:
        return TileObservation(None, None, quad, named.confidence, colours=colours)
    pips = (min(named.face), max(named.face))
    return TileObservation(face_code(named.face), pips, quad, named.confidence, colours=colours)


@dataclass
class DominoRecognizer:
    """Reads tiles against ``tile_set`` ("chinese" or "double-six"). ``learned``: find tiles with the learned
    finder (``model_path``, default the shipped model; ``threads`` for onnxruntime; ``more_looks``, its looks
    for still photos), else with the classical one (``finder`` knobs)."""

    tile_set: str = "double-six"
    finder: FinderParams = field(default_factory=FinderParams)
    learned: bool = True
    model_path: str | Path | None = None
    threads: int = 1
    more_looks: MoreLooks | None = None  # still photos: PHOTO_LOOKS (see the module docstring)
    refiner: bool | None = None  # the candidates checked and moved onto their tiles (``TileRefiner``): REFINER
    refiner_model: str | Path | None = None  # if not the live table's refiner (``TileRefiner.PHOTO_MODEL``)
    candidate_heat: float = CANDIDATE_HEAT  # the least heat of a candidate the refiner is shown
    neighbours: bool = False  # tiles beside the found ones checked too (``_beside``; still photos)
    passes: int = LIVE_PASSES  # the refiner's looks at each candidate (still photos: PHOTO_PASSES)
    face_reader: bool = True  # each tile's face also named by the face reader (``FaceReader``), beside its pips
    face_slides: tuple[float, ...] = ()  # and read from its quad slid these shares of its length either way too,
    # averaged (``FaceReader.slides``; still photos: PHOTO_FACE_SLIDES)
    seams: bool = True  # line tiles' quads pulled apart or slid along where the face reader is surer (``seams``)
    refit: bool = False  # and doubted quads off the frame's shape made that shape (``seams.refit``; still photos)
    nudge: bool = False  # and doubted tiles by another nudged where both readers are surer (``seams.nudged``; photos)
    relook: bool = False  # and doubted tiles shown to the refiner again (``seams.relooked``; still photos)
    contest: bool = False  # tiles found beside over a found quad contend with it (``_contested``; photos, Chinese)
    relay: bool = False  # runs of tiles whose quads slipped along their line laid out again (``_relaid``; photos)
    close_sure: float | None = None  # the close-up look also where the usual one is weak, if it is this sure (photos)
    coarse: bool = False  # a coarser look's tiles stand in for pieces of them (``_pieces_joined``; European photos)
    edge: bool = False  # whole tiles whose loose quads reach past the frame looked at again (``_at_edge``; photos)
    walls: bool = False  # tiles side by side laid out again across the block they make (``_walls_laid``; photos)
    crossing: bool = False  # the look beside also looks across each end of a found tile (``_crossing``; photos)
    pairs: bool = False  # a short quad across the ends of two tiles side by side laid out as the two (``_paired``;
    # photos, Chinese sets)
    wall_sized: bool = False  # walls of backs size and colour the frame's other backs (``_up_as_backs``,
    # ``_by_walls``; photos, Chinese sets)
    doubted_alone: bool = False  # where few tiles read face up, those the refiner doubts go (``_undoubted``; still
    # photos: on the live table it cost one rendered deal 15 of its 31 moves, README, session 36)

    def __post_init__(self) -> None:
        self._set = domino_set(self.tile_set)
        if self.refiner is None:
            self.refiner = REFINER[self.tile_set]
        if self.finder == FinderParams():
            self.finder = FinderParams(aspect=ASPECTS[self.tile_set])
        self._learned = TileFinder(self.model_path, threads=self.threads) if self.learned else None
        self._refiner = TileRefiner(self.refiner_model, self.threads) if self.learned and self.refiner else None
        if self._refiner is not None:
            self._refiner.passes = self.passes
        self._faces = (FaceReader.for_set(self.tile_set, self.threads, self.face_slides)
                       if self.learned and self.face_reader else None)

    @classmethod
    def for_photos(cls, tile_set: str = "double-six", **knobs: Any) -> DominoRecognizer:
        """The recogniser for still photos (``kibitz recognize --dominoes``, ``eval-vision --dominoes``): the finer
        look, the refiner for either set with two looks (a Chinese set's the photo refiner), squat quads cut into the
        tiles side by side they hold (``_blocks_split``), tiles beside the found ones looked for, doubted quads off
        the frame's shape refitted and doubted tiles by another nudged, lines whose quads slipped laid out again
        (``_relaid``), a Chinese set's pairs side by side across a line's end (``_paired``), each face read from
        three slid crops (``face_slides``), on top of the live table's recogniser; ``knobs`` as for the class."""
        photo = {"more_looks": PHOTO_LOOKS, "passes": PHOTO_PASSES, "neighbours": True, "refiner": True, "refit": True,
                 "nudge": True, "contest": domino_set(tile_set).chinese, "relay": True, "close_sure": CLOSE_SURE,
                 "coarse": not domino_set(tile_set).chinese, "doubted_alone": True, "edge": True, "relook": True,
                 "walls": True, "wall_sized": domino_set(tile_set).chinese, "crossing": True,
                 "pairs": domino_set(tile_set).chinese, "face_slides": PHOTO_FACE_SLIDES,
                 "refiner_model": shipped_model_path(TileRefiner.PHOTO_MODEL) if domino_set(tile_set).chinese else None}
        return cls(tile_set, **(photo | knobs))

    def find(self, image: np.ndarray) -> list[np.ndarray]:
        """Quads of the whole tiles in view (TL, TR, BR, BL, long side from top to bottom), frame pixels."""
        return self._find(image)[0]

    def _find(self, image: np.ndarray) -> tuple[list[np.ndarray], list[bool]]:
        """``find``'s quads, and which of them only the more looks found."""
        quads, extra, _, _ = self._found(image)
        return quads, extra

    def _found(self, image: np.ndarray) -> tuple[list[np.ndarray], list[bool], list[bool], list[np.ndarray]]:
        """``_find``'s quads and flags, which of them only the look beside found (``_beside``), and the whole quads
        dropped for overlapping kept ones (one across the touching ends of two tiles among them: ``_split``)."""
        height, width = image.shape[:2]
        if self._learned is None:
            quads = [q for q in find_tiles(image, self.finder) if _inside(q, width, height)]
            return quads, [False] * len(quads), [False] * len(quads), []
        found = self._learned(image, self.candidate_heat if self._refiner is not None else None)
        if self.coarse:
            found = self._pieces_joined(image, found)
        usual = len(found)  # the usual look's detections come first, the more looks' after them
        if self.more_looks is not None:  # what they find where the usual look found nothing sure
            sure = found[found.confidence >= self._learned.heat_threshold]
            looks = self._looks_for(sure, self._learned.input_scale(width, height))
            if looks is not None:
                found = Detections.concatenate([found, looks(self._learned, image, sure)])
        found = _pulled_in(found, width, height)
        whole = _whole(found, width, height)
        close = not any(found.confidence[i] >= self._learned.heat_threshold for i in whole)
        near = None
        if not close and self.close_sure is not None and max(found.confidence[whole]) < CLOSE_WEAK:
            near = _pulled_in(self._learned.close_up(image), width, height)  # pieces of a tile filling the frame?
            close = bool(len(near)) and float(near.confidence.max()) >= self.close_sure
        if close:  # nothing whole at the usual scale: a tile or two may fill the frame
            found = near if near is not None else _pulled_in(self._learned.close_up(image), width, height)
            usual = len(found)  # the close-up look stands in for the usual one
            whole = _whole(found, width, height)
            if self._set.chinese and len(whole) > 1:
                whole = []  # without a divider, a band of a big tile's pips passes for a tile: one tile or none
        confidence = found.confidence[whole]
        refined = self._refiner is not None and not close
        if refined:  # the refiner sees the tile finer than tightening it to the face would
            quads, whole, confidence = self._refined(image, [found.quads[i] for i in whole], whole, confidence)
        else:  # each quad is read as found: tightened to its face first
            quads = [refine_quad(image, found.quads[i]) for i in whole]
        at_edge: list[np.ndarray] = []
        if self.edge and refined:
            at_edge, sure = self._at_edge(image, found, whole, quads, confidence)
            quads, whole, confidence = quads + at_edge, whole + [-1] * len(at_edge), np.append(confidence, sure)
        kept = _apart(quads, confidence)
        if self.neighbours and refined:
            if not self._set.chinese:
                kept = [i for i in kept if not _straddling(image, quads[i])]
            quads, whole, kept = self._blocks_split(image, quads, whole, kept)
            beside, contenders = self._beside(image, [quads[i] for i in kept], at_edge)
            kept += range(len(quads), len(quads) + len(beside))
            quads, whole = quads + beside, whole + [-1] * len(beside)
            if contenders:  # the block's pieces and the tiles beside count as sure against them
                weights = np.concatenate([confidence, np.ones(len(quads) - len(confidence))])
                quads, kept, won = _contested(quads, kept, weights, contenders)
                whole = whole + [-1] * won
        if self.walls and refined:
            laid_from = len(quads)
            quads, whole, kept = self._walls_laid(image, quads, whole, kept, usual)
            ends = self._wall_ends(image, [quads[i] for i in kept if i >= laid_from], [quads[i] for i in kept])
            kept += range(len(quads), len(quads) + len(ends))
            quads, whole = quads + ends, whole + [-1] * len(ends)
        gone = set(range(len(quads))) - set(kept)
        dropped = [quads[i] for i in sorted(gone)]
        extra = _only_more_looks(quads, whole, kept, [j for j in sorted(gone) if 0 <= whole[j] < usual], usual)
        return [quads[i] for i in kept], extra, [whole[i] < 0 for i in kept], dropped

    def _at_edge(self, image: np.ndarray, found: Detections, whole: list[int], quads: list[np.ndarray],
                 confidence: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
        """Whole tiles lying against the frame's edge whose candidates reach past it (a loose quad, a tenth of a
        tile long past a tile the frame does not cut, was dropped as cut; README, session 39), and the refiner's
        probability of each: the candidates reaching past by ``EDGE_REACH`` at most that the refiner moves onto a
        tile (``EDGE_TILE``) lying in the frame (``EDGE_MOVED``), clear of ``quads`` (the refined ones) and as long
        as they are (``EDGE_LENGTH``), and named surely when read alone (``EDGE_SURE``). A tile the frame cuts is
        moved onto what shows of it, shorter, or read as another face or without surety."""
        assert self._refiner is not None
        height, width = image.shape[:2]
        sure = [q for q, c in zip(quads, confidence, strict=True) if c >= self._refiner.threshold]
        taken = set(whole)
        reach = _past_frame(found.quads, width, height)
        near = [i for i in range(len(found)) if i not in taken and not found.partial[i]
                and 0 < reach[i] <= EDGE_REACH * _length(found.quads[i])]
        if not near or not sure:
            return [], np.zeros(0, np.float32)
        typical = float(np.median([_length(q) for q in sure]))
        moved, tile = self._refiner(image, np.array([found.quads[i] for i in near], np.float32))
        placed = (tile >= EDGE_TILE) & (_past_frame(moved, width, height) <= EDGE_MOVED * _quad_lengths(moved))
        inside = _clipped(moved, width, height).astype(np.float32)
        out: list[np.ndarray] = []
        likely: list[float] = []
        for quad, tile_there, p in zip(inside, placed, tile, strict=True):
            if (tile_there and _length(quad) >= EDGE_LENGTH * typical and not _overlaps(quad, quads + out)
                    and self._read_alone(image, quad).confidence >= EDGE_SURE):
                out.append(quad)
                likely.append(float(p))
        return out, np.array(likely, np.float32)

    def _walls_laid(self, image: np.ndarray, quads: list[np.ndarray], whole: list[int], kept: list[int], usual: int
                    ) -> tuple[list[np.ndarray], list[int], list[int]]:
        """Kept quads lying side by side (``walls.side_by_side``) replaced by the columns of the block they make
        (``walls.wall_layouts``), where the refiner calls each column a tile and leaves it in place (``_held``), is
        sure of them on the whole (``WALL_SURE``), they overlap no other kept quad and all read face down: of the
        layouts that hold, the one it is surest of. The columns count as found by the usual look where a quad they
        replace was (``usual``: how many of ``whole``'s indices are its), else as found beside."""
        assert self._refiner is not None
        height, width = image.shape[:2]
        for group in side_by_side([quads[i] for i in kept]):
            members = [kept[k] for k in group]
            others = [quads[i] for i in kept if i not in members]
            best, surest = None, WALL_SURE
            for columns in wall_layouts([quads[i] for i in members]):
                if not all(_inside(q, width, height) for q in columns):
                    continue
                moved, tile = self._refiner(image, columns)
                if (_held(columns, moved, tile, self._refiner.threshold) and float(tile.mean()) >= surest
                        and not _overlapping(list(moved), others).any()
                        and all(read_tile(image, q, divided=not self._set.chinese).face_down for q in moved)):
                    best, surest = list(moved), float(tile.mean())
            if best is not None:
                source = min((whole[i] for i in members if 0 <= whole[i] < usual), default=-1)
                kept = [i for i in kept if i not in members] + list(range(len(quads), len(quads) + len(best)))
                quads, whole = quads + best, whole + [source] * len(best)
        return quads, whole, kept

    def _wall_ends(self, image: np.ndarray, columns: list[np.ndarray], blocking: list[np.ndarray]
                   ) -> list[np.ndarray]:
        """Backs beside a wall's ``columns`` (``_walls_laid``), clear of the kept quads (``blocking``): each column
        moved a tile across either way (``WALL_ENDS``), where the refiner calls it a tile and it reads face down. The
        look beside ran from the quads the wall replaced, which lay across its seams; from the columns, laid out
        evenly, a wall's last back is a tile across (seed 12345 scene 11: a wall of seven, its last back missed;
        README, *Domino vision*, session 45). Along a column lies no back of the wall (there, a mat's marker read as a
        0:5)."""
        assert self._refiner is not None
        height, width = image.shape[:2]
        proposals = [p for q in columns for p in (_neighbour(q, 0.0, way) for way in WALL_ENDS)
                     if _inside(p, width, height)]
        proposals = [p for p, clash in zip(proposals, _overlapping(proposals, blocking), strict=True) if not clash]
        if not proposals:
            return []
        moved, tile = self._refiner(image, np.array(proposals, np.float32))
        clash = _overlapping(list(moved), blocking)
        sure = [i for i in range(len(moved)) if tile[i] >= self._refiner.threshold and not clash[i]
                and _inside(moved[i], width, height)
                and read_tile(image, moved[i], divided=not self._set.chinese).face_down]
        return [moved[sure[k]] for k in _apart([moved[i] for i in sure], tile[sure])]

    def _up_as_backs(self, image: np.ndarray, quads: list[np.ndarray], readings: list[TileReading]
                     ) -> list[TileReading]:
        """The readings, the face-up ones turned face down where they are few (under ``MIN_SIZED``), the face reader
        calls each a back (as ``resolve`` will) and tiles stand in a wall (``WALL_LEAST`` side by side). Seed 9001
        scene 12 (README, *Domino vision*, session 40): a printed PLAYER 1 zone read face up, 220 px long, was the
        frame's only face-up tile, and every back of a dark wall, 100 px long, went as too small (``_plausible``). A
        playing card's pips boxed as backs lie apart, in no wall, and its face-up box still sizes them."""
        assert self._faces is not None
        up = [i for i, r in enumerate(readings) if not r.face_down]
        if not up or len(up) >= MIN_SIZED:
            return readings
        if max(map(len, side_by_side(quads)), default=0) < WALL_LEAST:  # a back read face up may stand in it
            return readings
        seen = self._faces(image, np.array([quads[i] for i in up], np.float32))
        if not all(face_down([readings[i] for i in up], self._set, seen)):
            return readings
        return [replace(r, face_down=True) for r in readings]

    def _read_alone(self, image: np.ndarray, quad: np.ndarray) -> Resolved:
        """One tile read by both readers and named on its own, not with the frame's other tiles."""
        seen = self._faces(image, quad[None].astype(np.float32)) if self._faces is not None else None
        return resolve([read_tile(image, quad, divided=not self._set.chinese)], self._set, seen)[0]

    def _pieces_joined(self, image: np.ndarray, found: Detections) -> Detections:
        """``found`` with the tiles a coarser look is sure of (``COARSE_ZOOM``, ``COARSE_SURE``, one tile's shape)
        standing in for the sure quads of the usual look they hold as pieces (``PIECES_LEAST``, ``PIECE_AREA``), in a
        photo of a few tiles (``COARSE_MOST``). A tile lying square to the frame, big in it, may be boxed as upright
        tiles of a column of pips each; at a coarser scale it is one tile again. Its divider tells it from a hand of
        tiles side by side, which the coarse look may box as one: each of those has a divider across its middle, and
        an end piece of a tile has none (a middle piece may seem to)."""
        sure = [i for i in range(len(found)) if found.confidence[i] >= self._learned.heat_threshold]
        if not sure or len(sure) > COARSE_MOST:
            return found
        coarse = self._learned.other_look(image, zoom=COARSE_ZOOM, threshold=COARSE_SURE)
        areas, centres, coarse_areas = quad_areas(found.quads), found.quads.mean(axis=1), quad_areas(coarse.quads)
        gone: set[int] = set()
        joined: list[int] = []
        for k, quad in enumerate(coarse.quads):
            if coarse.partial[k] or not TILE_ASPECT[0] <= quad_aspect(quad) <= TILE_ASPECT[1]:
                continue
            outline = quad.astype(np.float32).reshape(-1, 1, 2)
            pieces = [i for i in sure if i not in gone and areas[i] < PIECE_AREA * coarse_areas[k]
                      and cv2.pointPolygonTest(outline, tuple(map(float, centres[i])), False) > 0]
            if len(pieces) >= PIECES_LEAST and self._divided(image, quad) and not all(
                    self._divided(image, found.quads[i]) for i in pieces):
                gone |= set(pieces)
                joined.append(k)
        if not joined:
            return found
        kept = np.array([i not in gone for i in range(len(found))])
        return Detections.concatenate([found[kept], coarse[np.array(joined)]])

    @staticmethod
    def _divided(image: np.ndarray, quad: np.ndarray) -> bool:
        """Whether a European tile's divider lies across ``quad``'s middle: a tile's pieces have none."""
        return read_tile(image, quad, divided=True).divider

    def _looks_for(self, sure: Detections, scale: float) -> MoreLooks | None:
        """The more looks at whose zoom the tiles the usual look is sure of are not too long for the model
        (``MAX_LOOK_LENGTH``; all of them where it is sure of none), or None."""
        if self.more_looks is None or not len(sure):
            return self.more_looks
        typical = float(np.median([_length(q) for q in sure.quads])) * scale
        looks = tuple(look for look in self.more_looks.looks if typical * look.zoom <= MAX_LOOK_LENGTH)
        return MoreLooks(looks, self.more_looks.max_overlap) if looks else None

    def _refined(self, image: np.ndarray, quads: list[np.ndarray], whole: list[int], heat: np.ndarray
                 ) -> tuple[list[np.ndarray], list[int], np.ndarray]:
        """The candidates the refiner calls whole tiles, moved onto the tile each is about, with its probability as
        their confidence, and the finder's sure candidates where it does not (as found, with their heat: on real
        photos it has doubted tiles the finder was sure of). A candidate longer than the refiner has seen
        (``MAX_REFINED``) keeps its quad, and is kept when sure; so is one the refiner moves to such a length (in a
        dim close-up it moved a weak candidate into a slanted quad across a tile the finder was sure of)."""
        assert self._refiner is not None and self._learned is not None
        height, width = image.shape[:2]
        sure = heat >= self._learned.heat_threshold
        small = [i for i, q in enumerate(quads) if _length(q) <= MAX_REFINED * min(width, height)]
        candidates = np.array([quads[i] for i in small], np.float32).reshape(-1, 4, 2)
        moved, tile = self._refiner(image, candidates)
        out = [(quads[i], whole[i], float(heat[i])) for i in sorted(set(range(len(quads))) - set(small)) if sure[i]]
        # a quad moved longer than the refiner knows is no more its own than the candidates it is not shown
        there = (tile >= self._refiner.threshold) & (_quad_lengths(moved) <= MAX_REFINED * min(width, height))
        pulled = _into_frame(np.where(there[:, None, None], moved, candidates), width, height)
        for i, quad, likely, tile_there in zip(small, pulled, tile, there, strict=True):
            if (tile_there or sure[i]) and _inside(quad, width, height):
                out.append((quad, whole[i], float(likely if tile_there else heat[i])))
        return [q for q, _, _ in out], [w for _, w, _ in out], np.array([c for _, _, c in out], np.float32)

    def _blocks_split(self, image: np.ndarray, quads: list[np.ndarray], whole: list[int], kept: list[int]
                      ) -> tuple[list[np.ndarray], list[int], list[int]]:
        """Kept quads round a block of tiles side by side (a wall of backs seen as one squat tile) replaced by the
        tiles: each quad squatter than a tile (``BLOCK_RATIO``) is cut into 2-6 pieces across either way where the
        pieces would have a tile's shape (``TILE_SHAPE``), and a cut whose every piece the refiner calls a tile and
        leaves where it was (IoU ``PIECE_STAYS``; a slice of one squat tile is moved onto the whole tile), clear of the
        other kept quads and all face up or all face down (``_alike``: a tile on a mat's marker makes a squat quad
        too), stands in for the quad; of several, the one the refiner is surest of."""
        assert self._refiner is not None
        squat = [i for i in kept if quad_aspect(quads[i]) * BLOCK_RATIO * ASPECTS[self.tile_set] > 1.0]
        cuts = [(i, pieces) for i in squat for pieces in _block_cuts(quads[i], ASPECTS[self.tile_set])]
        if not cuts:
            return quads, whole, kept
        proposals = np.array([p for _, pieces in cuts for p in pieces], np.float32)
        moved, tile = self._refiner(image, proposals)
        best: dict[int, tuple[float, list[np.ndarray]]] = {}
        start = 0
        for i, pieces in cuts:
            span = slice(start, start + len(pieces))
            start += len(pieces)
            placed = list(moved[span])
            others = [quads[k] for k in kept if k != i]
            if (not _held(np.array(pieces), moved[span], tile[span], self._refiner.threshold)
                    or _overlapping(placed, others).any() or not self._alike(image, placed)):
                continue
            score = float(tile[span].mean())
            if score > best.get(i, (-1.0, []))[0]:
                best[i] = (score, placed)
        for i, (_, placed) in best.items():
            kept = [k for k in kept if k != i] + list(range(len(quads), len(quads) + len(placed)))
            quads, whole = quads + placed, whole + [whole[i]] * len(placed)
        return quads, whole, kept

    def _alike(self, image: np.ndarray, tiles: list[np.ndarray]) -> bool:
        """Whether ``tiles`` are all face down or all face up, as the recogniser will read them (a block's pieces: a
        wall of backs, a row of faces; a tile on a mat's marker and the marker beside it are not one block)."""
        readings = [read_tile(image, q, divided=not self._set.chinese) for q in tiles]
        seen = self._faces(image, np.array(tiles, np.float32)) if self._faces is not None else None
        down = face_down(readings, self._set, seen)
        return all(down) or not any(down)

    def _beside(self, image: np.ndarray, tiles: list[np.ndarray], not_from: list[np.ndarray] | None = None
                ) -> tuple[list[np.ndarray], list[tuple[np.ndarray, float]]]:
        """Tiles the finder missed beside the found ones (``neighbours``): in a line of play or a wall the finder
        may see a strip where the tiles are, and miss one of them outright. Each found tile is moved a tile along
        and a tile across either way; what the refiner then calls a tile, clear of the found ones, is one. Then the
        same from the tiles so found (``BESIDE_ROUNDS``): a line may lose its last two tiles. Also the contenders
        (with ``contest``): tiles so found that the refiner is sure of (``BESIDE_CONTEST``) but that overlap a found
        quad, each with that surety (``_contested``). The tiles of ``not_from`` (those ``_at_edge`` found) are not
        looked beside: a strip of tile side by one passed for a back."""
        blocking = _full_length(tiles)
        typical = float(np.median([_length(q) for q in blocking])) if len(blocking) >= MIN_SIZED else None
        added: list[np.ndarray] = []
        contenders: list[tuple[np.ndarray, float]] = []
        sources = [q for q in blocking if not any(np.array_equal(q, other) for other in not_from or [])]
        for _ in range(BESIDE_ROUNDS):
            new, contest = self._beside_once(image, sources, blocking + added, typical)
            contenders += contest
            if not new:
                break
            sources, added = new, added + new
        return added, contenders

    def _beside_once(self, image: np.ndarray, sources: list[np.ndarray], blocking: list[np.ndarray],
                     typical: float | None = None) -> tuple[list[np.ndarray], list[tuple[np.ndarray, float]]]:
        """One round of ``_beside``: tiles a tile from ``sources``, clear of ``blocking``, and the contenders;
        ``typical``: a tile's length, where known (a source quad too short or long would pass its error on to the tile
        beside it, but under a tilted camera tiles along the tilt look shorter: both are tried, and the refiner's surer
        kept). With ``crossing``, also a tile laid across each end (``_crossing``): it must read face up and as a
        double, as tiles laid across a line are (``_doubles``: a playing card's figure passed for a 2:3 and a 0:2
        there; the face reader alone named doubles on five backs of ``ivory-chinese`` seed 2026), and it never
        contends with a found quad (at a corner it took the quad of the tile it crossed, which then read another face:
        seed 123 scene 16). A place open as proposed that the refiner stretches into a found quad (``BESIDE_GROWN``)
        is taken as proposed where it reads face up: between a line's corner and the next tile, no seam shows the
        refiner where a tile ends (backs so taken were pieces of playing cards)."""
        assert self._refiner is not None
        height, width = image.shape[:2]
        proposals = [_neighbour(q, along, across, length) for q in sources for length in _lengths(q, typical)
                     for along, across in ((1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0))]
        crossed = [False] * len(proposals)
        if self.crossing:
            proposals += [_crossing(q, way) for q in sources for way in (1.0, -1.0)]
            crossed += [True] * (len(proposals) - len(crossed))
        inside = [_inside(p, width, height) for p in proposals]
        proposals, crossed = ([x for x, k in zip(xs, inside, strict=True) if k] for xs in (proposals, crossed))
        open_ = ~_overlapping(proposals, blocking)
        if not self.contest:  # only the open places are looked at
            proposals, crossed = ([x for x, k in zip(xs, open_, strict=True) if k] for xs in (proposals, crossed))
            open_ = np.ones(len(proposals), bool)
        if not proposals:
            return [], []
        moved, tile = self._refiner(image, np.array(proposals, np.float32))
        clash = _overlapping(list(moved), blocking)
        for i in np.flatnonzero(clash & open_):  # stretched onto a found tile: the place as proposed
            if (_length(moved[i]) > BESIDE_GROWN * _length(proposals[i])
                    and not read_tile(image, proposals[i], divided=not self._set.chinese).face_down):
                moved[i], clash[i] = proposals[i], False
        least = BESIDE_LENGTH * typical if typical else 0.0  # a quad round part of a tile (a back's print)
        fit = [_inside(m, width, height) and _length(m) >= least for m in moved]
        sure = [i for i in range(len(moved)) if tile[i] >= self._refiner.threshold and fit[i] and open_[i]
                and not clash[i]]
        across = [i for i in sure if crossed[i]]
        if across:  # a tile laid across a line is a face, and a double (a spinner)
            doubles = [i for i, double in zip(across, self._doubles(image, moved[across]), strict=True) if double
                       and not read_tile(image, moved[i], divided=not self._set.chinese).face_down]
            sure = [i for i in sure if not crossed[i] or i in doubles]
        contest = [(moved[i], float(tile[i])) for i in range(len(moved)) if self.contest and not crossed[i]
                   and tile[i] >= BESIDE_CONTEST and fit[i] and (clash[i] or not open_[i])]
        kept = _apart([moved[i] for i in sure], tile[sure])
        return [moved[sure[k]] for k in kept], contest

    def _doubles(self, image: np.ndarray, quads: np.ndarray) -> list[bool]:
        """Which of ``quads`` the face reader names a double of the set (none without it)."""
        if self._faces is None:
            return [False] * len(quads)
        doubles = {CLASSES.index(face_code(face)) for face in self._set.faces if face[0] == face[1]}
        return [int(k) in doubles for k in self._faces(image, np.asarray(quads, np.float32)).argmax(axis=1)]

    def _pulled_apart(self, image: np.ndarray, quads: list[np.ndarray], readings: list[TileReading],
                      seen: np.ndarray) -> tuple[list[np.ndarray], list[TileReading], np.ndarray]:
        """Face-up tiles of a line whose quads overlap moved apart, and doubted ones slid along their length or (with
        ``refit``) made the frame's shape, where the face reader is surer (``seams``); read again (``seen``: the face
        reader's rows) where moved."""
        assert self._faces is not None
        faces = self._faces

        def read(candidates: np.ndarray) -> np.ndarray:
            return faces(image, candidates)

        up = [i for i, r in enumerate(readings) if not r.face_down]
        before = [quads[i] for i in up]
        moved = pulled_apart(before, read)
        down = [quads[i] for i, r in enumerate(readings) if r.face_down]
        moved = slid_along(moved, before, seen[up], read, down)
        if self.refit and len(quads) >= MIN_SHAPED:  # the live table cannot afford it: 2 ms a frame
            refiner = self._refiner

            def refine(candidates: np.ndarray) -> np.ndarray:  # those the refiner calls tiles, moved onto them
                assert refiner is not None
                moved, tile = refiner(image, candidates)
                return moved[tile >= refiner.threshold]

            moved = refit(moved, before, seen[up], read, down, float(np.median([aspect(q) for q in quads])),
                          refine if refiner is not None else None)
        return self._reread(image, quads, readings, seen, up, moved)

    def _nudged(self, image: np.ndarray, quads: list[np.ndarray], readings: list[TileReading], seen: np.ndarray
                ) -> tuple[list[np.ndarray], list[TileReading], np.ndarray]:
        """Doubted face-up tiles by another nudged where both readers name a face surer (``nudge``, ``seams.nudged``);
        read again where moved."""
        assert self._faces is not None
        faces, divided = self._faces, not self._set.chinese
        of_set = self._set_classes()

        def named(candidates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            """The face reader's probability of its likeliest face of the set and that face's class, where the blob
            reader, the quad read alone, names the same face (else 0 and -1)."""
            rows = faces(image, candidates)
            best = of_set[rows[:, of_set].argmax(axis=1)]
            sure, classes = np.zeros(len(candidates)), np.full(len(candidates), -1)
            for k, (quad, row) in enumerate(zip(candidates, rows, strict=True)):
                alone = resolve([read_tile(image, quad, divided=divided)], self._set, row[None])[0]
                if alone.face is not None and not alone.face_down and face_code(alone.face) == CLASSES[best[k]]:
                    classes[k], sure[k] = best[k], row[best[k]]
            return sure, classes

        up = [i for i, r in enumerate(readings) if not r.face_down]
        down = [quads[i] for i, r in enumerate(readings) if r.face_down]
        moved = nudged([quads[i] for i in up], seen[up], named, down)
        return self._reread(image, quads, readings, seen, up, moved)

    def _relooked(self, image: np.ndarray, quads: list[np.ndarray], readings: list[TileReading], seen: np.ndarray
                  ) -> tuple[list[np.ndarray], list[TileReading], np.ndarray]:
        """Doubted face-up tiles shown to the refiner once more, and moved where the face reader is much surer
        (``relook``, ``seams.relooked``); read again where moved. Not where fewer than ``MIN_COLOURED`` read face up:
        there the refiner checks each tile (``_undoubted``), and a quad it moved would pass that check for having been
        moved by it (on the playing-card photos, two more tiles of a European set)."""
        assert self._refiner is not None and self._faces is not None
        if sum(not down for down in face_down(readings, self._set, seen)) < MIN_COLOURED:
            return quads, readings, seen
        refiner, faces = self._refiner, self._faces

        def look(candidates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            moved, tile = refiner(image, candidates)
            return moved, tile >= refiner.threshold

        up = [i for i, r in enumerate(readings) if not r.face_down]
        down = [quads[i] for i, r in enumerate(readings) if r.face_down]
        moved = relooked([quads[i] for i in up], seen[up], look, lambda c: faces(image, c), down)
        return self._reread(image, quads, readings, seen, up, moved)

    def _set_classes(self) -> np.ndarray:
        """The face reader's classes of the set's faces."""
        return np.array([CLASSES.index(face_code(face)) for face in self._set.faces])

    def _relaid(self, image: np.ndarray, quads: list[np.ndarray], readings: list[TileReading], seen: np.ndarray,
                beside: list[bool]) -> tuple[list[np.ndarray], list[TileReading], np.ndarray, list[bool]]:
        """Runs of face-up tiles whose quads slipped along their line laid out again end to end (``lines``). A
        layout is taken where the refiner calls each of its tiles a tile and leaves it in place (``PIECE_STAYS``), its
        tiles do not overlap, and the face reader names each a face of the set with ``LINE_LEAST`` and is surer of them
        on the whole than of the quads they replace by ``LINE_MARGIN`` (where it is ``LINE_SURE`` of each, no less
        sure). Its tiles are read again."""
        assert self._refiner is not None and self._faces is not None
        up = [i for i, down in enumerate(face_down(readings, self._set, seen)) if not down]
        up_quads = [quads[i] for i in up]
        gone: set[int] = set()
        laid: list[np.ndarray] = []
        for run in lines(up_quads):
            members = {up[k] for k in run}
            for stretch, layouts in laid_out(up_quads, run, [q for i, q in enumerate(quads) if i not in members]):
                tiles = self._laid_tiles(image, layouts, seen[[up[k] for k in stretch]])
                if tiles is not None:
                    gone |= {up[k] for k in stretch}
                    laid += list(tiles)
        return self._replaced(image, quads, readings, seen, beside, gone, laid)

    def _replaced(self, image: np.ndarray, quads: list[np.ndarray], readings: list[TileReading], seen: np.ndarray,
                  beside: list[bool], gone: set[int], laid: list[np.ndarray]
                  ) -> tuple[list[np.ndarray], list[TileReading], np.ndarray, list[bool]]:
        """The tiles with those at ``gone`` (indices) replaced by ``laid`` (new quads, read by both readers), for
        ``_relaid`` and ``_paired``."""
        assert self._faces is not None
        if not laid:
            return quads, readings, seen, beside
        kept = [i for i in range(len(quads)) if i not in gone]
        new_readings = [read_tile(image, q, divided=not self._set.chinese) for q in laid]
        return ([quads[i] for i in kept] + laid, [readings[i] for i in kept] + new_readings,
                np.concatenate([seen[kept], self._faces(image, np.array(laid, np.float32))]),
                [beside[i] for i in kept] + [False] * len(laid))

    def _paired(self, image: np.ndarray, quads: list[np.ndarray], readings: list[TileReading], seen: np.ndarray,
                beside: list[bool]) -> tuple[list[np.ndarray], list[TileReading], np.ndarray, list[bool]]:
        """Two tiles lying side by side (a pair laid across a line's end) whose quads the finder put across their
        ends: a face-up quad as short as two tiles are wide (``PAIR_SHORT``, ``PAIR_SPAN``) is tried as one end of
        the pair, the two tiles reaching a tile's length from it either way. Kept where the refiner calls both tiles
        tiles and leaves them in place, the blob reader reads both face up and the face reader names each a face of
        the set with ``PAIR_LEAST``; the quads they cover go."""
        assert self._refiner is not None and self._faces is not None
        height, width = image.shape[:2]
        up = [i for i, down in enumerate(face_down(readings, self._set, seen)) if not down]
        if len(up) < PAIR_AMONG:
            return quads, readings, seen, beside
        ordered = order_quads(np.array([quads[i] for i in up], np.float32))
        _, _, lengths, widths = tile_frames(ordered)
        length, across = float(np.median(lengths)), float(np.median(widths))
        of_set = self._set_classes()
        gone: set[int] = set()
        laid: list[np.ndarray] = []
        for k in np.flatnonzero((lengths <= PAIR_SHORT * length)
                                & (np.abs(lengths - 2 * across) <= PAIR_SPAN * 2 * across)):
            best, surest = None, 0.0
            for pair in _pair_tiles(ordered[k], length):
                moved, tile = self._refiner(image, pair)
                if not (_held(pair, moved, tile, self._refiner.threshold)
                        and all(_inside(q, width, height) for q in pair)):
                    continue
                sure = self._faces(image, pair)[:, of_set].max(axis=1)
                if (sure.min() >= PAIR_LEAST and sure.mean() > surest
                        and not any(read_tile(image, q, divided=not self._set.chinese).face_down for q in pair)):
                    best, surest = pair, float(sure.mean())
            if best is None:
                continue
            shared = smaller_share_matrix(np.array(quads, np.float32), best).max(axis=1)
            covered = set(np.flatnonzero(shared > MAX_OVERLAP).tolist())
            if covered & gone:
                continue
            gone |= covered
            laid += list(best)
        return self._replaced(image, quads, readings, seen, beside, gone, laid)

    def _laid_tiles(self, image: np.ndarray, layouts: list[np.ndarray], seen: np.ndarray) -> np.ndarray | None:
        """Of a stretch's ``layouts`` (``lines.laid_out``), each also slid a little along its line (``LINE_SLIDES``),
        the one whose tiles hold and that the face reader is surest of on the whole (see ``_relaid``); ``seen``: its
        rows of the quads they would replace. None where none holds."""
        assert self._refiner is not None and self._faces is not None
        height, width = image.shape[:2]
        of_set = self._set_classes()
        before = float(seen[:, of_set].max(axis=1).mean())
        best, surest = None, 0.0
        for pieces in layouts + [slid for layout in layouts for slid in _slid(layout, LINE_SLIDES)]:
            moved, tile = self._refiner(image, pieces)
            sure = self._faces(image, pieces)[:, of_set].max(axis=1)
            needs = before + (0.0 if sure.min() >= LINE_SURE else LINE_MARGIN)
            if (_held(pieces, moved, tile, self._refiner.threshold) and all(_inside(q, width, height) for q in pieces)
                    and sure.min() >= LINE_LEAST and sure.mean() >= needs and sure.mean() > surest):
                best, surest = pieces, float(sure.mean())
        return best

    def _reread(self, image: np.ndarray, quads: list[np.ndarray], readings: list[TileReading], seen: np.ndarray,
                up: list[int], moved: list[np.ndarray]) -> tuple[list[np.ndarray], list[TileReading], np.ndarray]:
        """The tiles ``up`` put at their ``moved`` quads, and read again by both readers where those differ. A quad
        moved past the frame (by more than ``MAX_CUT``: made the frame's shape at its edge, or slid off it) stays
        where it was: what lies past the frame cannot be read."""
        assert self._faces is not None
        height, width = image.shape[:2]
        shifted_to = {i: quad for i, quad in zip(up, moved, strict=True) if not np.array_equal(quad, quads[i])}
        if not shifted_to:
            return quads, readings, seen
        pulled = _into_frame(np.array(list(shifted_to.values()), np.float32), width, height)
        shifted_to = {i: quad for i, quad in zip(shifted_to, pulled, strict=True) if _inside(quad, width, height)}
        changed = [i for i, quad in shifted_to.items() if not np.array_equal(quad, quads[i])]
        if not changed:
            return quads, readings, seen
        quads, readings, seen = list(quads), list(readings), seen.copy()
        for i in changed:
            quads[i] = shifted_to[i]
            readings[i] = read_tile(image, quads[i], divided=not self._set.chinese)
        seen[changed] = self._faces(image, np.array([quads[i] for i in changed], np.float32))
        return quads, readings, seen

    def _undoubted(self, image: np.ndarray, quads: list[np.ndarray], named: list[Resolved]) -> list[bool]:
        """Which tiles to keep (``doubted_alone``): where fewer than ``MIN_COLOURED`` read face up there is little to
        check a tile against (no European set's colour, no Chinese set's copy counts), and there each tile the refiner
        gives under ``DOUBTED_TILE`` goes, but a back touching another back (a row of backs, a hand turned down:
        ``BACKS_TOUCH``). A playing card's hearts and court frames were boxed as backs, and its pips read as faces
        (README, *Domino vision*, sessions 35 and 36)."""
        assert self._refiner is not None
        if sum(not n.face_down for n in named) >= MIN_COLOURED:
            return [True] * len(quads)
        kept = [bool(t >= DOUBTED_TILE) for t in self._refiner(image, np.array(quads, np.float32))[1]]
        downs = [i for i, n in enumerate(named) if n.face_down]
        for i in downs:
            kept[i] = kept[i] or any(j != i and _touching(quads[i], quads[j]) for j in downs)
        return kept

    def _beside_kept(self, quads: list[np.ndarray], named: list[Resolved], beside: list[bool]) -> list[bool]:
        """Which tiles to keep, of those only the look beside found (``beside``) too: each must be named surely
        (``BESIDE_SURE``: a 0:0 named with 0.13 was a patch of table with a line across it), and a European back
        must touch a row of backs (``_backs_in_touch``)."""
        keep = [not (b and n.confidence < BESIDE_SURE) for b, n in zip(beside, named, strict=True)]
        if self._set.chinese:
            return keep
        touch = _backs_in_touch(quads, [n.face_down for n in named], beside)
        return [k and t for k, t in zip(keep, touch, strict=True)]

    def __call__(self, frame: Frame | np.ndarray) -> DominoTableObservation:
        image = frame.image if isinstance(frame, Frame) else as_bgr(frame)
        height, width = image.shape[:2]
        t0 = time.perf_counter()
        quads, extra, beside, dropped = self._found(image)
        t1 = time.perf_counter()
        readings = [read_tile(image, q, divided=not self._set.chinese) for q in quads]
        walls = self.wall_sized and self._faces is not None and self._set.chinese
        if walls:
            readings = self._up_as_backs(image, quads, readings)
        keep = _plausible(quads, readings, texture=self._learned is None,  # a learned back may bear a logo
                          same_back=not self._set.chinese, lit=1.0 if self._set.chinese else exposure_gain(image),
                          walls=walls)
        keep = [k and not (e and r.face_down) for k, e, r in zip(keep, extra, readings, strict=True)]
        if not self._set.chinese:
            quads, readings, keep = _split(image, quads, readings, keep, dropped)
            beside += [False] * (len(quads) - len(beside))  # the tiles it centred on dividers were seen
        quads, readings, beside = ([x for x, k in zip(xs, keep, strict=True) if k] for xs in (quads, readings, beside))
        seen = self._faces(image, np.array(quads, np.float32)) if self._faces is not None and quads else None
        if seen is not None and self.relay and self._refiner is not None:
            quads, readings, seen, beside = self._relaid(image, quads, readings, seen, beside)
        if seen is not None and self.pairs and self._refiner is not None:
            quads, readings, seen, beside = self._paired(image, quads, readings, seen, beside)
        if seen is not None and self.seams:
            quads, readings, seen = self._pulled_apart(image, quads, readings, seen)
            if self.nudge:
                quads, readings, seen = self._nudged(image, quads, readings, seen)
            if self.relook and self._refiner is not None:
                quads, readings, seen = self._relooked(image, quads, readings, seen)
        t2 = time.perf_counter()
        named = resolve(readings, self._set, seen)
        if self.doubted_alone and self._refiner is not None and quads:
            kept = self._undoubted(image, quads, named)
            quads, readings, named, beside = ([x for x, k in zip(xs, kept, strict=True) if k]
                                              for xs in (quads, readings, named, beside))
        if any(beside):
            kept = self._beside_kept(quads, named, beside)
            quads, readings, named = ([x for x, k in zip(xs, kept, strict=True) if k]
                                      for xs in (quads, readings, named))
        t3 = time.perf_counter()
        order = sorted(range(len(quads)), key=lambda i: (round(float(quads[i][:, 1].mean()) / 40), quads[i][0][0]))
        tiles = tuple(_observation(quads[i], readings[i], named[i]) for i in order)
        timings = {"find": (t1 - t0) * 1e3, "read": (t2 - t1) * 1e3, "resolve": (t3 - t2) * 1e3}
        return DominoTableObservation((width, height), tiles, self.tile_set, timings)
