"""The command-line options every crop-model trainer shares (``train_refiner``, ``train_faces``): where the samples
are (rendered there first when none are), the run's budget and schedule, and where the model goes."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_run_options(parser: argparse.ArgumentParser, scenes: int, minutes: float) -> None:
    parser.add_argument("--data", type=Path, required=True, help="sample shards (rendered there when none)")
    parser.add_argument("--scenes", type=int, default=scenes, help="scenes to render when --data holds no samples")
    parser.add_argument("--data-seed", type=int, help="the renderer's seed (default: its own)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("models"))
    parser.add_argument("--minutes", type=float, default=minutes)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--val-share", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--checkpoint", type=Path, help="torch weights and summary: written after training")
    parser.add_argument("--export-only", action="store_true", help="export --checkpoint without training")


def render_arguments(args: argparse.Namespace) -> list[str]:
    """The sample renderer's command line for ``args``."""
    seed = [] if args.data_seed is None else ["--seed", str(args.data_seed)]
    return ["--out", str(args.data), "--scenes", str(args.scenes), "--workers", str(args.workers), *seed]
