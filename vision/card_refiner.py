"""The card refiner (``models/card-refiner.onnx``): each candidate card looked at again, finer, with what lies past
its sides in view (``vision.quad_refiner``).

The card finder looks at the frame with its short side at 384 px. In a fanned pile its quad of a half-covered card
hedges between the strip that shows and the whole card (often a quarter of a width off across the card), and on a
whole mat a card is ~21 px wide there; the crop the classifier then reads shows two cards, or a card and table.
The refiner sees a 64 x 112 crop with the candidate on its middle half and moves the quad onto the card it is
about (the whole card, covered part and all, as the finder's quads are meant to be).
"""

from __future__ import annotations

from vision.quad_refiner import CropGeometry, QuadRefiner

CARD_CROP = CropGeometry(width=64, height=112)  # a card's crop: the candidate fills 32 x 56 px of it


class CardRefiner(QuadRefiner):
    """``QuadRefiner`` for a model whose metadata task is ``card-refiner``."""

    TASK = "card-refiner"
    DEFAULT_MODEL = "card-refiner.onnx"
