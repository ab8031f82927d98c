"""Tiles laid across a line's end (``DominoRecognizer._beside_once`` with ``crossing``, ``recognizer._crossing``,
still photos): the place proposed, the doubles across a line found on rendered held-out scenes, and no face taken
across on a photo with no tile. Also a place beside the refiner stretches onto a found tile (``BESIDE_GROWN``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import vision.dominoes.recognizer as recognizer_module
from datasets.dominoes.evaluate import score_scene
from datasets.dominoes.scenes import DominoScene, DominoSceneConfig, render_scene
from tests.vision.card_helpers import PLAYING_CARD_PHOTOS
from vision.dominoes.recognizer import DominoRecognizer, _crossing
from vision.geometry import iou_matrix, order_quads
from vision.imageio import read_image


def test_the_crossing_place_lies_across_the_end() -> None:
    """A tile 40 wide and 100 long, upright: the tile across its lower end is 100 wide and 40 high, centred on the
    line, its long side against that end; the other way, against the upper end."""
    tile = np.float32([[0, 0], [40, 0], [40, 100], [0, 100]])
    below = np.float32([[-30, 100], [70, 100], [70, 140], [-30, 140]])
    above = below - np.float32([0, 140])
    for way, truth in ((1.0, below), (-1.0, above)):
        place = order_quads(_crossing(tile, way)[None])[0]
        assert iou_matrix(place[None], truth[None])[0, 0] > 0.99


def _scene(seed: int, number: int) -> tuple[np.ndarray, DominoScene]:
    scene = render_scene(np.random.default_rng([seed, number]),
                         DominoSceneConfig(size=(1280, 720), styles=("paigow-art",)))
    return scene.image, scene


def test_doubles_across_a_line_are_found(shared_data: Path) -> None:
    """Seed 12345 scene 21: two 4:4s laid across a line of the held-out art, which the finder and the look along
    and beside the found tiles miss; looked for across the line's tiles' ends, both are found and read."""
    image, scene = _scene(12345, 21)
    assert DominoRecognizer.for_photos("chinese").crossing and not DominoRecognizer("chinese").crossing
    after = score_scene(scene, DominoRecognizer.for_photos("chinese")(image))
    before = score_scene(scene, DominoRecognizer.for_photos("chinese", crossing=False)(image))
    assert before["found"] == before["read"] == after["tiles"] - 2
    assert after["found"] == after["read"] == after["tiles"] and after["false"] <= before["false"]


def test_a_tile_across_never_takes_a_found_quad(shared_data: Path) -> None:
    """Seed 123 scene 16: a 1:2 lies across the end of a 2:5 at a corner. A crossing place there overlaps the 1:2
    found already; when it contended with the 1:2, the 2:5's quad moved into the 1:2 and the 2:5 read 3:5."""
    image, scene = _scene(123, 16)
    counts = score_scene(scene, DominoRecognizer.for_photos("chinese")(image))
    assert counts["found"] == counts["read"] == counts["tiles"]


def test_a_playing_cards_figure_is_no_double_across(shared_data: Path) -> None:
    """A photo of a jack of spades read as a European set, where two "backs" are found. With any face taken across
    their ends, the figure's parts there and beside them were named four faces more (2:3, 1:1, 0:0, 0:2). Only a tile
    the face reader names a double is taken across a line's end, and none is here."""
    image = read_image(shared_data / PLAYING_CARD_PHOTOS / "Jack_spade_1.jpg")
    crossing = DominoRecognizer.for_photos("double-six")(image)
    plain = DominoRecognizer.for_photos("double-six", crossing=False)(image)
    assert crossing.labels() == plain.labels()


@pytest.mark.parametrize("grown", [1.3, float("inf")])
def test_a_place_stretched_onto_a_corner_is_taken_as_proposed(shared_data: Path, monkeypatch: pytest.MonkeyPatch,
                                                              grown: float) -> None:
    """Seed 8128 scene 4: a 2:3 the finder missed lies between a line's corner (a 2:4 turned across) and a 1:4. The
    place a tile along from the 1:4 is open and the refiner calls it a tile (1.00), but moves it 1.4 times as long,
    onto the corner: a third of it then lay on the 2:4, and it lost to that tile. Taken as proposed, the 2:3 is read
    and nothing else changes; without (``BESIDE_GROWN`` infinite) it is missed."""
    monkeypatch.setattr(recognizer_module, "BESIDE_GROWN", grown)
    image, scene = _scene(8128, 4)
    counts = score_scene(scene, DominoRecognizer.for_photos("chinese")(image))
    assert counts["tiles"] == 13 and counts["false"] == 0
    assert counts["found"] == counts["read"] == (13 if grown < 1.4 else 12)
