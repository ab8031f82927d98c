"""Evaluate the shipped card model on crops of the held-out art style, hard pairs reported separately.

    python -m datasets.training.eval_crops [--model models/hanafuda-cards.onnx] [--n 2400] [--seed 7]

Goes through the runtime path (``vision.classifier.CardClassifier``, onnxruntime), per crop, without the deck
prior. Hard pairs: ribbons of different months (willow vs pine ribbon on its own), plains of neighbouring
months (willow's plain is the lightning card), paulownia's plain against its coloured plain, and every crop
against its own 180-degree rotation.
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from datasets.hanafuda.crops import render_crop_set
from datasets.training.classes import BACK, CLASS_NAMES, NOT_A_CARD, class_indices
from vision.classifier import ALWAYS, CardClassifier

HELD_OUT_STYLE = "mantia-modern"
MONTHS = (
    "pine",
    "plum",
    "cherry",
    "wisteria",
    "iris",
    "peony",
    "clover",
    "pampas",
    "chrysanthemum",
    "maple",
    "willow",
    "paulownia",
)
PLAINS_OF_MONTH: dict[str, tuple[str, ...]] = {
    **{m: (f"{m}-plain",) for m in MONTHS if m not in ("willow", "paulownia")},
    "willow": ("willow-lightning",),
    "paulownia": ("paulownia-plain", "paulownia-plain-3"),
}


def _pairs(groups: Sequence[Sequence[str]]) -> list[tuple[str, str]]:
    return [(a, b) for group in groups for i, a in enumerate(group) for b in group[i + 1 :]]


RIBBON_PAIRS = _pairs([[name for name in CLASS_NAMES if name.endswith("-ribbon")]])
NEIGHBOUR_PLAIN_PAIRS = [
    (a, b) for m, n in itertools.pairwise(MONTHS) for a in PLAINS_OF_MONTH[m] for b in PLAINS_OF_MONTH[n]
] + [("paulownia-plain", "paulownia-plain-3")]


@dataclass
class PairFigures:
    """Confusions within a set of class pairs, over crops of either class, both orientations."""

    crops: int = 0
    errors: int = 0
    min_margin: float = 1.0  # min over crops of p(true) - p(its pair partner)
    worst: list[tuple[str, str, float]] = field(default_factory=list)


@dataclass(frozen=True)
class HeldOut:
    """Rendered crops with their visual class, the share of the card's face they show and how they were made."""

    crops: np.ndarray
    labels: np.ndarray
    visible: np.ndarray
    sources: tuple[str, ...]
    blank: np.ndarray  # bool: an unprinted card (labelled not-a-card)


@dataclass
class EvalReport:
    style: str
    n: int
    accuracy: float
    accuracy_rotated: float
    accuracy_by_group: dict[str, tuple[int, float]]  # group -> (crops, accuracy)
    wrong_card: tuple[int, int]  # (card crops named as another card, card crops)
    false_card: tuple[int, int]  # (not-a-card crops named as a card, not-a-card crops)
    rotation_agreement: float
    rotation_max_diff: float
    ribbons: PairFigures
    willow_pine_ribbon: PairFigures
    neighbour_plains: PairFigures
    errors: list[tuple[str, str, int]]

    def lines(self) -> list[str]:
        """Markdown bullet lines, used by the command line and the model card."""

        def pair(name: str, f: PairFigures) -> str:
            worst = ", ".join(f"{a} vs {b} {m:.3f}" for a, b, m in f.worst[:3]) or "none"
            return (
                f"- {name}: {f.errors} confused of {f.crops} crops (both orientations), "
                f"min margin p(true) - p(partner) = {f.min_margin:.3f}; tightest: {worst}"
            )

        groups = [f"  - {name}: {acc:.2%} of {n}" for name, (n, acc) in self.accuracy_by_group.items()]
        top_errors = ", ".join(f"{t} -> {p} x{c}" for t, p, c in self.errors[:8]) or "none"
        return [
            f"- held-out style `{self.style}`, {self.n} crops: accuracy {self.accuracy:.2%} "
            f"(the same crops turned 180°: {self.accuracy_rotated:.2%}); by group:",
            *groups,
            f"- a card named as another card: {self.wrong_card[0]} of {self.wrong_card[1]} card crops; "
            f"not-a-card named as a card: {self.false_card[0]} of {self.false_card[1]} (both orientations)",
            f"- crop vs its own 180° rotation: same answer for {self.rotation_agreement:.2%}, "
            f"max probability difference {self.rotation_max_diff:.2g}",
            pair("ribbons of different months", self.ribbons),
            pair("willow ribbon vs pine ribbon", self.willow_pine_ribbon),
            pair("plains of neighbouring months (+ paulownia plain vs coloured plain)", self.neighbour_plains),
            f"- most frequent errors: {top_errors}",
        ]


def _pair_figures(
    probs: np.ndarray, labels: np.ndarray, classes: Sequence[str], pairs: Sequence[tuple[str, str]]
) -> PairFigures:
    figures = PairFigures()
    margins: list[tuple[str, str, float]] = []
    for a, b in pairs:
        ia, ib = classes.index(a), classes.index(b)
        for true, other in ((ia, ib), (ib, ia)):
            rows = labels == true
            if not rows.any():
                continue
            margin = probs[rows, true] - probs[rows, other]
            figures.crops += int(rows.sum())
            figures.errors += int((probs[rows].argmax(axis=1) == other).sum())
            margins.append((classes[true], classes[other], float(margin.min())))
    margins.sort(key=lambda item: item[2])
    figures.worst = margins[:5]
    figures.min_margin = margins[0][2] if margins else 1.0
    return figures


