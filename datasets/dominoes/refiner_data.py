"""Training samples for the domino refiner (``vision/dominoes/tile_refiner.py``; the common part is
``datasets.training.refiner_samples``).

Candidates are like what the refiner is shown at run time: the shipped finder's whole quads down to a low heat
(``LOW_HEAT``), each tightened to the face (``whole_candidates``; the recogniser shows a Chinese set's quads as
found, which the loose copies cover). To those are added, for each whole tile, its own quad
thrown off as a loose finder throws it (up to half a tile along, a fifth across, a little too big or small or
turned), and its quad moved a whole tile along or across, which lands on a neighbour in a line or a wall, or on
bare table. A whole tile (in view, not cut or covered) makes a positive. Half the sets lay their pips out otherwise
(``--pip-variety``, default ``styles.TRAIN_PIP_VARIETY``): the held-out art puts a half's pips where no one layout
does, and a refiner trained on one layout per face did not know its tiles.

    python -m datasets.dominoes.refiner_data --out DIR --scenes 4000 --seed 31000 [--workers 2] [--pip-variety 0]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from datasets.dominoes.scenes import DominoScene, DominoSceneConfig, render_scene
from datasets.dominoes.styles import TRAIN_BIG_PIPS, TRAIN_PIP_VARIETY
from datasets.training import refiner_samples
from datasets.training.refiner_samples import Samples, labelled
from vision.dominoes.recognizer import whole_candidates
from vision.dominoes.tile_finder import TileFinder
from vision.dominoes.tile_refiner import TILE_CROP

LOW_HEAT = 0.1
SIZES = ((1280, 720), (1920, 1080), (960, 540))


def _step(rng: np.random.Generator) -> tuple[float, float]:
    """A whole tile along or across, either way."""
    step = [(rng.choice([-1.0, 1.0]), 0.0), (0.0, rng.choice([-1.0, 1.0]))][int(rng.integers(2))]
    return step[0] + float(rng.normal(0, 0.1)), step[1] + float(rng.normal(0, 0.1))


def proposals(scene: DominoScene, rng: np.random.Generator) -> list[np.ndarray]:
    """The loose and moved copies of each whole tile's quad."""
    quads = [scene.quads[k].astype(np.float32) for k in np.flatnonzero(scene.whole())]
    return refiner_samples.proposals(quads, rng, along=(0.2, 0.5), across=(0.07, 0.2), step=_step)


def scene_labelled(scene: DominoScene, candidates: np.ndarray) -> Samples:
    """Samples for ``candidates`` in a rendered scene."""
    return labelled(scene.image, np.asarray(scene.quads, np.float32).reshape(-1, 4, 2), scene.whole(), candidates,
                    TILE_CROP)


def scene_samples(seed: Sequence[int], finder: TileFinder, pip_variety: float = TRAIN_PIP_VARIETY,
                  big_pips: float = TRAIN_BIG_PIPS) -> Samples:
    """All samples of one rendered scene (training styles, a size drawn from ``SIZES``, ``pip_variety`` of the sets
    laying their pips out otherwise, ``big_pips`` of the Chinese sets with big pips)."""
    rng = np.random.default_rng(seed)
    size = SIZES[int(rng.choice(len(SIZES), p=[0.6, 0.2, 0.2]))]
    scene = render_scene(rng, DominoSceneConfig(size=size, pip_variety=pip_variety, big_pips=big_pips))
    found, _ = whole_candidates(finder, scene.image, LOW_HEAT)
    candidates = [*found, *proposals(scene, rng)]
    return scene_labelled(scene, np.array(candidates, np.float32).reshape(-1, 4, 2))


def main(argv: Sequence[str] | None = None) -> int:
    """The sample renderer's command line, with ``--pip-variety`` (the shipped model was trained on a set at the
    default and one at 0, seed 33000: ``models/domino-refiner.md``)."""
    return refiner_samples.main(argv, __doc__.split("\n")[0], scene_samples, TileFinder, scenes=4000, seed=31000,
                                chunk=100, knobs={"pip_variety": TRAIN_PIP_VARIETY, "big_pips": TRAIN_BIG_PIPS})


if __name__ == "__main__":
    raise SystemExit(main())
