"""``kibitz mat --game koikoi --paper a3|a4 --out FILE``: a printable play mat with ArUco markers."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(sub: Any) -> None:
    parser = sub.add_parser("mat", help="render a printable play mat (PNG at 300 dpi, or PDF)")
    parser.add_argument("--game", default="koikoi", choices=("koikoi",))
    parser.add_argument("--paper", default="a3", choices=("a3", "a4"))
    parser.add_argument("--dpi", type=float, default=300.0)
    parser.add_argument("--out", required=True, help="FILE.png or FILE.pdf")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from vision.mat import write_mat

    if not args.out.lower().endswith((".png", ".pdf")):
        print("kibitz mat: --out must end in .png or .pdf", file=sys.stderr)
        return 2
    try:
        path = write_mat(args.out, args.game, args.paper, args.dpi)
    except OSError as exc:
        print(f"kibitz mat: cannot write {args.out}: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {path} ({args.game} mat, {args.paper.upper()}, {args.dpi:.0f} dpi)")
    return 0
