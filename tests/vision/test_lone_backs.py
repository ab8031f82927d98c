"""Backs lying alone in still photos: on held-out scenes a lone back the finder was unsure of is named where it lies,
and the guards: a face must be read to size it by, it must overlap nothing, be a card's size and the refiner must call
it a card."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import vision.recognizer as recognizer_module
from tests.vision.card_helpers import as_stored, held_out, named_backs
from vision.card_refiner import CardRefiner
from vision.classifier import CardClassifier
from vision.geometry import iou_matrix
from vision.observation import BACK
from vision.recognizer import Recognizer


@pytest.fixture(scope="module")
def models() -> dict[str, object]:
    return {"classifier": CardClassifier(threads=1), "refiner": CardRefiner()}


@pytest.mark.parametrize(("seed", "index"), [(7000, 76), (7700, 63)])
def test_a_lone_back_is_named_where_it_lies(shared_data: Path, models: dict[str, object], seed: int, index: int
                                            ) -> None:
    """In these held-out scenes one back, alone on the table, got only a weak peak: without the lone backs it is
    dropped, with them it is named, on the back's true quad, and nothing else changes."""
    scene = held_out(seed, index)
    truth = scene.quads[[label == BACK for label in scene.labels]]
    with_it = Recognizer.for_photos(**models)(scene.image).cards  # type: ignore[arg-type]
    without = Recognizer.for_photos(**models, lone_backs=None)(scene.image).cards  # type: ignore[arg-type]
    backs = np.array([c.quad for c in with_it if c.label == BACK], np.float32)
    assert not any(c.label == BACK for c in without)
    assert len(backs) == 1 and iou_matrix(backs, truth).max() >= 0.7
    assert sorted(c.label for c in with_it if c.label != BACK) == sorted(c.label for c in without)


def test_the_guards(shared_data: Path, models: dict[str, object]) -> None:
    """On scene 76's image, the back's true quad with a back's probabilities is a lone back beside a named face; not
    with no face read, nor overlapping another detection, nor three times the face's size, nor moved onto bare
    table (the refiner sees no card there)."""
    scene = held_out(7000, 76)
    classifier = models["classifier"]
    assert isinstance(classifier, CardClassifier)
    recognizer = Recognizer(classifier=classifier, refiner=models["refiner"], lone_backs=0.9)  # type: ignore[arg-type]
    back_quad = scene.quads[list(scene.labels).index(BACK)]
    face_index = next(i for i, label in enumerate(scene.labels) if label != BACK)  # where, not which, matters
    n = len(classifier.classes)
    back, face = np.zeros(n, np.float32), np.zeros(n, np.float32)
    back[classifier.classes.index(BACK)] = 0.95
    face[int(np.flatnonzero(classifier.is_face)[0])] = 0.95

    def lone(quads: list[np.ndarray], rows: list[np.ndarray]) -> list[bool]:
        ask = np.array([True] + [False] * (len(quads) - 1))
        return list(recognizer._lone_back(scene.image, np.array(quads, np.float32), np.stack(rows), ask))

    face_quad = scene.quads[face_index]
    assert lone([back_quad, face_quad], [back, face]) == [True, False]
    assert lone([back_quad], [back]) == [False]  # nothing to size it by
    assert lone([back_quad, back_quad + np.float32([10, 0]), face_quad], [back, back, face]) == [False] * 3
    big_face = (face_quad - face_quad.mean(axis=0)) * np.float32(0.55) + face_quad.mean(axis=0)
    assert lone([back_quad, big_face], [back, face]) == [False, False]  # the back is 3.3 faces big
    bare = back_quad + np.float32([300, 0])  # the mat right of the back, where nothing lies
    assert iou_matrix(bare[None], scene.quads).max() == 0
    assert lone([bare, face_quad], [back, face]) == [False, False]


