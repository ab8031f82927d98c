"""The learned domino tile finder: the card finder's network and decoding, with ``models/domino-finder.onnx``.

The model (trained by ``datasets.training.train_finder --scenes dominoes``) marks each tile's centre and
regresses its four corners, so tiles pressed together in a row, a wall or a chain come out one by one, and a
tile on a table of its own colour is found by its shape and shading. Quads come back short side first (which
end first is arbitrary: the pip reader turns the tile).
"""

from __future__ import annotations

from vision.finder_learned import LearnedFinder

DEFAULT_MODEL = "domino-finder.onnx"


class TileFinder(LearnedFinder):
    """``LearnedFinder`` for a model whose metadata task is ``domino-finder``."""

    TASK = "domino-finder"
    DEFAULT_MODEL = DEFAULT_MODEL
