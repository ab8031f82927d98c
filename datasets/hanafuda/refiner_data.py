"""Training samples for the card refiner (``vision/card_refiner.py``; the common part is
``datasets.training.refiner_samples``).

Candidates are what the refiner will be shown at run time: the shipped card finder's quads down to a low heat
(``LOW_HEAT``). To those are added, for each card that can be named, its quad thrown off as a loose finder throws
it (across by up to 0.4 of a width: in a fanned pile the finder hedges between the strip that shows and the whole
card), and its quad moved most of a card across or along, onto a neighbour in a pile or a row, or onto table. A
card makes a positive when it is not cut by the frame, shows ``NAMED`` of its face or more (a pile's cards show
40-60 %) and is a face or a back (a blank is not a card to name). Scenes are drawn from the held-in styles, a
quarter each of the ``default``, ``piles``, ``whole-mat`` and ``close-up`` presets.

The card art printed on a card box's lid is a candidate too, as it lies and thrown off like a card's quad: the
finder and the classifier take it for a card, and only what lies round it (the lid, its frame, its lettering) tells
it apart, which is what the refiner sees (README, session 16). ``--boxes`` is the share of scenes given a card box
for sure, beside the preset's own props (0 by default).

    python -m datasets.hanafuda.refiner_data --out DIR --scenes 3000 --seed 41000 [--workers 2] [--boxes 0.3] \
        [--ink 0.3]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import partial

import numpy as np

from datasets.hanafuda.config import DEFAULT_PROPS, preset
from datasets.hanafuda.scenes import BLANK, Scene, render_scene
from datasets.training import refiner_samples
from datasets.training.refiner_samples import Samples, labelled
from vision.card_refiner import CARD_CROP
from vision.card_surround import SURROUND_CROP
from vision.finder_learned import LearnedFinder
from vision.quad_refiner import CropGeometry

LOW_HEAT = 0.15
NAMED = 0.3
PRESETS = ("default", "piles", "whole-mat", "close-up")
BOX_HEAVY = {**DEFAULT_PROPS, "card-box": 4.0}  # the prop kinds' weights in a scene given a card box for sure


def _named(scene: Scene) -> np.ndarray:
    return ((np.asarray(scene.visible) >= NAMED) & ~np.asarray(scene.cut, bool)
            & np.array([label != BLANK for label in scene.labels], bool))


def _step(rng: np.random.Generator) -> tuple[float, float]:
    """Half a card to a card across (or, less often, along), either way."""
    far = float(rng.choice([-1.0, 1.0]) * rng.uniform(0.5, 1.0))
    return (far, 0.0) if rng.random() < 0.4 else (0.0, far)


def _loose(quads: list[np.ndarray], rng: np.random.Generator) -> list[np.ndarray]:
    """Loose and moved copies of ``quads``, as the finder throws a card's quad."""
    return refiner_samples.proposals(quads, rng, along=(0.12, 0.35), across=(0.15, 0.4), step=_step)


def proposals(scene: Scene, rng: np.random.Generator) -> list[np.ndarray]:
    """The loose and moved copies of each named card's quad."""
    return _loose([scene.quads[k].astype(np.float32) for k in np.flatnonzero(_named(scene))], rng)


def box_art(scene: Scene, rng: np.random.Generator, views: int = 1) -> list[np.ndarray]:
    """The card art on each card box's lid, as it lies and ``views`` times thrown off as a loose finder throws a
    card's quad."""
    arts = [prop.art_quad.astype(np.float32) for prop in scene.props if prop.art_quad is not None]
    return arts + [quad for _ in range(views) for quad in _loose(arts, rng)]


def scene_samples(seed: Sequence[int], finder: LearnedFinder, boxes: float = 0.0, box_views: float = 1.0,
                  ink: float = 0.0, geometry: CropGeometry = CARD_CROP) -> Samples:
    """All samples of one rendered scene (training styles, a preset drawn from ``PRESETS``; a card box for sure
    with probability ``boxes``; ``box_views`` thrown copies of each box's art; ``ink``: the share of decks printing
    the art's black fills in another colour, as the classifier's crops since session 30), cropped as ``geometry``
    (the refiner's, or the surround check's wider view)."""
    rng = np.random.default_rng(seed)
    config = replace(preset(PRESETS[int(rng.integers(len(PRESETS)))]), ink_recolour=ink)
    if rng.random() < boxes:
        config = replace(config, props=1.0, prop_kinds=BOX_HEAVY)
    scene = render_scene(rng, config)
    found = finder(scene.image, threshold=LOW_HEAT)
    candidates = np.concatenate([found.quads.reshape(-1, 4, 2),
                                 np.array(proposals(scene, rng), np.float32).reshape(-1, 4, 2),
                                 np.array(box_art(scene, rng, int(box_views)), np.float32).reshape(-1, 4, 2)])
    return labelled(scene.image, scene.quads.reshape(-1, 4, 2), _named(scene), candidates, geometry)


def main(argv: Sequence[str] | None = None, geometry: CropGeometry = CARD_CROP, boxes: float = 0.0,
         box_views: float = 1.0, ink: float = 0.0) -> int:
    """The refiner's samples, or with ``geometry=SURROUND_CROP`` the surround check's (``surround_main``); the
    options' defaults are the keywords'."""
    return refiner_samples.main(argv, __doc__.split("\n")[0], partial(scene_samples, geometry=geometry),
                                LearnedFinder, scenes=3000, seed=41000, chunk=50,
                                knobs={"boxes": boxes, "box_views": box_views, "ink": ink})


# the surround check's samples: a card box in half the scenes, each box's art thrown four times (it is what the
# check is for, and a scene has one box to its dozens of cards)
surround_main = partial(main, geometry=SURROUND_CROP, boxes=0.5, box_views=4.0)


if __name__ == "__main__":
    raise SystemExit(main())
