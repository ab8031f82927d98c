"""Train the domino face reader (``vision.dominoes.face_reader``) on CPU and ship it as ONNX.

One command from a clean checkout (renders the samples first when ``--data`` holds none: about 8 minutes for
3,600 scenes on 2 cores; then the training's ``--minutes``):

    python -m datasets.training.train_faces --data /tmp/faces --scenes 3600 --minutes 25 [--tile-set double-six]

``--tile-set`` picks the reader: a Chinese set's (``domino-faces.onnx``) or a European set's
(``domino-faces-european.onnx``, whose samples include European backs printed with a bold mark:
``styles.TRAIN_BACK_PRINTS``); ``vision.dominoes.face_reader.SET_MODELS``.

The held-out art (``paigow-art``, never trained on) is scored on crops of ``--heldout-scenes`` scenes of its own.
``--init models/domino-faces.onnx`` fine-tunes a shipped reader instead of training a fresh one, and ``--glare``
washes that share of the crops with a glare blob (session 27 tried both: better on crops, not end to end; the
shipped reader is the fresh recipe, without glare). ``--slipped`` renders crops slipped into a neighbour, taught
towards every class alike (``loss_of``; session 43: better on crops, not end to end).
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import onnxruntime as ort
import torch
import torch.nn.functional as F

from datasets.dominoes import face_data
from datasets.dominoes.styles import TEST_STYLE, TRAIN_BACK_PRINTS
from datasets.hanafuda.effects import glare_blob
from datasets.training.export import save_onnx
from datasets.training.face_net import FaceExport, FaceNet, face_net_from_onnx
from datasets.training.net import count_macs, count_parameters, normalise
from datasets.training.onnx_weights import recalibrate
from datasets.training.options import add_run_options, render_arguments
from datasets.training.train_refiner import photometric
from vision.dominoes.face_reader import CLASSES, CROP_SIZE, GROW, SET_MODELS, FaceReader

INVERTED = 0.2  # share of training crops with their lightness inverted (ivory tiles as black ones and back)
GLARE_WEIGHT = 0.9  # the most a glare blob washes a crop towards white: pips a person still sees stay there
HELDOUT_SEED = 59000
SLIP_WEIGHT = 1.0  # a slipped crop's loss over a tile crop's
BACK_PRINTS = {"chinese": 0.0, "double-six": TRAIN_BACK_PRINTS}  # share of European sets with printed backs, per reader


def load(data: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All samples under ``data`` (crops, class indices) and which shard each came from."""
    shards = sorted(data.glob("faces-*.npz"))
    if not shards:
        raise FileNotFoundError(f"no faces-*.npz samples in {data}")
    parts = [np.load(s) for s in shards]
    shard = np.concatenate([np.full(len(p["labels"]), i) for i, p in enumerate(parts)])
    return np.concatenate([p["crops"] for p in parts]), np.concatenate([p["labels"] for p in parts]), shard


def glared(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``crop`` washed towards white by a lamp's reflection: a soft blob with a burnt core, as the scenes draw it
    (``datasets.hanafuda.effects.glare_blob``), but as big as the tile and never quite white, then the camera's
    noise again. The held-out art's dark tiles in glare were read as backs with their pips plain to a person."""
    h, w = crop.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    cy, cx = rng.uniform(-0.25, 1.25) * h, rng.uniform(-0.5, 1.5) * w
    long = rng.uniform(0.3, 1.5) * h
    short = long * rng.uniform(0.3, 1.0)
    blob = glare_blob(xs, ys, (cx, cy), (long, short), rng.uniform(0, np.pi))
    weight = np.clip(blob * rng.uniform(0.5, 1.0), 0, GLARE_WEIGHT)[..., None]
    colour = 255 * np.clip(1 + rng.normal(0, 0.04, 3), 0.9, 1.0)
    washed = crop + (colour - crop) * weight + rng.normal(0, rng.uniform(0, 5), crop.shape)
    return np.clip(washed, 0, 255).astype(np.uint8)


def augmented(crops: np.ndarray, rng: np.random.Generator, glare: float = 0.0) -> np.ndarray:
    """Half the crops turned 180 degrees, half mirrored (a face reads the same either way), ``INVERTED`` of them
    with their lightness inverted in Lab (the colours kept: a red pip stays red), and ``glare`` of them washed by
    a glare blob (``glared``)."""
    crops = crops.copy()
    turn = rng.random(len(crops)) < 0.5
    crops[turn] = crops[turn, ::-1, ::-1]
    mirror = rng.random(len(crops)) < 0.5
    crops[mirror] = crops[mirror, :, ::-1]
    for i in np.flatnonzero(rng.random(len(crops)) < INVERTED):
        lab = cv2.cvtColor(crops[i], cv2.COLOR_BGR2LAB)
        lab[..., 0] = 255 - lab[..., 0]
        crops[i] = cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)
    for i in np.flatnonzero(rng.random(len(crops)) < glare):
        crops[i] = glared(crops[i], rng)
    return crops


