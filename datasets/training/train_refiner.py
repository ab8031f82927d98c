"""Train a quad refiner (``vision.quad_refiner``: dominoes or cards) on CPU or a GPU and ship it as ONNX.

One command from a clean checkout (renders the samples first when ``--data`` holds none: about 12 minutes for
4,000 domino scenes on 2 cores; then the training's ``--minutes``):

    python -m datasets.training.train_refiner --kind dominoes --data /tmp/refdata --scenes 4000 --minutes 28

``--kind cards`` trains the card refiner, ``--kind card-surround`` the card surround check (``vision.card_surround``:
a refiner network on a crop a card wider each way, whose probability alone is used).

``--export-only`` rewrites the model from ``--checkpoint`` with new ``--tile-threshold`` / ``--passes``.
``--init`` fine-tunes from another run's ``--checkpoint`` (the shipped domino refiner: ``models/domino-refiner.md``)
or from a shipped ``.onnx`` (its weights read back, ``refiner_net_from_onnx``).
``--device cuda`` trains on a GPU machine (the photo refiner for Chinese sets, ``--model domino-photo-refiner.onnx``:
``models/domino-photo-refiner.md``).
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort
import torch
import torch.nn.functional as F

from datasets.dominoes import refiner_data as domino_data
from datasets.hanafuda import refiner_data as card_data
from datasets.training.export import save_onnx
from datasets.training.net import count_macs, count_parameters, normalise
from datasets.training.onnx_weights import recalibrate
from datasets.training.options import add_run_options, render_arguments
from datasets.training.refiner_net import RefinerExport, RefinerNet, refiner_net_from_onnx
from vision.card_refiner import CARD_CROP, CardRefiner
from vision.card_surround import SURROUND_CROP, CardSurround
from vision.dominoes.tile_refiner import TILE_CROP, TileRefiner
from vision.quad_refiner import CropGeometry, QuadRefiner

# What each kind of refiner is: its crop, its runtime class (task and file name) and its sample renderer.
KINDS: dict[str, tuple[CropGeometry, type[QuadRefiner], Any]] = {
    "dominoes": (TILE_CROP, TileRefiner, domino_data.main),
    "cards": (CARD_CROP, CardRefiner, card_data.main),
    "card-surround": (SURROUND_CROP, CardSurround, card_data.surround_main),
}


def load(data: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """All samples under ``data`` (crops, targets, labels) and which shard each came from."""
    shards = sorted(data.glob("refiner-*.npz"))
    if not shards:
        raise FileNotFoundError(f"no refiner-*.npz samples in {data}")
    parts = [np.load(s) for s in shards]
    shard = np.concatenate([np.full(len(p["labels"]), i) for i, p in enumerate(parts)])
    return (np.concatenate([p["crops"] for p in parts]), np.concatenate([p["targets"] for p in parts]),
            np.concatenate([p["labels"] for p in parts]), shard)


def augmented(crops: np.ndarray, targets: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Half the crops turned 180 degrees, half mirrored (the targets' corners moved and renumbered to match)."""
    crops, corners = crops.copy(), targets.reshape(-1, 4, 2).copy()
    turn = rng.random(len(crops)) < 0.5
    crops[turn] = crops[turn, ::-1, ::-1]
    corners[turn] = -corners[turn][:, [2, 3, 0, 1]]
    mirror = rng.random(len(crops)) < 0.5
    crops[mirror] = crops[mirror, :, ::-1]
    corners[mirror] = corners[mirror][:, [1, 0, 3, 2]] * np.array([-1.0, 1.0], np.float32)
    return crops, corners.reshape(-1, 8)


