"""Learned card finder: a small CenterNet (``models/card-finder.onnx``) gives every card's oriented quad.

The frame is shrunk so its short side matches the model's input rule (cards are then ~15-55 px wide), the
network marks card centres on a stride-4 heatmap and regresses each card's four corners and visible share;
peaks of the heatmap (3 x 3 max-pool NMS, threshold) become quads in full-resolution pixels, which are then
refitted to their sides at full resolution (``finder_refine``). A card whose visible share is low (covered,
cut by the frame) is reported as partial. All knobs come from the model's ``kibitz`` metadata.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import MappingProxyType
from typing import Any

import cv2
import numpy as np
import onnxruntime as ort

from vision.finder_refine import refine_quads
from vision.geometry import convex_iou, iou_matrix, order_quads, quad_areas, quads_sides
from vision.imageio import as_bgr
from vision.observation import Detections
from vision.onnx import open_session

DEFAULT_MODEL = "card-finder.onnx"
METADATA_KEY = "kibitz"
OUTPUTS = ("heat", "corners", "visible")
COARSE_MIN_SCORE = 0.6  # a coarse look's heat as sure as the threshold: it sees phones and hands at card size too
BIG_CARD_SHORT_SIDE = 24.0  # px at the coarse look: cards this big there are past the fine look's training sizes
EVEN_CLIP, EVEN_TILES = 3.0, 8  # CLAHE on the lightness: clip limit, tiles along each side of the frame


def evened(image: np.ndarray) -> np.ndarray:
    """The frame with its lightness evened out, tile by tile (CLAHE on L of Lab; colours kept): cards in a shadow,
    or on a dark busy mat, stand out from it as they do elsewhere in the frame."""
    lab = cv2.cvtColor(as_bgr(image), cv2.COLOR_BGR2LAB)
    clahe = cv2.createCLAHE(clipLimit=EVEN_CLIP, tileGridSize=(EVEN_TILES, EVEN_TILES))
    lab[..., 0] = clahe.apply(np.ascontiguousarray(lab[..., 0]))
    return cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)


class FinderModelError(RuntimeError):
    """The model file exists but is not a readable kibitz card-finder model."""


def keystoned(width: int, height: int, keystone: float) -> tuple[np.ndarray, int]:
    """The homography that widens a frame's top edge by ``keystone`` of its width at each end, its bottom edge kept,
    and the width of the canvas that holds it (``1 / (1 - 2 keystone)`` times the frame's): a table photographed at a
    slant, its far edge narrower, seen more nearly square on. The identity and the frame's width for 0."""
    if not 0.0 <= keystone < 0.5:
        raise ValueError(f"keystone must lie in [0, 0.5), got {keystone}")
    wide = round(width / (1 - 2 * keystone))
    pad = (wide - width) / 2
    source = np.float32([[keystone * width, 0], [(1 - keystone) * width, 0], [width, height], [0, height]])
    target = np.float32([[0, 0], [wide, 0], [pad + width, height], [pad, height]])
    return cv2.getPerspectiveTransform(source, target), wide


class LearnedFinder:
    """Owns one onnxruntime session on the CPU with explicit thread counts; holds no per-frame state.

    ``TASK`` is the metadata's task a model must have, ``DEFAULT_MODEL`` the shipped file: a subclass finds
    other objects with a model of the same kind (``vision.dominoes.tile_finder.TileFinder``)."""

    TASK = "card-finder"
    DEFAULT_MODEL = DEFAULT_MODEL

    def __init__(self, model_path: str | Path | None = None, threads: int = 1, refine: bool = True,
                 zoom_out: tuple[float, ...] = (0.5, 0.35, 0.25)) -> None:
        if any(z <= 0 for z in zoom_out):
            raise ValueError(f"zoom_out must be > 0, got {zoom_out}")
        path, self._session = open_session(model_path, self.DEFAULT_MODEL, threads, self.TASK, FinderModelError)
        self.path = path
        self.threads = threads
        self.refine = refine
        self.zoom_out = zoom_out  # coarser looks for cards too big for the model's input scale
        self._input_name = _check_io(self._session, path)
        meta = read_metadata(self._session, path, self.TASK)
        try:
            self.short_side = int(meta["input"]["short_side"])
            self.multiple = int(meta["input"]["multiple"])
            self.stride = int(meta["stride"])
            self.heat_threshold = float(meta["thresholds"]["heat"])
            self.partial_below = float(meta["thresholds"]["partial_visible"])
            self.nms_iou = float(meta["thresholds"]["nms_iou"])
        except (KeyError, TypeError, ValueError) as exc:
            raise FinderModelError(f"{path}: incomplete {METADATA_KEY!r} metadata ({exc!r})") from exc
        self.metadata: MappingProxyType[str, Any] = MappingProxyType(meta)

    def __repr__(self) -> str:
        return f"LearnedFinder({str(self.path)!r}, threads={self.threads}, short_side={self.short_side})"

    def input_scale(self, width: int, height: int) -> float:
        """Factor from frame pixels to network-input pixels: the short side becomes ``short_side``."""
        return self.short_side / min(width, height)

    def __call__(self, image: np.ndarray, threshold: float | None = None, zoom: float = 1.0) -> Detections:
        """Quads of every card in a BGR frame (full-resolution pixels), with confidence and a partial flag.
        ``threshold``: the least heat of a card, if not the model's (a lower one for candidates that something
        else, the classifier, will check); ``zoom``: the network looks at the frame this many times bigger than its
        input rule says (small cards in a still photo: ``Recognizer.small_cards``)."""
        return self.find(image, threshold, zoom=zoom)[0]

    def find(self, image: np.ndarray, threshold: float | None = None, even: bool = False, zoom: float = 1.0
             ) -> tuple[Detections, np.ndarray]:
        """The detections and each one's predicted visible share (what ``partial`` thresholds; for calibration).
        ``even``: the network looks at the frame with its lightness evened (``evened``); quads are refitted on the
        frame itself. ``zoom``: as for calling it."""
        if zoom <= 0:
            raise ValueError(f"zoom must be > 0, got {zoom}")
        image = as_bgr(image)
        shown = evened(image) if even else image
        height, width = image.shape[:2]
        scale = self.input_scale(width, height) * zoom
        least = self.heat_threshold if threshold is None else threshold
        halvings = [shown]  # the frame halved again and again, shared by the looks of this call
        quads, score, seen = self._look(shown, scale, least, halvings)
        coarse_least = least * COARSE_MIN_SCORE / self.heat_threshold  # less cannot reach ``least`` on the fine scale
        for zoom in self.zoom_out:
            quads, score, seen = self._add_big_cards((quads, score, seen),
                                                     self._look(shown, scale * zoom, coarse_least, halvings),
                                                     scale * zoom, least)
        return self._finished(image, quads, score, seen, scale), seen

    def other_look(self, image: np.ndarray, zoom: float = 1.0, mirror: bool = False,
                   threshold: float | None = None, even: bool = False, keystone: float = 0.0) -> Detections:
        """One more look of the network, at ``zoom`` times the fine look's scale and/or on the mirror image and/or
        on the frame with its lightness evened (``even``) and/or its top edge widened (``keystone``, see
        ``keystoned``), decoded and refitted like the fine look (the refit on the frame itself): the network does not
        see these quite alike, so such a look finds some of what the fine one missed (``vision.more_looks``, and the
        domino recogniser's finer look). The evened frame alone is looked at as ``find`` looks, close-up cards
        included."""
        if zoom == 1.0 and not mirror and not keystone:
            return self.find(image, threshold, even)[0]
        image = as_bgr(image)
        height, width = image.shape[:2]
        scale = self.input_scale(width, height)
        shown = evened(image) if even else image
        shown = np.ascontiguousarray(shown[:, ::-1]) if mirror else shown
        if keystone:
            warp, wide = keystoned(width, height, keystone)
            shown = cv2.warpPerspective(shown, warp, (wide, height), borderMode=cv2.BORDER_REPLICATE)
        quads, score, seen = self._look(shown, scale * zoom, self.heat_threshold if threshold is None else threshold)
        if keystone and len(quads):  # back onto the frame
            quads = cv2.perspectiveTransform(quads.reshape(-1, 1, 2).astype(np.float32),
                                             np.linalg.inv(warp)).reshape(-1, 4, 2)
        if mirror:
            quads[..., 0] = (width - 1) - quads[..., 0]
        return self._finished(image, quads, score, seen, scale)

    def _finished(self, image: np.ndarray, quads: np.ndarray, score: np.ndarray, seen: np.ndarray,
                  scale: float) -> Detections:
        """Quads in frame pixels refitted to their sides at full resolution (``refine``), as detections."""
        if not len(quads):
            return Detections.empty()
        if self.refine:
            quads = refine_quads(image, order_quads(quads), reach=max(2.0, 1.0 / scale), contrast=14.0)
        return Detections(order_quads(quads), confidence=score, partial=seen < self.partial_below)

    def _look(self, image: np.ndarray, scale: float, least: float, halvings: list[np.ndarray] | None = None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One pass of the network on the frame shrunk by ``scale``: quads in frame pixels, scores, visible.
        ``halvings``: the frame's halvings made so far (see ``_resize_padded``), shared by looks at one frame."""
        small = _resize_padded(image, scale, self.multiple, halvings)
        heat, corners, visible = self._session.run(list(OUTPUTS), {self._input_name: small[None]})
        quads, score, seen = self._decode(heat[0, 0], corners[0], visible[0, 0], least)
        return (quads + 0.5) / scale - 0.5, score, seen  # input pixels -> frame pixels (centres at integers)

    def _add_big_cards(self, fine: tuple[np.ndarray, np.ndarray, np.ndarray],
                       coarse: tuple[np.ndarray, np.ndarray, np.ndarray], coarse_scale: float, least: float
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The coarse look's cards that are big there (the size the model knows best): a close-up card fills more
        of the fine input than any training card did. Their heat is put on the fine look's scale (``COARSE_MIN_SCORE``
        there is as sure as the threshold here) and must reach ``least``. A fine detection that overlaps one keeps
        its place when it is surer; the others are pieces of the close-up card and give way to it."""
        quads, score, seen = coarse
        if not len(quads):
            return fine
        score = score * (self.heat_threshold / COARSE_MIN_SCORE)
        short = quads_sides(quads)[0] * coarse_scale
        big = np.flatnonzero((short >= BIG_CARD_SHORT_SIDE) & (score >= least))
        fine_quads, fine_score, fine_seen = fine
        parts = np.zeros(len(fine_quads), bool)
        if len(fine_quads) and len(big):
            overlap = iou_matrix(order_quads(quads[big]), order_quads(fine_quads)) > 0.2  # big x fine
            stays = overlap & (fine_score[None, :] >= score[big, None])
            free = ~stays.any(axis=1)
            big = big[free]
            parts = overlap[free].any(axis=0)
        if not len(big):
            return fine
        return (np.concatenate([fine_quads[~parts], quads[big]]), np.concatenate([fine_score[~parts], score[big]]),
                np.concatenate([fine_seen[~parts], seen[big]]))

    def _decode(self, heat: np.ndarray, corners: np.ndarray, visible: np.ndarray, least: float
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Heatmap peaks (3 x 3 max-pool NMS) of at least ``least`` -> quads in input px, scores, visible shares."""
        peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= least)
        ys, xs = np.nonzero(peaks)
        order = np.argsort(-heat[ys, xs], kind="stable")
        ys, xs = ys[order], xs[order]
        centre = np.stack([xs, ys], axis=1).astype(np.float32) * self.stride + (self.stride - 1) / 2
        quads = corners[:, ys, xs].T.reshape(-1, 4, 2) + centre[:, None, :]
        keep = suppress(quads, self.nms_iou)
        return quads[keep], heat[ys, xs][keep].astype(np.float32), visible[ys, xs][keep]


def suppress(quads: np.ndarray, threshold: float) -> np.ndarray:
    """Greedy NMS over quads sorted by score: drop one that overlaps a kept one by more than ``threshold``.
    Only pairs whose boxes touch are intersected, each once, against kept quads alone (it runs every look)."""
    if len(quads) < 2:
        return np.arange(len(quads))
    ordered = order_quads(quads)
    areas = quad_areas(ordered)
    lo, hi = ordered.min(axis=1), ordered.max(axis=1)
    touching = ((lo[:, None] < hi[None]) & (lo[None] < hi[:, None])).all(axis=-1)  # the boxes overlap
    keep: list[int] = []
    for i in range(len(ordered)):
        near = [j for j in keep if touching[i, j]]
        if not any(convex_iou(ordered[i], ordered[j], areas[i], areas[j]) > threshold for j in near):
            keep.append(i)
    return np.array(keep, np.int64)


def _resize_padded(image: np.ndarray, scale: float, multiple: int, halvings: list[np.ndarray] | None = None
                   ) -> np.ndarray:
    """Resize the frame by ``scale``, then pad right and bottom to a ``multiple``.

    Shrinking halves with area averaging (OpenCV's fast path) while a factor of 2 remains, then resamples the
    rest linearly: as smooth as one fractional area resize at a fraction of its cost. ``halvings`` (the frame, then
    each halving made so far) is extended and reused: the coarse looks at one frame share their first halvings.
    """
    height, width = image.shape[:2]
    w, h = max(1, round(width * scale)), max(1, round(height * scale))
    levels = halvings if halvings is not None else [image]
    level = 0
    while levels[level].shape[1] >= 2 * w and levels[level].shape[0] >= 2 * h:
        if level + 1 == len(levels):
            top = levels[level]
            levels.append(cv2.resize(top, (top.shape[1] // 2, top.shape[0] // 2), interpolation=cv2.INTER_AREA))
        level += 1
    small = levels[level]
    if small.shape[:2] != (h, w):
        small = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    pad_w, pad_h = -w % multiple, -h % multiple
    if pad_w or pad_h:
        small = cv2.copyMakeBorder(small, 0, pad_h, 0, pad_w, cv2.BORDER_REPLICATE)
    return np.ascontiguousarray(small)


def read_metadata(session: ort.InferenceSession, path: Path, task: str = "card-finder",
                  error: type[Exception] = FinderModelError) -> dict[str, Any]:
    """The model's ``kibitz`` metadata, which must name ``task``; ``error`` for a model without it."""
    raw = session.get_modelmeta().custom_metadata_map.get(METADATA_KEY)
    if raw is None:
        raise error(f"{path}: no {METADATA_KEY!r} metadata; not a kibitz {task} model")
    try:
        meta = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise error(f"{path}: unreadable {METADATA_KEY!r} metadata: {exc}") from exc
    if not isinstance(meta, dict) or meta.get("task") != task:
        raise error(f"{path}: the {METADATA_KEY!r} metadata does not describe a {task.replace('-', ' ')}")
    return meta


def _check_io(session: ort.InferenceSession, path: Path) -> str:
    inputs, outputs = session.get_inputs(), session.get_outputs()
    if len(inputs) != 1 or len(inputs[0].shape) != 4 or inputs[0].shape[3] != 3 or inputs[0].type != "tensor(uint8)":
        raise FinderModelError(f"{path}: expected one uint8 input of shape 1 x H x W x 3, got "
                               f"{[(i.shape, i.type) for i in inputs]}")
    names = tuple(o.name for o in outputs)
    if sorted(names) != sorted(OUTPUTS):
        raise FinderModelError(f"{path}: expected outputs {OUTPUTS}, got {names}")
    return str(inputs[0].name)
