"""Command line: write synthetic hanafuda scenes (images + manifest + labels.csv) or classifier crops (.npz).

    python -m datasets.hanafuda.generate scenes --style mantia-modern --count 200 --seed 7 --out DIR [--light 0.3]
    python -m datasets.hanafuda.generate crops --styles mantia-alt,hwatu-richert --count 100000 --seed 1 --out F.npz

Scene ``i`` of a run is drawn from the seed sequence (seed, i), so any scene can be re-rendered on its own and
the output does not depend on ``--workers``.
"""

from __future__ import annotations

import argparse
import csv
import json
import multiprocessing
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, replace
from pathlib import Path

import cv2
import numpy as np

from datasets.hanafuda.art import STYLES, TRAIN_STYLES
from datasets.hanafuda.config import PRESETS, SceneConfig, preset
from datasets.hanafuda.crops import CropRules, render_crop_set, save_crops
from datasets.hanafuda.effects import WASHED_OUT
from datasets.hanafuda.scenes import BACK, BLANK, Scene, render_scene

MANIFEST, LABELS, OPTIONAL, SETTINGS = "manifest.jsonl", "labels.csv", "optional.csv", "dataset.json"


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 1280x720, got {text!r}") from None
    if w < 8 or h < 8:
        raise argparse.ArgumentTypeError(f"size {text!r} is too small")
    return w, h


