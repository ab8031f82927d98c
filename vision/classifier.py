"""Card classifier: canonical card crops -> class probabilities, through the shipped ONNX model.

The model is self-describing: its input shape comes from the graph, its class list and the cards each class
stands for from the ``kibitz`` entry of its metadata_props (written by ``datasets.training``). The graph takes
raw uint8 BGR crops and normalises them itself (the shipped one also averages each crop with its 180-degree
rotation), so callers only warp quads to ``input_size`` and pass all crops of a frame in one batch.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
import onnxruntime as ort

from vision.onnx import open_session

DEFAULT_MODEL = "hanafuda-cards.onnx"
METADATA_KEY = "kibitz"


class ModelError(RuntimeError):
    """The model file exists but is not a readable kibitz card model."""


class CardClassifier:
    """Owns one onnxruntime session on the CPU with explicit thread counts; holds no per-frame state."""

    def __init__(self, model_path: str | Path | None = None, threads: int = 1) -> None:
        path, self._session = open_session(model_path, DEFAULT_MODEL, threads, "card", ModelError)
        self.path = path
        self.threads = threads
        self._input_name, self.input_size = _read_input(self._session, path)
        meta = _metadata(self._session, path)
        self.classes, self.class_cards = _read_classes(meta, self._session, path)
        self.is_face = np.array([bool(self.class_cards[name]) for name in self.classes])  # per class: a card's face
        self.is_face.flags.writeable = False
        self.metadata: MappingProxyType[str, Any] = MappingProxyType(meta)

    def __repr__(self) -> str:
        return f"CardClassifier({str(self.path)!r}, threads={self.threads}, classes={len(self.classes)})"

    def face_probability(self, probabilities: np.ndarray) -> np.ndarray:
        """Each crop's probability (rows of ``classify``) of its likeliest card face: not a back, not not-a-card."""
        face: np.ndarray = np.asarray(probabilities)[:, self.is_face].max(axis=1, initial=0.0)
        return face

    def classify(self, crops: np.ndarray) -> np.ndarray:
        """uint8 BGR crops N x H x W x 3 (``input_size`` = (W, H)) -> probabilities N x C, in one batch."""
        crops = np.asarray(crops)
        w, h = self.input_size
        if crops.dtype != np.uint8:
            raise TypeError(f"classify: crops must be uint8 BGR, got dtype {crops.dtype}")
        if crops.ndim != 4 or crops.shape[1:] != (h, w, 3):
            raise ValueError(f"classify: expected crops of shape N x {h} x {w} x 3, got {crops.shape}")
        if len(crops) == 0:
            return np.zeros((0, len(self.classes)), np.float32)
        (logits,) = self._session.run(None, {self._input_name: np.ascontiguousarray(crops)})
        logits = logits.astype(np.float32, copy=False)
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
