"""A look at unnamed cards in the shape of their named neighbours, for still photos.

In a pile the finder's quad of a covered card can be the wrong shape as well as in the wrong place: seen at a grazing
angle (a tilted phone, the pile near the frame's far edge) a card is foreshortened to nearly a square, and the finder,
hedging between the strip that shows and a card of the usual shape, draws a quad half again too long. No shift of that
quad (``vision.second_look``) reads a card. The card on top of the pile, which the classifier does name, shows the shape
every card has there; so do the named cards of a whole mat's tight grid round a quad that straddles two cards. So a
detection still unnamed near a named card is tried again in the shape of each of its nearest named neighbours: that
shape moved over the detection in steps of ``STEP`` (``borrowed``), and each such quad moved by the refiner onto the
card it is about. The try the classifier is surest is a card's face replaces the detection when that surety reaches
``needs`` (``doubtful_needs`` for a doubtful candidate, looked at before the recogniser drops the ones it cannot name).
A detection much bigger than its neighbours may hold several cards: the next surest tries apart from the first, centred
in it and naming other cards, are added (a split).

A try that would cover another detection (IoU above ``max_overlap``) is not read: it would only name that card a second
time. Held out (README, session 17): ``piles`` 90.1 -> 92.3 % named, ``whole-mat`` 94.7 -> 96.2 % (before the more
looks' other quads), with the backs in piles (``Recognizer.pile_backs``); not one card named wrong more. Each detection
looked at costs 30-60 ms.

Where no try reads a face, a sure detection (not a doubtful candidate) may still be a back lying in the pile: the try
the classifier is surest is a back replaces it from ``back_needs`` (a back's strip under the next card, in a finder's
quad half again too big; README, session 37).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.card_refiner import CardRefiner
from vision.classifier import CardClassifier
from vision.geometry import iou_matrix, order_quads, quad_areas, side_vectors, warp_quads
from vision.observation import BACK

STEP = 0.2
"""The tries' spacing, in the borrowed shape's lengths along it and widths across it."""
SLACK_ALONG, SLACK_ACROSS = 0.4, 0.2
"""How far past the detection's own extent the tries reach, in lengths and widths: a covered card's quad is most off
along the pile."""
SPLIT_APART = 0.3  # two cards read in one detection overlap each other at most this much (IoU)
SPLIT_AREA = 1.6  # a detection this many times its lender's area may hold more than one card
HOLDS_AT_MOST = 3.0  # a detection more than this many times a neighbour's area is no card of its shape (a sheet)


def borrowed(shape: np.ndarray, region: np.ndarray) -> np.ndarray:
    """The quad ``shape`` moved over ``region`` (a quad) in steps of ``STEP``: its centre on the region's centre and
    shifted along and across as far as the region reaches past the shape, plus ``SLACK_ALONG`` lengths and
    ``SLACK_ACROSS`` widths. K x 4 x 2."""
    ordered = order_quads(np.asarray(shape, np.float32)[None])  # TL, TR, BR, BL with the long side vertical
    q = ordered[0]
    sides = side_vectors(ordered)
    u, v = sides[0][0], sides[1][0]  # across, along
    centre = np.asarray(region, np.float32).mean(axis=0)
    offsets = np.asarray(region, np.float32) - centre
    steps = []
    for axis, slack in ((v, SLACK_ALONG), (u, SLACK_ACROSS)):
        size = float(np.linalg.norm(axis))
        spread = offsets @ (axis / size)
        room = max(0.0, float(spread.max() - spread.min()) - size) / 2 / size + slack
        count = int(np.floor(room / STEP + 1e-6))
        steps.append(np.arange(-count, count + 1) * STEP)
    moves = np.array([a * v + b * u for a in steps[0] for b in steps[1]], np.float32)
    return (q - q.mean(axis=0) + centre)[None] + moves[:, None, :]


@dataclass(frozen=True)
class PileLook:
    """The knobs of the look at cards in the shape of their neighbours; calling it returns the quads and
    probabilities, with replacements and the cards split out of a detection that held several."""

    neighbours: int = 2  # how many of the nearest named cards lend their shape
    reach: float = 3.5  # a neighbour lends its shape when its centre is within this many of its lengths
    doubtful_reach: float = 1.5  # the same for a doubtful candidate: card-box art beside a pile read as a card
    needs: float = 0.8  # the least probability of a card's face a try must reach
    doubtful_needs: float = 0.9  # the same for a doubtful candidate: at 0.8 one of 40 piles got a phantom card
    max_overlap: float = 0.6  # a try overlapping another detection more than this is not read
    back_needs: float | None = None  # a sure detection with no face read: the least probability of a back a try must
    # reach to name it a back (None: faces only; still photos: PHOTO_PILE_LOOK_BACKS, 0.9)

    def __post_init__(self) -> None:
        bars = (self.needs, self.doubtful_needs)
        if (
            self.neighbours < 1
            or min(self.reach, self.doubtful_reach) <= 0
            or not 0.0 <= min(bars) <= max(bars) <= 1.0
            or not (0.0 < self.max_overlap <= 1.0)
            or not (self.back_needs is None or 0.0 <= self.back_needs <= 1.0)
        ):
            raise ValueError(
                f"PileLook: needs neighbours >= 1, reach and doubtful_reach > 0, needs, doubtful_needs and back_needs "
                f"in [0, 1] and max_overlap in (0, 1], got {self}"
            )

    def __call__(
        self,
        image: np.ndarray,
        quads: np.ndarray,
        probabilities: np.ndarray,
        todo: np.ndarray,
        named: np.ndarray,
        classifier: CardClassifier,
        refiner: CardRefiner | None = None,
        doubtful: bool = False,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``todo``: which detections to look at again; ``named``: which lend their shape (a face or a back was
        read); ``doubtful``: the ``todo`` ones are candidates the finder was unsure of (a try must reach
        ``doubtful_needs``, a neighbour lie within ``doubtful_reach``). Without a ``refiner`` the tries are read as
        they are. Returns the quads, their probabilities and, for each, the detection it came from (a detection split
        into cards gives several); the inputs are left alone."""
        quads, probabilities = np.array(quads, np.float32), np.array(probabilities, np.float32)
        source = np.arange(len(quads))
        lenders = np.flatnonzero(named)
        if not todo.any() or not len(lenders):
            return quads, probabilities, source
        ordered = order_quads(quads)
        centres = ordered.mean(axis=1)
        lengths = np.linalg.norm(ordered[:, 3] - ordered[:, 0], axis=1)
        areas = quad_areas(ordered)
        reach, needs = (self.doubtful_reach, self.doubtful_needs) if doubtful else (self.reach, self.needs)
        extra: list[tuple[int, np.ndarray, np.ndarray]] = []
        for i in np.flatnonzero(todo):
            distance = np.linalg.norm(centres[lenders] - centres[i], axis=1)
            near = lenders[np.argsort(distance, kind="stable")][: self.neighbours]
            close = np.linalg.norm(centres[near] - centres[i], axis=1) < reach * lengths[near]
            near = near[close & (areas[i] <= HOLDS_AT_MOST * areas[near])]
            if not len(near):
                continue
            tries = np.concatenate([borrowed(quads[j], ordered[i]) for j in near])
            if refiner is not None:
                moved, card = refiner(image, tries)
                tries = np.concatenate([tries, moved[card >= refiner.threshold]])
            others = np.delete(quads, i, axis=0)
            tries = tries[iou_matrix(tries, others).max(axis=1, initial=0.0) <= self.max_overlap]
            if not len(tries):
                continue
            read = classifier.classify(warp_quads(image, tries, classifier.input_size))
            several = areas[i] >= SPLIT_AREA * areas[near].min()
            picks = self._picks(tries, read, classifier, needs, several, region=ordered[i])
            if not picks and not doubtful:
                picks = self._back(read, classifier)
            if picks:
                quads[i], probabilities[i] = tries[picks[0]], read[picks[0]]
                extra += [(i, tries[k], read[k]) for k in picks[1:]]
        if extra:
            quads = np.concatenate([quads, np.array([q for _, q, _ in extra], np.float32)])
            probabilities = np.concatenate([probabilities, np.array([p for _, _, p in extra], np.float32)])
            source = np.concatenate([source, [i for i, _, _ in extra]])
        return quads, probabilities, source

    def _back(self, read: np.ndarray, classifier: CardClassifier) -> list[int]:
        """The try the classifier is surest is a back, where it reaches ``back_needs``."""
        if self.back_needs is None or BACK not in classifier.classes:
            return []
        back = read[:, classifier.classes.index(BACK)]
        best = int(back.argmax())
        return [best] if back[best] >= self.back_needs else []

    @staticmethod
    def _picks(
        tries: np.ndarray, read: np.ndarray, classifier: CardClassifier, needs: float, several: bool, region: np.ndarray
    ) -> list[int]:
        """The tries read as cards: the surest face reaching ``needs``; where the detection may hold several (its
        area), also the next ones apart from those picked (``SPLIT_APART``), centred in it, each a different
        card."""
        face = classifier.face_probability(read)
        order = [int(k) for k in np.argsort(-face, kind="stable") if face[k] >= needs]
        if not order or not several:
            return order[:1]
        apart = iou_matrix(tries[order], tries[order])
        top = read[order].argmax(axis=1)
        inside = [
            cv2.pointPolygonTest(region.astype(np.float32), tuple(map(float, tries[k].mean(axis=0))), False) >= 0
            for k in order
        ]
        picked: list[int] = [0]
        for n in range(1, len(order)):
            if inside[n] and apart[n, picked].max() <= SPLIT_APART and top[n] not in top[picked]:
                picked.append(n)
        return [order[n] for n in picked]
