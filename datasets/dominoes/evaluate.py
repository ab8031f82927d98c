"""Score the domino recogniser on rendered scenes: share of tiles found and share read exactly.

A tile counts when it is whole in view (visible ≥ 0.98, not cut by the frame). It is *found* when a reported
tile overlaps it with IoU ≥ 0.5, and *read* when that tile also has the right code (or is face down when it
is). ``readable_found`` and ``readable_read`` leave out the whole tiles that glare washes out (``washed_out`` of
them: more than half of the tile keeps a fifth of its contrast or less), which no one could read either. Run from
the repository root:

    python -m datasets.dominoes.evaluate --style paigow-art --scenes 200 --seed 2026 [--still] [--no-refiner]
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from datasets.dominoes.scenes import BACK, DominoScene, DominoSceneConfig, render_scene
from datasets.dominoes.styles import STYLES, TEST_STYLE
from datasets.hanafuda.effects import WASHED_OUT
from vision.dominoes.observation import DominoTableObservation
from vision.dominoes.recognizer import DominoRecognizer


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    union = cv2.contourArea(a.astype(np.float32)) + cv2.contourArea(b.astype(np.float32)) - inter
    return float(inter / union) if union > 0 else 0.0


def score_scene(scene: DominoScene, seen: DominoTableObservation) -> Counter[str]:
    """Counts for one scene: tiles, found, read, false (reported tiles matching no tile in view at all)."""
    counts: Counter[str] = Counter()
    quads = [np.asarray(t.quad) for t in seen.tiles]
    used: set[int] = set()
    order = np.argsort(-scene.visible, kind="stable")  # a wall's hidden lower tile must not take its upper's match
    for k in order:
        face, up, quad, visible, cut = scene.faces[k], scene.face_up[k], scene.quads[k], scene.visible[k], scene.cut[k]
        overlaps = [(_iou(quad, q), j) for j, q in enumerate(quads) if j not in used]
        best, j = max(overlaps, default=(0.0, -1))
        if best >= 0.5:
            used.add(j)
        if visible < 0.98 or cut:
            continue
        kind = "washed" if scene.washed[k] >= WASHED_OUT else "readable"  # counted, and apart: no one reads it
        counts["tiles"] += 1
        counts[f"{kind} tiles"] += 1
        if best < 0.5:
            counts[f"missed {'up' if up else 'down'}"] += 1
            continue
        counts["found"] += 1
        counts[f"{kind} found"] += 1
        truth = f"{min(face)}:{max(face)}" if up else BACK
        tile = seen.tiles[j]
        got = BACK if tile.face_down else (tile.tile or "unknown")
        if got == truth:
            counts["read"] += 1
            counts[f"{kind} read"] += 1
        else:
            counts[f"misread {truth}->{got}"] += 1
    counts["false"] += len(quads) - len(used)
    return counts


def evaluate(style: str, scenes: int, seed: int, size: tuple[int, int] = (1280, 720), learned: bool = True,
             still: bool = False, **options: Any) -> dict[str, object]:
    """Scores over ``scenes`` rendered scenes, of the live table's recogniser or (``still``) the still photos';
    ``options`` go to the recogniser (``refiner``, ``neighbours``...)."""
    make = DominoRecognizer.for_photos if still else DominoRecognizer
    config = DominoSceneConfig(size=size, styles=(style,))
    totals: Counter[str] = Counter()
    recognizers: dict[str, DominoRecognizer] = {}
    latencies = []
    for i in range(scenes):
        scene = render_scene(np.random.default_rng([seed, i]), config)
        if scene.tile_set not in recognizers:
            recognizers[scene.tile_set] = make(scene.tile_set, learned=learned, **options)
        recognizer = recognizers[scene.tile_set]
        t0 = time.perf_counter()
        seen = recognizer(scene.image)
        latencies.append((time.perf_counter() - t0) * 1e3)
        totals += score_scene(scene, seen)
    n = max(totals["tiles"], 1)
    return {
        "style": style, "finder": "learned" if learned else "classical", "still": still, **options,
        "scenes": scenes, "seed": seed,
        "tiles": totals["tiles"],
        "found": totals["found"] / n, "read": totals["read"] / n, "false_tiles": totals["false"],
        # the same, leaving out the whole tiles glare washes out (``effects.WASHED_OUT``; session 38)
        "washed_out": totals["washed tiles"],
        "readable_found": totals["readable found"] / max(totals["readable tiles"], 1),
        "readable_read": totals["readable read"] / max(totals["readable tiles"], 1),
        "ms_median": float(np.median(latencies)), "ms_p95": float(np.percentile(latencies, 95)),
        "errors": dict(sorted(((k, v) for k, v in totals.items() if k.startswith(("missed", "misread"))),
                              key=lambda kv: -kv[1])),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--style", default=TEST_STYLE, choices=STYLES)
    parser.add_argument("--scenes", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--classical", action="store_true", help="find tiles with the classical finder")
    parser.add_argument("--no-refiner", action="store_true", help="the finder's quads as they are (no TileRefiner)")
    parser.add_argument("--still", action="store_true",
                        help="score the still-photo recogniser (kibitz recognize: DominoRecognizer.for_photos)")
    args = parser.parse_args(argv)
    options = {"refiner": False} if args.no_refiner else {}
    report = evaluate(args.style, args.scenes, args.seed, learned=not args.classical, still=args.still, **options)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
