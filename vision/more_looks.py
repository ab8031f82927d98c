"""More looks of a learned finder for still photos: the frame's mirror image, a bigger copy, the frame with its
lightness evened out, the frame with its top edge widened.

The network does not see a frame and its mirror image (or the frame a quarter bigger) quite alike: a card on a busy
table that the fine look missed may stand out in one of them. Cards in a shadow, or on a dark mat printed with a grid,
may get no heat at all; with the lightness evened out tile by tile (``finder_learned.evened``) some of them do. A
photo taken at a slant shows the table's far edge narrower and its cards there squeezed; with the frame's top edge
widened (``finder_learned.keystoned``, ``KEYSTONE``) some of them look as the finder knows cards. What
those looks find where the fine look found nothing is returned as candidates; the caller decides what they need to be
kept. The card recogniser takes them as doubtful candidates, kept only when the classifier is sure it shows a card's
face (``Recognizer.maybe_needs``, ``Recognizer.for_photos``), and tries the other quads, those over a card already
found, on a found card it cannot name (``MoreLooks.split``, ``Recognizer.other_quads``); the domino recogniser looks at
twice and two and a half times the scale and keeps what reads face up (``vision.dominoes.recognizer.PHOTO_LOOKS``;
the evened look lost it more tiles than it found, README session 16). A few more network passes: for photos, not the
live table, where the time is better spent on the next frame.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.finder_learned import LearnedFinder
from vision.geometry import iou_matrix
from vision.observation import Detections

EVEN_LEAST = 0.15  # the evened look's least heat: its candidates are doubtful, and the refiner and the classifier
# check them (README, session 16: held-out default scenes 96.8 -> 97.5 % found, close-ups 98.1 -> 100 %)
KEYSTONE = 0.1  # the keystone look widens the frame's top edge by this share of its width at each end (README,
# session 43: held-out default scenes slanted 96.6 -> 97.3 % found; 0.15 and 0.2 found 96.8 %)


@dataclass(frozen=True)
class Look:
    """One more look: the frame at ``zoom`` times the finder's scale, maybe mirrored, maybe with its lightness
    evened (``even``), maybe with its top edge widened by ``keystone`` of its width at each end; what it finds counts
    from heat ``least`` (the model's threshold when None)."""

    zoom: float = 1.0
    mirror: bool = False
    least: float | None = None
    even: bool = False
    keystone: float = 0.0

    def __post_init__(self) -> None:
        usual = self.zoom == 1.0 and not self.mirror and not self.even and not self.keystone
        if (self.zoom <= 0 or usual or (self.least is not None and not 0 < self.least < 1)
                or not 0 <= self.keystone < 0.5):
            raise ValueError(f"Look: needs zoom > 0, not the usual look (zoom 1, not mirrored, not evened, no "
                             f"keystone), least in (0, 1) and keystone in [0, 0.5); got {self}")


@dataclass(frozen=True)
class MoreLooks:
    """Which looks to add; calling it returns their candidates that overlap nothing found (nor each other)."""

    looks: tuple[Look, ...] = (Look(mirror=True), Look(zoom=1.25), Look(even=True, least=EVEN_LEAST),
                               Look(keystone=KEYSTONE))
    max_overlap: float = 0.3  # IoU with a detection above which a candidate is that detection again

    def __post_init__(self) -> None:
        if not self.looks or not 0 < self.max_overlap < 1:
            raise ValueError(f"MoreLooks: needs a look and max_overlap in (0, 1), got {self.looks} and "
                             f"{self.max_overlap}")

    def __call__(self, finder: LearnedFinder, image: np.ndarray, found: Detections, zoom: float = 1.0
                 ) -> Detections:
        return self.split(finder, image, found, zoom)[0]

    def split(self, finder: LearnedFinder, image: np.ndarray, found: Detections, zoom: float = 1.0
              ) -> tuple[Detections, Detections]:
        """The candidates that overlap nothing found (as calling it gives), and those that overlap a detection:
        other quads of a card already found, which may fit it better (the recogniser tries them on a detection it
        cannot name). ``zoom``: each look's scale times this (the finder's look was zoomed so: small cards)."""
        candidates = Detections.concatenate([finder.other_look(image, zoom=look.zoom * zoom, mirror=look.mirror,
                                                               threshold=look.least, even=look.even,
                                                               keystone=look.keystone)
                                             for look in self.looks])
        candidates = candidates[np.argsort(-candidates.confidence, kind="stable")]
        again = np.zeros(len(candidates), bool)
        if len(found) and len(candidates):
            again = iou_matrix(candidates.quads, found.quads).max(axis=1) > self.max_overlap
        others, candidates = candidates[again], candidates[~again]
        among = iou_matrix(candidates.quads, candidates.quads)
        kept: list[int] = []
        for i in range(len(candidates)):  # surest first: one look's card seen again by the other goes
            if not kept or among[i, kept].max() <= self.max_overlap:
                kept.append(i)
        return candidates[kept], others
