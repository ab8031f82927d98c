"""``kibitz recognize IMAGE... [--json] [--mat a3|a4]``: the cards in photos of a table."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from vision.imageio import ImageReadError, read_image


def register(sub: Any) -> None:
    parser = sub.add_parser("recognize", help="name the cards in photos of a table")
    parser.add_argument("images", nargs="+", metavar="IMAGE")
    parser.add_argument("--json", action="store_true", help="print a JSON array, one object per image")
    parser.add_argument("--mat", choices=("a3", "a4"), help="the printed Koi-Koi mat in view (zones in mm)")
    parser.add_argument("--threads", type=int, default=1, help="onnxruntime threads (default: %(default)s)")
    parser.add_argument("--dominoes", choices=("chinese", "double-six"),
                        help="read domino tiles of this set instead of cards")
    parser.add_argument("--pip-total", action="store_true",
                        help="with --dominoes: a player's turned-over tiles; print their pip total")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.dominoes:
        from companion.commands.recognize_dominoes import run_dominoes

        return run_dominoes(args)
    if args.pip_total:
        print("kibitz recognize: --pip-total needs --dominoes chinese|double-six", file=sys.stderr)
        return 2
    from vision.classifier import CardClassifier
    from vision.mat import mat_layout
    from vision.recognizer import Recognizer

    mat = mat_layout("koikoi", args.mat) if args.mat else None
    recognizer = Recognizer.for_photos(classifier=CardClassifier(threads=args.threads), mat=mat)
    return recognize_all(recognizer, args.images, args.json, format_result)


def recognize_all(recognize: Callable[[Any], Any], images: list[str], as_json: bool,
                  describe: Callable[[dict[str, Any]], str]) -> int:
    """Each image in order: its observation as a dict (or its error); JSON or one line each. 1 if any failed."""
    results: list[dict[str, Any]] = []
    failed = False
    for path in images:
        try:
            observation = recognize(read_image(path))
        except ImageReadError as exc:
            failed = True
            print(f"kibitz recognize: {exc}", file=sys.stderr)
            results.append({"image": path, "error": str(exc)})
            continue
        results.append(observation.to_dict(path))
    if as_json:
        print(json.dumps(results, indent=1))
    else:
        for result in results:
            print(describe(result))
    return 1 if failed else 0


def format_result(result: dict[str, Any]) -> str:
    if "error" in result:
        return f"{result['image']}: error: {result['error']}"
    cards = [c for c in result["cards"] if c["card"] not in ("back", "unknown")]
    names = ", ".join(f"{c['card']}" + (f" [{c['zone']}]" if c["zone"] else "") for c in cards) or "no cards"
    unknown = sum(1 for c in result["cards"] if c["card"] == "unknown")
    extra = f"; {result['backs']} face down" if result["backs"] else ""
    extra += f"; {unknown} unreadable" if unknown else ""
    return f"{result['image']}: {names}{extra} ({result['ms']:.0f} ms)"
