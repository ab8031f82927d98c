"""Training samples for the domino face reader (``vision/dominoes/face_reader.py``): crops of every whole tile of
rendered scenes (the training styles, both sets), labelled with the tile's face or ``back``.

Half the procedural sets lay their pips out otherwise (``styles.TRAIN_PIP_VARIETY``, ``styles.varied_pips``); for the
European sets' reader, ``--back-prints`` of the European sets bear a bold maker's mark on their backs
(``styles.TRAIN_BACK_PRINTS``, ``styles.printed_back``). Each
whole tile gives ``LOOKS`` crops, from its true quad thrown off a little as the finder and refiner leave it
(a few hundredths of a length along, a little across, a little too big or small or turned): the reader must name
the tile from such quads, where the blob reader loses a pip row cut at the tile's end. ``--big-pips``: a share of the
Chinese sets drawn with big pips (the shipped reader: none; session 26 tried 0.4 and read the held-out art worse).
``--along``: the standard deviation of the throw along the tile, in its lengths (the shipped reader: 0.04).
``--slipped``: the chance that each end of a tile with another tile against it gives a crop slipped along into that
tile (``SLIP`` of a length), labelled ``SLIPPED``: a quad over two tiles' ends, of which the reader must be unsure
(the shipped reader: none; session 43 tried 1.0 and read the held-out art worse end to end).

    python -m datasets.dominoes.face_data --out DIR --scenes 3600 --seed 52000 [--workers 2] [--back-prints 0.4]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from datasets.dominoes.refiner_data import SIZES
from datasets.dominoes.scenes import DominoSceneConfig, render_scene
from datasets.dominoes.styles import TRAIN_PIP_VARIETY, TRAIN_STYLES
from datasets.training import refiner_samples
from datasets.training.refiner_samples import Samples, thrown
from vision.dominoes.face_reader import CLASSES, CROP_SIZE, GROW, face_crops
from vision.geometry import order_quads

LOOKS = 3
ALONG = (0.04, 0.12)  # standard deviation and limit of the throw along the tile, lengths
ACROSS = (0.03, 0.08)  # the same across, widths
SLIP = (0.17, 0.45)  # a slipped crop's shift along its tile, lengths: past the throws, short of the next tile's middle
SLIP_INTO = 0.6  # share of what a slipped quad reaches past its tile's end that must lie on another tile
SLIPPED = -1  # the label of a slipped crop: no one tile's face (trained towards every class alike)


def label(face: tuple[int, int], up: bool) -> int:
    """The class index of a tile: its face (low:high) or a back."""
    return CLASSES.index(f"{min(face)}:{max(face)}" if up else "back")


def slipped_quads(ordered: np.ndarray, visible: np.ndarray, k: int, rng: np.random.Generator, chance: float
                  ) -> list[np.ndarray]:
    """Tile ``k``'s quad slipped along into the tile against each of its ends (where one lies there, seen at least
    half), each end with ``chance``: the quads a line's slipped layout gives (README, *Domino vision*, session 42).
    ``ordered``: every tile's quad (``order_quads``)."""
    area = abs(cv2.contourArea(ordered[k]))
    others = [j for j in range(len(ordered)) if j != k and visible[j] >= 0.5]
    out = []
    for sign in (-1.0, 1.0):
        if rng.random() >= chance:
            continue
        shift = sign * rng.uniform(*SLIP)
        moved = thrown(ordered[k], rng, shift, 0.0, scale_sd=0.02, turn_sd_deg=1.0)
        onto = max((cv2.intersectConvexConvex(moved, ordered[j])[0] for j in others), default=0.0)
        if onto >= SLIP_INTO * abs(shift) * area:
            out.append(moved)
    return out


def scene_samples(seed: Sequence[int], _: Any = None, styles: tuple[str, ...] = TRAIN_STYLES,
                  back_prints: float = 0.0, big_pips: float = 0.0, along: float = ALONG[0],
                  slipped: float = 0.0) -> Samples:
    """Crops and class indices of one rendered scene of ``styles`` (no corner targets: an empty column), with
    ``back_prints`` of the European sets bearing a bold mark on their backs, ``big_pips`` of the Chinese sets
    drawn with big pips, quads thrown along the tile by ``along`` lengths (standard deviation; at most three
    times that, or ``ALONG``'s limit where more), and ``slipped`` crops (``slipped_quads``, labelled ``SLIPPED``;
    drawn after the others, so the others are those of a recipe without them)."""
    rng = np.random.default_rng(seed)
    size = SIZES[int(rng.choice(len(SIZES), p=[0.6, 0.2, 0.2]))]
    scene = render_scene(rng, DominoSceneConfig(size=size, styles=styles, pip_variety=TRAIN_PIP_VARIETY,
                                                back_prints=back_prints, big_pips=big_pips))
    quads, labels = [], []
    limit = max(ALONG[1], 3 * along)
    for k in np.flatnonzero(scene.whole()):
        for _look in range(LOOKS):
            off = float(np.clip(rng.normal(0, along), -limit, limit))
            across = float(np.clip(rng.normal(0, ACROSS[0]), -ACROSS[1], ACROSS[1]))
            quads.append(thrown(scene.quads[k], rng, off, across, scale_sd=0.04, turn_sd_deg=2.0))
            labels.append(label(scene.faces[k], bool(scene.face_up[k])))
    if slipped:
        ordered = order_quads(np.asarray(scene.quads, np.float32))
        for k in np.flatnonzero(scene.whole()):
            more = slipped_quads(ordered, scene.visible, int(k), rng, slipped)
            quads += more
            labels += [SLIPPED] * len(more)
    crops = face_crops(scene.image, np.array(quads, np.float32).reshape(-1, 4, 2), CROP_SIZE, GROW)
    return crops, np.zeros((len(labels), 0), np.float32), np.array(labels, np.int8)


def _nothing() -> None:
    """What ``scene_samples`` needs besides the seed: nothing (the refiner's renderer needs a finder)."""


def main(argv: Sequence[str] | None = None) -> int:
    knobs = {"back_prints": 0.0, "big_pips": 0.0, "along": ALONG[0], "slipped": 0.0}
    return refiner_samples.main(argv, __doc__.split("\n")[0], scene_samples, _nothing, scenes=3600, seed=52000,
                                chunk=100, prefix="faces", knobs=knobs)


if __name__ == "__main__":
    raise SystemExit(main())
