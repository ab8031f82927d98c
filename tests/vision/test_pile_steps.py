"""Cards of a pile beside the named ones: the steps, which tries become cards, and on rendered piles of the held-out
art that what the steps name is the card lying there."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from datasets.hanafuda import TEST_STYLE, preset, render_scene
from tests.vision.test_pile_look import named_more
from vision.card_refiner import CardRefiner
from vision.classifier import CardClassifier
from vision.geometry import iou_matrix
from vision.pile_steps import PileSteps
from vision.quad_refiner import shifted
from vision.recognizer import Recognizer


@pytest.fixture(scope="module")
def models() -> dict[str, object]:
    return {"classifier": CardClassifier(threads=1), "refiner": CardRefiner()}


def test_the_steps_go_both_ways_along_and_across() -> None:
    steps = PileSteps(along=(0.4,), across=(0.5, 0.7))
    assert sorted(steps.moves()) == sorted([(0.4, 0.0), (-0.4, 0.0), (0.0, 0.5), (0.0, -0.5), (0.0, 0.7),
                                            (0.0, -0.7)])


@pytest.mark.parametrize("knobs", [{"along": (0.0,)}, {"along": (), "across": ()}, {"clear": 1.0},
                                   {"needs": 0.0}, {"needs": 1.2}])
def test_knobs_are_checked(knobs: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="PileSteps"):
        PileSteps(**knobs)  # type: ignore[arg-type]


def one_hot(classifier: CardClassifier, name: str, p: float) -> np.ndarray:
    row = np.full(len(classifier.classes), (1 - p) / (len(classifier.classes) - 1), np.float32)
    row[classifier.classes.index(name)] = p
    return row


def test_a_card_the_deck_has_no_more_of_is_not_added(models: dict[str, object]) -> None:
    """The crane is named already and there is one crane: a try reading it is that card's strip again. A plain is
    named once and there are two: a try reading it is the other. A try under ``needs`` is no card, and of two tries
    on one spot the surer stays."""
    classifier = models["classifier"]
    assert isinstance(classifier, CardClassifier)
    card = np.float32([[0, 0], [60, 0], [60, 100], [0, 100]])
    moved = np.stack([card, card + 200, card + 400, card + 405, card + 600])
    read = np.stack([one_hot(classifier, "pine-crane", 0.99), one_hot(classifier, "pine-plain", 0.97),
                     one_hot(classifier, "maple-deer", 0.85), one_hot(classifier, "maple-ribbon", 0.95),
                     one_hot(classifier, "iris-bridge", 0.6)])
    named = np.stack([one_hot(classifier, "pine-crane", 0.9), one_hot(classifier, "pine-plain", 0.9)])
    quads, probabilities = PileSteps()._chosen(moved, read, named, classifier)
    np.testing.assert_array_equal(quads, moved[[1, 3]])
    np.testing.assert_array_equal(probabilities, read[[1, 3]])
    named = np.stack([named[0], named[1], named[1]])  # both plains of pine named: none is left to add
    quads, _ = PileSteps()._chosen(moved, read, named, classifier)
    np.testing.assert_array_equal(quads, moved[[3]])


def test_nothing_named_steps_nowhere(models: dict[str, object]) -> None:
    classifier, refiner = models["classifier"], models["refiner"]
    assert isinstance(classifier, CardClassifier) and isinstance(refiner, CardRefiner)
    image = np.full((300, 300, 3), 90, np.uint8)
    quads = np.float32([[[100, 60], [160, 60], [160, 160], [100, 160]]])
    probabilities = classifier.classify(np.zeros((1, *classifier.input_size[::-1], 3), np.uint8))
    new, read = PileSteps()(image, quads, probabilities, np.array([False]), classifier, refiner)
    assert new.shape == (0, 4, 2) and read.shape == (0, len(classifier.classes))


def test_it_names_pile_cards_the_finder_missed_and_always_the_card_there(
    shared_data: Path, models: dict[str, object]
) -> None:
    """On these held-out piles the photo recogniser without the steps misses cards that it names with them, each the
    card lying there. (Over 40 such piles, 960 x 540: the steps name 5 cards more in 5, none wrong, and the three
    here hold 3 of them; before session 32, 6 in 6: the refiner's veto now lets seed 23's cherry ribbon appeal, so it
    is named before the steps, and that pile's cherry curtain, 55 % showing, is no longer found. With the classifier
    before session 30, which left more pile cards unnamed, 10 in 7.)"""
    with_it = Recognizer.for_photos(**models)  # type: ignore[arg-type]
    without = Recognizer.for_photos(**models, pile_steps=None)  # type: ignore[arg-type]
    config = preset("piles", styles=(TEST_STYLE,), size=(960, 540))
    gained = 0
    for seed in (11, 16, 36):
        gained += len(named_more(with_it, without, render_scene(seed, config), seed)[2])
    assert gained >= 3, f"the steps named {gained} more cards on three piles"


def test_the_tries_are_the_steps_but_for_those_on_a_found_card() -> None:
    """Each source moved by each step, in its own lengths and widths; a try whose centre lies within a quarter of
    a card of a found card's centre (the two overlap by IoU 0.6 or more) is that card again and is not tried."""
    card = np.float32([[100, 100], [160, 110], [150, 210], [90, 200]])  # turned a little
    steps = PileSteps()
    tries = steps.tries(card[None], np.zeros((0, 4, 2), np.float32))
    assert tries.shape == (len(steps.moves()), 4, 2)
    np.testing.assert_allclose(tries, [shifted(card, along, across) for along, across in steps.moves()], atol=1e-4)
    found = np.stack([shifted(card, 0.4, 0.0), shifted(card, 1.05, 0.1)])  # the next card of a pile; a card beyond
    kept = steps.tries(card[None], found)
    on_found = iou_matrix(tries, found).max(axis=1) > 0.6  # the two cards, and the 0.6 step next to the first
    assert on_found.sum() == 3 and len(kept) == len(tries) - 3
    assert iou_matrix(kept, found).max() < 0.6