def latency_ms(classifier: CardClassifier, crops: np.ndarray, repeats: int = 30) -> float:
    """Median wall time of one classify call."""
    classifier.classify(crops)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        classifier.classify(crops)
        times.append(time.perf_counter() - start)
    return 1000 * float(np.median(times))


def _groups(data: HeldOut) -> dict[str, np.ndarray]:
    """Masks of the crop groups reported separately: how much of the card shows, and what a negative is."""
    is_card = data.labels < CLASS_NAMES.index(BACK)
    negative = (data.labels == CLASS_NAMES.index(NOT_A_CARD)) & ~data.blank
    sources = np.array(data.sources)
    return {
        "cards, >= 95% of the face visible": is_card & (data.visible >= 0.95),
        "cards, 60-95% visible": is_card & (data.visible >= 0.6) & (data.visible < 0.95),
        "cards, 40-60% visible": is_card & (data.visible < 0.6),
        "backs": data.labels == CLASS_NAMES.index(BACK),
        "blank cards (-> not-a-card)": data.blank,
        "not-a-card: mostly hidden or cut cards": negative & np.isin(sources, ["partial", "cut"]),
        "not-a-card: table, two half cards, objects, box art": negative & ~np.isin(sources, ["partial", "cut"]),
    }


def _classify_all(classifier: CardClassifier, crops: np.ndarray) -> np.ndarray:
    return np.concatenate([classifier.classify(crops[i : i + 256]) for i in range(0, len(crops), 256)])


def evaluate(classifier: CardClassifier, data: HeldOut, style: str) -> EvalReport:
    """Per-crop figures on held-out crops, each crop also turned by 180 degrees."""
    classes = list(classifier.classes)
    if classes != list(CLASS_NAMES):
        raise ValueError("the model's classes differ from datasets.training.classes; retrain or update both")
    labels = data.labels
    probs = _classify_all(classifier, data.crops)
    probs_rot = _classify_all(classifier, np.ascontiguousarray(data.crops[:, ::-1, ::-1]))
    pred, pred_rot = probs.argmax(axis=1), probs_rot.argmax(axis=1)
    both_probs, both_labels = np.concatenate([probs, probs_rot]), np.concatenate([labels, labels])
    both_pred = np.concatenate([pred, pred_rot])
    first_extra = CLASS_NAMES.index(BACK)  # classes from here on are not cards
    is_card, pred_card = both_labels < first_extra, both_pred < first_extra
    is_negative = both_labels == CLASS_NAMES.index(NOT_A_CARD)
    wrong = both_pred != both_labels
    pairs, counts = np.unique(np.stack([both_labels[wrong], both_pred[wrong]]), axis=1, return_counts=True)
    errors = sorted(
        ((classes[t], classes[p], int(c)) for (t, p), c in zip(pairs.T, counts, strict=True)), key=lambda e: -e[2]
    )
    return EvalReport(
        style=style,
        n=len(labels),
        accuracy=float((pred == labels).mean()),
        accuracy_rotated=float((pred_rot == labels).mean()),
        accuracy_by_group={
            name: (int(mask.sum()), float((pred[mask] == labels[mask]).mean()))
            for name, mask in _groups(data).items()
            if mask.any()
        },
        wrong_card=(int((is_card & pred_card & wrong).sum()), int(is_card.sum())),
        false_card=(int((is_negative & pred_card).sum()), int(is_negative.sum())),
        rotation_agreement=float((pred == pred_rot).mean()),
        rotation_max_diff=float(np.abs(probs - probs_rot).max()),
        ribbons=_pair_figures(both_probs, both_labels, classes, RIBBON_PAIRS),
        willow_pine_ribbon=_pair_figures(both_probs, both_labels, classes, [("willow-ribbon", "pine-ribbon")]),
        neighbour_plains=_pair_figures(both_probs, both_labels, classes, NEIGHBOUR_PLAIN_PAIRS),
        errors=errors,
    )


def render_heldout(n: int, seed: int, size: tuple[int, int], style: str = HELD_OUT_STYLE) -> HeldOut:
    """Crops of the held-out style, made exactly like the training crops."""
    crop_set = render_crop_set(n, seed, [style], size)
    return HeldOut(
        crops=crop_set.images,
        labels=class_indices(crop_set.labels),
        visible=crop_set.visible,
        sources=crop_set.sources,
        blank=np.array([label == "blank" for label in crop_set.labels], bool),
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=Path, default=None, help="ONNX file (default: the shipped model)")
    parser.add_argument("--n", type=int, default=2400, help="number of held-out crops")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--style", default=HELD_OUT_STYLE)
    parser.add_argument("--turn-below", type=float, default=ALWAYS,
                        help="read each crop once and turned only under this (the live table's: 0.9; 0: never)")
    args = parser.parse_args(argv)
    classifier = CardClassifier(args.model, turn_below=args.turn_below)
    data = render_heldout(args.n, args.seed, classifier.input_size, args.style)
    print("\n".join(evaluate(classifier, data, args.style).lines()))


if __name__ == "__main__":
    main()
