"""The still-photo domino recogniser on the shared real photos changed as a phone or a room would change them: how
many of the 22 still read exactly under each change.

    python -m tests.benchmarks.bench_dominoes_photos [CHANGE ...]

The final test of issue 8 uses real photos we never see; the 22 in ``dev-photos/`` read exactly as taken, and
these changes (turned, rescaled, dimmed, tinted, blurred, compressed, slanted: ``image_changes``) show how far that
holds. Labels: ``tests/vision/data/domino_dev_labels.csv``. Figures: README, *Domino vision*, sessions 28 and 29.
"""

from __future__ import annotations

import argparse
import csv
from collections import Counter, defaultdict
from pathlib import Path

from datasets.hanafuda.art import shared_data_dir
from tests.benchmarks.image_changes import CHANGES
from vision.dominoes import DominoRecognizer
from vision.imageio import read_image

LABELS = Path(__file__).parents[1] / "vision" / "data" / "domino_dev_labels.csv"


def _labels() -> dict[str, Counter[str]]:
    out: dict[str, Counter[str]] = defaultdict(Counter)
    with LABELS.open(newline="") as handle:
        for row in csv.DictReader(handle):
            out[row["image"]][row["tile"]] += 1
    return dict(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("changes", nargs="*", help=f"of {', '.join(CHANGES)} (default: all)")
    args = parser.parse_args()
    changes = args.changes or list(CHANGES)
    if unknown := set(changes) - set(CHANGES):
        parser.error(f"unknown changes {sorted(unknown)}; choose from {', '.join(CHANGES)}")
    root = shared_data_dir()
    recognizer = DominoRecognizer.for_photos("double-six")
    labels = _labels()
    photos = {name: read_image(root / name) for name in sorted(labels)}
    total = 0
    for change in changes:
        misses = []
        for name, image in photos.items():
            got = Counter(recognizer(CHANGES[change](image)).labels())
            if got != labels[name]:
                wrong = f"missing {dict(labels[name] - got)}, extra {dict(got - labels[name])}"
                misses.append(f"{Path(name).name[:24]} ({wrong})")
        right = len(photos) - len(misses)
        total += right
        print(f"{change:11s} {right:2d}/{len(photos)}" + (f"  {'; '.join(misses)}" if misses else ""), flush=True)
    print(f"all changes: {total}/{len(photos) * len(changes)} photos read exactly")


if __name__ == "__main__":
    main()
