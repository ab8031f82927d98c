"""The look at cards in their neighbours' shape, and backs in piles: the tries' geometry, and on rendered scenes of
the held-out art, that what they name is the card lying there."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from datasets.hanafuda import TEST_STYLE, Scene, preset, render_scene
from tests.vision.card_helpers import as_stored, card_kind, held_out, named_backs
from vision.card_refiner import CardRefiner
from vision.classifier import CardClassifier
from vision.geometry import iou_matrix
from vision.observation import BACK, CardObservation
from vision.pile_look import SLACK_ACROSS, SLACK_ALONG, STEP, PileLook, borrowed
from vision.recognizer import PHOTO_PILE_BACKS, PHOTO_PILE_LOOK_BACKS, WEAK_FACE, Recognizer


@pytest.fixture(scope="module")
def models() -> dict[str, object]:
    return {"classifier": CardClassifier(threads=1), "refiner": CardRefiner()}


def test_tries_cover_the_detection_in_the_lenders_shape() -> None:
    lender = np.float32([[0, 0], [60, 0], [60, 100], [0, 100]])  # 60 wide, 100 long
    same = lender + np.float32([300, 200])
    tries = borrowed(lender, same)
    along, across = round(SLACK_ALONG / STEP), round(SLACK_ACROSS / STEP)
    assert tries.shape == ((2 * along + 1) * (2 * across + 1), 4, 2)
    np.testing.assert_allclose(tries.mean(axis=(0, 1)), same.mean(axis=0), atol=1e-3)  # centred on the detection
    sides = np.linalg.norm(np.roll(tries, -1, axis=1) - tries, axis=2)
    np.testing.assert_allclose(np.sort(sides, axis=1), np.tile([60, 60, 100, 100], (len(tries), 1)), atol=1e-3)
    centres = tries.mean(axis=1) - same.mean(axis=0)
    assert np.abs(centres[:, 1]).max() == pytest.approx(along * STEP * 100)  # along the card: its length
    assert np.abs(centres[:, 0]).max() == pytest.approx(across * STEP * 60)
    # a detection two cards long: the tries reach half a card further each way along it
    long = np.float32([[300, 200], [360, 200], [360, 400], [300, 400]])
    assert np.abs(borrowed(lender, long).mean(axis=1)[:, 1] - 300).max() == pytest.approx(
        (along + round(0.5 / STEP)) * STEP * 100
    )


@pytest.mark.parametrize("knobs", [{"neighbours": 0}, {"max_overlap": 0.0}, {"needs": 1.5},
                                   {"doubtful_needs": -0.1}, {"doubtful_reach": 0.0}, {"back_needs": 1.5}])
def test_knobs_are_checked(knobs: dict[str, float]) -> None:
    with pytest.raises(ValueError, match=next(iter(knobs))):
        PileLook(**knobs)  # type: ignore[arg-type]


def test_nothing_named_lends_no_shape(models: dict[str, object]) -> None:
    classifier = models["classifier"]
    assert isinstance(classifier, CardClassifier)
    image = np.full((300, 300, 3), 90, np.uint8)
    quads = np.float32([[[100, 60], [160, 60], [160, 160], [100, 160]], [[130, 60], [190, 60], [190, 160], [130, 160]]])
    probabilities = classifier.classify(np.zeros((2, *classifier.input_size[::-1], 3), np.uint8))
    new_quads, new_probabilities, source = PileLook()(
        image, quads, probabilities, np.array([True, True]), np.array([False, False]), classifier
    )
    np.testing.assert_array_equal(new_quads, quads)
    np.testing.assert_array_equal(new_probabilities, probabilities)
    np.testing.assert_array_equal(source, [0, 1])


def named_right(cards: tuple[CardObservation, ...], quads: np.ndarray, labels: tuple[str, ...], label: str) -> bool:
    """The card named ``label`` lies where it is named (IoU 0.6 with its true quad)."""
    quad = next(c.quad for c in cards if c.label == label)
    overlap = iou_matrix(np.array([quad]), quads)[0]
    return bool(overlap.max() >= 0.6 and card_kind(labels[int(overlap.argmax())]) == card_kind(label))


def named_more(with_it: Recognizer, without: Recognizer, scene: Scene, seed: int
               ) -> tuple[tuple[CardObservation, ...], tuple[CardObservation, ...], list[str]]:
    """Both recognisers' cards on ``scene``, and the cards ``with_it`` names that ``without`` does not, each checked
    to be the card lying there."""
    after, before = with_it(scene.image).cards, without(scene.image).cards
    new = [c.label for c in after if c.label != "unknown" and c.label not in {b.label for b in before}]
    for label in new:
        assert named_right(after, scene.quads, scene.labels, label), f"seed {seed}: {label} is not there"
    return after, before, new


@pytest.mark.parametrize("knob", ["pile_look", "pile_backs"])
def test_it_names_pile_cards_left_unknown_and_always_the_card_there(
    shared_data: Path, models: dict[str, object], knob: str
) -> None:
    """On these held-out piles the photo recogniser without the pile look (or without backs in piles) leaves a card
    unknown that it names; what it names is the card lying there. (Over 60 such piles, 960 x 540: the look named
    one or two cards more in 10; over 40, the backs one more in 3; neither a wrong card.)"""
    with_it = Recognizer.for_photos(**models)  # type: ignore[arg-type]
    without = Recognizer.for_photos(**models, **{knob: None})  # type: ignore[arg-type]
    config = preset("piles", styles=(TEST_STYLE,), size=(960, 540))
    gained = 0
    for seed in {"pile_look": (3, 40, 52), "pile_backs": (8, 22, 27)}[knob]:
        scene = render_scene(seed, config)
        after, before, new = named_more(with_it, without, scene, seed)
        if knob == "pile_backs":
            backs = sum(c.label == BACK for c in after) - sum(c.label == BACK for c in before)
            assert backs >= 0 and backs <= sum(label == BACK for label in scene.labels)
            gained += backs
        gained += len(new)
    assert gained >= 3, f"{knob} named {gained} more cards on three piles"


def test_a_detection_holding_two_cards_is_split(shared_data: Path, models: dict[str, object]) -> None:
    """In this held-out pile one sure quad spans two cards; in the shape of its neighbours it reads as two, each the
    card lying there: the paulownia's coloured plain (the second card) is named, and nothing named without the look
    is lost. (The pile steps, ``vision.pile_steps``, find that card too: they are left off here.)"""
    scene = render_scene(23, preset("piles", styles=(TEST_STYLE,), size=(1280, 720)))
    with_it = Recognizer.for_photos(**models, pile_steps=None)(scene.image).cards  # type: ignore[arg-type]
    without = Recognizer.for_photos(**models, pile_look=None, pile_steps=None)(  # type: ignore[arg-type]
        scene.image).cards
    named, named_before = ({c.label for c in cards if c.label != "unknown"} for cards in (with_it, without))
    assert "paulownia-plain-3" in named - named_before and named_before <= named
    for label in named - named_before:
        assert named_right(with_it, scene.quads, scene.labels, label), label


def test_a_lone_back_is_not_a_pile_back(models: dict[str, object]) -> None:
    """A doubtful back needs a sure card's face over (or under) it: a dark card-shaped thing alone, or the stock's
    next back under its top back, is not one."""
    classifier = models["classifier"]
    assert isinstance(classifier, CardClassifier)
    recognizer = Recognizer(classifier=classifier, pile_backs=PHOTO_PILE_BACKS)
    n = len(classifier.classes)
    back, face = np.zeros(n, np.float32), np.zeros(n, np.float32)
    back[classifier.classes.index(BACK)] = 0.95
    face[int(np.flatnonzero(classifier.is_face)[0])] = 0.95
    card = np.float32([[100, 100], [160, 100], [160, 200], [100, 200]])
    under = card + np.float32([0, 50])  # half under the first
    far = card + np.float32([400, 0])
    quads = np.stack([card, under, far])
    doubtful = np.array([False, True, True])
    kept = recognizer._pile_back(quads, np.stack([face, back, back]), doubtful)
    np.testing.assert_array_equal(kept, [False, True, False])
    kept = recognizer._pile_back(quads, np.stack([back, back, back]), doubtful)  # the top one a back too
    np.testing.assert_array_equal(kept, [False, False, False])


def test_a_pile_back_the_classifier_gives_0_85_is_kept(shared_data: Path, models: dict[str, object]) -> None:
    """Held-out piles scene 38 (seed 7100, the `piles` set's scene before its JPEG): two backs lie in the pile, and the
    classifier gives one of them, a doubtful candidate, 0.8-0.9 back. Both are named where they lie; with the bar
    at 0.9, as until session 33, one of them was lost."""
    scene = held_out(7100, 38, "piles")
    backs = np.array([q for q, label in zip(scene.quads, scene.labels, strict=True) if label == BACK], np.float32)
    assert PHOTO_PILE_BACKS == 0.8 and len(backs) == 2

    now = named_backs(Recognizer.for_photos(**models), scene.image)  # type: ignore[arg-type]
    assert len(now) == 2 and (iou_matrix(backs, now).max(axis=1) >= 0.5).all()
    strict = Recognizer.for_photos(**models, pile_backs=0.9)  # type: ignore[arg-type]
    assert len(named_backs(strict, scene.image)) == 1


def test_a_back_strip_boxed_too_big_is_named_a_back_in_its_neighbours_shape(
    shared_data: Path, models: dict[str, object]
) -> None:
    """Held-out piles scene 15: a back's strip shows under the next card, and the finder's quad of it is a third too
    wide and a quarter too long; the classifier reads that quad as no card. In its neighbours' shape it reads back
    (0.96 here) and is named where it lies; with the pile look naming faces only it stays unknown."""
    scene = held_out(7100, 15, "piles")
    image = as_stored(scene.image)  # as the held-out set stores it
    strip = np.array([q for q, label, seen in zip(scene.quads, scene.labels, scene.visible, strict=True)
                      if label == BACK and seen < 0.6], np.float32)
    assert PHOTO_PILE_LOOK_BACKS == 0.9 and len(strip) == 1
    faces_only = Recognizer.for_photos(**models, pile_look=PileLook())  # type: ignore[arg-type]
    for recognizer, named in ((Recognizer.for_photos(**models), True), (faces_only, False)):  # type: ignore[arg-type]
        backs = named_backs(recognizer, image)
        assert (iou_matrix(strip, backs).max(initial=0.0) >= 0.6) == named


@pytest.mark.parametrize(("seed", "index", "label"), [(7100, 38, "maple-deer"), (7500, 32, "cherry-ribbon")])
def test_a_weakly_named_pile_card_is_looked_at_again(
    shared_data: Path, models: dict[str, object], seed: int, index: int, label: str
) -> None:
    """Held-out piles: the finder's quad of a covered card lies half on its neighbour, and the classifier reads it
    weakly as another card (scene 38: a chrysanthemum ribbon, 0.58). Looked at in its neighbours' shape it reads as
    the card lying there, which is then named where it lies; without that look it is not named."""
    scene = held_out(seed, index, "piles")
    scene = replace(scene, image=as_stored(scene.image))  # as the held-out set stores it
    with_it = Recognizer.for_photos(**models)  # type: ignore[arg-type]
    without = Recognizer.for_photos(**models, weak_faces=None)  # type: ignore[arg-type]
    assert WEAK_FACE == 0.7
    after, before, new = named_more(with_it, without, scene, index)
    assert card_kind(label) in {card_kind(n) for n in new}
    assert {c.label for c in before if c.label != "unknown"} - {c.label for c in after} == set()


def test_weak_faces_is_checked() -> None:
    with pytest.raises(ValueError, match="weak_faces"):
        Recognizer(weak_faces=0.0)