def scores(net: FaceNet, crops: np.ndarray, labels: np.ndarray) -> tuple[float, float]:
    """The share of tiles' crops named right, and the reader's mean surety (its likeliest class) over the
    slipped ones (``face_data.SLIPPED``; nan where none)."""
    net.eval()
    with torch.no_grad():
        probs = np.concatenate([torch.softmax(net(normalise(torch.from_numpy(crops[i:i + 512]))), dim=1).numpy()
                                for i in range(0, len(crops), 512)] or [np.zeros((0, len(CLASSES)))])
    net.train()
    tiles, slipped = labels != face_data.SLIPPED, labels == face_data.SLIPPED
    right = float((probs[tiles].argmax(axis=1) == labels[tiles]).mean()) if tiles.any() else float("nan")
    return right, float(probs[slipped].max(axis=1).mean()) if slipped.any() else float("nan")


def heldout(scenes: int, slipped: float) -> tuple[np.ndarray, np.ndarray]:
    """Crops and labels of ``scenes`` scenes of the held-out art."""
    parts = [face_data.scene_samples((HELDOUT_SEED, i), None, (TEST_STYLE,), slipped=slipped) for i in range(scenes)]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[2] for p in parts]).astype(np.int64)


def loss_of(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """Cross-entropy with label smoothing for tiles' crops; towards every class alike for slipped ones, whose
    quad holds no one tile's face, each weighing ``SLIP_WEIGHT`` of a tile's crop."""
    slipped = labels == face_data.SLIPPED
    loss = logits.new_zeros(())
    if (~slipped).any():
        loss = loss + F.cross_entropy(logits[~slipped], labels[~slipped], label_smoothing=0.05,
                                      reduction="sum")
    if slipped.any():
        loss = loss - SLIP_WEIGHT * F.log_softmax(logits[slipped], dim=1).mean(dim=1).sum()
    return loss / len(labels)


def train(args: argparse.Namespace) -> tuple[FaceNet, dict[str, Any]]:
    crops, labels, shard = load(args.data)
    labels = labels.astype(np.int64)
    val = shard >= math.ceil(shard.max() * (1 - args.val_share))
    print(f"{len(crops):,} samples ({int(val.sum()):,} held for validation)", flush=True)
    train_idx = np.flatnonzero(~val)
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    generator = torch.Generator().manual_seed(args.seed)
    if args.init is None:
        net = FaceNet(CROP_SIZE, len(CLASSES))
    else:  # fine-tune a shipped reader: its batch norms given the statistics of training crops first
        net = face_net_from_onnx(args.init)
        recalibrate(net, crops[rng.choice(train_idx, min(len(train_idx), 4096), replace=False)], batch=512)
    net.train()
    optimiser = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    t0, step, budget = time.perf_counter(), 0, args.minutes * 60
    while (elapsed := time.perf_counter() - t0) < budget:
        lr = args.lr * min(1.0, (step + 1) / 200) * 0.5 * (1 + math.cos(math.pi * elapsed / budget))
        for group in optimiser.param_groups:
            group["lr"] = lr
        batch = rng.choice(train_idx, args.batch, replace=len(train_idx) < args.batch)
        seen = np.ascontiguousarray(augmented(crops[batch], rng, args.glare))
        x = photometric(normalise(torch.from_numpy(seen)), generator)
        loss = loss_of(net(x), torch.from_numpy(labels[batch]))
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        step += 1
        if step % 500 == 0:
            print(f"step {step:,} {elapsed / 60:.1f} min lr {lr:.2e} loss {loss.item():.4f}", flush=True)
    right, unsure = scores(net, crops[val], labels[val])
    measured = {"validation_accuracy": right, "validation_slipped_surety": unsure}
    if args.heldout_scenes:
        held_crops, held_labels = heldout(args.heldout_scenes, args.heldout_slipped)
        right, unsure = scores(net, held_crops, held_labels)
        measured |= {"heldout_accuracy": right, "heldout_slipped_surety": unsure, "heldout_crops": len(held_labels)}
    print(f"scores: {measured}", flush=True)
    summary = {"steps": step, "minutes": args.minutes, "samples": len(crops), **measured, "seed": args.seed,
               "batch": args.batch, "lr": args.lr, "glare": args.glare,
               "init": None if args.init is None else args.init.name}
    return net, summary


def metadata(training: dict[str, Any]) -> dict[str, Any]:
    width, height = CROP_SIZE
    return {
        "task": FaceReader.TASK,
        "classes": list(CLASSES),
        "grow": GROW,
        "input": {"name": "crops", "layout": "NHWC", "dtype": "uint8", "channels": "BGR", "width": width,
                  "height": height, "rule": "the tile's quad grown by `grow` of its width all round, warped upright "
                                            "(long side along the height): vision.dominoes.face_reader.face_crops"},
        "output": "probabilities N x classes",
        "training": training,
    }


def export(net: FaceNet, path: Path, meta: dict[str, Any]) -> float:
    """Write the model; the largest |onnxruntime - torch| probability on random crops."""
    wrapper = FaceExport(net).eval()
    save_onnx(wrapper, path, meta, CROP_SIZE, ["probabilities"])
    sample = np.random.default_rng(0).integers(0, 256, (4, CROP_SIZE[1], CROP_SIZE[0], 3), dtype=np.uint8)
    with torch.no_grad():
        expected = wrapper(torch.from_numpy(sample)).numpy()
    (got,) = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, {"crops": sample})
    return float(np.abs(got - expected).max())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_run_options(parser, scenes=3600, minutes=25.0)
    parser.add_argument("--heldout-scenes", type=int, default=100)
    parser.add_argument("--slipped", type=float, default=0.0,
                        help="samples rendered here: each end's chance of a crop slipped into the tile against it")
    parser.add_argument("--heldout-slipped", type=float, default=1.0,
                        help="the held-out crops' chance of a slipped crop at each end with a tile against it")
    parser.add_argument("--glare", type=float, default=0.0, help="share of training crops washed by a glare blob")
    parser.add_argument("--init", type=Path, help="fine-tune this shipped reader (.onnx) instead of a fresh network")
    parser.add_argument("--tile-set", choices=sorted(SET_MODELS), default="chinese",
                        help="whose reader: its samples and the model file's name")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    if args.export_only:
        saved = torch.load(args.checkpoint, weights_only=False)
        net, summary = FaceNet(CROP_SIZE, len(CLASSES)), saved["summary"]
        net.load_state_dict(saved["state"])
    else:
        if not list(args.data.glob("faces-*.npz")):
            face_data.main([*render_arguments(args), "--back-prints", str(BACK_PRINTS[args.tile_set]),
                            "--slipped", str(args.slipped)])
        net, summary = train(args)
        summary.update(parameters=count_parameters(net), macs=count_macs(net, CROP_SIZE), scenes=args.scenes,
                       data_seed=args.data_seed)
        if args.checkpoint:
            torch.save({"state": net.state_dict(), "summary": summary}, args.checkpoint)
    summary.update(tile_set=args.tile_set, back_prints=BACK_PRINTS[args.tile_set])  # the recipe of this reader
    net.eval()
    path = args.out / SET_MODELS[args.tile_set]
    error = export(net, path, metadata(summary))
    print(f"wrote {path}; max |onnxruntime - torch| {error:.1e}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
