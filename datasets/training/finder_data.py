"""Training scenes for a finder (cards, domino tiles), rendered at the network's input size by background processes.

A scene renderer (``module:function``, as ``CropStream`` takes a crop renderer) draws one frame and returns it
with the quads of the objects to find and each one's visible share; ``card_scene`` (the default) draws
hanafuda scenes, ``datasets.dominoes.finder_scenes:tile_scene`` domino tiles. Each scene becomes dense
stride-4 targets (``scene_targets``): a Gaussian centre heatmap, an ignore mask around objects too hidden to ask
for, and at the 3 x 3 cells round each centre the object's four corners relative to the cell, its short side
and its visible share. A worker process renders and converts scenes while the
trainer trains; the trainer draws batches from a replay buffer that the worker keeps refreshing. No torch here.
"""

from __future__ import annotations

import multiprocessing as mp
import queue
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import cv2
import numpy as np

from datasets.hanafuda import Scene, preset, render_scene
from datasets.training.stream import load_renderer
from vision.geometry import order_quads

STRIDE = 4
INPUT_SIZE = (512, 288)  # (W, H): a 16:9 frame at the finder's input scale (short side 288)
MIN_VISIBLE = 0.3  # a card showing at least this share of its face is a card to find
IGNORE_VISIBLE = 0.1  # between this and MIN_VISIBLE, no heat loss either way near the card's centre
# Scene mix: (dataset preset, weight). The default preset itself mixes every layout.
PRESET_MIX: Mapping[str, float] = {"default": 0.55, "piles": 0.2, "whole-mat": 0.2, "clean": 0.05}
CARD_SCENES = "datasets.training.finder_data:card_scene"
# (rng, styles, size) -> (BGR frame of ``size``, quads N x 4 x 2 bottom object first, visible shares N)
SceneSample = tuple[np.ndarray, np.ndarray, np.ndarray]
SceneRenderer = Callable[[np.random.Generator, Sequence[str], tuple[int, int]], SceneSample]


@dataclass(frozen=True)
class Targets:
    """Dense targets of one frame at stride 4 (h = H / 4, w = W / 4)."""

    heat: np.ndarray  # (h, w) float32, 1.0 exactly at card centres
    ignore: np.ndarray  # (h, w) bool: no heat loss here
    corners: np.ndarray  # (8, h, w) float32: TL, TR, BR, BL (geometric order) minus the cell centre, input px
    weight: np.ndarray  # (h, w) float32: where corners and visible are trained (1 at centre, 0.5 around)
    visible: np.ndarray  # (h, w) float32: visible share of the card owning the cell
    short: np.ndarray  # (h, w) float32: the owning card's short side, input px (normalises the corner loss)


def cell_centres(h: int, w: int, stride: int = STRIDE) -> np.ndarray:
    """Input-pixel position of every output cell's centre, (2, h, w) as x, y (pixel centres at integers)."""
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    return np.stack([xs, ys]) * stride + (stride - 1) / 2


def quad_centres(quads: np.ndarray) -> np.ndarray:
    """Where the diagonals cross: the card's true centre under perspective (N x 2)."""
    a, b, c, d = (quads[:, k].astype(np.float64) for k in range(4))
    r, s = c - a, d - b
    cross = r[:, 0] * s[:, 1] - r[:, 1] * s[:, 0]
    t = ((b - a)[:, 0] * s[:, 1] - (b - a)[:, 1] * s[:, 0]) / np.where(np.abs(cross) < 1e-9, 1e-9, cross)
    centre = a + r * t[:, None]
    bad = ~np.isfinite(centre).all(axis=1) | (t < 0) | (t > 1)
    centre[bad] = quads[bad].mean(axis=1)
    return centre.astype(np.float32)


def short_sides(quads: np.ndarray) -> np.ndarray:
    lengths = np.linalg.norm(quads - np.roll(quads, -1, axis=1), axis=2)
    return np.minimum(lengths[:, 0] + lengths[:, 2], lengths[:, 1] + lengths[:, 3]) / 2


def scene_targets(quads: np.ndarray, visible: np.ndarray, size: tuple[int, int]) -> Targets:
    """Targets for cards ``quads`` (N x 4 x 2 input px, bottom card first) in a frame of ``size`` = (W, H)."""
    w, h = size[0] // STRIDE, size[1] // STRIDE
    heat = np.zeros((h, w), np.float32)
    ignore = np.zeros((h, w), bool)
    corners = np.zeros((8, h, w), np.float32)
    weight = np.zeros((h, w), np.float32)
    vis = np.zeros((h, w), np.float32)
    short = np.ones((h, w), np.float32)
    if not len(quads):
        return Targets(heat, ignore, corners, weight, vis, short)
    ordered = order_quads(quads)
    centres = quad_centres(ordered)
    shorts = short_sides(ordered)
    cells = (centres - (STRIDE - 1) / 2) / STRIDE  # centre in output-cell coordinates
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    grid = cell_centres(h, w)
    for k in range(len(quads)):  # bottom first, so a card on top owns the cells it shares with one below
        ix, iy = (int(v) for v in np.rint(cells[k]))
        if not (0 <= ix < w and 0 <= iy < h) or visible[k] < IGNORE_VISIBLE:
            continue
        sigma = max(0.6, 0.12 * shorts[k] / STRIDE)
        if visible[k] < MIN_VISIBLE:
            ignore |= (xs - ix) ** 2 + (ys - iy) ** 2 <= (2 * sigma) ** 2
            continue
        np.maximum(heat, np.exp(-((xs - ix) ** 2 + (ys - iy) ** 2) / (2 * sigma**2)), out=heat)
        heat[iy, ix] = 1.0
        y0, y1, x0, x1 = max(iy - 1, 0), min(iy + 2, h), max(ix - 1, 0), min(ix + 2, w)
        offsets = ordered[k].reshape(8, 1, 1) - np.tile(grid[:, y0:y1, x0:x1], (4, 1, 1))
        corners[:, y0:y1, x0:x1] = offsets
        weight[y0:y1, x0:x1] = 0.5
        weight[iy, ix] = 1.0
        vis[y0:y1, x0:x1] = visible[k]
        short[y0:y1, x0:x1] = max(float(shorts[k]), 4.0)
    ignore &= heat < 0.99
    return Targets(heat, ignore, corners, weight, vis, short)


