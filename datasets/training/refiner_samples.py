"""Training samples for a quad refiner (``vision.quad_refiner``): crops round candidate quads, each with the quad
of the object it is about and whether a whole one is there. The scene-specific parts (which finder gives the
candidates, which objects count) live in ``datasets.dominoes.refiner_data`` and ``datasets.hanafuda.refiner_data``.

A candidate is about the object it overlaps most: one that counts (``positive``: a whole tile, a card that can be
named) at IoU ``POSITIVE_IOU`` or more makes a positive; any object at ``IGNORE_IOU`` or more, or a counted one
between the two, is left out of the logit's loss (a quad across two tiles is about neither); the rest are
negatives.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from vision.geometry import iou_matrix, order_quads, side_vectors
from vision.quad_refiner import CropGeometry

POSITIVE_IOU = 0.45
IGNORE_IOU = 0.3
Samples = tuple[np.ndarray, np.ndarray, np.ndarray]  # crops, targets (N x 8), labels (1, 0, -1 left out)


def thrown(quad: np.ndarray, rng: np.random.Generator, along: float, across: float,
           scale_sd: float = 0.07, turn_sd_deg: float = 3.0) -> np.ndarray:
    """``quad`` (ordered) moved ``along`` lengths and ``across`` widths, scaled and turned a little."""
    ordered = order_quads(np.asarray(quad, np.float32)[None])
    q = ordered[0]
    centre = q.mean(axis=0)
    sides = side_vectors(ordered)
    u, v = sides[0][0], sides[1][0]  # across and along, full sides
    angle = np.deg2rad(rng.normal(0, turn_sd_deg))
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], np.float32)
    scale = rng.normal(1.0, scale_sd, 2).clip(0.8, 1.25)
    local = (q - centre) @ np.linalg.inv(np.stack([u, v])) * scale[None]  # corners as +-0.5 in (u, v)
    moved = local @ np.stack([u, v]) @ turn.T + centre + along * v + across * u
    return moved.astype(np.float32)


def proposals(quads: Iterable[np.ndarray], rng: np.random.Generator, along: tuple[float, float],
              across: tuple[float, float], step: Callable[[np.random.Generator], tuple[float, float]]
              ) -> list[np.ndarray]:
    """Two copies of each quad: thrown off as a loose finder throws it (moved along and across by normal draws
    with the standard deviation and limit of ``along`` and ``across``, in lengths and widths), and moved by
    ``step`` (lengths, widths), which lands on a neighbour or on table."""
    out = []
    for quad in quads:
        out.append(thrown(quad, rng, float(np.clip(rng.normal(0, along[0]), -along[1], along[1])),
                          float(np.clip(rng.normal(0, across[0]), -across[1], across[1]))))
        out.append(thrown(quad, rng, *step(rng)))
    return out


def labelled(image: np.ndarray, quads: np.ndarray, positive: np.ndarray, candidates: np.ndarray,
             geometry: CropGeometry) -> Samples:
    """Crops, targets (zeros but for positives) and labels for ``candidates`` over the objects ``quads`` (N x 4 x
    2, all of them, counted or not: ``positive`` marks the ones that count)."""
    candidates = np.asarray(candidates, np.float32).reshape(-1, 4, 2)
    matrices = geometry.matrices(candidates)
    targets = np.zeros((len(candidates), 8), np.float32)
    labels = np.zeros(len(candidates), np.int8)
    if len(quads) and len(candidates):
        iou = iou_matrix(order_quads(candidates), order_quads(np.asarray(quads, np.float32)))
        for i, row in enumerate(iou):
            k = int(row.argmax())
            if positive[k] and row[k] >= POSITIVE_IOU:
                labels[i] = 1
                targets[i] = geometry.encode(matrices[i], quads[k])
            elif row[k] >= IGNORE_IOU:
                labels[i] = -1
    return geometry.crops(image, matrices), targets, labels


def write_chunk(path: Path, parts: Iterable[Samples]) -> int:
    """One shard of samples; how many it holds."""
    parts = list(parts)
    crops, targets, labels = (np.concatenate([p[j] for p in parts]) for j in range(3))
    np.savez(path, crops=crops, targets=targets, labels=labels)
    return len(labels)


SceneSamples = Callable[[Sequence[int], Any], Samples]  # (scene seed, finder) -> the scene's samples


def _write_scenes(job: tuple[Path, int, int, int], samples: SceneSamples, finder: Callable[[], Any],
                  prefix: str) -> int:
    """One shard: the samples of ``count`` scenes from ``first`` on, with a finder made in this process."""
    out, seed, first, count = job
    made = finder()
    return write_chunk(out / f"{prefix}-{seed}-{first:06d}.npz", [samples((seed, i), made)
                                                                  for i in range(first, first + count)])


def main(argv: Sequence[str] | None, description: str, samples: SceneSamples, finder: Callable[[], Any],
         scenes: int, seed: int, chunk: int, prefix: str = "refiner", knobs: Mapping[str, float] | None = None) -> int:
    """The command line of a sample renderer: shards of ``chunk`` scenes (``prefix-seed-first.npz``) written on
    worker processes; ``finder`` makes what ``samples`` needs besides the seed, once per process. Each of ``knobs``
    (a keyword of ``samples`` and its default) is an option too: ``pip_variety`` is ``--pip-variety``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--scenes", type=int, default=scenes)
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=chunk)
    for name, default in (knobs or {}).items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=float, default=default, help=f"default {default}")
    args = parser.parse_args(argv)
    samples = partial(samples, **{name: getattr(args, name) for name in knobs or {}})
    args.out.mkdir(parents=True, exist_ok=True)
    jobs = [(args.out, args.seed, first, min(args.chunk, args.scenes - first))
            for first in range(0, args.scenes, args.chunk)]
    t0 = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        total = 0
        for n in pool.map(partial(_write_scenes, samples=samples, finder=finder, prefix=prefix), jobs):
            total += n
            print(f"{total:,} samples, {time.perf_counter() - t0:.0f} s", flush=True)
    return 0
