"""The look at each half of a doubtful candidate: the halves' geometry, and on a held-out scene that two touching
cards boxed as one are both named, each where it lies."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from datasets.hanafuda import TEST_STYLE, preset, render_scene
from tests.vision.test_pile_look import named_more, named_right
from vision.card_refiner import CardRefiner
from vision.classifier import CardClassifier
from vision.geometry import order_quads, quad_areas
from vision.halves_look import HalvesLook, halves
from vision.recognizer import Recognizer


@pytest.fixture(scope="module")
def models() -> dict[str, object]:
    return {"classifier": CardClassifier(threads=1), "refiner": CardRefiner()}


@pytest.mark.parametrize("quad", [
    np.float32([[0, 0], [120, 0], [120, 100], [0, 100]]),  # two cards side by side: wider than long
    np.float32([[0, 0], [60, 0], [60, 200], [0, 200]]),  # two cards end to end
    np.float32([[-60, 0], [60, 0], [60, 100], [-60, 100]]) @ np.float32([[0.8, 0.6], [-0.6, 0.8]]),  # turned
])
def test_halves_cut_the_long_side_in_two(quad: np.ndarray) -> None:
    cut = halves(quad)
    assert cut.shape == (2, 4, 2)
    np.testing.assert_allclose(quad_areas(cut), quad_areas(quad[None])[0] / 2, rtol=1e-4)
    np.testing.assert_allclose(cut.reshape(-1, 2).mean(axis=0), quad.mean(axis=0), atol=1e-3)
    np.testing.assert_array_equal(cut, order_quads(cut))
    sides = np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)
    half_sides = np.linalg.norm(cut - np.roll(cut, 1, axis=1), axis=2)
    np.testing.assert_allclose(np.sort(half_sides, axis=1), np.tile(np.sort([sides.min(), sides.min(), sides.max() / 2,
                                                                             sides.max() / 2]), (2, 1)), rtol=1e-4)


@pytest.mark.parametrize("knobs", [{"needs": 0.0}, {"needs": 1.5}, {"max_overlap": 0.0}])
def test_knobs_are_checked(knobs: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="HalvesLook"):
        HalvesLook(**knobs)


def test_nothing_asked_changes_nothing(models: dict[str, object]) -> None:
    classifier = models["classifier"]
    assert isinstance(classifier, CardClassifier)
    quads = np.float32([[[100, 60], [160, 60], [160, 160], [100, 160]]])
    probabilities = classifier.classify(np.zeros((1, *classifier.input_size[::-1], 3), np.uint8))
    out = HalvesLook()(np.zeros((300, 300, 3), np.uint8), quads, probabilities, np.array([False]), classifier)
    np.testing.assert_array_equal(out[0], quads)
    np.testing.assert_array_equal(out[1], probabilities)
    np.testing.assert_array_equal(out[2], [0])


def test_two_touching_cards_boxed_as_one_are_both_named(shared_data: Path, models: dict[str, object]) -> None:
    """Held-out ``default`` scene 16 (seed 7000): far from the named cards, a peony under a back and a cherry beside
    an iris each got one weak quad round the pair, which the classifier cannot name. Cut in two, the peony and the
    cherry are named (the iris then by the pile steps), each where it lies; nothing is lost."""
    scene = render_scene(np.random.default_rng([7000, 16]), preset("default", styles=(TEST_STYLE,), size=(1280, 720)))
    with_it = Recognizer.for_photos(**models)  # type: ignore[arg-type]
    without = Recognizer.for_photos(**models, halves_look=None)  # type: ignore[arg-type]
    after, before, new = named_more(with_it, without, scene, 16)
    assert {"peony-plain-1", "cherry-plain-2"} <= set(new), new
    assert {c.label for c in before} <= {c.label for c in after}
    for label in new:
        assert named_right(after, scene.quads, scene.labels, label)
