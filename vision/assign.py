"""The deck prior: every card exists once, so a frame's labels are chosen jointly, not crop by crop.

The classifier gives each crop probabilities over visual classes. A class stands for one card, for a pair of
interchangeable plains (two card slots), for "back" (any number) or for "not-a-card" (any number). The frame's
labels are the assignment of crops to slots that maximises the product of probabilities (an exact min-cost
assignment on -log p), so two crops that both look most like pine-crane get crane and their runner-up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from vision.observation import BACK, UNKNOWN

_EPS = 1e-12


@dataclass(frozen=True, eq=False)
class Assignment:
    """One label per crop (a card code, "back" or "unknown") and the confidence in that label.

    The confidence of a card or back is its probability renormalised over the labels still open to that crop
    (cards taken by other crops removed); the confidence of "unknown" is one minus the best such probability
    of any card or back.
    """

    labels: tuple[str, ...]
    confidences: np.ndarray

    def __post_init__(self) -> None:
        confidences = np.asarray(self.confidences, dtype=np.float64)
        if confidences.shape != (len(self.labels),):
            raise ValueError(f"Assignment: {len(self.labels)} labels but confidences of shape {confidences.shape}")
        if not np.isfinite(confidences).all() or (confidences < 0).any() or (confidences > 1).any():
            raise ValueError("Assignment.confidences: values must lie in [0, 1]")
        confidences.flags.writeable = False
        object.__setattr__(self, "labels", tuple(self.labels))
        object.__setattr__(self, "confidences", confidences)

    def __len__(self) -> int:
        return len(self.labels)


def solve_min_cost(cost: np.ndarray) -> np.ndarray:
    """Exact min-cost assignment of every row to a distinct column (rows <= columns); returns row -> column.

    Shortest augmenting paths with potentials (Hungarian / Jonker-Volgenant), O(rows^2 * columns), with the
    inner loop over columns in numpy: well under a millisecond for a frame of 60 crops.
    """
    cost = np.asarray(cost, dtype=np.float64)
    if cost.ndim != 2 or cost.shape[0] > cost.shape[1]:
        raise ValueError(f"solve_min_cost: expected a rows x columns matrix with rows <= columns, got {cost.shape}")
    if not np.isfinite(cost).all():
        raise ValueError("solve_min_cost: costs must be finite")
    n, m = cost.shape
    # 1-based as in the textbook formulation: column 0 is the virtual start of each augmenting path.
    u = np.zeros(n + 1)
    v = np.zeros(m + 1)
    owner = np.zeros(m + 1, dtype=np.int64)  # owner[j]: row holding column j, 0 for none
    way = np.zeros(m + 1, dtype=np.int64)
    for row in range(1, n + 1):
        owner[0] = row
        j0 = 0
        minv = np.full(m + 1, np.inf)
        used = np.zeros(m + 1, dtype=bool)
        while True:
            used[j0] = True
            i0 = owner[j0]
            free = ~used
            free[0] = False
            reduced = cost[i0 - 1] - u[i0] - v[1:]
            better = free[1:] & (reduced < minv[1:])
            minv[1:][better] = reduced[better]
            way[1:][better] = j0
            candidates = np.where(free, minv, np.inf)
            j1 = int(np.argmin(candidates))
            delta = candidates[j1]
            u[owner[used]] += delta
            v[used] -= delta
            minv[free] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    result = np.empty(n, dtype=np.int64)
    columns = np.flatnonzero(owner[1:]) + 1
    result[owner[columns] - 1] = columns - 1
    return result


def assign_cards(
    probabilities: np.ndarray,
    classes: Sequence[str],
    class_cards: Mapping[str, Sequence[str]],
    min_confidence: float = 0.5,
) -> Assignment:
    """Label all crops of a frame jointly under the deck prior.

    ``classes`` names the columns of ``probabilities`` (N x C); ``class_cards`` gives the card codes each
    class stands for (one card, or interchangeable plains filled -1 then -2 in crop order). "back" may repeat;
    any other class without cards (not-a-card) and any label below ``min_confidence`` is reported "unknown".
    """
    probs = np.asarray(probabilities, dtype=np.float64)
    if probs.ndim != 2 or probs.shape[1] != len(classes):
        raise ValueError(f"assign_cards: expected N x {len(classes)} probabilities, got shape {probs.shape}")
    if not np.isfinite(probs).all() or (probs < 0).any():
        raise ValueError("assign_cards: probabilities must be finite and non-negative")
    if not 0.0 <= min_confidence <= 1.0:
        raise ValueError(f"assign_cards: min_confidence must lie in [0, 1], got {min_confidence}")
    n = len(probs)
    if n == 0:
        return Assignment((), np.zeros(0))

    # Columns: one slot per card, then n back slots and n not-a-card slots per class without cards.
    slot_class: list[int] = []
    slot_card: list[str] = []
    for c, name in enumerate(classes):
        cards = list(class_cards.get(name, ()))
        repeat = cards if cards else [BACK if name == BACK else UNKNOWN] * n
        slot_class += [c] * len(repeat)
        slot_card += repeat
    slot_class_arr = np.asarray(slot_class, dtype=np.int64)
    cost = -np.log(probs[:, slot_class_arr] + _EPS)
    column = solve_min_cost(cost)
    chosen_class = slot_class_arr[column]
    labels = [slot_card[j] for j in column]

    # Renormalise each crop's probabilities over the classes that the other crops have not used up.
    capacity = np.bincount(slot_class_arr, minlength=len(classes))
    own = np.zeros_like(probs, dtype=np.int64)
    own[np.arange(n), chosen_class] = 1
    taken_by_others = np.bincount(chosen_class, minlength=len(classes))[None, :] - own
    open_probs = np.where(taken_by_others < capacity[None, :], probs, 0.0)
    open_probs /= np.maximum(open_probs.sum(axis=1, keepdims=True), _EPS)
    nameable = np.array([bool(class_cards.get(name)) or name == BACK for name in classes])
    confidences = open_probs[np.arange(n), chosen_class]
    unknown = np.array([label == UNKNOWN for label in labels]) | (confidences < min_confidence)
    best_nameable = open_probs[:, nameable].max(axis=1, initial=0.0)
    confidences = np.clip(np.where(unknown, 1.0 - best_nameable, confidences), 0.0, 1.0)
    labels = [UNKNOWN if u else label for label, u in zip(labels, unknown, strict=True)]
    return Assignment(_fill_interchangeable(labels, chosen_class, class_cards, classes), confidences)


def _fill_interchangeable(
    labels: list[str], chosen_class: np.ndarray, class_cards: Mapping[str, Sequence[str]], classes: Sequence[str]
) -> tuple[str, ...]:
    """Hand out the codes of an interchangeable class (-1, then -2) in crop order, so the result is stable."""
    out = list(labels)
    for c, name in enumerate(classes):
        cards = list(class_cards.get(name, ()))
        if len(cards) < 2:
            continue
        crops = [i for i in range(len(out)) if chosen_class[i] == c and out[i] != UNKNOWN]
        for i, code in zip(crops, cards, strict=False):
            out[i] = code
    return tuple(out)
