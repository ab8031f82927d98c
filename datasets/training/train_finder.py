"""Train a learned finder and write models/card-finder.{onnx,md} (or domino-finder.{onnx,md} with --scenes dominoes).

    python -m datasets.training.train_finder --out models/ [--minutes 35] [--seed 0]
    python -m datasets.training.train_finder --scenes dominoes --out models/ --minutes 25
    python -m datasets.training.train_finder --scenes dominoes --out /tmp --device cuda --workers 9 --batch 32 \
        --checkpoint out/domino.pt  # then here: --scenes dominoes --out models/ --publish-from out/domino.pt
    python -m datasets.training.train_finder --out /tmp --device cuda --workers 8 --batch 32 --short-side 384 \
        --init models/card-finder.onnx --checkpoint out/cards.pt  # fine-tune the shipped finder at a finer input
    python -m datasets.training.train_finder ... --width 2 --init models/card-finder.onnx \
        --mix default=0.45,piles=0.2,whole-mat=0.2,close-up=0.1,clean=0.05  # widened, more close-ups

Needs ``pip install .[train]`` and the shared data (../shared/data). One background process renders scenes
at the network's input size while this process trains on one thread (the 2-core budget); at the end the model
is exported to ONNX, checked against torch, evaluated on the held-out style and described in its model card.
What is found (cards, domino tiles) is a ``FinderTask`` (``finder_tasks``): same network, loss and export.
"""

from __future__ import annotations

import argparse
import math
import platform
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from datasets.hanafuda.config import PRESETS
from datasets.training.finder_data import CARD_SCENES, IGNORE_VISIBLE, MIN_VISIBLE, SceneStream, card_scene
from datasets.training.finder_eval import calibrate, evaluate
from datasets.training.finder_export import (
    SHORT_SIDE,
    export_finder,
    finder_metadata,
    max_export_error,
    write_model_card,
)
from datasets.training.finder_net import LEVELS, NECK_CHANNELS, OFFSET_UNIT, FinderNet, normalise, widen, widened
from datasets.training.finder_onnx import finder_from_onnx, recalibrate
from datasets.training.finder_tasks import TASKS, FinderTask, finder_task
from datasets.training.net import count_macs, count_parameters

WARMUP = 0.03
Log = Callable[[str], None]


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True, help="folder for the .onnx and .md files")
    parser.add_argument("--scenes", choices=sorted(TASKS), default="cards", help="what the finder finds")
    parser.add_argument("--minutes", type=float, default=35.0, help="wall-clock budget of the training loop")
    parser.add_argument("--steps", type=int, default=None, help="train exactly this many steps instead")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1, help="rendering processes (the trainer uses 1 core)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads of the trainer")
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--lr", type=float, default=4e-3)
    parser.add_argument("--capacity", type=int, default=1500, help="replay buffer size in frames")
    parser.add_argument("--eval-scenes", type=int, default=15, help="held-out scenes per set for the model card")
    parser.add_argument("--calibration-scenes", type=int, default=40, help="training-style scenes to set the threshold")
    parser.add_argument("--init", type=Path, default=None,
                        help="start from these weights (fine-tuning): a --checkpoint file, or a shipped .onnx")
    parser.add_argument("--short-side", type=int, default=SHORT_SIDE,
                        help="network input's short side, px (a multiple of 32; the metadata tells the runtime)")
    parser.add_argument("--publish-from", type=Path, default=None,
                        help="skip training: export, evaluate and describe this checkpoint (from --checkpoint)")
    parser.add_argument("--checkpoint", type=Path, default=None, help="also save the torch weights here")
    parser.add_argument("--device", default="cpu", help="torch device of the trainer (cpu, or cuda on a GPU machine)")
    parser.add_argument("--mix", type=preset_mix, default=None,
                        help="cards only: the scene presets' shares, e.g. default=0.45,close-up=0.1 (default: "
                             "finder_data.PRESET_MIX)")
    parser.add_argument("--width", type=float, default=1.0,
                        help="scale every layer's channels (1: the shipped size; wider for a GPU machine)")
    return parser.parse_args(argv)


