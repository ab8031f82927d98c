"""Train the hanafuda card classifier and write models/hanafuda-cards.{onnx,json,md}.

    python -m datasets.training.train_cards --out models/ [--minutes 40] [--seed 0]

Needs ``pip install .[train]`` and the shared artwork (../shared/data). One background process renders crops
while this process trains on one thread (the 2-core budget); at the end the model is exported to ONNX, checked
against torch, evaluated on the held-out art style and described in its model card.
"""

from __future__ import annotations

import argparse
import math
import platform
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from datasets.training.augment import augment
from datasets.training.classes import CLASS_NAMES
from datasets.training.eval_crops import HELD_OUT_STYLE, evaluate, latency_ms, render_heldout
from datasets.training.export import OPSET, export_onnx, max_export_error, model_metadata
from datasets.training.model_card import write_metadata_json, write_model_card
from datasets.training.net import BLOCKS, MEAN_BGR, STD_BGR, CardNet, count_macs, count_parameters, normalise
from datasets.training.onnx_weights import load_exported, recalibrate
from datasets.training.stream import DEFAULT_RENDERER, CropStream, load_renderer, render_labelled
from vision.classifier import CardClassifier

MODEL_NAME = "hanafuda-cards"
TRAIN_STYLES = ("mantia-alt", "hwatu-richert")
WARMUP = 0.03
Log = Callable[[str], None]


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True, help="folder for the .onnx, .json and .md files")
    parser.add_argument("--minutes", type=float, default=40.0, help="wall-clock budget of the training loop")
    parser.add_argument("--steps", type=int, default=None, help="train exactly this many steps instead")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1, help="rendering processes (the trainer uses 1 core)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads of the trainer")
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--weight-decay", type=float, default=5e-4)
    parser.add_argument("--smoothing", type=float, default=0.05)
    parser.add_argument("--size", default="48x80", help="crop W x H")
    parser.add_argument("--capacity", type=int, default=60_000, help="replay buffer size in crops")
    parser.add_argument("--chunk", type=int, default=256, help="crops per render call")
    parser.add_argument("--eval-n", type=int, default=2400, help="held-out crops for the final metrics")
    parser.add_argument("--rotation-average", action="store_true",
                        help="average each crop with its 180-degree turn inside the graph (as every model did until "
                             "session 23; the runtime, vision.classifier, now turns the crops itself where asked)")
    parser.add_argument("--renderer", default=DEFAULT_RENDERER, help="module:function with render_crops' signature")
    parser.add_argument("--checkpoint", type=Path, default=None, help="also save the torch weights here")
    parser.add_argument("--init", type=Path, default=None,
                        help="fine-tune: start from these torch weights, or from a shipped .onnx")
    parser.add_argument("--publish-from", type=Path, default=None,
                        help="skip training: export, evaluate and describe this checkpoint (from --checkpoint)")
    parser.add_argument("--device", default="cpu", help="torch device of the trainer (cpu, or cuda on a GPU machine)")
    return parser.parse_args(argv)


def learning_rate(base: float, progress: float) -> float:
    """Linear warm-up, then cosine decay to zero over the run."""
    if progress < WARMUP:
        return base * progress / WARMUP
    return base * 0.5 * (1 + math.cos(math.pi * min(1.0, (progress - WARMUP) / (1 - WARMUP))))


def holdout_accuracy(net: CardNet, crops: np.ndarray, labels: np.ndarray, device: str = "cpu") -> float:
    net.eval()
    with torch.no_grad():
        pred = torch.cat(
            [net(normalise(torch.from_numpy(crops[i : i + 512]).to(device))).argmax(1).cpu()
             for i in range(0, len(crops), 512)]
        )
    net.train()
    return float((pred.numpy() == labels).mean())


