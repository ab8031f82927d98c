"""The whole recogniser on one core: ms per frame and the split between finding, warping and classifying.

    python -m tests.benchmarks.bench_recognizer [--scenes N] [--second-look]

Targets (issue 3): at most 30 ms for a 1280x720 frame with about 16 cards, 60 ms at 1920x1080.
Frames are rendered from the held-out art style with the generator's presets. ``--second-look`` times the
recogniser as still photos run it (``kibitz recognize``), with the second look at unnamed pile cards.
"""

from __future__ import annotations

import argparse
import os
import statistics

import numpy as np

from datasets.hanafuda import TEST_STYLE, preset, render_scene
from vision.classifier import CardClassifier
from vision.recognizer import Recognizer

SETS = {
    "1280x720 scattered": dict(name="default", size=(1280, 720)),
    "1920x1080 whole mat": dict(name="whole-mat", size=(1920, 1080)),
}


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
    recognizer = make(classifier=CardClassifier(threads=1))
    for label, spec in SETS.items():
        config = preset(spec["name"], styles=(TEST_STYLE,), size=spec["size"])
        frames = [render_scene(np.random.default_rng([2027, i]), config) for i in range(args.scenes)]
        recognizer(frames[0].image)  # warm up
        totals, stages, cards = [], {}, []
        for scene in frames:
            observation = recognizer(scene.image)
            totals.append(observation.total_ms)
            cards.append(len(observation.cards))
            for stage, ms in observation.timings_ms.items():
                stages.setdefault(stage, []).append(ms)
        split = ", ".join(f"{stage} {statistics.median(ms):.1f}" for stage, ms in stages.items())
        print(f"{label}: median {statistics.median(totals):.1f} ms, p95 {sorted(totals)[int(0.95 * len(totals))]:.1f} ms "
              f"({statistics.mean(cards):.1f} cards a frame; median ms: {split})")


if __name__ == "__main__":
    main()
