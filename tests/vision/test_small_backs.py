"""Backs much smaller than the faces read: the halves of one back merged, a lone small one dropped; on held-out
scenes, and their geometry."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from datasets.hanafuda import TEST_STYLE, preset, render_scene
from vision.classifier import CardClassifier
from vision.geometry import iou_matrix, quad_areas
from vision.observation import Detections
from vision.recognizer import Recognizer
from vision.small_backs import SmallBacks


def test_two_halves_side_by_side_make_one_back_and_far_ones_do_not() -> None:
    top = np.float32([[0, 0], [63, 0], [63, 45], [0, 45]])
    bottom = top + np.float32([0, 55])  # a little gap between the halves
    whole = SmallBacks()._merged(top, bottom, 2 * 63 * 45, typical=63 * 100)
    assert whole is not None and iou_matrix(whole[None], np.float32([[[0, 0], [63, 0], [63, 100], [0, 100]]]))[0, 0] > 0.95
    assert SmallBacks()._merged(top, top + np.float32([0, 200]), 2 * 63 * 45, typical=63 * 100) is None
    assert SmallBacks()._merged(top, top + np.float32([70, 0]), 2 * 63 * 45, typical=63 * 100) is None  # 1.3 wide


def test_knobs_are_checked() -> None:
    with pytest.raises(ValueError, match="share"):
        SmallBacks(share=1.5)
    with pytest.raises(ValueError, match="aspect"):
        SmallBacks(aspect=(0.8, 0.5))
    with pytest.raises(ValueError, match="big"):
        SmallBacks(big=1.2)


def test_a_back_far_bigger_than_the_faces_goes() -> None:
    """Two faces of one size: a back of their size stays, one three times their area goes (a phone lying screen up,
    a box); with one face only nothing is known of the cards' size."""
    classifier = CardClassifier(threads=1)
    n, back = len(classifier.classes), classifier.classes.index("back")
    face_row, back_row = np.full(n, 0.01, np.float32), np.full(n, 0.01, np.float32)
    face_row[int(np.flatnonzero(classifier.is_face)[0])], back_row[back] = 0.9, 0.9
    card = np.float32([[0, 0], [60, 0], [60, 100], [0, 100]])
    phone = np.float32([[0, 0], [100, 0], [100, 180], [0, 180]]) + np.float32([300, 0])
    quads = np.stack([card, card + 100, card + np.float32([200, 0]), phone])
    probabilities = np.stack([face_row, face_row, back_row, back_row])
    image = np.zeros((400, 600, 3), np.uint8)
    found, kept = SmallBacks()(image, Detections(quads), probabilities, classifier)
    np.testing.assert_array_equal(found.quads, quads[:3])
    np.testing.assert_array_equal(kept, probabilities[:3])
    found, _ = SmallBacks()(image, Detections(quads[1:]), probabilities[1:], classifier)
    assert len(found) == 3


def test_a_phone_on_white_paper_is_not_a_back(shared_data: Path) -> None:
    """A held-out scene on white paper (seed 9100, 11): a black phone twice a card's length, beside three cards,
    reads as a back with 0.93. It is ten times the faces' area."""
    classifier = CardClassifier(threads=1)
    config = preset("default", styles=(TEST_STYLE,), size=(1280, 720), surfaces={"paper": 1.0})
    scene = render_scene(np.random.default_rng([9100, 11]), config)
    assert "back" not in [label for label, v in zip(scene.labels, scene.visible, strict=True) if v > 0]
    unchecked = Recognizer.for_photos(classifier=classifier, small_backs=SmallBacks(big=1000.0))
    assert "back" in [c.label for c in unchecked(scene.image).cards]
    checked = Recognizer.for_photos(classifier=classifier)
    cards = checked(scene.image).cards
    assert "back" not in [c.label for c in cards] and len(cards) >= 2


def test_held_out_backs_are_named_once_and_small_dark_things_never(shared_data: Path) -> None:
    """Held-out scene 78: a small dark patch beside the cards reads as a back. With small backs checked the photo
    names the one back lying there, and the faces as before. (Scene 13, where the session-11 finder split a big
    black back in two, is read whole by the session-12 finder; the merging of two halves is built exactly above.)
    The refiner's veto (session 16) drops that patch before the small backs are checked, and the check in context
    (session 35) after, so both are left out here but for the last check, the photo recogniser as it ships."""
    classifier = CardClassifier(threads=1)
    checked = Recognizer.for_photos(classifier=classifier, refiner_veto=None, in_context=False)
    unchecked = Recognizer.for_photos(classifier=classifier, small_backs=None, refiner_veto=None, in_context=False)
    shipped = Recognizer.for_photos(classifier=classifier)
    for index in (78,):
        scene = render_scene(np.random.default_rng([7000, index]), preset("default", styles=(TEST_STYLE,)))
        backs_there = sum(label == "back" for label, v in zip(scene.labels, scene.visible, strict=True) if v > 0)
        before = Counter(c.label for c in unchecked(scene.image).cards)
        after = Counter(c.label for c in checked(scene.image).cards)
        assert backs_there == 1 and before["back"] == 2, f"scene {index}: {before['back']} backs unchecked"
        assert after["back"] == 1, f"scene {index}: {after['back']} backs"
        faces = lambda names: {k: n for k, n in names.items() if k not in ("back", "unknown")}  # noqa: E731
        assert faces(after) == faces(before)
        assert Counter(c.label for c in shipped(scene.image).cards) == after


def test_near_backs_on_a_slanted_table_are_measured_where_they_lie(shared_data: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Held-out scene 78 of seed 7900: two whole dark backs near the camera, the faces far off to the right and small.
    Measured against the faces' median area the backs were a box (over 2.5 times) and too big to lie alone; measured
    against a card's area where they lie (``expected_areas``, the table's plane) both are named where they are."""
    scene = render_scene(np.random.default_rng([7900, 78]), preset("default", styles=(TEST_STYLE,), size=(1280, 720)))
    truth = scene.quads[[label == "back" for label in scene.labels]]
    assert len(truth) == 2
    recognizer = Recognizer.for_photos(classifier=CardClassifier(threads=1))

    def backs() -> np.ndarray:
        cards = recognizer(scene.image).cards
        return np.array([c.quad for c in cards if c.label == "back"], np.float32).reshape(-1, 4, 2)

    found = backs()
    assert len(found) == 2 and iou_matrix(truth, found).max(axis=1).min() >= 0.8

    def median(faces: np.ndarray, quads: np.ndarray, least: int = 4) -> np.ndarray:
        return np.full(len(quads), float(np.median(quad_areas(faces))))

    monkeypatch.setattr("vision.small_backs.expected_areas", median)
    monkeypatch.setattr("vision.recognizer.expected_areas", median)
    assert len(backs()) == 0