def initial_net(init: Path | None, sample: Callable[[], np.ndarray]) -> CardNet:
    """A fresh network, or one to fine-tune: torch weights (a checkpoint or bare), or a shipped ``.onnx`` whose
    training checkpoint is gone (its batch norms given the statistics of ``sample()``'s training crops)."""
    net = CardNet(len(CLASS_NAMES))
    if init is None:
        return net
    if init.suffix == ".onnx":
        load_exported(net, init, torch.zeros(1, 3, 80, 48))  # any crop size: only the call order counts
        recalibrate(net, sample(), batch=512)
        return net
    saved = torch.load(init)
    net.load_state_dict(saved.get("state_dict", saved))
    return net


def train(args: argparse.Namespace, size: tuple[int, int], log: Log) -> tuple[CardNet, dict[str, float]]:
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    stream = CropStream(TRAIN_STYLES, size, args.seed, args.workers, args.capacity, args.chunk, args.renderer)
    try:
        probe = render_labelled(load_renderer(args.renderer), 512, 10**9 + args.seed, [HELD_OUT_STYLE], size)
        stream.pull(block_until=min(args.capacity, 8 * args.chunk))
        net = initial_net(args.init, lambda: stream.batch(4096, rng)[0])
        net.to(args.device)
        optimiser = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=args.weight_decay)
        start = time.monotonic()
        budget = args.minutes * 60
        step = 0
        losses: list[float] = []
        while True:
            progress = step / args.steps if args.steps else (time.monotonic() - start) / budget
            if progress >= 1:
                break
            for group in optimiser.param_groups:
                group["lr"] = learning_rate(args.lr, progress)
            crops, labels = stream.batch(args.batch, rng)
            x = normalise(augment(torch.from_numpy(crops).to(args.device), gen))
            target = torch.from_numpy(labels).to(args.device)
            loss = F.cross_entropy(net(x), target, label_smoothing=args.smoothing)
            optimiser.zero_grad(set_to_none=True)
            loss.backward()
            optimiser.step()
            losses.append(loss.item())
            step += 1
            if step % 200 == 0:
                minutes = (time.monotonic() - start) / 60
                log(
                    f"step {step} {minutes:.1f} min loss {np.mean(losses[-200:]):.3f} "
                    f"lr {optimiser.param_groups[0]['lr']:.2e} buffer {stream.filled} rendered {stream.rendered} "
                    f"held-out {holdout_accuracy(net, *probe, device=args.device):.3f}"
                )
        stats = {
            "steps": step,
            "samples": step * args.batch,
            "rendered": stream.rendered,
            "minutes": (time.monotonic() - start) / 60,
        }
    finally:
        stream.close()
    net.cpu().eval()
    return net, stats