def card_scene(rng: np.random.Generator, styles: Sequence[str], size: tuple[int, int],
               mix: Mapping[str, float] = PRESET_MIX) -> SceneSample:
    """One hanafuda scene of the preset ``mix``, rendered straight at ``size`` (a 1080p mat as the finder sees it)."""
    names = list(mix)
    weights = np.array([mix[n] for n in names])
    name = names[int(rng.choice(len(names), p=weights / weights.sum()))]
    scene: Scene = render_scene(rng, preset(name, styles=tuple(styles), size=size))
    return scene.image, scene.quads, scene.visible


def load_scenes(spec: str | SceneRenderer = CARD_SCENES) -> SceneRenderer:
    """The scene renderer named ``module:function`` (or the callable itself)."""
    if callable(spec):
        return spec
    return cast(SceneRenderer, load_renderer(spec))


def render_sample(rng: np.random.Generator, styles: Sequence[str], size: tuple[int, int],
                  scenes: str | SceneRenderer = CARD_SCENES) -> tuple[np.ndarray, Targets]:
    """One training frame, rendered straight at the input size, and its targets."""
    image, quads, visible = load_scenes(scenes)(rng, styles, size)
    return image, scene_targets(quads, visible, size)


def _worker(styles: list[str], size: tuple[int, int], seed: int, worker: int, chunk: int, out: Any, stop: Any,
            scenes: str | SceneRenderer = CARD_SCENES) -> None:
    cv2.setNumThreads(1)
    render = load_scenes(scenes)
    for k in range(1_000_000):
        if stop.is_set():
            return
        rng = np.random.default_rng([seed, worker, k])
        item = [render_sample(rng, styles, size, render) for _ in range(chunk)]
        while not stop.is_set():
            try:
                out.put(item, timeout=0.5)
                break
            except queue.Full:
                continue


class SceneStream:
    """Ring buffer of rendered frames and their targets, refilled by ``workers`` processes drawing ``scenes``."""

    def __init__(self, styles: Sequence[str], seed: int, workers: int = 1, capacity: int = 1500, chunk: int = 4,
                 size: tuple[int, int] = INPUT_SIZE, scenes: str | SceneRenderer = CARD_SCENES) -> None:
        w, h = size
        hh, ww = h // STRIDE, w // STRIDE
        self.images = np.zeros((capacity, h, w, 3), np.uint8)
        self.heat = np.zeros((capacity, hh, ww), np.float16)
        self.ignore = np.zeros((capacity, hh, ww), bool)
        self.corners = np.zeros((capacity, 8, hh, ww), np.float16)
        self.weight = np.zeros((capacity, hh, ww), np.float16)
        self.visible = np.zeros((capacity, hh, ww), np.float16)
        self.short = np.zeros((capacity, hh, ww), np.float16)
        self.filled = 0
        self.rendered = 0
        self._next = 0
        ctx = mp.get_context("spawn")
        self._queue = ctx.Queue(maxsize=8)
        self._stop = ctx.Event()
        self._procs = [
            ctx.Process(target=_worker, args=(list(styles), size, seed, i, chunk, self._queue, self._stop, scenes),
                        daemon=True)
            for i in range(workers)
        ]
        for proc in self._procs:
            proc.start()

    def _add(self, items: list[tuple[np.ndarray, Targets]]) -> None:
        for image, t in items:
            i = self._next
            self.images[i] = image
            self.heat[i], self.ignore[i], self.corners[i] = t.heat, t.ignore, t.corners
            self.weight[i], self.visible[i], self.short[i] = t.weight, t.visible, t.short
            self._next = (i + 1) % len(self.images)
            self.filled = min(len(self.images), self.filled + 1)
            self.rendered += 1

    def pull(self, block_until: int = 0, timeout_s: float = 3600.0) -> None:
        """Move rendered frames into the buffer; wait until it holds at least ``block_until`` frames."""
        deadline = time.monotonic() + timeout_s
        while True:
            waiting = self.filled < block_until
            try:
                self._add(self._queue.get(timeout=0.2) if waiting else self._queue.get_nowait())
                continue
            except queue.Empty:
                pass
            if not waiting:
                return
            if not any(p.is_alive() for p in self._procs):
                raise RuntimeError("all scene workers died; run render_sample alone to see its error")
            if time.monotonic() > deadline:
                raise TimeoutError(f"scene workers rendered only {self.filled} frames in {timeout_s:.0f} s")

    def batch(self, n: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        self.pull()
        idx = rng.integers(0, self.filled, n)
        fields = ("images", "heat", "ignore", "corners", "weight", "visible", "short")
        return {name: getattr(self, name)[idx] for name in fields}

    def close(self) -> None:
        self._stop.set()
        for proc in self._procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()
