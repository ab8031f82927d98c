"""The domino recogniser on one core: ms per 1280x720 frame with 12 tiles, and the split between stages.

    python -m tests.benchmarks.bench_dominoes [--scenes N] [--no-refiner]

Target (issue 8): at most 30 ms for a 1280x720 frame with 12 tiles. Frames are rendered from the held-out
style (the shared Chinese art) and a European style, 12 tiles scattered on the table. Wall time and the
process's CPU time are both printed: on a shared, loaded machine the CPU time is the fairer figure.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from datasets.dominoes.scenes import DominoSceneConfig, render_scene
from vision.dominoes.recognizer import DominoRecognizer

STYLES = {"paigow-art": "chinese", "european-white": "double-six"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=20)
    parser.add_argument("--no-refiner", action="store_true", help="the finder's quads as they are (no TileRefiner)")
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    import cv2

    cv2.setNumThreads(1)
    for style, tile_set in STYLES.items():
        config = DominoSceneConfig(size=(1280, 720), styles=(style,), layouts={"scattered": 1.0}, tiles=(12, 12),
                                   tile_length=(0.16, 0.2))
        recognizer = DominoRecognizer(tile_set, refiner=not args.no_refiner)
        frames = [render_scene(np.random.default_rng([99, i]), config).image for i in range(args.scenes)]
        recognizer(frames[0])  # warm-up
        totals, cpu, stages = [], [], {"find": [], "read": [], "resolve": []}
        for frame in frames:
            t0, c0 = time.perf_counter(), time.process_time()
            seen = recognizer(frame)
            totals.append((time.perf_counter() - t0) * 1e3)
            cpu.append((time.process_time() - c0) * 1e3)
            for name in stages:
                stages[name].append(seen.timings_ms[name])
        split = ", ".join(f"{k} {statistics.median(v):.1f}" for k, v in stages.items())
        print(f"{style:15s} 1280x720, 12 tiles: median {statistics.median(totals):.1f} ms, "
              f"p95 {np.percentile(totals, 95):.1f} ms ({split}); CPU time median {statistics.median(cpu):.1f} ms")


if __name__ == "__main__":
    main()
