"""The learned domino tile finder: the card finder's network and decoding, with ``models/domino-finder.onnx``.

The model (trained by ``datasets.training.train_finder --scenes dominoes``) marks each tile's centre and
regresses its four corners, so tiles pressed together in a row, a wall or a chain come out one by one, and a
tile on a table of its own colour is found by its shape and shading. Quads come back short side first (which
end first is arbitrary: the pip reader turns the tile).
"""

from __future__ import annotations

from pathlib import Path

from vision.finder_learned import LearnedFinder

DEFAULT_MODEL = "domino-finder.onnx"


class TileFinder(LearnedFinder):
    """``LearnedFinder`` for a model whose metadata task is ``domino-finder``. No coarser looks by default: the
    model knows tiles up to half the frame's height long, and at a coarser scale a row or a wall of tiles passes
    for one big tile (the card finder's coarse looks are for close-up cards)."""

    TASK = "domino-finder"
    DEFAULT_MODEL = DEFAULT_MODEL

    def __init__(self, model_path: str | Path | None = None, threads: int = 1, refine: bool = True,
                 zoom_out: tuple[float, ...] = ()) -> None:
        super().__init__(model_path, threads, refine, zoom_out)
