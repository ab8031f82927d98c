"""A stand-in recogniser that reads the renderer's truth, with misreads injected on purpose.

It lets the live layer be measured on its own (stability, votes, rules) and gives misreads that are known:
``per_frame`` misreads come and go from frame to frame (what voting fixes); ``per_period`` misreads stick to a
card for a whole still period (a glare that does not move: only the rules or the user can fix those). A
misread names a card of the same month half of the time (the classifier's usual confusion), else any card,
never one visible in the same frame (the deck prior already prevents that).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from datasets.scripted.render import FrameTruth
from engine.cards import Card
from vision.capture import Frame
from vision.observation import BACK, CardObservation, TableObservation

CODES = tuple(card.code for card in Card)


@dataclass(frozen=True)
class MisreadModel:
    per_frame: float = 0.02
    per_period: float = 0.0
    min_visible: float = 0.3  # less of a card than this is not found at all
    seed: int = 0


@dataclass(frozen=True)
class Misread:
    frame: int
    step: int
    truth: str
    read: str
    sticky: bool


@dataclass
class TruthRecognizer:
    """``recognizer(frame) -> TableObservation`` for frames of a rendered script (looked up by index)."""

    truths: Sequence[FrameTruth]
    model: MisreadModel = field(default_factory=MisreadModel)
    injected: list[Misread] = field(default_factory=list)
    calls: int = 0

    def __call__(self, frame: Frame) -> TableObservation:
        truth = self.truths[frame.index]
        self.calls += 1
        rng = np.random.default_rng((self.model.seed, frame.index))
        shown = {c.label for c in truth.cards if c.visible >= self.model.min_visible}
        cards = []
        for number, card in enumerate(truth.cards):
            if card.visible < self.model.min_visible:
                continue
            label, confidence = card.label, float(np.clip(0.88 + 0.1 * card.visible + rng.normal(0, 0.02), 0, 1))
            if label != BACK:
                sticky = self._sticky(truth.step, number, label, shown)
                if sticky is not None:
                    label, confidence = sticky
                elif rng.random() < self.model.per_frame:
                    label, confidence = _confuse(rng, card.label, shown), float(rng.uniform(0.5, 0.9))
                if label != card.label:
                    shown.add(label)  # the deck prior never names one card twice in a frame
                    self.injected.append(Misread(frame.index, truth.step, card.label, label, sticky is not None))
            cards.append(CardObservation(label, confidence, card.quad, zone=card.role, partial=card.visible < 0.9))
        height, width = frame.image.shape[:2]
        return TableObservation((width, height), tuple(cards), {"truth": 0.0})

    def _sticky(self, step: int, number: int, label: str, shown: set[str]) -> tuple[str, float] | None:
        """The same misread in every frame of a still period (decided by the period and the card)."""
        if self.model.per_period <= 0:
            return None
        rng = np.random.default_rng((self.model.seed, 7919, step, CODES.index(label)))
        if rng.random() >= self.model.per_period:
            return None
        return _confuse(rng, label, shown), float(rng.uniform(0.6, 0.9))

    def sticky_misreads(self) -> list[Misread]:
        """Distinct (period, card) misreads that stuck, the ones voting cannot fix."""
        seen: dict[tuple[int, str], Misread] = {}
        for m in self.injected:
            if m.sticky:
                seen.setdefault((m.step, m.truth), m)
        return list(seen.values())


def _confuse(rng: np.random.Generator, label: str, shown: set[str]) -> str:
    month = Card.parse(label).month
    same = [c.code for c in Card if c.month is month and c.code != label and c.code not in shown]
    if same and rng.random() < 0.5:
        return same[int(rng.integers(len(same)))]
    others = [c for c in CODES if c != label and c not in shown]
    return others[int(rng.integers(len(others)))] if others else label
