"""Cards of a pile beside the named ones, for still photos.

In a fanned pile each card lies a third to two thirds of a card along or across from the one under it, and in a whole
mat's grid a card from the next. The finder sometimes gives such a card no peak at all (its quad would overlap its
neighbours' by IoU 0.3-0.5, and a pile of small cards is a busy patch of art), while it finds and the classifier names
the cards round it. So each named card (a face or a back) is moved by those steps along and across, either way (a try
still on a card found is dropped); the refiner moves each try onto the card it is about, and a try that now lies clear
of every detection (IoU under ``clear``) is read. The surest tries that name a card's face with at least ``needs``,
clear of each other, are new cards. A card the frame already holds as often as the deck does (a named crane, both
plains of a month) is not looked for again: a try reading it is a named card's strip seen a second time.

Held out (README, *Hanafuda vision*, session 20): ``piles`` 92.6 -> 94.5 % named, ``whole-mat`` 96.4 -> 98.0 %,
``default`` 97.5 -> 98.0 %; no card named wrong more. About 12 tries a named card: +47 ms a 720p photo, +95 ms a
whole mat (``bench_recognizer --photo``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from vision.card_refiner import CardRefiner
from vision.classifier import CardClassifier
from vision.finder_learned import suppress
from vision.geometry import iou_matrix, order_quads, side_vectors, warp_quads, within_frame

ON_FOUND = 0.25  # a try this near a detection's centre (in its lengths and widths) lies on that card: IoU 0.6
FIRST_LOOK = 0.1  # the least probability of a card after the refiner's first look for a try to get its second
SAME_SPOT = 0.95  # refined tries overlapping this much (IoU) landed on one card: the surest is read


@dataclass(frozen=True)
class PileSteps:
    """The steps (in the card's lengths ``along`` and widths ``across``, taken either way), the IoU under which a try
    is clear of a detection, and the least probability of a card's face a new card needs."""

    along: tuple[float, ...] = (0.4, 0.6, 1.05)
    across: tuple[float, ...] = (0.45, 0.65, 1.08)
    clear: float = 0.5
    needs: float = 0.7  # a still photo's bar for doubtful candidates (``recognizer.PHOTO_MAYBE_NEEDS``)

    def __post_init__(self) -> None:
        steps = self.along + self.across
        if not steps or min(steps) <= 0 or not 0 < self.clear < 1 or not 0 < self.needs <= 1:
            raise ValueError(f"PileSteps: needs positive steps, clear in (0, 1) and needs in (0, 1], got {self}")

    def moves(self) -> list[tuple[float, float]]:
        """Each step as (along, across), either way."""
        return [(sign * a, 0.0) for a in self.along for sign in (1, -1)] + \
               [(0.0, sign * a) for a in self.across for sign in (1, -1)]

    def tries(self, sources: np.ndarray, found: np.ndarray) -> np.ndarray:
        """Each source quad moved by each step (K x 4 x 2), but for tries on a card found already (the next card of
        a tidy pile or row): a found card's centre within ``ON_FOUND`` of the try's length and width from its own,
        where two quads of one size overlap by IoU 0.6 or more."""
        q = order_quads(np.asarray(sources, np.float32))  # TL, TR, BR, BL with the long side vertical
        across, along = side_vectors(q)
        steps = np.array(self.moves(), np.float32)  # M x 2: along, across
        offsets = steps[None, :, :1] * along[:, None] + steps[None, :, 1:] * across[:, None]  # N x M x 2
        tries = (q[:, None] + offsets[:, :, None]).reshape(-1, 4, 2)
        if not len(found):
            return tries
        gap = found.mean(axis=1)[None] - tries.mean(axis=1)[:, None]  # K x F x 2
        axes = np.repeat(np.stack([along, across], axis=1), len(steps), axis=0)  # K x 2 x 2
        reach = np.einsum("kfd,kad->kfa", gap, axes) / (axes ** 2).sum(axis=2)[:, None]  # in lengths and widths
        on_found = (np.abs(reach) < ON_FOUND).all(axis=2).any(axis=1)
        return tries[~on_found]

    def __call__(self, image: np.ndarray, quads: np.ndarray, probabilities: np.ndarray, named: np.ndarray,
                 classifier: CardClassifier, refiner: CardRefiner) -> tuple[np.ndarray, np.ndarray]:
        """The new cards' quads (K x 4 x 2) and the classifier's probabilities for them (K x C), stepped from the
        ``named`` detections among ``quads``."""
        none = np.zeros((0, 4, 2), np.float32), np.zeros((0, len(classifier.classes)), np.float32)
        quads = np.asarray(quads, np.float32).reshape(-1, 4, 2)
        sources = quads[named]
        if not len(sources):
            return none
        tries = self.tries(sources, quads)
        tries = tries[within_frame(tries, image.shape)]
        if not len(tries):
            return none
        moved, card = refiner.look(image, tries)
        for _ in range(refiner.passes - 1):  # the later looks only at new spots where the first saw a card at all
            moved, card = self._fresh(moved, card, quads, FIRST_LOOK)
            moved, card = refiner.look(image, moved)
        moved, _ = self._fresh(moved, card, quads, refiner.threshold)
        if not len(moved):
            return none
        read = classifier.classify(warp_quads(image, moved, classifier.input_size))
        return self._chosen(moved, read, probabilities[named], classifier)

    def _fresh(self, moved: np.ndarray, card: np.ndarray, quads: np.ndarray, least: float
               ) -> tuple[np.ndarray, np.ndarray]:
        """The refined tries with a card's probability from ``least``, clear of the detections, one per spot (the
        surest of tries that landed on one card: IoU over ``SAME_SPOT``)."""
        keep = card >= least
        if keep.any() and len(quads):
            keep[keep] = iou_matrix(moved[keep], quads).max(axis=1) < self.clear
        moved, card = moved[keep], card[keep]
        order = np.argsort(-card, kind="stable")
        order = order[suppress(moved[order], SAME_SPOT)]
        return moved[order], card[order]

    def _chosen(self, moved: np.ndarray, read: np.ndarray, named: np.ndarray, classifier: CardClassifier
                ) -> tuple[np.ndarray, np.ndarray]:
        """The surest tries naming a face from ``needs``, clear of each other, of cards the named detections (their
        probabilities ``named``) do not hold as often as the deck does."""
        capacity = {name: len(cards) for name, cards in classifier.class_cards.items()}
        held = Counter(classifier.classes[i] for i in named.argmax(axis=1))
        face = classifier.face_probability(read)
        top = read.argmax(axis=1)
        kept: list[int] = []
        for i in np.argsort(-face, kind="stable"):
            if face[i] < self.needs:
                break
            name = classifier.classes[top[i]]
            if held[name] >= capacity[name]:
                continue
            if kept and iou_matrix(moved[[i]], moved[kept]).max() > self.clear:
                continue
            kept.append(int(i))
            held[name] += 1
        return moved[kept], read[kept]
