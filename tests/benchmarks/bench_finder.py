"""Card finder benchmark: classical vs learned, latency and recall/precision on synthetic scenes with truth.

    python -m tests.benchmarks.bench_finder --scenes 40                      # both finders, the three main sets
    python -m tests.benchmarks.bench_finder --finder learned --preset piles --save /tmp/kibitz-finder

Runs on ONE core (OpenCV and onnxruntime threads = 1), as the latency budget is stated. Scenes come from the
held-out art style at full resolution. Scoring (``datasets.training.finder_eval``): a card must be found when
it is fully visible (visible >= 0.98, not cut by the frame); it is found at IoU >= 0.5 (tight at >= 0.9). A
detection is a false positive when it overlaps no card at all -- a hand, a phone, the art on a card box.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import cv2

from datasets.training.finder_eval import SCENE_SETS, Finder, evaluate
from vision.finder import CardFinder
from vision.finder_learned import LearnedFinder

FINDERS: dict[str, Callable[[int], Finder]] = {
    "classical": lambda threads: CardFinder(),
    "learned": lambda threads: LearnedFinder(threads=threads),
    "learned-raw": lambda threads: LearnedFinder(threads=threads, refine=False),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--preset", choices=sorted(SCENE_SETS), action="append")
    parser.add_argument("--finder", choices=sorted(FINDERS), action="append")
    parser.add_argument("--scenes", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--save", type=Path, help="write scenes with misses or false positives here")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    cv2.setNumThreads(args.threads)
    for name in args.preset or ["720p-16", "1080p-mat", "piles"]:
        for kind in args.finder or ["classical", "learned"]:
            tally = evaluate(FINDERS[kind](args.threads), name, args.scenes, args.seed, args.save, kind)
            print(tally.report(f"{kind}/{name}"), flush=True)


if __name__ == "__main__":
    main()
