"""``kibitz recognize --dominoes chinese|double-six IMAGE... [--json] [--pip-total]``: the tiles in photos."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from vision.imageio import ImageReadError, read_image


def run_dominoes(args: argparse.Namespace) -> int:
    from vision.dominoes.recognizer import DominoRecognizer

    recognizer = DominoRecognizer(args.dominoes)
    results: list[dict[str, Any]] = []
    failed = False
    for path in args.images:
        try:
            observation = recognizer(read_image(path))
        except ImageReadError as exc:
            failed = True
            print(f"kibitz recognize: {exc}", file=sys.stderr)
            results.append({"image": path, "error": str(exc)})
            continue
        results.append(observation.to_dict(path))
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        for result in results:
            print(format_tiles(result, args.pip_total))
    return 1 if failed else 0


def format_tiles(result: dict[str, Any], pip_total: bool = False) -> str:
    if "error" in result:
        return f"{result['image']}: error: {result['error']}"
    codes = [t["tile"] or "unreadable" for t in result["tiles"]]
    names = ", ".join(codes) or "no tiles"
    extra = f"; {result['face_down']} face down" if result["face_down"] else ""
    if pip_total:
        warning = " (face-down tiles not counted)" if result["face_down"] else ""
        return f"{result['image']}: {result['pip_total']} pips: {names}{extra}{warning} ({result['ms']:.0f} ms)"
    return f"{result['image']}: {names}{extra} ({result['ms']:.0f} ms)"
