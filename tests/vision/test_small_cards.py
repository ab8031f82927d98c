"""A still photo whose cards are small in the frame: the finder looks again, closer. The zoom rule on made-up
detections, the finder's zoom knob, and held-out scenes on a bigger canvas (a wide phone shot of the same table)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from datasets.hanafuda import TEST_STYLE, Scene, preset, render_scene
from tests.benchmarks.image_changes import further_away
from tests.vision.test_pile_look import named_right
from vision.card_refiner import CardRefiner
from vision.classifier import CardClassifier
from vision.finder_learned import LearnedFinder
from vision.geometry import iou_matrix
from vision.observation import Detections
from vision.recognizer import MAYBE_SMALL, MOST_ZOOM, PROBE_ZOOM, SMALL_CARD, ZOOMED_CARD, Recognizer


@pytest.fixture(scope="module")
def models() -> dict[str, object]:
    return {"classifier": CardClassifier(threads=1), "refiner": CardRefiner(), "finder": LearnedFinder()}


def cards(short: float, count: int, heat: float = 0.9, top: float = 10) -> Detections:
    """``count`` upright cards ``short`` px wide (frame px), in a row ``top`` px from the top."""
    card = np.float32([[0, 0], [short, 0], [short, 1.6 * short], [0, 1.6 * short]])
    quads = np.stack([card + np.float32([i * 2 * short + 10, top]) for i in range(count)])
    return Detections(quads, confidence=np.full(count, heat, np.float32), partial=np.zeros(count, bool))


SHAPE = (1440, 2560, 3)  # the frame the made-up detections lie in


def with_closer_look(models: dict[str, object]) -> tuple[Recognizer, float]:
    """A recogniser with the closer look, and the factor from ``SHAPE``'s px to the finder's input px."""
    finder = models["finder"]
    assert isinstance(finder, LearnedFinder)
    return Recognizer(**models, small_cards=True), finder.input_scale(SHAPE[1], SHAPE[0])  # type: ignore[arg-type]


def test_the_zoom_brings_small_cards_to_the_size_the_finder_knows(models: dict[str, object]) -> None:
    recognizer, to_input = with_closer_look(models)
    shape = SHAPE
    small = 0.75 * SMALL_CARD / to_input  # frame px: three quarters of the least size at the finder's input
    assert recognizer._zoom(cards(small, 5), shape) == pytest.approx(ZOOMED_CARD / (0.75 * SMALL_CARD), rel=1e-4)
    assert recognizer._zoom(cards(1.2 * SMALL_CARD / to_input, 5), shape) == 1.0  # big enough
    assert recognizer._zoom(cards(0.2 * SMALL_CARD / to_input, 5), shape) == MOST_ZOOM  # tiny: only so close
    assert recognizer._zoom(cards(small, 2), shape) == 1.0  # two cards tell no size
    assert recognizer._zoom(cards(small, 5, heat=0.3), shape) == 1.0  # doubtful ones neither
    big = 2 * SMALL_CARD / to_input
    mixed = Detections.concatenate([cards(small, 3), cards(big, 2, top=400)])
    assert recognizer._zoom(mixed, shape) == 1.0  # most cards big: a pile's small strips among them are no reason
    mostly_small = Detections.concatenate([cards(small, 4), cards(big, 1, top=400)])
    assert recognizer._zoom(mostly_small, shape) == pytest.approx(ZOOMED_CARD / (0.75 * SMALL_CARD), rel=1e-4)


def test_too_few_sure_cards_and_nothing_card_sized_make_the_finder_look_closer(models: dict[str, object]) -> None:
    recognizer, to_input = with_closer_look(models)
    shape = SHAPE
    small, sized = 0.75 * SMALL_CARD / to_input, 1.2 * SMALL_CARD / to_input
    assert recognizer._probed(cards(small, 2), shape)  # two small sure cards: too few to tell, none card-sized
    assert recognizer._probed(cards(small, 1, heat=0.3), shape)  # a doubtful small one
    assert not recognizer._probed(Detections.empty(), shape)  # nothing at all: a close-up's texture, not small cards
    assert not recognizer._probed(cards(small, 3), shape)  # enough to tell (``_zoom``'s case)
    assert not recognizer._probed(cards(sized, 1), shape)  # a sure card of the usual size
    assert not recognizer._probed(cards(2.5 * sized, 1, heat=0.3), shape)  # a big doubtful one: a close-up, a box
    assert recognizer._probed(cards(sized, 1, heat=0.3), shape)  # a doubtful one of the usual size may be a stray peak


def test_the_finder_zoom_is_checked_and_finds_small_cards(shared_data: Path, models: dict[str, object]) -> None:
    """Held-out whole-mat scene 15 seen from further away: at its input rule the finder finds 3 of its 20 fully
    visible cards, looking 1.75 times closer all 20, on their true quads (frame pixels)."""
    finder = models["finder"]
    assert isinstance(finder, LearnedFinder)
    with pytest.raises(ValueError, match="zoom"):
        finder(np.zeros((100, 100, 3), np.uint8), zoom=0.0)
    scene = wide(render_scene(np.random.default_rng([7000, 15]), preset("default", styles=(TEST_STYLE,),
                                                                            size=(1280, 720))))
    whole = scene.quads[scene.visible >= 0.9]
    found = [int((iou_matrix(whole, finder(scene.image, zoom=zoom).quads).max(axis=1) >= 0.5).sum())
             for zoom in (1.0, 1.75)]
    assert found[0] <= len(whole) // 2 and found[1] == len(whole), found


def wide(scene: Scene) -> Scene:
    """``scene`` on a canvas 1.75 times as high and 1.15 times as wide, its border repeated (``further_away``): the
    same table seen from further away, its cards half as big at the finder's input."""
    image, corner = further_away(scene.image)
    index_map, _ = further_away(scene.index_map, fill=-1)
    return replace(scene, image=image, quads=scene.quads + np.float32(corner), index_map=index_map)


@pytest.mark.parametrize("index", [4, 20, 22, 92])
def test_small_cards_are_named_with_the_closer_look(shared_data: Path, models: dict[str, object], index: int
                                                    ) -> None:
    """Held-out scenes seen from further away: the photo recogniser without the closer look names 4 or more cards
    fewer; with it every card it named before is named, and each card more lies where it is named. In scene 4 the
    first look finds too few sure cards to tell their size, and the look at ``PROBE_ZOOM`` finds them; scene 92's
    cards are under ``MAYBE_SMALL`` but not ``SMALL_CARD``, and the closer look finds one and a half times the sure
    ones."""
    scene = wide(render_scene(np.random.default_rng([7000, index]), preset("default", styles=(TEST_STYLE,),
                                                                           size=(1280, 720))))
    recognizer, _ = with_closer_look(models)
    first = recognizer.finder(scene.image, threshold=0.25)
    assert recognizer._probed(first, scene.image.shape) == (index == 4) and PROBE_ZOOM > 1.0
    maybe = recognizer._zoom(first, scene.image.shape) == 1.0 < recognizer._zoom(first, scene.image.shape,
                                                                                  small=MAYBE_SMALL)
    assert maybe == (index == 92)
    with_it = Recognizer.for_photos(**models)(scene.image).cards  # type: ignore[arg-type]
    without = Recognizer.for_photos(**models, small_cards=False)(scene.image).cards  # type: ignore[arg-type]
    named, named_before = ({c.label for c in found if c.label != "unknown"} for found in (with_it, without))
    assert named_before <= named and len(named - named_before) >= 4, (named_before, named)
    for label in named - named_before:
        assert named_right(with_it, scene.quads, scene.labels, label), label
