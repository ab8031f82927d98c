"""``python -m datasets.scripted --seed 3 --out DIR``: render a scripted Koi-Koi round as a video (or an image
sequence) with the ground truth beside it: ``truth.jsonl`` (every frame: each card, its zone, quad and visible
share, and whether a hand is over the table) and ``script.json`` (deal, actions in order, result, zones)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from datasets.hanafuda.art import STYLES, TEST_STYLE
from datasets.scripted.output import parse_size, write_frames
from datasets.scripted.render import RenderConfig, ScriptRenderer
from datasets.scripted.script import ZONES, script_round


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m datasets.scripted", description=__doc__)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--size", type=parse_size, default=(1280, 720), help="WxH (default 1280x720)")
    parser.add_argument("--fps", type=float, default=30.0)
    parser.add_argument("--style", choices=STYLES, default=TEST_STYLE)
    parser.add_argument("--steps", type=int, help="only the first N steps of the round")
    parser.add_argument("--images", action="store_true", help="write frames/000000.png... instead of a video")
    args = parser.parse_args(argv)

    script = script_round(args.seed)
    if args.steps is not None:
        script = script.head(args.steps)
    renderer = ScriptRenderer(script, RenderConfig(size=args.size, fps=args.fps, style=args.style))
    try:
        count = write_frames(renderer.frames(), args.out, "round.avi", args.images, args.fps, args.size)
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    summary = {"seed": script.seed, "style": args.style, "size": list(args.size), "fps": args.fps, "frames": count,
               "dealer": script.dealer, "deal": script.deal, "hand_on_table": script.hand_on_table,
               "actions": [{"action": a, "player": p, "source": s} for a, p, s in script.actions],
               "result": script.result, "zones_mm": ZONES,
               "steps": [{"action": st.action, "player": st.player} for st in script.steps]}
    (args.out / "script.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    print(f"{count} frames, {len(script.camera_actions())} camera actions -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