def publish(net: CardNet, stats: dict[str, float], args: argparse.Namespace, command: str, log: Log) -> None:
    """Export to ONNX, check it against torch, evaluate on the held-out style, write the JSON and model card."""
    size = parse_size(args.size)
    rotation_average = bool(args.rotation_average)
    summary = {
        "seed": args.seed,
        "train_styles": list(TRAIN_STYLES),
        "held_out_style": HELD_OUT_STYLE,
        "command": command,
        **stats,
    }
    onnx_path = args.out / f"{MODEL_NAME}.onnx"
    export_onnx(net, onnx_path, size, model_metadata(size, rotation_average, training=summary))
    data = render_heldout(args.eval_n, 7, size)
    export_error = max_export_error(net, onnx_path, data.crops[:64], rotation_average)
    log(f"exported {onnx_path} ({onnx_path.stat().st_size / 1024:.0f} KB), max |onnx - torch| {export_error:.1e}")
    if export_error > 1e-3:
        raise RuntimeError(f"onnxruntime and torch disagree by {export_error}; not writing the model card")

    report = evaluate(CardClassifier(onnx_path, threads=1), data, HELD_OUT_STYLE)
    log("\n".join(report.lines()))
    metrics = {
        "accuracy": report.accuracy,
        "accuracy_rotated": report.accuracy_rotated,
        "accuracy_by_group": {k: v[1] for k, v in report.accuracy_by_group.items()},
    }
    metadata = model_metadata(size, rotation_average, training=summary, metrics=metrics)
    export_onnx(net, onnx_path, size, metadata)  # again, now with the metrics in its metadata
    write_metadata_json(args.out / f"{MODEL_NAME}.json", metadata)
    latency_lines = [
        f"- {threads} thread(s), batch {batch}: "
        f"{latency_ms(CardClassifier(onnx_path, threads), data.crops[:batch]):.1f} ms"
        for threads in (1, 2)
        for batch in (16, 32)
    ] + ["- measured at the end of the training run, on its machine."]
    macs = count_macs(net, size) * (2 if rotation_average else 1)
    fields = {
        "n_classes": len(CLASS_NAMES),
        "width": size[0],
        "height": size[1],
        "mean": MEAN_BGR[0],
        "std": STD_BGR[0],
        "rotation_text": (
            "runs each crop and its 180° rotation and averages the logits, so a card and its "
            "upside-down self get the same answer."
            if rotation_average
            else "classifies the crop as given (trained on both orientations). `vision.classifier.CardClassifier` "
            "averages each crop's logits with its 180° turn's by default (one batch of both), so a card and its "
            "upside-down self get the same answer; the live table reads each crop once and turns only the "
            "doubtful (`turn_below`)."
        ),
        "blocks": len(BLOCKS),
        "params": count_parameters(net),
        "opset": OPSET,
        "mmacs": macs / 1e6,
        "mac_note": " (both orientations)" if rotation_average else " (one orientation; twice that turned)",
        "size_kb": onnx_path.stat().st_size / 1024,
        "workers": args.workers,
        "chunk": args.chunk,
        "capacity": args.capacity,
        "rendered": stats["rendered"],
        "train_styles": ", ".join(f"`{s}`" for s in TRAIN_STYLES),
        "test_style": HELD_OUT_STYLE,
        "smoothing": args.smoothing,
        "lr": args.lr,
        "weight_decay": args.weight_decay,
        "batch": args.batch,
        "schedule": f"{args.steps} steps" if args.steps else f"{args.minutes:g}-minute wall-clock budget",
        "command": command,
        "seed": args.seed,
        "steps": stats["steps"],
        "samples": stats["samples"],
        "minutes": stats["minutes"],
        "machine": f"{platform.machine()} CPU, torch threads {args.threads}",
        "export_error": export_error,
        "latency_lines": "\n".join(latency_lines),
    }
    write_model_card(args.out / f"{MODEL_NAME}.md", fields, report.lines())
    log(f"wrote {args.out / MODEL_NAME}.{{onnx,json,md}}")


def parse_size(text: str) -> tuple[int, int]:
    w, h = (int(v) for v in text.lower().split("x"))
    return w, h


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    log: Log = lambda message: print(message, flush=True)  # noqa: E731
    budget = f"{args.steps} steps" if args.steps else f"{args.minutes:g} minutes"
    log(f"training {MODEL_NAME}: {budget}, seed {args.seed}, size {args.size}")
    command = "python -m datasets.training.train_cards " + " ".join(sys.argv[1:] if argv is None else argv)
    if args.publish_from:
        saved = torch.load(args.publish_from)
        net = CardNet(len(CLASS_NAMES))
        net.load_state_dict(saved["state_dict"])
        net.eval()
        stats, command = saved["stats"], saved.get("command", command)
    else:
        net, stats = train(args, parse_size(args.size), log)
        if args.checkpoint:
            torch.save({"state_dict": net.state_dict(), "stats": stats, "command": command}, args.checkpoint)
        if args.device != "cpu":
            return  # a GPU machine trains; publishing (export, held-out metrics, CPU latency) runs on the CPU box
    publish(net, stats, args, command, log)


if __name__ == "__main__":
    main()
