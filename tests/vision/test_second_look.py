"""The second look at sure but unnamed cards: its geometry, and on rendered piles of the held-out art, that what
it names is the card lying there."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from datasets.hanafuda import TEST_STYLE, preset, render_scene
from tests.vision.card_helpers import card_kind
from vision.classifier import CardClassifier
from vision.geometry import iou_matrix
from vision.recognizer import Recognizer
from vision.second_look import SecondLook, shifted_across


def test_a_shift_runs_across_the_card_whichever_way_it_lies() -> None:
    upright = np.float32([[[100, 100], [160, 100], [160, 200], [100, 200]]])  # 60 wide, 100 long
    lying = np.float32([[[100, 100], [200, 100], [200, 160], [100, 160]]])  # 100 wide on screen, 60 across
    moved = shifted_across(upright, (-0.5, 0.25))
    assert moved.shape == (1, 2, 4, 2)
    np.testing.assert_allclose(moved[0, 0].mean(axis=0), [100.0, 150.0])  # half a width (30 px) to the left
    np.testing.assert_allclose(moved[0, 1].mean(axis=0), [145.0, 150.0])
    shift = shifted_across(lying, (0.5,))[0, 0].mean(axis=0) - lying[0].mean(axis=0)
    assert abs(shift[0]) < 1e-4 and abs(shift[1]) == pytest.approx(30.0)  # across a lying card is up or down


def test_knobs_are_checked() -> None:
    with pytest.raises(ValueError, match="max_overlap"):
        SecondLook(max_overlap=0.0)
    with pytest.raises(ValueError, match="least_overlap"):
        SecondLook(least_overlap=0.7)
    with pytest.raises(ValueError, match="shifts"):
        SecondLook(shifts=())


def test_a_lone_detection_is_left_alone(shared_data: Path) -> None:
    """Only a pile hides part of a card: a quad that overlaps nothing keeps its quad and its reading."""
    classifier = CardClassifier(threads=1)
    image = np.full((300, 300, 3), 90, np.uint8)
    quads = np.float32([[[100, 60], [160, 60], [160, 160], [100, 160]]])
    probabilities = classifier.classify(np.zeros((1, *classifier.input_size[::-1], 3), np.uint8))
    new_quads, new_probabilities = SecondLook()(image, quads, probabilities, np.array([True]), classifier)
    np.testing.assert_array_equal(new_quads, quads)
    np.testing.assert_array_equal(new_probabilities, probabilities)


def test_shifted_quads_of_pile_cards_name_the_card_there(shared_data: Path) -> None:
    """On these held-out piles the finder's quad of some half-covered cards sits a quarter width off and reads
    as not-a-card; the second look names each such card, and always the card that lies there. (With the session-30
    classifier, over 60 such piles it names 21 cards rightly; in 4 piles it costs one: a wrong name once, twice a
    card left unknown, and once the card named from a quad overlapping it by less than 0.6. With the session-12 finder and the classifier before, 33
    rightly, and a wrong name twice. The README counts it.)"""
    classifier = CardClassifier(threads=1)
    looking, plain = Recognizer(classifier=classifier, second_look=SecondLook()), Recognizer(classifier=classifier)
    config = preset("piles", styles=(TEST_STYLE,), size=(960, 540))
    named = 0
    for seed in (4, 11, 14, 23):
        scene = render_scene(seed, config)
        after, before = looking(scene.image).cards, plain(scene.image).cards
        assert len(after) == len(before)
        for new, old in zip(after, before, strict=True):
            if new.label == old.label:
                continue
            assert old.label == "unknown", f"seed {seed}: the second look changed {old.label} to {new.label}"
            overlap = iou_matrix(np.array([new.quad]), scene.quads)[0]
            there = scene.labels[int(overlap.argmax())]
            assert card_kind(new.label) == card_kind(there) and overlap.max() >= 0.6, f"seed {seed}: {new.label}"
            named += 1
    assert named >= 5, f"the second look named {named} cards on four piles"
