"""The domino refiner (``models/domino-refiner.onnx``): each candidate tile looked at again, finer, with what lies
past its ends in view (``vision.quad_refiner``).

The tile finder looks at the frame with its short side at 288 px, where tiles pressed end to end in a line of play
or a wall are one long strip: its quads are often a third of a tile off along the line, holding one tile's half and
the next one's, and the pips then read wrong. The refiner sees a 48 x 128 crop with the candidate on its middle
half, moves the quad onto the tile it is about, and says whether a whole tile is there at all, so candidates below
the finder's threshold can be shown to it too (``DominoRecognizer.candidate_heat``).

Still photos of a Chinese set are looked at by another refiner (``PHOTO_MODEL``, ``models/domino-photo-refiner.md``):
it reads the held-out art better, but the live table followed fewer deals with it (README, session 25).
"""

from __future__ import annotations

from vision.quad_refiner import CropGeometry, QuadRefiner

TILE_CROP = CropGeometry(width=48, height=128)  # a tile's crop: the candidate fills 24 x 64 px of it


class TileRefiner(QuadRefiner):
    """``QuadRefiner`` for a model whose metadata task is ``domino-refiner``."""

    TASK = "domino-refiner"
    DEFAULT_MODEL = "domino-refiner.onnx"
    PHOTO_MODEL = "domino-photo-refiner.onnx"  # still photos of a Chinese set
