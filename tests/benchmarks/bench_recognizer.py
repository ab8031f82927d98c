"""The whole recogniser on one core: ms per frame and the split between finding, warping and classifying.

    python -m tests.benchmarks.bench_recognizer [--scenes N] [--photo]

Targets (issue 3): at most 30 ms for a 1280x720 frame with 16 cards, 60 ms at 1920x1080. Frames are rendered from
the held-out art style with the generator's presets (``1280x720 16 cards``: small cards, 14-18 of them in view).
The live table's recogniser by default; ``--photo`` times the recogniser as still photos run it (``kibitz
recognize``: every photo step, each crop read both ways up).
"""

from __future__ import annotations

import argparse
import os
import statistics
from typing import Any

import numpy as np

from datasets.hanafuda import TEST_STYLE, preset, render_scene
from vision.classifier import ALWAYS, LIVE_TURN_BELOW, CardClassifier
from vision.recognizer import Recognizer

SETS: dict[str, dict[str, Any]] = {
    "1280x720 scattered": dict(name="default", size=(1280, 720)),
    # the frame: 16 cards (14-18 in view), small enough to lie in scattered groups and rows
    "1280x720 16 cards": dict(name="default", size=(1280, 720), cards=(14, 18),
                              knobs=dict(card_height=(0.1, 0.16), layouts={"scattered": 0.5, "rows": 0.5})),
    "1920x1080 whole mat": dict(name="whole-mat", size=(1920, 1080)),
}


def _frames(spec: dict[str, Any], count: int) -> list[np.ndarray]:
    """``count`` frames of the set: rendered from seed 2027 on, those with the set's number of cards in view."""
    config = preset(spec["name"], styles=(TEST_STYLE,), size=spec["size"], **spec.get("knobs", {}))
    least, most = spec.get("cards", (0, 10**6))
    frames: list[np.ndarray] = []
    for i in range(100 * count):
        scene = render_scene(np.random.default_rng([2027, i]), config)
        if least <= int((scene.visible > 0.3).sum()) <= most:
            frames.append(scene.image)
        if len(frames) == count:
            return frames
    raise RuntimeError(f"no {count} frames with {least}-{most} cards in view")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=20)
    parser.add_argument("--photo", action="store_true",
                        help="the still-photo recogniser (Recognizer.for_photos: kibitz recognize, eval-vision)")
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    make = Recognizer.for_photos if args.photo else Recognizer
    recognizer = make(classifier=CardClassifier(threads=1, turn_below=ALWAYS if args.photo else LIVE_TURN_BELOW))
    for label, spec in SETS.items():
        frames = _frames(spec, args.scenes)
        recognizer(frames[0])  # warm up
        totals, stages, cards = [], {}, []
        for frame in frames:
            observation = recognizer(frame)
            totals.append(observation.total_ms)
            cards.append(len(observation.cards))
            for stage, ms in observation.timings_ms.items():
                stages.setdefault(stage, []).append(ms)
        split = ", ".join(f"{stage} {statistics.median(ms):.1f}" for stage, ms in stages.items())
        print(f"{label}: median {statistics.median(totals):.1f} ms, p95 {sorted(totals)[int(0.95 * len(totals))]:.1f} ms "
              f"({statistics.mean(cards):.1f} cards a frame; median ms: {split})")


if __name__ == "__main__":
    main()