def preset_mix(text: str) -> dict[str, float]:
    """``--mix``: "name=share,..." over the scene generator's presets."""
    mix = {}
    for part in text.split(","):
        name, _, share = part.partition("=")
        if name.strip() not in PRESETS:
            raise argparse.ArgumentTypeError(f"unknown preset {name.strip()!r}; choose from {', '.join(PRESETS)}")
        try:
            mix[name.strip()] = float(share)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{part!r} is not name=share") from None
    if any(v < 0 for v in mix.values()) or not sum(mix.values()) > 0:
        raise argparse.ArgumentTypeError(f"the shares of {text!r} must be >= 0 and not all 0")
    return mix


def mix_words(mix: dict[str, float]) -> str:
    """A ``--mix`` as the model card says it: "default 45%, close-up 10%, ..." (shares of their sum)."""
    return ", ".join(f"{name} {share / sum(mix.values()):.0%}" for name, share in mix.items())


def learning_rate(base: float, progress: float) -> float:
    """Linear warm-up, then cosine decay to 2% of the base over the run."""
    if progress < WARMUP:
        return base * progress / WARMUP
    return base * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * min(1.0, (progress - WARMUP) / (1 - WARMUP)))))


def focal_loss(logits: torch.Tensor, heat: torch.Tensor, ignore: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss, per card centre."""
    pos = heat >= 0.999
    log_p, log_not_p = F.logsigmoid(logits), F.logsigmoid(-logits)
    p = torch.sigmoid(logits)
    pos_loss = -(log_p * (1 - p) ** 2)[pos].sum()
    neg = ~pos & ~ignore
    neg_loss = -(log_not_p * p**2 * (1 - heat) ** 4)[neg].sum()
    return (pos_loss + neg_loss) / pos.sum().clamp(min=1)


def corner_loss(pred: torch.Tensor, target: torch.Tensor, weight: torch.Tensor, short: torch.Tensor) -> torch.Tensor:
    """L1 of the corners over the card's short side; the better of the two 180-degree-equivalent corner orders."""
    b, _, h, w = target.shape
    turned = target.view(b, 4, 2, h, w).roll(2, dims=1).view(b, 8, h, w)
    pred_px = pred * OFFSET_UNIT
    error = torch.minimum((pred_px - target).abs().sum(1), (pred_px - turned).abs().sum(1)) / short
    return (error * weight).sum() / weight.sum().clamp(min=1)


def visible_loss(logits: torch.Tensor, visible: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    bce = F.binary_cross_entropy_with_logits(logits, visible, reduction="none")
    return (bce * weight).sum() / weight.sum().clamp(min=1)


def losses(net: FinderNet, batch: dict[str, np.ndarray], device: str = "cpu") -> dict[str, torch.Tensor]:
    t = {k: torch.from_numpy(v).to(device) for k, v in batch.items()}
    heat_logits, corners, visible = net(normalise(t["images"]))
    weight = t["weight"].float()
    return {
        "heat": focal_loss(heat_logits[:, 0], t["heat"].float(), t["ignore"]),
        "corners": corner_loss(corners, t["corners"].float(), weight, t["short"].float()),
        "visible": visible_loss(visible[:, 0], t["visible"].float(), weight),
    }


def input_size(short_side: int) -> tuple[int, int]:
    """(W, H) of a 16:9 training frame with this short side, both multiples of the network's deepest stride."""
    if short_side % 32 or short_side < 64:
        raise ValueError(f"--short-side must be a multiple of 32 from 64 up, not {short_side}")
    return 32 * round(short_side * 16 / 9 / 32), short_side


def finder_from_checkpoint(saved: dict[str, Any]) -> FinderNet:
    """The network of a checkpoint this trainer saved (finders saved before session 19 are all of width 1)."""
    net = FinderNet(float(saved.get("width", 1.0)))
    net.load_state_dict(saved["state_dict"])
    return net


def initial_net(init: Path | None, width: float = 1.0) -> tuple[FinderNet, bool]:
    """The network to start from, and whether its batch norms still need the statistics of real frames. A
    narrower network is widened (``widen``: the same function, room to learn more); a wider one is an error."""
    if init is None:
        return FinderNet(width), False
    net = finder_from_onnx(init) if init.suffix == ".onnx" else finder_from_checkpoint(torch.load(init))
    if net.width > width:
        raise ValueError(f"{init} is a finder of width {net.width:g}, wider than {width:g}: it cannot be narrowed")
    return (widen(net, width) if net.width < width else net), init.suffix == ".onnx"


def train(args: argparse.Namespace, log: Log) -> tuple[FinderNet, dict[str, float]]:
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    torch.backends.cudnn.benchmark = True  # one input size all run long
    rng = np.random.default_rng(args.seed)
    net, needs_statistics = initial_net(args.init, args.width)
    net.to(args.device)
    optimiser = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    task = finder_task(args.scenes)
    if args.mix is not None and task.scenes != CARD_SCENES:
        raise ValueError("--mix is for the card finder's scenes (presets of datasets.hanafuda)")
    scenes = task.scenes if args.mix is None else partial(card_scene, mix=args.mix)
    stream = SceneStream(task.train_styles, args.seed, args.workers, args.capacity, scenes=scenes,
                         size=input_size(args.short_side))
    try:
        stream.pull(block_until=min(args.capacity, 48))
        if needs_statistics:
            recalibrate(net, stream.images[:stream.filled])
        start = time.monotonic()
        budget = args.minutes * 60
        step = 0
        history: list[list[float]] = []
        while True:
            progress = step / args.steps if args.steps else (time.monotonic() - start) / budget
            if progress >= 1:
                break
            for group in optimiser.param_groups:
                group["lr"] = learning_rate(args.lr, progress)
            parts = losses(net, stream.batch(args.batch, rng), args.device)
            loss = parts["heat"] + 2.0 * parts["corners"] + 0.5 * parts["visible"]
            optimiser.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 5.0)
            optimiser.step()
            history.append([float(v.item()) for v in parts.values()])
            step += 1
            if step % 100 == 0:
                heat, corners, visible = np.mean(history[-100:], axis=0)
                log(f"step {step} {(time.monotonic() - start) / 60:.1f} min heat {heat:.3f} corners {corners:.3f} "
                    f"visible {visible:.3f} lr {optimiser.param_groups[0]['lr']:.2e} "
                    f"buffer {stream.filled} rendered {stream.rendered}")
                if args.checkpoint and step % 500 == 0:  # a model to look at while the run goes on
                    torch.save({"state_dict": {k: v.cpu() for k, v in net.state_dict().items()}, "step": step,
                                "width": net.width}, args.checkpoint)
        stats = {"steps": step, "rendered": stream.rendered, "minutes": (time.monotonic() - start) / 60}
    finally:
        stream.close()
    net.cpu().eval()
    return net, stats


def latency_lines(finder: Any, frames: list[np.ndarray]) -> list[str]:
    """Median and p95 ms of the whole finder call (resize, network, decode, refit) per frame size."""
    lines = []
    for frame in frames:
        for _ in range(3):
            finder(frame)
        times = []
        for _ in range(20):
            start = time.perf_counter()
            finder(frame)
            times.append((time.perf_counter() - start) * 1000)
        h, w = frame.shape[:2]
        lines.append(f"- {w}x{h}, {finder.threads} thread: median {np.median(times):.1f} ms, "
                     f"p95 {np.percentile(times, 95):.1f} ms (resize + network + decode + refit)")
    return lines


def publish(net: FinderNet, stats: dict[str, float], args: argparse.Namespace, command: str, log: Log) -> None:
    """Export to ONNX, check it against torch, evaluate on the held-out style, write the model card."""
    task: FinderTask = finder_task(args.scenes)
    test = (task.test_style,)
    summary = {"seed": args.seed, "train_styles": list(task.train_styles), "held_out_style": task.test_style,
               "command": command, **stats}
    path = args.out / f"{task.model}.onnx"

    def metadata(**extra: Any) -> dict[str, Any]:
        return finder_metadata(task=task.model, what=task.what, training=summary, short_side=args.short_side,
                               **extra)

    export_finder(net, path, metadata())
    probes = [task.scene(task.probe_set, test, i, input_size(args.short_side)).image for i in range(3)]
    error = max_export_error(net, path, np.stack(probes))
    log(f"exported {path} ({path.stat().st_size / 1024:.0f} KB), max |onnx - torch| {error:.1e}")
    if error > 1e-2:
        raise RuntimeError(f"onnxruntime and torch disagree by {error}; not writing the model card")
    thresholds = calibrate(task.open_finder(path), args.calibration_scenes, scene_of=task.scene,
                           names=task.calibration_sets, styles=task.train_styles)
    log(f"thresholds {thresholds} (calibrated on {args.calibration_scenes} training-style scenes)")
    export_finder(net, path, metadata(thresholds=thresholds))
    finder = task.open_finder(path)
    metrics, lines = {}, []
    for name in task.eval_sets:
        tally = evaluate(finder, name, args.eval_scenes, seed=2026, scene_of=task.scene, style=task.test_style)
        metrics[name] = tally.summary()
        lines.append(f"- `{name}`: " + tally.report(name).split(None, 1)[1])
        log(lines[-1])
    export_finder(net, path, metadata(thresholds=thresholds, metrics=metrics))
    frames = [task.scene(name, test, 5, None).image for name in task.latency_sets]
    size, scale = input_size(args.short_side), args.short_side / SHORT_SIDE  # card sizes as at the usual 288
    latency = [*latency_lines(task.open_finder(path), frames), "- measured at the end of the training run."]
    log("\n".join(latency))
    fields = {
        "levels": ", ".join(str(widened(c, net.width)) for c, _ in LEVELS), "neck": widened(NECK_CHANNELS, net.width),
        "params": count_parameters(net),
        "mmacs": count_macs(net, size) / 1e6, "input_size": "{}x{}".format(*size),
        "card_px": f"{18 * scale:.0f}-{55 * scale:.0f}", "mat_px": f"{16 * scale:.0f}",
        "size_kb": path.stat().st_size / 1024, "mix": task.mix if args.mix is None else mix_words(args.mix),
        "train_styles": ", ".join(f"`{s}`" for s in task.train_styles), "test_style": task.test_style,
        "min_visible": MIN_VISIBLE, "ignore_visible": IGNORE_VISIBLE, "lr": args.lr, "batch": args.batch,
        "schedule": f"{args.steps} steps" if args.steps else f"{args.minutes:g}-minute wall-clock budget",
        "capacity": args.capacity, "rendered": stats["rendered"], "command": command, "seed": args.seed,
        "steps": stats["steps"], "minutes": stats["minutes"],
        "machine": f"{platform.machine()} CPU, torch threads {args.threads}", "export_error": error,
        "short_side": args.short_side,
    }
    lines.append(f"- {args.eval_scenes} scenes per set, seeds (2026, i); figures from the end of the training run.")
    write_model_card(args.out / f"{task.model}.md", fields, lines, latency, thresholds, task.template)
    log(f"wrote {args.out / task.model}.{{onnx,md}}")


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    log: Log = lambda message: print(message, flush=True)  # noqa: E731
    budget = f"{args.steps} steps" if args.steps else f"{args.minutes:g} minutes"
    log(f"training {finder_task(args.scenes).model}: {budget}, seed {args.seed}")
    command = "python -m datasets.training.train_finder " + " ".join(sys.argv[1:] if argv is None else argv)
    if args.publish_from:
        saved = torch.load(args.publish_from)
        net = finder_from_checkpoint(saved)
        net.eval()
        stats, command = saved["stats"], saved.get("command", command)
        for key, value in saved.get("args", {}).items():  # the model card describes the run, not this call
            if key in ("lr", "batch", "minutes", "steps", "capacity", "seed", "threads", "short_side", "width", "mix"):
                setattr(args, key, value)
    else:
        net, stats = train(args, log)
        if args.checkpoint:
            args.checkpoint.parent.mkdir(parents=True, exist_ok=True)
            torch.save({"state_dict": net.state_dict(), "width": net.width, "stats": stats, "command": command,
                        "args": {k: v for k, v in vars(args).items() if isinstance(v, int | float | str | dict)}},
                       args.checkpoint)
        if args.device != "cpu":
            return  # a GPU machine trains; publishing (export, held-out metrics, CPU latency) runs on the CPU box
    publish(net, stats, args, command, log)


if __name__ == "__main__":
    main()
