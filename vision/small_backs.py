"""Backs much smaller than the faces read in a still photo.

All cards of a deck are one size, and the finder's quad of a covered card is the whole card, so a quad read as a
back that is much smaller than the faces read around it (``share`` of their median area) is not a card's back as it
stands. Two such quads side by side are most often the halves of one big back (the finder may split a plain
rectangle across): where the rectangle round both is card-shaped, about a face's size and reads as a back, it
replaces them. A lone one is a shadow, a phone's corner or a dark piece of something: it goes. Only where at least
``min_faces`` faces are read, which makes their size known.

A back much bigger than the faces (``big`` times their median area, where ``min_faces_big`` faces are read) is a
phone or a card box lying dark side up: it goes too. Held out (README, session 20): of the backs named in the five
card sets and 40 scenes on white paper, the true ones were at most 1.71 times the faces' median area, and the four
above 2 were a phone (10.5), a box (4.2) and two dark things beside a mat (2.7 and 2.1). Since session 35 "the
faces' area" there is the area a card would have where the back lies (``geometry.expected_areas``): on a table seen
at a slant the near cards are bigger, and two whole backs near the camera were over 2.5 times the median of the far
faces.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.classifier import CardClassifier
from vision.geometry import expected_areas, order_quads, quad_areas, quad_aspect, warp_quads
from vision.observation import BACK, Detections


@dataclass(frozen=True)
class SmallBacks:
    """The knobs; calling it returns the detections and probabilities kept (with merged halves)."""

    share: float = 0.5  # a back whose quad is under this share of the faces' median area is small
    min_faces: int = 4
    aspect: tuple[float, float] = (0.5, 0.78)  # the short / long side a merged back must have
    size: tuple[float, float] = (0.6, 1.6)  # a merged back's area over the faces' median area
    gap: float = 1.4  # the merged quad's area over the two halves' areas, at most (they may lie a little apart)
    big: float = 2.5  # a back whose quad is over this many times the faces' median area is no card
    min_faces_big: int = 2

    def __post_init__(self) -> None:
        if not 0 < self.share < 1 or self.min_faces < 1 or not 0 < self.aspect[0] < self.aspect[1] <= 1:
            raise ValueError(f"SmallBacks: needs share in (0, 1), min_faces >= 1 and 0 < aspect low < high <= 1, "
                             f"got {self}")
        if self.big <= self.size[1] or self.min_faces_big < 1:
            raise ValueError(f"SmallBacks: needs big over the merged back's largest size and min_faces_big >= 1, "
                             f"got {self}")

    def __call__(self, image: np.ndarray, found: Detections, probabilities: np.ndarray, classifier: CardClassifier
                 ) -> tuple[Detections, np.ndarray]:
        faces = classifier.face_probability(probabilities) >= 0.5
        if faces.sum() < min(self.min_faces, self.min_faces_big) or BACK not in classifier.classes:
            return found, probabilities
        back = classifier.classes.index(BACK)
        areas = quad_areas(found.quads)
        typical = float(np.median(areas[faces]))
        backs = probabilities[:, back] >= 0.5
        keep = np.ones(len(areas), bool)
        if faces.sum() >= self.min_faces_big:  # a phone or a box lying dark side up
            keep &= ~(backs & (areas > self.big * expected_areas(found.quads[faces], found.quads)))
        if faces.sum() < self.min_faces:
            return found[keep], probabilities[keep]
        small = np.flatnonzero(backs & (areas < self.share * typical))
        quads, probabilities = found.quads.copy(), probabilities.copy()
        keep[small] = False
        paired: set[int] = set()
        for a in small:
            for b in small[small > a]:
                if a in paired or b in paired:
                    continue
                union = self._merged(quads[a], quads[b], areas[a] + areas[b], typical)
                if union is None:
                    continue
                read = classifier.classify(warp_quads(image, union[None], classifier.input_size))[0]
                if read[back] >= 0.5:  # the halves of one back
                    quads[a], probabilities[a], keep[a] = union, read, True
                    paired.update((int(a), int(b)))
        return found.replace(quads=quads)[keep], probabilities[keep]

    def _merged(self, a: np.ndarray, b: np.ndarray, halves: float, typical: float) -> np.ndarray | None:
        """The rectangle round both quads, if it could be one back; else None."""
        box = cv2.boxPoints(cv2.minAreaRect(np.concatenate([a, b]).astype(np.float32)))
        union: np.ndarray = order_quads(box[None].astype(np.float32))[0]
        area = float(quad_areas(union[None])[0])
        fits = self.size[0] * typical <= area <= self.size[1] * typical and area <= self.gap * halves
        return union if fits and self.aspect[0] <= quad_aspect(union) <= self.aspect[1] else None
