"""More looks of the card finder for still photos: the frame's mirror image and a slightly bigger copy.

The network does not see a frame and its mirror image (or the frame a quarter bigger) quite alike: a card on a
busy table that the fine look missed may stand out in one of them. What those looks find where the fine look found
nothing becomes a doubtful candidate: the recogniser keeps it only when the classifier is sure it shows a card's
face (``Recognizer.maybe_needs``). Two more network passes: for photos (``Recognizer.for_photos``), not the live
table, where the time is better spent on the next frame.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.finder_learned import LearnedFinder
from vision.geometry import iou_matrix
from vision.observation import Detections


@dataclass(frozen=True)
class MoreLooks:
    """Which looks to add; calling it returns their candidates that overlap nothing found (nor each other)."""

    mirror: bool = True
    zooms: tuple[float, ...] = (1.25,)
    max_overlap: float = 0.3  # IoU with a detection above which a candidate is that detection again

    def __post_init__(self) -> None:
        if not (self.mirror or self.zooms) or any(z <= 0 for z in self.zooms) or not 0 < self.max_overlap < 1:
            raise ValueError(f"MoreLooks: needs a look (mirror or zooms > 0) and max_overlap in (0, 1), got "
                             f"{self.mirror}, {self.zooms} and {self.max_overlap}")

    def __call__(self, finder: LearnedFinder, image: np.ndarray, found: Detections) -> Detections:
        looks = [finder.other_look(image, mirror=True)] if self.mirror else []
        looks += [finder.other_look(image, zoom=zoom) for zoom in self.zooms]
        candidates = Detections.concatenate(looks)
        candidates = candidates[np.argsort(-candidates.confidence, kind="stable")]
        if len(found) and len(candidates):
            candidates = candidates[iou_matrix(candidates.quads, found.quads).max(axis=1) <= self.max_overlap]
        among = iou_matrix(candidates.quads, candidates.quads)
        kept: list[int] = []
        for i in range(len(candidates)):  # surest first: one look's card seen again by the other goes
            if not kept or among[i, kept].max() <= self.max_overlap:
                kept.append(i)
        return candidates[kept]
