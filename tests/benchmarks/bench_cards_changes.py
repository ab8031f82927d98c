"""The still-photo card recogniser on held-out scenes changed as a phone or a room would change them: found and
named / named right / scenes exactly right under each change.

    python -m datasets.hanafuda.generate scenes --style mantia-modern --preset default --seed 7000 --count 100 --out DIR
    python -m tests.benchmarks.bench_cards_changes DIR [CHANGE ...]

``DIR`` is a folder ``generate scenes`` wrote (images, ``labels.csv``, ``optional.csv``), scored as ``kibitz
eval-vision`` scores it. Each image is changed (``image_changes``: turned, rescaled, dimmed, tinted, blurred,
compressed, slanted) and saved again as JPEG quality 95 before it is read, as a phone would store it; ``as-taken`` is
only saved again, the baseline the others compare with. Figures: README, *Hanafuda vision: where it stands*,
sessions 28 and 29.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from companion.evaluation import Evaluation, read_labels
from tests.benchmarks.image_changes import CHANGES
from vision.imageio import read_image
from vision.recognizer import Recognizer

QUALITY = 95


def saved_again(image: np.ndarray) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
    if not ok:
        raise ValueError("could not encode the changed image")
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, metavar="DIR", help="a folder written by generate scenes")
    parser.add_argument("changes", nargs="*", help=f"of {', '.join(CHANGES)} (default: all)")
    args = parser.parse_args()
    changes = args.changes or list(CHANGES)
    if unknown := set(changes) - set(CHANGES):
        parser.error(f"unknown changes {sorted(unknown)}; choose from {', '.join(CHANGES)}")
    labels, optional = read_labels(args.folder), read_labels(args.folder, "optional.csv")
    names = sorted(p.name for p in args.folder.iterdir() if p.suffix.lower() in (".jpg", ".png") and
                   p.name != "confusion.png")
    if not names:
        parser.error(f"{args.folder} holds no scenes")
    recognizer = Recognizer.for_photos()
    print(f"{len(names)} scenes of {args.folder}; found and named / named right / scenes exactly right")
    for change in changes:
        evaluation = Evaluation()
        for name in names:
            observation = recognizer(saved_again(CHANGES[change](read_image(args.folder / name))))
            evaluation.add(labels.get(name, []), [card.label for card in observation.cards], observation.total_ms,
                           optional.get(name, []))
        report = evaluation.summary()
        print(f"{change:11s} {report['recall']:6.1%} / {report['precision']:6.1%} / {report['exact_images']:6.1%}",
              flush=True)


if __name__ == "__main__":
    main()
