"""The card refiner's samples (datasets.hanafuda.refiner_data): the art on a card box's lid is a candidate the
refiner learns to call no card; ``--boxes`` gives scenes a card box for sure."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from datasets.hanafuda.config import preset
from datasets.hanafuda.refiner_data import BOX_HEAVY, _named, box_art, main
from datasets.hanafuda.scenes import render_scene
from datasets.training.refiner_samples import labelled
from vision.card_refiner import CARD_CROP
from vision.geometry import quad_iou


def test_box_art_is_a_negative_as_it_lies_and_thrown_off(shared_data: Path) -> None:
    scenes = (render_scene(np.random.default_rng((5, i)), replace(preset("default"), props=1.0, prop_kinds=BOX_HEAVY))
              for i in range(6))
    arts = 0
    for scene in scenes:
        printed = [prop.art_quad for prop in scene.props if prop.art_quad is not None]
        candidates = box_art(scene, np.random.default_rng(0))
        assert len(candidates) >= 2 * len(printed)
        for art, candidate in zip(printed, candidates, strict=False):
            assert np.allclose(art, candidate)  # the art as it lies comes first
        for candidate in candidates[len(printed):]:  # then thrown off: near some art, not on it
            assert 0.0 < max(quad_iou(candidate, art) for art in printed) < 0.98
        alone = [c for c in candidates if max((quad_iou(c, q) for q in scene.quads), default=0.0) < 0.3]
        if alone:
            _, _, labels = labelled(scene.image, scene.quads, _named(scene), np.array(alone), CARD_CROP)
            assert (labels == 0).all()
        arts += len(printed)
    assert arts >= 4  # most of these scenes have a card box


def test_the_boxes_knob_reaches_the_workers(tmp_path: Path, shared_data: Path) -> None:
    assert main(["--out", str(tmp_path), "--scenes", "2", "--workers", "1", "--chunk", "2", "--seed", "5",
                 "--boxes", "1"]) == 0
    shard = np.load(next(tmp_path.glob("*.npz")))
    without = tmp_path / "without"
    assert main(["--out", str(without), "--scenes", "2", "--workers", "1", "--chunk", "2", "--seed", "5"]) == 0
    plain = np.load(next(without.glob("*.npz")))
    assert (shard["labels"] == 0).sum() > (plain["labels"] == 0).sum()  # the boxes' art: more negatives


def test_the_ink_knob_reaches_the_workers(tmp_path: Path, shared_data: Path) -> None:
    """``--ink``: decks printing the art's black fills in another colour (as the classifier's crops since session
    30). Without it a seed renders the same samples as before; with it, other ones."""
    shards = {}
    for name, extra in (("plain", []), ("again", []), ("ink", ["--ink", "1"])):
        assert main(["--out", str(tmp_path / name), "--scenes", "1", "--workers", "1", "--chunk", "1", "--seed", "7",
                     *extra]) == 0
        shards[name] = np.load(next((tmp_path / name).glob("*.npz")))["crops"]
    assert np.array_equal(shards["plain"], shards["again"])
    assert shards["ink"].shape[1:] == shards["plain"].shape[1:]
    assert shards["ink"].shape != shards["plain"].shape or not np.array_equal(shards["ink"], shards["plain"])
