"""Doubted tiles shown to the refiner once more (``seams.relooked``, ``DominoRecognizer._relooked``, still photos):
the move is taken where the face reader is much surer; sure tiles and backs are not shown; a rendered held-out tile
whose quad lay a little across a row of tiles side by side reads right."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from datasets.dominoes.evaluate import score_scene
from datasets.dominoes.scenes import DominoSceneConfig, render_scene
from tests.vision.test_dominoes_seams import TILE, _rows
from vision.dominoes.face_reader import CLASSES
from vision.dominoes.recognizer import DominoRecognizer
from vision.dominoes.seams import RELOOK_DOUBT, RELOOK_MARGIN, relooked

TARGET = TILE + np.float32([6, 0])  # where the stand-in refiner puts any quad


def _reader(sure_there: float) -> Callable[[np.ndarray], np.ndarray]:
    """A stand-in face reader: 1:3 with ``sure_there`` at ``TARGET``, 2:3 with 0.5 anywhere else."""
    def read(candidates: np.ndarray) -> np.ndarray:
        there = np.abs(candidates - TARGET).max(axis=(1, 2)) < 0.5
        rows = np.zeros((len(candidates), len(CLASSES)), np.float32)
        rows[there, CLASSES.index("1:3")] = sure_there
        rows[~there, CLASSES.index("2:3")] = 0.5
        return rows
    return read


def test_a_doubted_tile_goes_where_the_refiner_puts_it_if_read_much_surer() -> None:
    shown: list[np.ndarray] = []

    def look(candidates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        shown.append(candidates)
        return np.repeat(TARGET[None], len(candidates), axis=0), np.ones(len(candidates), bool)

    below = TILE + np.float32([0, 102])
    moved = relooked([TILE, below], _rows([0.5, 0.99]), look, _reader(0.95), [])
    np.testing.assert_allclose(moved[0], TARGET)
    assert np.array_equal(moved[1], below) and len(shown) == 1 and len(shown[0]) == 1  # the sure tile is not shown
    margin_short = 0.5 + RELOOK_MARGIN - 0.01
    assert np.array_equal(relooked([TILE], _rows([0.5]), look, _reader(margin_short), [])[0], TILE)
    assert np.array_equal(relooked([TILE], _rows([RELOOK_DOUBT]), look, _reader(0.95), [])[0], TILE)
    assert np.array_equal(relooked([TILE], _rows([0.5], back=True), look, _reader(0.95), [])[0], TILE)

    def no_tile(candidates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.repeat(TARGET[None], len(candidates), axis=0), np.zeros(len(candidates), bool)

    assert np.array_equal(relooked([TILE], _rows([0.5]), no_tile, _reader(0.95), [])[0], TILE)


def test_a_held_out_tile_in_a_row_reads_right_once_relooked() -> None:
    """Held-out art, seed 5 scene 11: six tiles side by side in a dim room. The first one's quad lies 8 px across, onto
    its neighbour's red pip: the face reader names 2:3 with 0.60; where the refiner puts it, 1:3 with 0.94."""
    scene = render_scene(np.random.default_rng([5, 11]), DominoSceneConfig(size=(1280, 720), styles=("paigow-art",)))
    assert DominoRecognizer.for_photos("chinese").relook and not DominoRecognizer("chinese").relook
    after = score_scene(scene, DominoRecognizer.for_photos("chinese")(scene.image))
    before = score_scene(scene, DominoRecognizer.for_photos("chinese", relook=False)(scene.image))
    assert before["misread 1:3->2:3"] == 1 and after["read"] == after["tiles"] == before["read"] + 1
