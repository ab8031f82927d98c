"""The look at whole cards round a piece of one: its geometry, and on held-out close-ups, that a card the finder
boxed only a piece of is named, and named as the card lying there."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from datasets.hanafuda import TEST_STYLE, preset, render_scene
from tests.vision.card_helpers import card_kind
from vision.classifier import CardClassifier
from vision.geometry import CARD_ASPECT, iou_matrix
from vision.grow_look import GrowLook, grown, jittered
from vision.recognizer import Recognizer


def test_a_piece_grows_into_the_card_that_holds_it() -> None:
    width, length = 63.0, 100.0
    card = np.float32([[[0, 0], [width, 0], [width, length], [0, length]]]) + 200
    top_end = np.float32([[[0, 0], [width, 0], [width, 40], [0, 40]]]) + 200  # spans the width, 40 long
    left_half = np.float32([[[0, 0], [31.5, 0], [31.5, length], [0, length]]]) + 200  # a strip along the card
    for piece in (top_end, left_half):
        tries = grown(piece)
        assert tries.shape == (1, 10, 4, 2)
        assert iou_matrix(tries[0, :1], piece)[0, 0] > 0.99  # the piece itself is tried too
        assert iou_matrix(tries[0], card).max() > 0.95, f"{piece[0].tolist()}: no try is the card"
    # a piece whose long side is the card's width grows to a card as long as that side / the aspect
    lying = np.float32([[[0, 0], [width, 0], [width, 30], [0, 30]]])
    lengths = [max(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[3] - q[0])) for q in grown(lying)[0, 4:7]]
    np.testing.assert_allclose(lengths, width / CARD_ASPECT, rtol=1e-5)


def test_jitters_scale_and_shift_by_the_step() -> None:
    quad = np.float32([[[100, 100], [160, 100], [160, 200], [100, 200]]])
    tries = jittered(quad, 0.1)[0]
    centres = tries.mean(axis=1)
    np.testing.assert_allclose(centres[:2], [[130, 150]] * 2)  # scaled about the centre
    np.testing.assert_allclose(tries[1, 2] - tries[1, 0], [66, 110], rtol=1e-5)
    np.testing.assert_allclose(centres[2:], [[136, 150], [124, 150], [130, 160], [130, 140]], rtol=1e-5)


def test_knobs_are_checked() -> None:
    with pytest.raises(ValueError, match="near"):
        GrowLook(near=0.95, needs=0.9)
    with pytest.raises(ValueError, match="max_overlap"):
        GrowLook(max_overlap=1.0)


def test_nothing_to_look_at_leaves_everything(shared_data: Path) -> None:
    classifier = CardClassifier(threads=1)
    quads = np.float32([[[100, 60], [160, 60], [160, 160], [100, 160]]])
    probabilities = classifier.classify(np.zeros((1, *classifier.input_size[::-1], 3), np.uint8))
    new_quads, new_probabilities, keep = GrowLook()(np.zeros((300, 300, 3), np.uint8), quads, probabilities,
                                                    np.array([False]), np.array([True]), classifier)
    np.testing.assert_array_equal(new_quads, quads)
    np.testing.assert_array_equal(new_probabilities, probabilities)
    assert keep.all()


def test_a_close_up_moon_is_named_from_its_pieces(shared_data: Path) -> None:
    """In these held-out close-ups the finder boxes the pampas moon's grass and its disc apart, and no quad holds
    the card: without the look it goes unnamed; with it, the card is named once and nothing else is."""
    classifier = CardClassifier(threads=1)
    looking = Recognizer.for_photos(classifier=classifier)
    plain = Recognizer.for_photos(classifier=classifier, grow_look=None)
    for index in (39, 78):
        scene = render_scene(np.random.default_rng([8100, index]), preset("close-up", styles=(TEST_STYLE,)))
        there = {card_kind(c) for c, v in zip(scene.labels, scene.visible, strict=True) if v > 0}
        assert "pampas-moon" in there
        before = [c.label for c in plain(scene.image).cards if c.label != "unknown"]
        after = [card_kind(c.label) for c in looking(scene.image).cards if c.label != "unknown"]
        assert "pampas-moon" not in before, f"close-up {index}: the finder alone now holds the card"
        assert after.count("pampas-moon") == 1, f"close-up {index}: {after}"
        assert set(after) <= there, f"close-up {index}: {set(after) - there} is not there"
        moon = next(c for c in looking(scene.image).cards if c.label == "pampas-moon")
        truth = scene.quads[scene.labels.index("pampas-moon")]
        assert iou_matrix(np.array([moon.quad]), truth[None])[0, 0] > 0.6
