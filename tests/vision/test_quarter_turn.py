"""The quarter-turn look (``Recognizer.quarter_turn``, still photos): a card far up a slanted table, foreshortened
until it looks wider than long, is read on its side long side down; read turned a quarter it is named."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.vision.card_helpers import PLAYING_CARD_PHOTOS, as_stored, card_kind, held_out
from vision.card_refiner import CardRefiner
from vision.card_surround import CardSurround
from vision.classifier import CardClassifier
from vision.geometry import iou_matrix, order_quads, quads_sides, warp_quads
from vision.imageio import read_image
from vision.recognizer import PHOTO_QUARTER_TURN, Recognizer


@pytest.fixture(scope="module")
def models() -> dict[str, object]:
    return {"classifier": CardClassifier(threads=1), "refiner": CardRefiner(), "surround": CardSurround()}


def named_where_they_lie(recognizer: Recognizer, image: np.ndarray, quads: np.ndarray, labels: list[str]
                         ) -> list[str]:
    """Which of the cards at ``quads`` (with their ``labels``) get a detection named as that card."""
    cards = recognizer(image).cards
    if not cards:
        return []
    iou = iou_matrix(quads, np.array([c.quad for c in cards], np.float32))
    return [label for label, row in zip(labels, iou, strict=True)
            if row.max() >= 0.5 and card_kind(cards[int(row.argmax())].label) == card_kind(label)]


def test_foreshortened_cards_are_named_turned_a_quarter(shared_data: Path, models: dict[str, object]) -> None:
    """Held-out `default` seed 7900 scene 78: a steep view of a wooden table. Far up it, cards look nearly square
    or wider than long. With the look they are named where they lie; without it, some of them are not, and nothing
    is named that the recogniser without it names otherwise."""
    scene = held_out(7900, 78)
    image = as_stored(scene.image)
    short, long = quads_sides(scene.quads)
    squarish = (short >= PHOTO_QUARTER_TURN * long) & (scene.visible > 0.98) & ~scene.cut
    labels = [label for label, s in zip(scene.labels, squarish, strict=True) if s]
    assert len(labels) >= 5
    quads = scene.quads[squarish]
    with_it = named_where_they_lie(Recognizer.for_photos(**models), image, quads, labels)  # type: ignore[arg-type]
    without = named_where_they_lie(Recognizer.for_photos(**models, quarter_turn=None),  # type: ignore[arg-type]
                                   image, quads, labels)
    assert set(without) < set(with_it) and len(with_it) - len(without) >= 3


def test_a_card_on_its_side_reads_as_itself_turned(shared_data: Path, models: dict[str, object]) -> None:
    """What the look rests on: of the squarish faces of that scene (short side 0.8 of the long or more), most are
    seen with their length foreshortened below their width; warped long side down they lie on their side and the
    classifier does not name them, turned a quarter it does. Some are not (a card turned across the view): those
    read right as they are. So the look reads the turned quad only where the quad as it is names no card."""
    scene = held_out(7900, 78)
    image = as_stored(scene.image)
    classifier = models["classifier"]
    assert isinstance(classifier, CardClassifier)
    short, long = quads_sides(scene.quads)
    faces = np.flatnonzero((short >= long * 0.8) & (scene.visible > 0.98) & (np.array(scene.labels) != "back"))
    quads = scene.quads[faces]
    as_is = classifier.classify(warp_quads(image, quads, classifier.input_size))
    turned = classifier.classify(warp_quads(image, np.roll(order_quads(quads), 1, axis=1), classifier.input_size,
                                            as_given=True))

    def right(read: np.ndarray) -> np.ndarray:
        return np.array([card_kind(classifier.classes[int(p.argmax())]) == card_kind(scene.labels[k])
                         for p, k in zip(read, faces, strict=True)])

    assert len(faces) >= 6
    assert right(turned).sum() >= len(faces) - 2 and right(as_is).sum() >= 1
    assert (right(turned) | right(as_is)).all()


def test_a_pile_is_left_to_the_pile_look(shared_data: Path, models: dict[str, object]) -> None:
    """Held-out `piles` scene 15: strips of covered cards are squarish too, and three of them read turned as the
    cards lying there, but from loose quads, and the pile steps then lost two cards stepping from them. The look
    reads only quads that overlap no other detection, so the pile is named as without it."""
    scene = held_out(7100, 15, "piles")
    image = as_stored(scene.image)

    def names(recognizer: Recognizer) -> list[str]:
        return sorted(card_kind(c.label) for c in recognizer(image).cards if c.label != "unknown")

    with_it = names(Recognizer.for_photos(**models))  # type: ignore[arg-type]
    assert with_it == names(Recognizer.for_photos(**models, quarter_turn=None))  # type: ignore[arg-type]
    assert len(with_it) >= 10


def test_a_playing_card_pip_is_not_named_turned(shared_data: Path, models: dict[str, object]) -> None:
    """A real photo of a playing card (the three of spades): the finder boxes a spade pip with a squarish quad, and
    read turned a quarter it is a pine plain to the classifier (over the look's bar). The refiner, which sees the
    white card round it, does not call it a card, so nothing is named."""
    image = read_image(shared_data / PLAYING_CARD_PHOTOS / "3_spade_1.jpg")
    assert [c.label for c in Recognizer.for_photos(**models)(image).cards if c.label != "unknown"] == []  # type: ignore[arg-type]


def test_quarter_turn_is_checked() -> None:
    with pytest.raises(ValueError, match="quarter_turn"):
        Recognizer(quarter_turn=0.0)
