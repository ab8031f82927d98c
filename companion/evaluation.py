"""Scoring a recogniser against a labelled folder: the logic behind ``kibitz eval-vision``.

``labels.csv`` lists ``image,card`` for every card that should be named in each image. Two plains
of one month are interchangeable, so ``pine-plain-1`` and ``pine-plain-2`` are compared as one kind.
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

NONE = "(none)"


def card_kind(label: str) -> str:
    """Fold interchangeable plains (-1/-2) together; the coloured paulownia plain-3 stays apart."""
    return re.sub(r"-plain-[12]$", "-plain", label)


def read_labels(folder: Path, name: str = "labels.csv") -> dict[str, list[str]]:
    """``labels.csv``: what must be named. ``optional.csv`` (same rows, may be absent): cards cut by the frame
    or mostly covered, which may be named (rightly) or left unknown without penalty."""
    path = folder / name
    if name != "labels.csv" and not path.is_file():
        return {}
    if not path.is_file():
        raise FileNotFoundError(f"{folder} has no labels.csv (rows: image,card)")
    labels: dict[str, list[str]] = {}
    with path.open(newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader, None)
        if header is None or [h.strip() for h in header[:2]] not in (["image", "card"], ["image", "tile"]):
            raise ValueError(f"{path}: the first row must be 'image,card' (or 'image,tile'), not {header}")
        for line, row in enumerate(reader, start=2):
            if len(row) < 2 or not row[0].strip():
                raise ValueError(f"{path}, line {line}: expected image,card")
            labels.setdefault(row[0].strip(), []).append(row[1].strip())
    return labels


@dataclass
class Evaluation:
    """Counts over a folder, filled image by image."""

    true_positive: Counter[str] = field(default_factory=Counter)
    false_positive: Counter[str] = field(default_factory=Counter)
    false_negative: Counter[str] = field(default_factory=Counter)
    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)  # (truth, predicted)
    images: int = 0
    exact: int = 0
    latencies_ms: list[float] = field(default_factory=list)

    def add(self, truth: list[str], predicted: list[str], ms: float, optional: list[str] | None = None) -> None:
        """Match the multisets of kinds; leftovers pair up as confusions, in order. Extra names that match an
        optional (partly visible) card are neither hits nor errors."""
        want = Counter(card_kind(t) for t in truth)
        got = Counter(card_kind(p) for p in predicted if p not in ("unknown",))
        hits = want & got
        got -= (got - hits) & Counter(card_kind(o) for o in optional or [])
        self.true_positive.update(hits)
        for kind, n in hits.items():
            self.confusion[(kind, kind)] += n
        missed = sorted((want - hits).elements())
        extra = sorted((got - hits).elements())
        self.false_negative.update(missed)
        self.false_positive.update(extra)
        for i in range(max(len(missed), len(extra))):
            self.confusion[(missed[i] if i < len(missed) else NONE, extra[i] if i < len(extra) else NONE)] += 1
        self.images += 1
        self.exact += not missed and not extra
        self.latencies_ms.append(ms)

    def per_card(self) -> dict[str, dict[str, float]]:
        kinds = sorted(set(self.true_positive) | set(self.false_positive) | set(self.false_negative))
        table = {}
        for kind in kinds:
            tp, fp, fn = self.true_positive[kind], self.false_positive[kind], self.false_negative[kind]
            table[kind] = {
                "precision": tp / (tp + fp) if tp + fp else 1.0,
                "recall": tp / (tp + fn) if tp + fn else 1.0,
                "support": tp + fn,
            }
        return table

    def summary(self) -> dict[str, object]:
        tp = sum(self.true_positive.values())
        fp = sum(self.false_positive.values())
        fn = sum(self.false_negative.values())
        lat = np.array(self.latencies_ms or [0.0])
        return {
            "images": self.images,
            "exact_images": self.exact / self.images if self.images else 0.0,
            "precision": tp / (tp + fp) if tp + fp else 1.0,
            "recall": tp / (tp + fn) if tp + fn else 1.0,
            "ms_median": float(np.median(lat)),
            "ms_p95": float(np.percentile(lat, 95)),
            "per_card": self.per_card(),
        }


def confusion_image(evaluation: Evaluation, cell: int = 14) -> np.ndarray:
    """The confusion matrix as a picture: rows are the truth, columns what was named."""
    kinds = [*sorted({k for pair in evaluation.confusion for k in pair} - {NONE}), NONE]
    index = {k: i for i, k in enumerate(kinds)}
    n = len(kinds)
    counts = np.zeros((n, n), np.float64)
    for (truth, predicted), c in evaluation.confusion.items():
        counts[index[truth], index[predicted]] += c
    rows = counts.sum(axis=1, keepdims=True)
    share = np.divide(counts, rows, out=np.zeros_like(counts), where=rows > 0)
    margin = 190
    size = margin + n * cell
    image = np.full((size, size, 3), 255, np.uint8)
    for r in range(n):
        for c in range(n):
            if counts[r, c]:
                shade = int(255 * (1 - share[r, c]))
                colour = (shade, shade, 255) if r != c else (shade, 255, shade)
                y, x = margin + r * cell, margin + c * cell
                cv2.rectangle(image, (x, y), (x + cell - 1, y + cell - 1), colour, -1)
    for i, kind in enumerate(kinds):
        y = margin + i * cell + cell - 3
        cv2.putText(image, kind[:26], (4, y), cv2.FONT_HERSHEY_SIMPLEX, 0.33, (0, 0, 0), 1, cv2.LINE_AA)
        label = np.full((cell, margin - 4, 3), 255, np.uint8)
        cv2.putText(label, kind[:26], (2, cell - 3), cv2.FONT_HERSHEY_SIMPLEX, 0.33, (0, 0, 0), 1, cv2.LINE_AA)
        x = margin + i * cell
        image[: margin - 4, x : x + cell] = np.rot90(label)
    cv2.line(image, (margin, margin), (size, size), (200, 200, 200), 1)
    return image