def photometric(x: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """Contrast, exposure and white balance jitter on normalised crops."""
    n = len(x)
    contrast = 0.6 + 0.8 * torch.rand(n, 1, 1, 1, generator=generator)
    shift = 0.8 * (torch.rand(n, 1, 1, 1, generator=generator) - 0.5)
    gain = 1.0 + 0.3 * (torch.rand(n, 3, 1, 1, generator=generator) - 0.5)
    return x * (contrast * gain).to(x.device) + shift.to(x.device)


def losses(net: RefinerNet, crops: torch.Tensor, targets: torch.Tensor, labels: torch.Tensor,
           generator: torch.Generator | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """L1 on the corners of positives, BCE on the tile logit of the samples not left out."""
    x = normalise(crops)
    if generator is not None:
        x = photometric(x, generator)
    corners, logits = net(x)
    positive, scored = labels == 1, labels >= 0
    corner_loss = (corners[positive] - targets[positive]).abs().mean() if positive.any() else corners.sum() * 0
    tile_loss = F.binary_cross_entropy_with_logits(logits[scored], positive[scored].float())
    return corner_loss, tile_loss


def validate(net: RefinerNet, crops: np.ndarray, targets: np.ndarray, labels: np.ndarray,
             geometry: CropGeometry, device: str = "cpu") -> dict[str, float]:
    """Median corner error (crop px) of positives, and tile accuracy at 0.5 over the scored samples."""
    net.eval()
    errors, right, scored = [], 0, 0
    with torch.no_grad():
        for i in range(0, len(crops), 512):
            corners, logits = (t.cpu() for t in net(normalise(torch.from_numpy(crops[i:i + 512]).to(device))))
            label = labels[i:i + 512]
            positive = label == 1
            diff = (corners.numpy() - targets[i:i + 512]).reshape(-1, 4, 2) * geometry.half
            errors.append(np.linalg.norm(diff, axis=2).mean(axis=1)[positive])
            right += int(((logits.numpy() > 0) == positive)[label >= 0].sum())
            scored += int((label >= 0).sum())
    net.train()
    error = np.concatenate(errors)
    return {"corner_px_median": float(np.median(error)), "corner_px_p90": float(np.percentile(error, 90)),
            "tile_accuracy": right / max(scored, 1)}


def train(args: argparse.Namespace, geometry: CropGeometry = TILE_CROP) -> tuple[RefinerNet, dict[str, Any]]:
    crops, targets, labels, shard = load(args.data)
    val = shard >= math.ceil(shard.max() * (1 - args.val_share))
    print(f"{len(crops):,} samples ({int(val.sum()):,} held for validation); labels "
          f"{dict(zip(*np.unique(labels, return_counts=True), strict=True))}", flush=True)
    train_idx = np.flatnonzero(~val)
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    generator = torch.Generator().manual_seed(args.seed)
    net = RefinerNet(geometry)
    if args.init and args.init.suffix == ".onnx":  # fine-tune a shipped model: its batch norms given real statistics
        net = refiner_net_from_onnx(args.init, geometry)
        recalibrate(net, crops[rng.choice(train_idx, min(len(train_idx), 4096), replace=False)], batch=512)
        net.train()
    elif args.init:  # fine-tune: start from another run's weights
        net.load_state_dict(torch.load(args.init, weights_only=False, map_location="cpu")["state"])
    net.to(args.device)
    optimiser = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    t0, step, budget = time.perf_counter(), 0, args.minutes * 60
    while (elapsed := time.perf_counter() - t0) < budget:
        progress = elapsed / budget
        lr = args.lr * min(1.0, (step + 1) / 200) * 0.5 * (1 + math.cos(math.pi * progress))
        for group in optimiser.param_groups:
            group["lr"] = lr
        batch = rng.choice(train_idx, args.batch, replace=len(train_idx) < args.batch)
        x, y = augmented(crops[batch], targets[batch], rng)
        corner_loss, tile_loss = losses(net, *(torch.from_numpy(np.ascontiguousarray(a)).to(args.device)
                                               for a in (x, y, labels[batch])), generator)
        optimiser.zero_grad()
        (args.corner_weight * corner_loss + tile_loss).backward()
        optimiser.step()
        step += 1
        if step % 500 == 0:
            print(f"step {step:,} {elapsed / 60:.1f} min lr {lr:.2e} corners {corner_loss.item():.4f} "
                  f"tile {tile_loss.item():.4f}", flush=True)
    scores = validate(net, crops[val], targets[val], labels[val], geometry, args.device)
    net.cpu()
    print(f"validation: {scores}", flush=True)
    summary = {"steps": step, "minutes": args.minutes, "samples": len(crops), "validation": scores,
               "seed": args.seed, "batch": args.batch, "lr": args.lr, "init": str(args.init) if args.init else None}
    return net, summary


def metadata(tile_threshold: float, passes: int, training: dict[str, Any], kind: str = "dominoes"
             ) -> dict[str, Any]:
    geometry, refiner, _ = KINDS[kind]
    return {
        "task": refiner.TASK,
        "input": {"name": "crops", "layout": "NHWC", "dtype": "uint8", "channels": "BGR", "width": geometry.width,
                  "height": geometry.height, "share": geometry.share,
                  "rule": "the candidate quad warped onto the middle of the crop, spanning share of its sides (long "
                          "side along its height): vision.quad_refiner.CropGeometry"},
        "outputs": {"corners": "N x 8: the tile's corners (x, y) x 4 in units of half the candidate's sides from the "
                               "crop's centre, clockwise from the one nearest the candidate's first",
                    "tile": "N: probability that a whole object (tile, card) is there"},
        "thresholds": {"tile": tile_threshold},
        "passes": passes,
        "training": training,
    }


def export(net: RefinerNet, path: Path, meta: dict[str, Any], geometry: CropGeometry = TILE_CROP) -> float:
    """Write the model (dynamic batch, metadata in metadata_props); the largest |onnxruntime - torch| output."""
    wrapper = RefinerExport(net).eval()
    save_onnx(wrapper, path, meta, (geometry.width, geometry.height), ["corners", "tile"])
    sample = np.random.default_rng(0).integers(0, 256, (4, geometry.height, geometry.width, 3), dtype=np.uint8)
    with torch.no_grad():
        expected = [t.numpy() for t in wrapper(torch.from_numpy(sample))]
    got = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, {"crops": sample})
    return max(float(np.abs(g - e).max()) for g, e in zip(got, expected, strict=True))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kind", choices=sorted(KINDS), default="dominoes")
    add_run_options(parser, scenes=4000, minutes=30.0)
    parser.add_argument("--corner-weight", type=float, default=5.0)
    parser.add_argument("--tile-threshold", type=float, default=0.5)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--init", type=Path, help="start from the weights of an earlier run's --checkpoint, or of a "
                                                     "shipped .onnx")
    parser.add_argument("--device", default="cpu", help="torch device of the training (cpu, or cuda on a GPU machine)")
    parser.add_argument("--model", help="the file written in --out (default: the kind's shipped model, as "
                                        "domino-refiner.onnx; the photo refiner is domino-photo-refiner.onnx)")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    geometry, refiner, render = KINDS[args.kind]
    if args.export_only:
        saved = torch.load(args.checkpoint, weights_only=False)
        net, summary = RefinerNet(geometry), saved["summary"]
        net.load_state_dict(saved["state"])
    else:
        if not list(args.data.glob("refiner-*.npz")):
            render(render_arguments(args))
        net, summary = train(args, geometry)
        macs = count_macs(net, (geometry.width, geometry.height))
        summary.update(parameters=count_parameters(net), macs=macs, scenes=args.scenes,
                       data_seed=args.data_seed)
        if args.checkpoint:
            torch.save({"state": net.state_dict(), "summary": summary}, args.checkpoint)
    net.eval()
    path = args.out / (args.model or refiner.DEFAULT_MODEL)
    error = export(net, path, metadata(args.tile_threshold, args.passes, summary, args.kind), geometry)
    print(f"wrote {path}; max |onnxruntime - torch| {error:.1e}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