def test_a_back_the_refiner_doubts_is_looked_at_again(shared_data: Path, models: dict[str, object],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A dark green back alone on a wooden table, as the held-out set stores it (JPEG 95): the finder's quad is
    loose (heat 0.33); the refiner moves it onto the back but gives a card only 0.40 there, under its threshold, and
    the candidate went. Looked at again from where it was moved, the back is a card (0.95) and is named."""
    scene = held_out(7700, 103)
    image = as_stored(scene.image)  # as the held-out set stores it
    truth = scene.quads[[label == BACK and visible >= 0.98 for label, visible in zip(scene.labels, scene.visible,
                                                                                      strict=True)]]
    backs = np.array([c.quad for c in Recognizer.for_photos(**models)(image).cards  # type: ignore[arg-type]
                      if c.label == BACK], np.float32)
    assert len(truth) == 1 and len(backs) == 1 and iou_matrix(backs, truth).max() >= 0.9
    monkeypatch.setattr(recognizer_module, "REFINE_AGAIN", 1.0)  # no second look
    assert not any(c.label == BACK for c in Recognizer.for_photos(**models)(image).cards)  # type: ignore[arg-type]


def test_a_looser_quad_on_the_back_itself_does_not_block_it(shared_data: Path, models: dict[str, object],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Held-out scene 69 of seed 8300: a dark green back with an emblem, lying alone, got two doubtful candidates, a
    good one (read as a back, 1.00) and a looser one half over it and a face beside (a face at 0.61, under the 0.7 a
    doubtful face needs, so it goes). The looser one, about to go, no longer counts as a detection the back must be
    clear of: the back is named where it lies, and was not before."""
    scene = held_out(8300, 69)
    truth = scene.quads[[label == BACK for label in scene.labels]]
    recognizer = Recognizer.for_photos(**models)  # type: ignore[arg-type]
    found = named_backs(recognizer, scene.image)
    assert len(truth) == 1 and len(found) == 1 and iou_matrix(found, truth)[0, 0] >= 0.9
    shipped = Recognizer._lone_back
    monkeypatch.setattr(Recognizer, "_lone_back", lambda self, image, quads, probabilities, ask, going=None:
                        shipped(self, image, quads, probabilities, ask))  # every detection blocks, as before
    assert len(named_backs(recognizer, scene.image)) == 0


def test_a_back_the_classifier_half_doubts_is_kept_where_both_round_checks_are_sure(
        shared_data: Path, models: dict[str, object], monkeypatch: pytest.MonkeyPatch) -> None:
    """Held-out scene 38 of seed 7900: a dark grey back alone on a brown table, a doubtful candidate the classifier
    gives a back only 0.73 (a plain dark rectangle is also what a patch of dark table looks like). The refiner and the
    surround check, which see round it, both give it a card at 1.00: it is named where it lies, and with the bar of
    0.9 alone it is not."""
    scene = held_out(7900, 38)
    truth = scene.quads[[label == BACK for label in scene.labels]]
    recognizer = Recognizer.for_photos(**models)  # type: ignore[arg-type]
    image = as_stored(scene.image)  # as the held-out set stores it
    found = named_backs(recognizer, image)
    assert len(truth) == 1 and len(found) == 1 and iou_matrix(found, truth)[0, 0] >= 0.8
    monkeypatch.setattr("vision.recognizer.LONE_BACK_WEAK", recognizer_module.LONE_BACK_NEEDS)
    assert len(named_backs(recognizer, image)) == 0


def test_backs_both_round_checks_take_for_cards_are_kept(shared_data: Path, models: dict[str, object],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Held-out scene 59 of seed 8700: three backs lying alone, two of them doubtful candidates the classifier gives a
    back 0.83-0.88. The refiner and the surround check give those 0.91-1.00 and 0.89-0.94: all three are named where
    they lie, and with session 35's bar of 0.97 for both checks only the sure one is."""
    scene = held_out(8700, 59)
    truth = scene.quads[[label == BACK for label in scene.labels]]
    recognizer = Recognizer.for_photos(**models)  # type: ignore[arg-type]
    image = as_stored(scene.image)  # as the held-out set stores it
    found = named_backs(recognizer, image)
    assert len(truth) == 3 and len(found) == 3 and (iou_matrix(found, truth).max(axis=0) >= 0.8).all()
    monkeypatch.setattr("vision.recognizer.LONE_BACK_WEAK_SURE", 0.97)
    assert len(named_backs(recognizer, image)) == 1
