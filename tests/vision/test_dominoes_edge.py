"""Whole tiles against the frame's edge (``DominoRecognizer._at_edge``, still photos): a tile the frame does not cut,
whose loose candidate reaches past the frame, is found and read; the same tile cut by the frame is not reported; a
back the frame cuts is not looked beside (a strip of a tile's side passed for a back)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import vision.dominoes.recognizer as recognizer_module
from datasets.dominoes.evaluate import score_scene
from datasets.dominoes.scenes import DominoScene, DominoSceneConfig, render_scene
from vision.dominoes import DominoRecognizer
from vision.dominoes.recognizer import _past_frame


def _scene(seed: int, number: int, style: str) -> DominoScene:
    return render_scene(np.random.default_rng([seed, number]), DominoSceneConfig(size=(1280, 720), styles=(style,)))


def _right_edge_tiles(image: np.ndarray, recogniser: DominoRecognizer) -> list[str]:
    return [t.tile or "back" for t in recogniser(image).tiles if np.asarray(t.quad)[:, 0].max() > 1200]


def test_a_whole_tile_at_the_edge_is_read(shared_data: Path) -> None:
    """Held-out art, seed 99 scene 3: a 1:4 reaches the frame's right edge (its corner at x 1278 of 1280). The finder's
    quad reaches 24 px past the frame, and was dropped as cut; the refiner puts it on the tile."""
    scene = _scene(99, 3, "paigow-art")
    on = score_scene(scene, DominoRecognizer.for_photos("chinese")(scene.image))
    off = score_scene(scene, DominoRecognizer.for_photos("chinese", edge=False)(scene.image))
    assert on["read"] == on["tiles"] == off["read"] + 1
    assert _right_edge_tiles(scene.image, DominoRecognizer.for_photos("chinese")) == ["1:4"]


@pytest.mark.parametrize("least", [0.8, 0.9])
def test_a_foreshortened_tile_at_the_edge_is_read(shared_data: Path, monkeypatch: pytest.MonkeyPatch,
                                                  least: float) -> None:
    """Held-out art, seed 8128 scene 20: a 1:5 against the frame's left edge, its candidate 7 px past it. Moved onto
    the tile by the refiner it is 181 px long, 0.86 of the median found tile under the tilted camera: at the old bar
    (``EDGE_LENGTH`` 0.9) it went as a tile the frame cuts; at 0.8 it is read, and nothing else changes."""
    monkeypatch.setattr(recognizer_module, "EDGE_LENGTH", least)
    scene = _scene(8128, 20, "paigow-art")
    counts = score_scene(scene, DominoRecognizer.for_photos("chinese")(scene.image))
    assert counts["tiles"] == 12 and counts["false"] == 0
    assert counts["read"] == (12 if least < 0.86 else 11)


@pytest.mark.parametrize("cut", [12, 30, 60])
def test_the_same_tile_cut_by_the_frame_is_not_reported(shared_data: Path, cut: int) -> None:
    scene = _scene(99, 3, "paigow-art")
    image = np.ascontiguousarray(scene.image[:, : 1280 - cut])
    assert _right_edge_tiles(image, DominoRecognizer.for_photos("chinese")) == []


def test_a_cut_back_is_not_looked_beside(shared_data: Path) -> None:
    """``ivory-chinese`` seed 2026 scene 27: a back the frame's top cuts by 2 px is found at the edge; looked beside,
    it lent its place to the side of the 1:1 next to it, read as a back."""
    scene = _scene(2026, 27, "ivory-chinese")
    on = score_scene(scene, DominoRecognizer.for_photos("chinese")(scene.image))
    off = score_scene(scene, DominoRecognizer.for_photos("chinese", edge=False)(scene.image))
    assert on["false"] == off["false"] and on["read"] == off["read"] == on["tiles"]


def test_how_far_past_the_frame() -> None:
    quads = np.array([[[10, 10], [20, 10], [20, 40], [10, 40]], [[-5, 10], [20, 10], [20, 40], [10, 703]]], np.float32)
    assert _past_frame(quads, 100, 700).tolist() == [0.0, 6.0]