def _styles(text: str) -> tuple[str, ...]:
    styles = tuple(s.strip() for s in text.split(",") if s.strip())
    bad = [s for s in styles if s not in STYLES]
    if bad or not styles:
        raise argparse.ArgumentTypeError(f"unknown style(s) {bad or text!r}; choose from {', '.join(STYLES)}")
    return styles


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m datasets.hanafuda.generate", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    scenes = sub.add_parser("scenes", help="photos of cards on tables, with per-card ground truth")
    scenes.add_argument("--style", type=_styles, required=True, help="art style(s), comma separated")
    scenes.add_argument("--count", type=int, required=True)
    scenes.add_argument("--seed", type=int, default=0)
    scenes.add_argument("--out", type=Path, required=True, help="output folder (must be empty or new)")
    scenes.add_argument("--size", type=_size, default=None, help="WxH, default from the preset (1280x720)")
    scenes.add_argument("--preset", choices=sorted(PRESETS), default="default")
    scenes.add_argument("--format", choices=("jpg", "png"), default="jpg")
    scenes.add_argument("--quality", type=int, default=95, help="JPEG quality of the written files")
    scenes.add_argument(
        "--label-min-visible",
        type=float,
        default=0.98,
        help="labels.csv lists cards not cut by the frame with at least this visible share (0.4 for piles)",
    )
    scenes.add_argument("--light", type=float, default=1.0,
                        help="each scene's light times this before it is written (0.3: a dim room; session 28)")
    scenes.add_argument("--workers", type=int, default=1)
    crops = sub.add_parser("crops", help="upright card crops and not-a-card crops for the classifier")
    crops.add_argument("--styles", type=_styles, default=TRAIN_STYLES, help="comma separated (default: training)")
    crops.add_argument("--count", type=int, required=True)
    crops.add_argument("--seed", type=int, default=0)
    crops.add_argument("--out", type=Path, required=True, help="an .npz file")
    crops.add_argument("--size", type=_size, default=(48, 80), help="crop WxH (default 48x80)")
    crops.add_argument("--views", type=int, default=CropRules.views, help="crops cut per rendered card")
    crops.add_argument("--workers", type=int, default=1)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.count < 0 or args.workers < 1:
        print("error: --count must be >= 0 and --workers >= 1", file=sys.stderr)
        return 2
    try:
        return write_scenes(args) if args.what == "scenes" else write_crops(args)
    except (FileExistsError, FileNotFoundError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


Job = tuple[int, int, SceneConfig]


def _scene_job(job: Job) -> Scene:
    seed, index, config = job
    cv2.setNumThreads(1)
    return render_scene(np.random.default_rng([seed, index]), config)


def write_scenes(args: argparse.Namespace) -> int:
    out: Path = args.out
    if out.exists() and any(out.iterdir()):
        raise FileExistsError(f"{out} is not empty; choose a new folder so nothing gets overwritten")
    if not 0.0 < args.light <= 4.0:
        raise ValueError(f"--light must be in (0, 4], got {args.light}")
    overrides = {"styles": args.style} | ({"size": args.size} if args.size else {})
    config = preset(args.preset, **overrides)
    out.mkdir(parents=True, exist_ok=True)
    settings = {"preset": args.preset, "seed": args.seed, "count": args.count, "config": _jsonable(asdict(config))}
    (out / SETTINGS).write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
    jobs = [(args.seed, i, config) for i in range(args.count)]
    started = time.perf_counter()
    with (out / MANIFEST).open("w", encoding="utf-8") as manifest, (out / LABELS).open("w", newline="") as labels, \
            (out / OPTIONAL).open("w", newline="") as optional:
        table, maybe = csv.writer(labels), csv.writer(optional)
        table.writerow(["image", "card"])
        maybe.writerow(["image", "card"])
        for i, scene in enumerate(_map(_scene_job, jobs, args.workers)):
            name = f"scene_{i:05d}.{args.format}"
            params = [cv2.IMWRITE_JPEG_QUALITY, args.quality] if args.format == "jpg" else []
            image = scene.image if args.light == 1.0 else cv2.convertScaleAbs(scene.image, alpha=args.light)
            if not cv2.imwrite(str(out / name), image, params):
                raise OSError(f"could not write {out / name}")
            manifest.write(json.dumps(_manifest_line(name, args.seed, i, scene)) + "\n")
            for label, vis, cut, washed in zip(scene.labels, scene.visible, scene.cut, scene.washed, strict=True):
                listed = listing(label, float(vis), bool(cut), float(washed), args.label_min_visible)
                if listed is not None:
                    (table if listed == LABELS else maybe).writerow([name, label])
    elapsed = time.perf_counter() - started
    print(f"wrote {args.count} scenes to {out} in {elapsed:.1f} s ({args.count / max(elapsed, 1e-9):.2f} scenes/s)")
    return 0


def listing(label: str, visible: float, cut: bool, washed: float, min_visible: float) -> str | None:
    """Where a card of a scene is listed: ``labels.csv`` (it must be named), ``optional.csv`` (cut by the frame,
    mostly covered or washed out by glare: naming it right is no error, a wrong name is one) or nowhere (a blank, or
    a card wholly hidden)."""
    if label == BLANK or visible <= 0:
        return None
    return LABELS if not cut and visible >= min_visible and washed < WASHED_OUT else OPTIONAL


def _manifest_line(name: str, seed: int, index: int, scene: Scene) -> dict[str, object]:
    return {
        "image": name,
        "seed": [seed, index],
        "width": int(scene.image.shape[1]),
        "height": int(scene.image.shape[0]),
        "style": scene.style,
        "layout": scene.layout,
        "cards": scene.records(),
        "backs": sum(1 for label in scene.labels if label == BACK),
        "props": [
            {
                "kind": p.kind,
                "polygon": np.round(p.polygon, 1).tolist(),
                **({"art_quad": np.round(p.art_quad, 2).tolist()} if p.art_quad is not None else {}),
            }
            for p in scene.props
        ],
    }


def write_crops(args: argparse.Namespace) -> int:
    out: Path = args.out
    if out.suffix != ".npz":
        raise ValueError(f"crops go to an .npz file, got {out}")
    if out.exists():
        raise FileExistsError(f"{out} exists; choose a new file so nothing gets overwritten")
    rules = replace(CropRules(), views=args.views)
    started = time.perf_counter()
    crops = render_crop_set(args.count, args.seed, args.styles, args.size, rules=rules, workers=args.workers)
    elapsed = time.perf_counter() - started
    meta = {"styles": list(args.styles), "seed": args.seed, "size": list(args.size), "rules": _jsonable(asdict(rules))}
    save_crops(out, crops, meta)
    rate = args.count / max(elapsed, 1e-9)
    print(f"wrote {args.count} crops to {out} in {elapsed:.1f} s ({rate:.0f} crops/s with {args.workers} worker(s))")
    return 0


def _map(func: Callable[[Job], Scene], jobs: list[Job], workers: int) -> Iterator[Scene]:
    """Scenes in job order, made in this process or by a pool of ``workers``."""
    if workers <= 1:
        yield from map(func, jobs)
        return
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield from pool.imap(func, jobs, chunksize=2)


def _jsonable(value: object) -> object:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


if __name__ == "__main__":
    sys.exit(main())
