"""A look at each half of a doubtful candidate, for still photos: two touching cards the finder boxed as one.

Two cards laid edge to edge, long side to long side or end to end, can get one quad round both, and a weak peak
there (held-out ``default`` scene 16: a back on a peony, a cherry beside an iris, far from every named card, so the
pile look has no neighbour to borrow a shape from). Whichever way they touch, the pair's quad is cut in two across
its long side: side by side the pair is wider than a card is long, end to end it is twice a card long. So each half is
one card, if the finder's quad was near. Each half is also moved by the refiner onto the card it is about, and a
half the classifier is sure is a card's face (``needs``: the bar of a doubtful candidate's pile-look try) becomes a
card; two different ones, apart, may come out of one quad, or a face and a back (which stays only where the
recogniser keeps a doubtful back: ``Recognizer.lone_backs``, ``pile_backs``). A half over another detection is
that card again and is not read. Two backs and no face come out only of a quad two cards big where it lies
(``pairs``, ``Recognizer.TWO_CARDS``): each half of one plain back reads as a back too.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.card_refiner import CardRefiner
from vision.classifier import CardClassifier
from vision.geometry import iou_matrix, order_quads, warp_quads
from vision.observation import BACK

APART = 0.3  # two cards read in one quad overlap each other at most this much (IoU)


def halves(quad: np.ndarray) -> np.ndarray:
    """The two halves of ``quad`` cut across its long side: 2 x 4 x 2, each in ``order_quads`` order."""
    q = order_quads(np.asarray(quad, np.float32)[None])[0]  # TL, TR, BR, BL with the long side vertical
    left, right = (q[0] + q[3]) / 2, (q[1] + q[2]) / 2
    return order_quads(np.array([[q[0], q[1], right, left], [left, right, q[2], q[3]]], np.float32))


@dataclass(frozen=True)
class HalvesLook:
    """The knobs of the look at a candidate's halves; calling it returns the quads and probabilities with the
    cards found in halves put in, and the detection each came from."""

    needs: float = 0.9  # the least probability of a card's face a half must give
    max_overlap: float = 0.3  # a half overlapping another detection more than this is that detection again

    def __post_init__(self) -> None:
        if not 0.0 < self.needs <= 1.0 or not 0.0 < self.max_overlap <= 1.0:
            raise ValueError(f"HalvesLook: needs and max_overlap must lie in (0, 1], got {self}")

    def __call__(self, image: np.ndarray, quads: np.ndarray, probabilities: np.ndarray, todo: np.ndarray,
                 classifier: CardClassifier, refiner: CardRefiner | None = None, pairs: np.ndarray | None = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``todo``: which detections to cut in two. Returns the quads, their probabilities and, for each, the
        detection it came from (a quad holding two cards gives both); the inputs are left alone."""
        quads, probabilities = np.array(quads, np.float32), np.array(probabilities, np.float32)
        source = np.arange(len(quads))
        asked = np.flatnonzero(todo)
        if not len(asked):
            return quads, probabilities, source
        tries = np.concatenate([halves(quads[i]) for i in asked])
        owner = np.repeat(asked, 2)
        if refiner is not None:
            moved, card = refiner(image, tries)
            sure = card >= refiner.threshold
            tries, owner = np.concatenate([tries, moved[sure]]), np.concatenate([owner, owner[sure]])
        read = classifier.classify(warp_quads(image, tries, classifier.input_size))
        face = classifier.face_probability(read)
        back = read[:, classifier.classes.index(BACK)] if BACK in classifier.classes else np.zeros(len(read))
        over = iou_matrix(tries, quads)
        extra: list[tuple[int, int]] = []
        for i in asked:
            mine = np.flatnonzero((owner == i) & ((face >= self.needs) | (back >= self.needs)))
            others = np.delete(over[mine], i, axis=1)
            mine = mine[others.max(axis=1, initial=0.0) <= self.max_overlap]
            picks = self._picks(tries[mine], read[mine], face[mine], back[mine] >= self.needs,
                                pairs is not None and bool(pairs[i]))
            if picks:
                quads[i], probabilities[i] = tries[mine[picks[0]]], read[mine[picks[0]]]
                extra += [(i, int(mine[k])) for k in picks[1:]]
        if extra:
            quads = np.concatenate([quads, tries[[k for _, k in extra]]])
            probabilities = np.concatenate([probabilities, read[[k for _, k in extra]]])
            source = np.concatenate([source, [i for i, _ in extra]])
        return quads, probabilities, source

    @staticmethod
    def _picks(tries: np.ndarray, read: np.ndarray, face: np.ndarray, back: np.ndarray, two_backs: bool = False
               ) -> list[int]:
        """The surest face, and the next surest try apart from it (``APART``) naming another card or a back
        (``back``: which tries are sure backs; whether a back stays is the recogniser's to say, as for any doubtful
        back)."""
        faces = [int(k) for k in np.argsort(-face, kind="stable") if not back[k]]
        if not faces and not (two_backs and back.any()):
            return []
        first = faces[0] if faces else int(np.argmax(np.where(back, read.max(axis=1), -1.0)))
        apart = iou_matrix(tries[first:first + 1], tries)[0]
        top = read.argmax(axis=1)
        for k in np.argsort(-np.maximum(face, back), kind="stable"):
            if k != first and apart[k] <= APART and (back[k] or top[k] != top[first]):
                return [first, int(k)]
        return [first] if faces else []
