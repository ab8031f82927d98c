"""A second look at cards the finder is sure of but the classifier cannot name.

In a fanned pile the finder's quad of a half-covered card is often shifted across the card, by a tenth to a
third of its width: the network hedges between the strip that shows and the whole card. The crop then holds
parts of two cards and reads as not-a-card, although the card's own quad would read right. So such a quad is
tried again shifted across by each of ``ACROSS`` widths, all shifts of all such cards in one batch, and the
shift the classifier names best replaces it when the classifier is sure enough of a card's face.

A shift that would cover another detection (IoU above ``max_overlap``) is not tried: it would only read that
card a second time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.classifier import CardClassifier
from vision.geometry import iou_matrix, order_quads, warp_quads

ACROSS = (-0.3, -0.2, -0.1, 0.1, 0.2, 0.3)
"""Shifts across the card, in card widths, that the second look tries."""


def shifted_across(quads: np.ndarray, shifts: Sequence[float]) -> np.ndarray:
    """Each quad moved across its card (perpendicular to the long side) by each shift in widths: M x S x 4 x 2."""
    ordered = order_quads(quads)  # TL, TR, BR, BL with the long side vertical: TL -> TR runs across
    across = ((ordered[:, 1] + ordered[:, 2]) - (ordered[:, 0] + ordered[:, 3])) / 2
    steps = np.asarray(shifts, np.float32)
    moved: np.ndarray = ordered[:, None] + steps[None, :, None, None] * across[:, None, None, :]
    return moved.astype(np.float32)


@dataclass(frozen=True)
class SecondLook:
    """The knobs of the second look; calling it returns the quads and probabilities, with replacements."""

    shifts: tuple[float, ...] = ACROSS
    needs: float = 0.7  # the least probability of a card's face the best shift must reach
    max_overlap: float = 0.6  # a shift overlapping another detection more than this is not tried
    least_overlap: float = 0.05  # a detection overlapping no other one this much is not in a pile: left alone

    def __post_init__(self) -> None:
        if not self.shifts or not 0.0 <= self.needs <= 1.0 or not 0.0 <= self.least_overlap < self.max_overlap <= 1.0:
            raise ValueError(f"SecondLook: needs shifts, needs in [0, 1] and 0 <= least_overlap < max_overlap <= 1, "
                             f"got {self.shifts}, {self.needs}, {self.least_overlap} and {self.max_overlap}")

    def __call__(self, image: np.ndarray, quads: np.ndarray, probabilities: np.ndarray, todo: np.ndarray,
                 classifier: CardClassifier) -> tuple[np.ndarray, np.ndarray]:
        """``todo``: which detections to look at again. Returns new arrays; the inputs are left alone."""
        quads, probabilities = np.array(quads, np.float32), np.array(probabilities, np.float32)
        asked = np.flatnonzero(todo)
        if not len(asked) or len(quads) < 2:
            return quads, probabilities
        among = iou_matrix(quads[asked], quads)
        among[np.arange(len(asked)), asked] = 0.0  # not with itself
        which = asked[among.max(axis=1) >= self.least_overlap]  # only a pile hides part of a card so
        if not len(which):
            return quads, probabilities
        tries = shifted_across(quads[which], self.shifts)  # M x S x 4 x 2
        overlap = iou_matrix(tries.reshape(-1, 4, 2), quads).reshape(len(which), len(self.shifts), -1)
        overlap[np.arange(len(which)), :, which] = 0.0  # a shift may overlap its own detection
        allowed = overlap.max(axis=2) <= self.max_overlap
        if not allowed.any():
            return quads, probabilities
        read = classifier.classify(warp_quads(image, tries[allowed], classifier.input_size))
        face = np.full(allowed.shape, -1.0, np.float32)
        face[allowed] = classifier.face_probability(read)
        rows = np.full(allowed.shape, -1)
        rows[allowed] = np.arange(len(read))
        best = face.argmax(axis=1)
        for k, i in enumerate(which):
            if face[k, best[k]] >= self.needs:
                quads[i] = tries[k, best[k]]
                probabilities[i] = read[rows[k, best[k]]]
        return quads, probabilities
