"""Card classifier: canonical card crops -> class probabilities, through the shipped ONNX model.

The model is self-describing: its input shape comes from the graph, its class list and the cards each class
stands for from the ``kibitz`` entry of its metadata_props (written by ``datasets.training``). The graph takes
raw uint8 BGR crops and normalises them itself, so callers only warp quads to ``input_size`` and pass all crops of a
frame in one batch.

A card reads the same upside down: by default each crop's logits are averaged with those of its 180-degree turn,
both in one batch, so a card and its upside-down self get the same answer. The live table has 30 ms a frame, and
that doubles what the crops cost: it reads each crop once, and turns only those whose likeliest class got less than
``turn_below`` (``LIVE_TURN_BELOW``, about half of them; README, session 23). A model whose graph averages the turns
itself (metadata ``rotation_average``, as every model did until session 23) is not turned again.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
import onnxruntime as ort

from vision.onnx import open_session

DEFAULT_MODEL = "hanafuda-cards.onnx"
ALWAYS = math.inf  # ``turn_below``: every crop is read both ways up, in one batch
LIVE_TURN_BELOW = 0.9  # the live table's: the bar its doubtful candidates must reach (``maybe_needs``), so a crop
# read under it once is judged on both readings. Of its crops on 16-card frames, 46 % are under it; at 0.8 (17 %) a
# Matgo hand made 2 phantom moves it does not make turned (README, session 23)
METADATA_KEY = "kibitz"


class ModelError(RuntimeError):
    """The model file exists but is not a readable kibitz card model."""


class CardClassifier:
    """Owns one onnxruntime session on the CPU with explicit thread counts; holds no per-frame state."""

    def __init__(self, model_path: str | Path | None = None, threads: int = 1, turn_below: float = ALWAYS) -> None:
        if not turn_below >= 0.0:
            raise ValueError(f"CardClassifier: turn_below must be >= 0, got {turn_below}")
        path, self._session = open_session(model_path, DEFAULT_MODEL, threads, "card", ModelError)
        self.path = path
        self.threads = threads
        self._input_name, self.input_size = _read_input(self._session, path)
        meta = _metadata(self._session, path)
        self.classes, self.class_cards = _read_classes(meta, self._session, path)
        self.is_face = np.array([bool(self.class_cards[name]) for name in self.classes])  # per class: a card's face
        self.is_face.flags.writeable = False
        self.turn_below = 0.0 if meta.get("rotation_average") else turn_below  # the graph may turn them itself
        self.metadata: MappingProxyType[str, Any] = MappingProxyType(meta)

    def __repr__(self) -> str:
        return (f"CardClassifier({str(self.path)!r}, threads={self.threads}, turn_below={self.turn_below}, "
                f"classes={len(self.classes)})")

    def face_probability(self, probabilities: np.ndarray) -> np.ndarray:
        """Each crop's probability (rows of ``classify``) of its likeliest card face: not a back, not not-a-card."""
        face: np.ndarray = np.asarray(probabilities)[:, self.is_face].max(axis=1, initial=0.0)
        return face

    def classify(self, crops: np.ndarray) -> np.ndarray:
        """uint8 BGR crops N x H x W x 3 (``input_size`` = (W, H)) -> probabilities N x C, in one batch (and one more
        of the crops to turn, where only some are: ``turn_below``)."""
        crops = np.asarray(crops)
        w, h = self.input_size
        if crops.dtype != np.uint8:
            raise TypeError(f"classify: crops must be uint8 BGR, got dtype {crops.dtype}")
        if crops.ndim != 4 or crops.shape[1:] != (h, w, 3):
            raise ValueError(f"classify: expected crops of shape N x {h} x {w} x 3, got {crops.shape}")
        if len(crops) == 0:
            return np.zeros((0, len(self.classes)), np.float32)
        if self.turn_below == ALWAYS:  # each crop and its 180-degree turn, in one batch
            logits = self._logits(np.concatenate([crops, crops[:, ::-1, ::-1]]))
            logits = (logits[:len(crops)] + logits[len(crops):]) / 2
        else:
            logits = self._logits(crops)
            turn = np.flatnonzero(_softmax(logits).max(axis=1) < self.turn_below)
            if len(turn):
                logits[turn] = (logits[turn] + self._logits(crops[turn][:, ::-1, ::-1])) / 2
        return _softmax(logits)

    def _logits(self, crops: np.ndarray) -> np.ndarray:
        (logits,) = self._session.run(None, {self._input_name: np.ascontiguousarray(crops)})
        return np.asarray(logits, np.float32)


def _softmax(logits: np.ndarray) -> np.ndarray:
    exp = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs: np.ndarray = exp / exp.sum(axis=1, keepdims=True)
    return probs


def _metadata(session: ort.InferenceSession, path: Path) -> dict[str, Any]:
    raw = session.get_modelmeta().custom_metadata_map.get(METADATA_KEY)
    if raw is None:
        raise ModelError(f"{path}: no {METADATA_KEY!r} metadata; not a kibitz card model")
    try:
        meta = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ModelError(f"{path}: unreadable {METADATA_KEY!r} metadata: {exc}") from exc
    if not isinstance(meta, dict):
        raise ModelError(f"{path}: {METADATA_KEY!r} metadata is not an object")
    return meta


def _read_input(session: ort.InferenceSession, path: Path) -> tuple[str, tuple[int, int]]:
    inputs = session.get_inputs()
    shape = inputs[0].shape if len(inputs) == 1 else None
    if shape is None or len(shape) != 4 or shape[3] != 3 or not all(isinstance(d, int) for d in shape[1:3]):
        raise ModelError(f"{path}: expected one input of shape N x H x W x 3, got {[i.shape for i in inputs]}")
    if inputs[0].type != "tensor(uint8)":
        raise ModelError(f"{path}: expected a uint8 input, got {inputs[0].type}")
    return inputs[0].name, (int(shape[2]), int(shape[1]))


def _read_classes(
    meta: dict[str, Any], session: ort.InferenceSession, path: Path
) -> tuple[tuple[str, ...], MappingProxyType[str, tuple[str, ...]]]:
    classes = meta.get("classes")
    cards = meta.get("class_cards")
    if not isinstance(classes, list) or not all(isinstance(c, str) for c in classes) or not isinstance(cards, dict):
        raise ModelError(f"{path}: metadata needs 'classes' (list of names) and 'class_cards' (name -> codes)")
    outputs = session.get_outputs()
    width = outputs[0].shape[-1] if outputs else None
    if len(outputs) != 1 or width != len(classes):
        raise ModelError(f"{path}: the model has outputs {[o.shape for o in outputs]} for {len(classes)} classes")
    class_cards = {name: tuple(cards.get(name, ())) for name in classes}
    return tuple(classes), MappingProxyType(class_cards)
