"""``python -m datasets.scripted.domino_video --seed 3 --out DIR``: render a scripted domino deal as a video (or an
image sequence) with the ground truth beside it: ``truth.jsonl`` (every frame: each tile, its zone, quad and
visible share, and whether a hand is over the table) and ``script.json`` (actions in order, result)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import cv2

from datasets.dominoes.styles import STYLES, TEST_STYLE
from datasets.scripted.domino_render import DominoRenderer
from datasets.scripted.dominoes import DominoScriptConfig, script_deal
from datasets.scripted.render import RenderConfig


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"size must look like 1280x720, not {text!r}") from exc
    return w, h


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m datasets.scripted.domino_video", description=__doc__)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--game", choices=("jielong", "cedeng", "kkori"), default="jielong")
    parser.add_argument("--size", type=_size, default=(1280, 720), help="WxH (default 1280x720)")
    parser.add_argument("--fps", type=float, default=30.0)
    parser.add_argument("--style", choices=STYLES, default=TEST_STYLE, help="tile style (default: held out)")
    parser.add_argument("--hand-on-table", action="store_true", help="lay the user's tiles out face up")
    parser.add_argument("--images", action="store_true", help="write frames/000000.png... instead of a video")
    args = parser.parse_args(argv)

    script = script_deal(args.seed, args.game, config=DominoScriptConfig(hand_on_table=float(args.hand_on_table)))
    renderer = DominoRenderer(script, RenderConfig(size=args.size, fps=args.fps), tile_style=args.style)
    args.out.mkdir(parents=True, exist_ok=True)
    writer = None
    if args.images:
        (args.out / "frames").mkdir(exist_ok=True)
    else:
        writer = cv2.VideoWriter(str(args.out / "deal.avi"), cv2.VideoWriter_fourcc(*"MJPG"), args.fps, args.size)
        if not writer.isOpened():
            print("error: OpenCV cannot write an MJPG video here; use --images", file=sys.stderr)
            return 1
    count = 0
    with (args.out / "truth.jsonl").open("w", encoding="utf-8") as truth_file:
        for frame, truth in renderer.frames():
            if writer is not None:
                writer.write(frame)
            else:
                cv2.imwrite(str(args.out / "frames" / f"{truth.index:06d}.png"), frame)
            truth_file.write(json.dumps(truth.to_json()) + "\n")
            count += 1
    if writer is not None:
        writer.release()
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
