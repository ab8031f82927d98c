"""Score a finder on held-out-style synthetic scenes: recall, precision, partial flags, props, latency.

Used by ``tests/benchmarks/bench_finder.py`` (classical vs learned) and by ``train_finder`` for the model card.
Scenes come from an ``EvalScene`` function (card scenes by default; a ``FinderTask`` names its own, such as
domino tiles): any scene with ``image``, ``quads``, ``visible``, ``cut`` (and ``props``, if it has any) will do.
A card must be found when it is fully visible (visible >= 0.98, not cut by the frame), the rule of the
dataset's labels.csv; it is found when a detection overlaps it with IoU >= 0.5 (and "tight" at IoU >= 0.9).
A detection is a false positive when it overlaps no card at all (IoU < 0.5 with every card, hidden ones
included); a "prop" false positive is one whose centre lies on a hand, phone, coin, cup, pen or card box.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from datasets.hanafuda import TEST_STYLE, TRAIN_STYLES, Scene, preset, render_scene
from vision.geometry import iou_matrix
from vision.observation import Detections

Finder = Callable[[np.ndarray], Detections]
# name: (dataset preset, overrides)
SCENE_SETS: Mapping[str, tuple[str, dict[str, Any]]] = {
    "720p-16": ("default", {"layouts": {"scattered": 0.5, "rows": 0.3, "piles": 0.2}}),
    "1080p-mat": ("whole-mat", {}),
    "piles": ("piles", {}),
    "default": ("default", {}),
}
CALIBRATION_SETS = ("default", "default", "piles", "1080p-mat")  # drawn in turn, at 1280x720
# (scene set, styles, seed or rng, frame size or None for the set's own) -> a scene with its truth
EvalScene = Callable[[str, Sequence[str], np.random.Generator | int, tuple[int, int] | None], Any]


def card_eval_scene(name: str, styles: Sequence[str], seed: np.random.Generator | int,
                    size: tuple[int, int] | None = None) -> Scene:
    """A card scene of the named set (``SCENE_SETS``) in ``styles``."""
    dataset_preset, overrides = SCENE_SETS[name]
    sized = {"size": size} if size else {}
    return render_scene(seed, preset(dataset_preset, styles=tuple(styles), **sized, **overrides))


@dataclass
class Tally:
    must: int = 0
    found: int = 0
    found_tight: int = 0
    whole_flagged_partial: int = 0
    detections: int = 0
    false_positives: int = 0
    prop_false_positives: int = 0
    partial_truth: int = 0
    partial_found: int = 0
    partial_flagged: int = 0
    hidden_called_whole: int = 0
    ious: list[float] = field(default_factory=list)
    times_ms: list[float] = field(default_factory=list)
    cards: list[int] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.found / max(self.must, 1)

    @property
    def recall_tight(self) -> float:
        return self.found_tight / max(self.must, 1)

    @property
    def precision(self) -> float:
        return 1 - self.false_positives / max(self.detections, 1)

    def summary(self) -> dict[str, float]:
        t = np.array(self.times_ms or [0.0])
        return {
            "scenes": len(self.times_ms), "must": self.must, "recall_iou50": round(self.recall, 4),
            "recall_iou90": round(self.recall_tight, 4), "precision": round(self.precision, 4),
            "false_positives": self.false_positives, "prop_false_positives": self.prop_false_positives,
            "whole_flagged_partial": self.whole_flagged_partial, "partial_truth": self.partial_truth,
            "partial_found": self.partial_found, "partial_flagged": self.partial_flagged,
            "hidden_called_whole": self.hidden_called_whole,
            "ms_median": round(float(np.median(t)), 1), "ms_p95": round(float(np.percentile(t, 95)), 1),
        }

    def report(self, name: str) -> str:
        iou = np.array(self.ious) if self.ious else np.zeros(1)
        t = np.array(self.times_ms or [0.0])
        return (f"{name:18s} scenes {len(self.times_ms):4d}  cards/scene {np.mean(self.cards or [0]):5.1f}  "
                f"recall@.5 {self.recall:.4f} ({self.must - self.found} missed of {self.must})  "
                f"recall@.9 {self.recall_tight:.4f}  "
                f"precision {self.precision:.4f} ({self.false_positives} FP, {self.prop_false_positives} on props, "
                f"of {self.detections})  whole called partial {self.whole_flagged_partial}  "
                f"partial found {self.partial_found}/{self.partial_truth} flagged {self.partial_flagged}, "
                f"hidden called whole {self.hidden_called_whole}  "
                f"IoU median {np.median(iou):.3f} p5 {np.percentile(iou, 5):.3f}  "
                f"ms median {np.median(t):.1f} p95 {np.percentile(t, 95):.1f}")


def _on_props(scene: Any, points: np.ndarray) -> np.ndarray:
    hit = np.zeros(len(points), bool)
    for prop in getattr(scene, "props", ()):
        polygon = prop.polygon.astype(np.float32).reshape(-1, 1, 2)
        hit |= np.array([cv2.pointPolygonTest(polygon, (float(x), float(y)), False) >= 0 for x, y in points], bool)
    return hit


def score_scene(tally: Tally, scene: Any, detections: Detections) -> tuple[np.ndarray, np.ndarray]:
    """Add one scene to the tally; returns (missed truth mask, false-positive detection mask)."""
    must = (scene.visible >= 0.98) & ~scene.cut
    partly = ~must & (scene.visible >= 0.4)
    iou = iou_matrix(detections.quads, scene.quads)
    best_for_truth = iou.max(axis=0) if len(detections) else np.zeros(len(scene.quads))
    best_for_detection = iou.max(axis=1) if len(scene.quads) else np.zeros(len(detections))
    match = iou.argmax(axis=0) if len(detections) else np.zeros(len(scene.quads), np.int64)
    found = best_for_truth >= 0.5
    flagged = detections.partial[match] if len(detections) else np.zeros(len(scene.quads), bool)
    tally.must += int(must.sum())
    tally.found += int((found & must).sum())
    tally.found_tight += int((must & (best_for_truth >= 0.9)).sum())
    tally.whole_flagged_partial += int((found & must & flagged).sum())
    tally.partial_truth += int(partly.sum())
    tally.partial_found += int((found & partly).sum())
    tally.partial_flagged += int((found & partly & flagged).sum())
    tally.hidden_called_whole += int((found & ~must & ~flagged).sum())
    tally.ious += best_for_truth[found & must].tolist()
    false_positive = best_for_detection < 0.5
    tally.detections += len(detections)
    tally.false_positives += int(false_positive.sum())
    tally.prop_false_positives += int((false_positive & _on_props(scene, detections.centers)).sum())
    tally.cards.append(int(must.sum()))
    return must & ~found, false_positive


def draw(scene: Any, detections: Detections, missed: np.ndarray, false_positive: np.ndarray) -> np.ndarray:
    """Truth in green (missed ones red), detections in blue (partial cyan, false positives magenta)."""
    image = scene.image.copy()
    for quad, miss in zip(scene.quads, missed, strict=True):
        cv2.polylines(image, [quad.astype(np.int32)], True, (0, 0, 255) if miss else (0, 200, 0), 2)
    for quad, part, bad in zip(detections.quads, detections.partial, false_positive, strict=True):
        colour = (255, 0, 255) if bad else ((255, 255, 0) if part else (255, 0, 0))
        cv2.polylines(image, [quad.astype(np.int32)], True, colour, 1)
    return image


def evaluate(finder: Finder, name: str, scenes: int, seed: int, save: Any = None, label: str = "",
             scene_of: EvalScene = card_eval_scene, style: str = TEST_STYLE) -> Tally:
    """Run ``finder`` on ``scenes`` held-out-style scenes of the named set; optionally save the failures."""
    tally = Tally()
    for index in range(scenes):
        scene = scene_of(name, (style,), np.random.default_rng([seed, index]), None)
        start = time.perf_counter()
        detections = finder(scene.image)
        tally.times_ms.append((time.perf_counter() - start) * 1000)
        missed, false_positive = score_scene(tally, scene, detections)
        if save is not None and (missed.any() or false_positive.any()):
            save.mkdir(parents=True, exist_ok=True)
            path = save / f"{label or 'finder'}-{name}-{index:03d}.png"
            cv2.imwrite(str(path), draw(scene, detections, missed, false_positive))
    return tally


def calibrate(finder: Any, scenes: int = 40, seed: int = 99, scene_of: EvalScene = card_eval_scene,
              names: Sequence[str] = CALIBRATION_SETS, styles: Sequence[str] = TRAIN_STYLES) -> dict[str, float]:
    """Decoding thresholds picked on training-style scenes (all presets mixed; never the held-out style).

    ``heat``: fewest missed fully visible cards plus false positives. ``partial_visible``: fewest whole cards
    called partial plus twice the covered or cut cards called whole (a hidden card must not pass for whole).
    """
    heats = np.round(np.arange(0.05, 0.6, 0.025), 3)
    cuts = np.round(np.arange(0.5, 0.98, 0.02), 3)
    missed, false = np.zeros(len(heats), np.int64), np.zeros(len(heats), np.int64)
    whole_vis: list[np.ndarray] = []
    hidden_vis: list[np.ndarray] = []
    saved, finder.heat_threshold = finder.heat_threshold, float(heats[0])
    try:
        for index in range(scenes):
            scene = scene_of(names[index % len(names)], styles, np.random.default_rng([seed, index]), (1280, 720))
            found, visible = finder.find(scene.image)
            iou = iou_matrix(found.quads, scene.quads)
            must = (scene.visible >= 0.98) & ~scene.cut
            if len(found) and len(scene.quads):
                hit = np.where(iou >= 0.5, found.confidence[:, None], 0.0).max(axis=0)
                fp_conf = found.confidence[iou.max(axis=1) < 0.5]
                owner = iou.argmax(axis=1)
                matched = iou.max(axis=1) >= 0.5
                whole_vis.append(visible[matched & must[owner]])
                hidden_vis.append(visible[matched & (scene.visible[owner] < 0.9)])
            else:
                hit, fp_conf = np.zeros(len(scene.quads)), found.confidence
            missed += (hit[must][None, :] < heats[:, None]).sum(axis=1)
            false += (fp_conf[None, :] >= heats[:, None]).sum(axis=1)
    finally:
        finder.heat_threshold = saved
    whole, hidden = np.concatenate([np.zeros(0), *whole_vis]), np.concatenate([np.zeros(0), *hidden_vis])
    cost = (whole[None, :] < cuts[:, None]).sum(axis=1) + 2 * (hidden[None, :] >= cuts[:, None]).sum(axis=1)
    return {"heat": float(heats[int(np.argmin(missed + false))]), "partial_visible": float(cuts[int(np.argmin(cost))])}
