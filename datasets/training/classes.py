"""The classifier's visual classes and how the generator's labels map onto them.

Interchangeable plains (plain-1/plain-2 of a month, and paulownia plain-1/plain-2, not the coloured plain-3)
look alike and play alike, so each pair is ONE visual class; the deck prior at run time hands out -1 then -2.
The generator's "blank" (an unprinted spare card) is trained as "not-a-card": it is never a card in play.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from engine.cards import Card

BACK = "back"
NOT_A_CARD = "not-a-card"
CARD_CODES: tuple[str, ...] = tuple(card.code for card in Card)


def _visual_classes() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(class name, card codes it stands for), in card order; a merged plain pair is named "<month>-plain"."""
    classes: list[tuple[str, tuple[str, ...]]] = []
    for code in CARD_CODES:
        if code.endswith("-plain-2") and classes and classes[-1][1] == (code[:-1] + "1",):
            classes[-1] = (code[: -len("-2")], (code[:-1] + "1", code))
        else:
            classes.append((code, (code,)))
    return (*classes, (BACK, ()), (NOT_A_CARD, ()))


VISUAL_CLASSES = _visual_classes()
CLASS_NAMES: tuple[str, ...] = tuple(name for name, _ in VISUAL_CLASSES)
CLASS_CARDS: dict[str, tuple[str, ...]] = dict(VISUAL_CLASSES)
_INDEX_OF_LABEL: dict[str, int] = {
    **{code: i for i, (_, codes) in enumerate(VISUAL_CLASSES) for code in codes},
    BACK: CLASS_NAMES.index(BACK),
    NOT_A_CARD: CLASS_NAMES.index(NOT_A_CARD),
    "blank": CLASS_NAMES.index(NOT_A_CARD),
}


def class_index(label: str) -> int:
    """Visual class index of a generator label (a card code, "back", "blank" or "not-a-card")."""
    try:
        return _INDEX_OF_LABEL[label]
    except KeyError:
        raise ValueError(f"unknown crop label {label!r}") from None


def class_indices(labels: Iterable[str]) -> np.ndarray:
    return np.fromiter((class_index(label) for label in labels), dtype=np.int64)

