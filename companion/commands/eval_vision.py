"""``kibitz eval-vision DIR``: per-card precision and recall, exact images, a confusion matrix, latency."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    parser = sub.add_parser("eval-vision", help="score the recogniser on a folder of images with labels.csv")
    parser.add_argument("folder", metavar="DIR")
    parser.add_argument("--confusion", metavar="PNG", help="where to write the confusion matrix "
                        "(default: DIR/confusion.png)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--dominoes", choices=("chinese", "double-six"),
                        help="score the domino recogniser (labels.csv: image,tile; face-down tiles as back)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import cv2

    from companion.evaluation import Evaluation, confusion_image, read_labels
    from vision.classifier import CardClassifier
    from vision.imageio import ImageReadError, read_image
    from vision.recognizer import Recognizer

    folder = Path(args.folder)
    try:
        labels = read_labels(folder)
        optional = read_labels(folder, "optional.csv")
    except (OSError, ValueError) as exc:
        print(f"kibitz eval-vision: {exc}", file=sys.stderr)
        return 2
    evaluation = Evaluation()
    confusion_path = Path(args.confusion) if args.confusion else folder / "confusion.png"
    ours = {confusion_path.resolve(), (folder / "confusion.png").resolve()}  # an earlier run's matrix is no photo
    images = sorted(p.name for p in folder.iterdir()
                    if p.suffix.lower() in (".jpg", ".jpeg", ".png") and p.resolve() not in ours)
    if args.dominoes:
        from vision.dominoes.recognizer import DominoRecognizer

        read_tiles = DominoRecognizer.for_photos(args.dominoes)
    else:
        recognizer = Recognizer.for_photos(classifier=CardClassifier(threads=args.threads))
    for name in images:
        try:
            image = read_image(folder / name)
        except ImageReadError as exc:
            print(f"kibitz eval-vision: skipping {name}: {exc}", file=sys.stderr)
            continue
        if args.dominoes:
            tiles = read_tiles(image)
            evaluation.add(labels.get(name, []), tiles.labels(), tiles.total_ms)
            continue
        observation = recognizer(image)
        predicted = [card.label for card in observation.cards]
        evaluation.add(labels.get(name, []), predicted, observation.total_ms, optional.get(name, []))
    cv2.imwrite(str(confusion_path), confusion_image(evaluation))
    report = evaluation.summary()
    report["confusion_png"] = str(confusion_path)
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(format_report(report))
    return 0


def format_report(report: dict[str, Any]) -> str:
    lines = [
        f"{report['images']} images: precision {report['precision']:.4f}, recall {report['recall']:.4f}, "
        f"exactly right {report['exact_images']:.1%}",
        f"latency: median {report['ms_median']:.1f} ms, p95 {report['ms_p95']:.1f} ms",
        f"confusion matrix: {report['confusion_png']}",
        f"{'card':<26} {'precision':>9} {'recall':>7} {'n':>4}",
    ]
    for card, row in report["per_card"].items():
        lines.append(f"{card:<26} {row['precision']:>9.3f} {row['recall']:>7.3f} {row['support']:>4}")
    return "\n".join(lines)
