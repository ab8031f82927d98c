"""What a card looks like in this frame: its true shape under the table's tilt, and its size by position.

Seen at an angle a card is foreshortened, so its apparent aspect ranges from ~0.5 to ~0.8, and two cards
touching along their long side (0.79) look like one. All cards lie on one table plane, though, so one 2 x 2
metric (the table's affine distortion) undoes the tilt for all of them. It is estimated from the clean
outlines themselves, RANSAC-style: each outline, taken as a card, fixes the metric; the metric that makes
the most other outlines card-shaped wins. Under it a pair of cards measures 0.79 and a phone 0.48, not 0.63.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.geometry import CARD_ASPECT, side_vectors


def _sides(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean short-side and long-side vectors of clockwise quads (as parallelograms): M x 2 each."""
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    first, second = side_vectors(q)
    swap = np.linalg.norm(first, axis=1) > np.linalg.norm(second, axis=1)
    short = np.where(swap[:, None], second, first)
    long = np.where(swap[:, None], first, second)
    return short, long


def _metric_rows(short: np.ndarray, long: np.ndarray, aspect: float) -> np.ndarray:
    """Two linear equations per card in the metric (m11, m12, m22): sides orthogonal, lengths in ratio."""
    orthogonal = np.column_stack([short[:, 0] * long[:, 0], short[:, 0] * long[:, 1] + short[:, 1] * long[:, 0],
                                  short[:, 1] * long[:, 1]])
    ratio = (np.column_stack([short[:, 0] ** 2, 2 * short[:, 0] * short[:, 1], short[:, 1] ** 2])
             - aspect**2 * np.column_stack([long[:, 0] ** 2, 2 * long[:, 0] * long[:, 1], long[:, 1] ** 2]))
    scale = np.linalg.norm(long, axis=1)[:, None] ** 2
    return np.concatenate([orthogonal / scale, ratio / scale])


def _solve(rows: np.ndarray) -> np.ndarray | None:
    """The symmetric positive definite metric closest to satisfying the rows, normalised to det 1."""
    _, _, vt = np.linalg.svd(rows)
    m11, m12, m22 = vt[-1]
    metric = np.array([[m11, m12], [m12, m22]])
    if m11 < 0:
        metric = -metric
    det = float(np.linalg.det(metric))
    if det <= 0 or metric[0, 0] <= 0:
        return None
    return metric / np.sqrt(det)


@dataclass(frozen=True)
class TableMetric:
    """Affine metric of the table plane in the image; identity means seen straight from above."""

    matrix: np.ndarray

    @classmethod
    def identity(cls) -> TableMetric:
        return cls(np.eye(2))

    def short_sides(self, quads: np.ndarray) -> np.ndarray:
        """Length of each quad's short side on the table (metric units)."""
        short, long = _sides(quads)
        s = np.sqrt(np.einsum("ni,ij,nj->n", short, self.matrix, short))
        t = np.sqrt(np.einsum("ni,ij,nj->n", long, self.matrix, long))
        return np.minimum(s, t)

    def true_aspect(self, quads: np.ndarray) -> np.ndarray:
        """Short over long side of each quad measured on the table, not in the image."""
        short, long = _sides(quads)
        s = np.sqrt(np.einsum("ni,ij,nj->n", short, self.matrix, short))
        t = np.sqrt(np.einsum("ni,ij,nj->n", long, self.matrix, long))
        return np.minimum(s, t) / np.maximum(np.maximum(s, t), 1e-9)

    @classmethod
    def fit(cls, quads: np.ndarray, tolerance: float = 0.06) -> tuple[TableMetric, np.ndarray]:
        """Best metric for quads that are mostly single cards; also returns which quads fit it."""
        quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
        if len(quads) < 2:
            metric = cls.identity()
            return metric, np.abs(metric.true_aspect(quads) - CARD_ASPECT) <= 2.5 * tolerance
        short, long = _sides(quads)
        best, best_inliers = cls.identity(), np.zeros(len(quads), bool)
        for i in range(len(quads)):
            matrix = _solve(_metric_rows(short[i : i + 1], long[i : i + 1], CARD_ASPECT))
            if matrix is None or np.linalg.cond(matrix) > 4.0:  # more than ~60 degrees of tilt: implausible
                continue
            inliers = np.abs(cls(matrix).true_aspect(quads) - CARD_ASPECT) <= tolerance
            if inliers.sum() > best_inliers.sum():
                best, best_inliers = cls(matrix), inliers
        if best_inliers.sum() >= 2:
            matrix = _solve(_metric_rows(short[best_inliers], long[best_inliers], CARD_ASPECT))
            if matrix is not None and np.linalg.cond(matrix) <= 4.0:
                best = cls(matrix)
                best_inliers = np.abs(best.true_aspect(quads) - CARD_ASPECT) <= tolerance
        return best, best_inliers


@dataclass(frozen=True)
class SizeModel:
    """Expected short side of a card (work pixels) at an image position, from the cards already accepted.

    With eight cards or more it follows a plane in (x, y) so that perspective (near cards look bigger)
    does not make far cards look "too small".
    """

    coef: np.ndarray

    @classmethod
    def fit(cls, centers: np.ndarray, shorts: np.ndarray) -> SizeModel | None:
        if len(shorts) == 0:
            return None
        logs = np.log(np.asarray(shorts, np.float64))
        if len(shorts) < 8:
            return cls(np.array([np.median(logs), 0.0, 0.0]))
        design = np.column_stack([np.ones(len(logs)), np.asarray(centers, np.float64)])
        keep = np.ones(len(logs), bool)
        for _ in range(2):  # refit without the cards that disagree most (a misfit or a box)
            coef, *_ = np.linalg.lstsq(design[keep], logs[keep], rcond=None)
            residual = np.abs(design @ coef - logs)
            keep = residual <= max(0.08, 3.0 * float(np.median(residual)))
        return cls(coef)

    def short_side(self, xy: np.ndarray) -> np.ndarray:
        xy = np.asarray(xy, np.float64).reshape(-1, 2)
        return np.exp(self.coef[0] + xy @ self.coef[1:])
