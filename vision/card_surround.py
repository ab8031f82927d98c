"""The card surround check (``models/card-surround.onnx``): does a loose card lie at a named candidate, judged from
what lies round it (``vision.quad_refiner``)?

A card box's lid printed with a card's art is the commonest thing named a card where none lies (README, session 21):
the classifier sees only the quad, where the art is a card, and the refiner's crop reaches half a card past each
side, where a lid bigger than that is a plain margin, as a table is. This network sees the candidate on the middle
third of its crop, a whole card past each side and end, where the lid's edge, the box's sides and its lettering
show. It is a refiner network, trained on the refiner's samples (the box art among the negatives) at that wider
view; only its probability is used.
"""

from __future__ import annotations

from vision.quad_refiner import CropGeometry, QuadRefiner

SURROUND_CROP = CropGeometry(width=64, height=112, share=1 / 3)  # the candidate fills 21 x 37 px of the crop


class CardSurround(QuadRefiner):
    """``QuadRefiner`` for a model whose metadata task is ``card-surround``."""

    TASK = "card-surround"
    DEFAULT_MODEL = "card-surround.onnx"
