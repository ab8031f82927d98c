"""Latency of the shipped card classifier: one batch of 16 or 32 crops, on 1 and 2 onnxruntime threads.

    python tests/benchmarks/bench_classifier.py [--model PATH] [--repeats 200] [--turn-below 0]

Prints the median and 90th percentile in milliseconds per batch (the deck prior is timed too: it runs once
per frame on the batch's probabilities). Record the numbers in the model card, not in tests. By default each crop is
read both ways up; ``--turn-below 0`` reads it once (random crops are doubtful to the classifier, so the live table's
0.9 would turn them all).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.assign import assign_cards
from vision.classifier import ALWAYS, CardClassifier


def timings_ms(run: object, repeats: int) -> np.ndarray:
    for _ in range(5):
        run()  # type: ignore[operator]
    out = np.empty(repeats)
    for i in range(repeats):
        start = time.perf_counter()
        run()  # type: ignore[operator]
        out[i] = 1000 * (time.perf_counter() - start)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--turn-below", type=float, default=ALWAYS, help="see vision.classifier (default: always)")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print(f"{'threads':>7} {'batch':>5} {'median ms':>10} {'p90 ms':>8} {'assign ms':>10}")
    for threads in (1, 2):
        classifier = CardClassifier(args.model, threads=threads, turn_below=args.turn_below)
        w, h = classifier.input_size
        for batch in (16, 32):
            crops = rng.integers(0, 256, (batch, h, w, 3), dtype=np.uint8)
            classify = timings_ms(lambda c=classifier, x=crops: c.classify(x), args.repeats)
            probs = classifier.classify(crops)
            assign = timings_ms(
                lambda c=classifier, p=probs: assign_cards(p, c.classes, c.class_cards), args.repeats // 4 or 1
            )
            print(f"{threads:>7} {batch:>5} {np.median(classify):>10.2f} {np.percentile(classify, 90):>8.2f} "
                  f"{np.median(assign):>10.2f}")


if __name__ == "__main__":
    main()
