"""``python -m datasets.scripted.domino_video --seed 3 --out DIR``: render a scripted domino deal as a video (or an
image sequence) with the ground truth beside it: ``truth.jsonl`` (every frame: each tile, its zone, quad and
visible share, and whether a hand is over the table) and ``script.json`` (actions in order, result)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from datasets.dominoes.styles import STYLES, TEST_STYLE
from datasets.scripted.domino_render import DominoRenderer
from datasets.scripted.dominoes import DominoScriptConfig, script_deal
from datasets.scripted.output import parse_size, write_frames
from datasets.scripted.render import RenderConfig


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m datasets.scripted.domino_video", description=__doc__)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--game", choices=("jielong", "cedeng", "kkori"), default="jielong")
    parser.add_argument("--size", type=parse_size, default=(1280, 720), help="WxH (default 1280x720)")
    parser.add_argument("--fps", type=float, default=30.0)
    parser.add_argument("--style", choices=STYLES, default=TEST_STYLE, help="tile style (default: held out)")
    parser.add_argument("--hand-on-table", action="store_true", help="lay the user's tiles out face up")
    parser.add_argument("--images", action="store_true", help="write frames/000000.png... instead of a video")
    args = parser.parse_args(argv)

    script = script_deal(args.seed, args.game, config=DominoScriptConfig(hand_on_table=float(args.hand_on_table)))
    renderer = DominoRenderer(script, RenderConfig(size=args.size, fps=args.fps), tile_style=args.style)
    try:
        count = write_frames(renderer.frames(), args.out, "deal.avi", args.images, args.fps, args.size)
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    summary = {"seed": script.seed, "game": script.game, "players": script.players, "leader": script.leader,
               "style": args.style, "size": list(args.size), "fps": args.fps, "frames": count,
               "hand": script.hand, "hand_on_table": script.hand_on_table,
               "actions": [{"action": a, "player": p, "source": s} for a, p, s in script.actions],
               "result": script.result}
    (args.out / "script.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    print(f"{count} frames, {len(script.camera_actions())} camera actions -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
