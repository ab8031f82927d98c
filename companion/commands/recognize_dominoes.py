"""``kibitz recognize --dominoes chinese|double-six IMAGE... [--json] [--pip-total]``: the tiles in photos."""

from __future__ import annotations

import argparse
from typing import Any


def run_dominoes(args: argparse.Namespace) -> int:
    from companion.commands.recognize import recognize_all
    from vision.dominoes.recognizer import DominoRecognizer

    recognizer = DominoRecognizer.for_photos(args.dominoes)
    return recognize_all(recognizer, args.images, args.json, lambda result: format_tiles(result, args.pip_total))


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
