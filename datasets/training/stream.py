"""Training crops rendered on the fly by background processes into a replay buffer.

The machine has 2 cores: one process renders while the trainer trains. Rendering is slower than a training
step, so the trainer samples batches from a ring buffer that the workers keep refreshing; every crop is seen a
few times, each time under different torch-side augmentation (see ``augment``). No torch here.
"""

from __future__ import annotations

import importlib
import multiprocessing as mp
import queue
import time
from collections.abc import Callable, Sequence
from typing import Any

import cv2
import numpy as np

from datasets.training.classes import class_indices

Renderer = Callable[..., tuple[np.ndarray, list[str]]]
DEFAULT_RENDERER = "datasets.hanafuda.crops:render_crops"


def load_renderer(spec: str = DEFAULT_RENDERER) -> Renderer:
    module, _, name = spec.partition(":")
    renderer: Renderer = getattr(importlib.import_module(module), name)
    return renderer


def jpeg_roundtrip(crops: np.ndarray, rng: np.random.Generator, share: float = 0.5) -> np.ndarray:
    """Re-encode a random share of the crops as JPEG at quality 25-90: webcam and phone compression."""
    out = crops.copy()
    for i in np.flatnonzero(rng.random(len(crops)) < share):
        ok, data = cv2.imencode(".jpg", crops[i], [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 91))])
        if ok:
            out[i] = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return out


def render_labelled(
    render: Renderer, n: int, seed: int, styles: Sequence[str], size: tuple[int, int], jpeg_share: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """n crops and their visual class indices; training adds a JPEG pass the generator may not do itself."""
    crops, labels = render(n, seed=seed, styles=list(styles), size=size)
    crops = np.ascontiguousarray(crops, dtype=np.uint8)
    if jpeg_share > 0:
        crops = jpeg_roundtrip(crops, np.random.default_rng(seed), jpeg_share)
    return crops, class_indices(labels)


def _worker(
    renderer: str, styles: list[str], size: tuple[int, int], seed: int, chunk: int, out: Any, stop: Any
) -> None:
    cv2.setNumThreads(1)
    render = load_renderer(renderer)
    for k in range(1_000_000):
        if stop.is_set():
            return
        item = render_labelled(render, chunk, seed + k, styles, size, jpeg_share=0.3)
        while not stop.is_set():
            try:
                out.put(item, timeout=0.5)
                break
            except queue.Full:
                continue


class CropStream:
    """Ring buffer of labelled crops, refilled by ``workers`` processes; ``batch`` never waits on rendering."""

    def __init__(
        self,
        styles: Sequence[str],
        size: tuple[int, int],
        seed: int,
        workers: int = 1,
        capacity: int = 60_000,
        chunk: int = 256,
        renderer: str = DEFAULT_RENDERER,
    ) -> None:
        w, h = size
        self.crops = np.zeros((capacity, h, w, 3), np.uint8)
        self.labels = np.zeros(capacity, np.int64)
        self.filled = 0
        self.rendered = 0
        self._next = 0
        ctx = mp.get_context("spawn")
        self._queue = ctx.Queue(maxsize=4 * max(workers, 1))
        self._stop = ctx.Event()
        # Worker i renders seeds seed*10^7 + i*10^6 + k: disjoint and reproducible per worker.
        self._procs = [
            ctx.Process(
                target=_worker,
                args=(renderer, list(styles), size, seed * 10_000_000 + i * 1_000_000, chunk, self._queue, self._stop),
                daemon=True,
            )
            for i in range(workers)
        ]
        for proc in self._procs:
            proc.start()

    def _add(self, crops: np.ndarray, labels: np.ndarray) -> None:
        capacity = len(self.labels)
        idx = (self._next + np.arange(len(labels))) % capacity
        self.crops[idx] = crops
        self.labels[idx] = labels
        self._next = int(idx[-1] + 1) % capacity
        self.filled = min(capacity, self.filled + len(labels))
        self.rendered += len(labels)

    def pull(self, block_until: int = 0, timeout_s: float = 3600.0) -> None:
        """Move rendered chunks into the buffer; wait until it holds at least ``block_until`` crops."""
        deadline = time.monotonic() + timeout_s
        while True:
            waiting = self.filled < block_until
            try:
                self._add(*(self._queue.get(timeout=0.2) if waiting else self._queue.get_nowait()))
                continue
            except queue.Empty:
                pass
            if not waiting:
                return
            if not any(p.is_alive() for p in self._procs):
                raise RuntimeError("all crop workers died; run the renderer alone to see its error")
            if time.monotonic() > deadline:
                raise TimeoutError(f"crop workers rendered only {self.filled} crops in {timeout_s:.0f} s")

    def batch(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        self.pull()
        idx = rng.integers(0, self.filled, n)
        return self.crops[idx], self.labels[idx]

    def close(self) -> None:
        self._stop.set()
        for proc in self._procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()
