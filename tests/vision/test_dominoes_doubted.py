"""Tiles the refiner doubts where few read face up (``DominoRecognizer._undoubted``, still photos): on the shared real
photos of single playing cards, the backs boxed inside an ace's suit sign and the faces read from a spade's pips go,
for a European set and (since session 36) a Chinese one; a rendered row of backs bearing a maker's mark, which the
refiner half doubts, stays."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from datasets.dominoes.evaluate import score_scene
from datasets.dominoes.scenes import DominoSceneConfig, render_scene
from tests.vision.card_helpers import PLAYING_CARD_PHOTOS
from vision.dominoes import DominoRecognizer
from vision.imageio import read_image


@pytest.mark.parametrize(("tile_set", "photo", "before"), [("double-six", "Ace_diamond_1.jpg", ["0:1", "back", "back"]),
                                                           ("double-six", "10_spade_1.jpg", ["0:1", "back", "back"]),
                                                           ("chinese", "3_spade_1.jpg", ["5:5", "back", "back"]),
                                                           ("chinese", "7_club_1.jpg", ["5:5", "back"])])
def test_a_playing_card_is_no_domino(shared_data: Path, tile_set: str, photo: str, before: list[str]) -> None:
    image = read_image(shared_data / PLAYING_CARD_PHOTOS / photo)
    assert sorted(DominoRecognizer.for_photos(tile_set, doubted_alone=False)(image).labels()) == before
    assert DominoRecognizer.for_photos(tile_set)(image).labels() == []


def test_a_row_of_marked_backs_stays(shared_data: Path) -> None:
    """``european-white`` seed 5 scene 22: eight backs bearing a "K" in a row, no face up. The refiner gives one of
    them under 0.5, but it touches the backs beside it: every tile is found and read, as without the check."""
    scene = render_scene(np.random.default_rng([5, 22]), DominoSceneConfig(size=(1280, 720), styles=("european-white",)))
    assert not any(scene.face_up)
    on = score_scene(scene, DominoRecognizer.for_photos(scene.tile_set)(scene.image))
    off = score_scene(scene, DominoRecognizer.for_photos(scene.tile_set, doubted_alone=False)(scene.image))
    assert on["tiles"] >= 7 and on["read"] == on["tiles"] == off["read"]
