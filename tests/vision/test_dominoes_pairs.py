"""Two tiles side by side whose quads the finder put across their ends (``DominoRecognizer._paired``,
``recognizer._pair_tiles``, still photos of Chinese sets): the two ways such a pair may lie, and held-out scenes with
a pair laid across a line's end."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from datasets.dominoes.evaluate import score_scene
from datasets.dominoes.scenes import DominoScene, DominoSceneConfig, render_scene
from vision.dominoes.recognizer import DominoRecognizer, _pair_tiles
from vision.geometry import iou_matrix, order_quads


def test_a_pair_reaches_a_tiles_length_from_the_quad_either_way() -> None:
    """A quad 80 wide (two tiles of 40) and 30 high across the pair's end, tiles 120 long: the pair lies from the
    quad's top down 120, or from its bottom up 120, each tile 40 wide, side by side."""
    quad = order_quads(np.float32([[[0, 0], [80, 0], [80, 30], [0, 30]]]))[0]
    down = np.float32([[[0, 0], [40, 0], [40, 120], [0, 120]], [[40, 0], [80, 0], [80, 120], [40, 120]]])
    up = down + np.float32([0, 30 - 120])
    ways = _pair_tiles(quad, 120.0)
    assert len(ways) == 2
    for truth in (down, up):
        assert any(np.diag(iou_matrix(order_quads(truth), pair)).min() > 0.99
                   or np.diag(iou_matrix(order_quads(truth[::-1]), pair)).min() > 0.99 for pair in ways)


def _scene(seed: int, number: int) -> DominoScene:
    return render_scene(np.random.default_rng([seed, number]), DominoSceneConfig(size=(1280, 720),
                                                                                 styles=("paigow-art",)))


@pytest.mark.parametrize(("seed", "number"), [(2718, 12), (8080, 21)])
def test_a_pair_side_by_side_across_a_lines_end_is_found(shared_data: Path, seed: int, number: int) -> None:
    """Held-out art: two tiles side by side across a line's end (two 1:1s; a 4:4 and a 1:1). The finder put its
    quads across their ends, where each read as a short tile (a 1:1 of two tiles' ends). Laid out as the pair, both
    are found and read, and the false tile goes."""
    scene = _scene(seed, number)
    assert DominoRecognizer.for_photos("chinese").pairs and not DominoRecognizer("chinese").pairs
    assert not DominoRecognizer.for_photos("double-six").pairs  # a European tile is as long as two are wide
    after = score_scene(scene, DominoRecognizer.for_photos("chinese")(scene.image))
    before = score_scene(scene, DominoRecognizer.for_photos("chinese", pairs=False)(scene.image))
    assert after["found"] == after["read"] >= before["read"] + 2
    assert after["false"] < before["false"]
