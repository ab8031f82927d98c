"""The learned domino tile finder: the card finder's network and decoding, with ``models/domino-finder.onnx``.

The model (trained by ``datasets.training.train_finder --scenes dominoes``) marks each tile's centre and
regresses its four corners, so tiles pressed together in a row, a wall or a chain come out one by one, and a
tile on a table of its own colour is found by its shape and shading. Quads come back short side first (which
end first is arbitrary: the pip reader turns the tile).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.finder_learned import LearnedFinder
from vision.geometry import order_quads
from vision.imageio import as_bgr
from vision.observation import Detections

DEFAULT_MODEL = "domino-finder.onnx"
CLOSE_UP_PAD = 2.0  # the close-up canvas reaches this many frame sizes past each side: a tile filling the frame
# is then ~40 % of the canvas' height long, inside the sizes the model was trained on
CANVAS_DARK, CANVAS_LIGHT = 50, 200  # the close-up canvas' grey: far from the frame's border, where the tile may be


class TileFinder(LearnedFinder):
    """``LearnedFinder`` for a model whose metadata task is ``domino-finder``. No coarser looks by default: the
    model knows tiles up to half the frame's height long, and at a coarser scale a row or a wall of tiles passes
    for one big tile (the card finder's coarse looks are for close-up cards); ``close_up`` is the look for a
    frame filled by a tile or two."""

    TASK = "domino-finder"
    DEFAULT_MODEL = DEFAULT_MODEL

    def __init__(self, model_path: str | Path | None = None, threads: int = 1, refine: bool = True,
                 zoom_out: tuple[float, ...] = ()) -> None:
        super().__init__(model_path, threads, refine, zoom_out)

    def close_up(self, image: np.ndarray) -> Detections:
        """Tiles in a close-up (quads in frame pixels): the frame is set in the middle of a canvas reaching
        ``CLOSE_UP_PAD`` frame sizes past each side, a plain grey far from the frame's border (which may be the
        tile's own face), so a tile filling the frame, its rim cut by the frame's edges, is seen whole and at a
        size the model knows. The frame is shrunk to the network's scale first: the canvas is never built at full
        size (it runs on every frame where nothing whole is found)."""
        image = as_bgr(image)
        height, width = image.shape[:2]
        border = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])
        colour = [CANVAS_DARK if float(np.median(border)) > 128 else CANVAS_LIGHT] * 3
        scale = self.short_side / (min(height, width) * (1 + 2 * CLOSE_UP_PAD))
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        pad_y, pad_x = round(CLOSE_UP_PAD * size[1]), round(CLOSE_UP_PAD * size[0])
        canvas = cv2.copyMakeBorder(small, pad_y, pad_y, pad_x, pad_x, cv2.BORDER_CONSTANT, value=colour)
        quads, score, seen = self._look(canvas, 1.0, self.heat_threshold)  # the recogniser refits each quad
        to_frame = np.array([width / size[0], height / size[1]], np.float32)
        quads = (quads - np.array([pad_x, pad_y], np.float32) + 0.5) * to_frame - 0.5
        if not len(quads):
            return Detections.empty()
        return Detections(order_quads(quads), confidence=score, partial=seen < self.partial_below)
