"""The card classifier's trainer: fine-tuning starts from the shipped ONNX model (its torch checkpoint is gone), and a
short run trains from it (torch is in the ``[train]`` extra: skipped without it)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("onnx")

import onnxruntime as ort
import torch

from datasets.hanafuda.crops import render_crops
from datasets.training.net import normalise
from datasets.training.train_cards import initial_net, parse_args, parse_size, train

MODELS = Path(__file__).resolve().parents[2] / "models"
SHIPPED = MODELS / "hanafuda-cards.onnx"


def _shipped_logits(crops: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(str(SHIPPED), providers=["CPUExecutionProvider"])
    return session.run(None, {session.get_inputs()[0].name: crops})[0]


def test_the_shipped_classifier_comes_back_into_torch_computing_the_same(shared_data: Path) -> None:
    crops, _ = render_crops(96, 3)
    net = initial_net(SHIPPED, lambda: crops)  # batch norms recalibrated on these crops, the function kept
    with torch.no_grad():
        logits = net.eval()(normalise(torch.from_numpy(crops))).numpy()
    shipped = _shipped_logits(crops)
    assert np.abs(logits - shipped).max() < 1e-4
    assert np.mean(logits.argmax(1) == shipped.argmax(1)) == 1.0
    fresh = initial_net(None, lambda: crops)
    with torch.no_grad():
        assert np.abs(fresh.eval()(normalise(torch.from_numpy(crops))).numpy() - shipped).max() > 1.0


def test_a_model_of_another_network_is_not_read_as_the_classifier() -> None:
    with pytest.raises(ValueError, match="as a CardNet"):
        initial_net(MODELS / "domino-faces.onnx", lambda: np.zeros((2, 80, 48, 3), np.uint8))


def test_a_few_steps_from_the_shipped_model_on_inked_decks(shared_data: Path) -> None:
    """The fine-tune that ``--init models/hanafuda-cards.onnx --renderer ...:render_crops_ink`` runs, two steps at a
    tiny rate: the network still names crops as the shipped model does."""
    args = parse_args(["--out", "unused", "--steps", "2", "--batch", "16", "--lr", "1e-6", "--capacity", "64",
                       "--chunk", "16", "--init", str(SHIPPED),
                       "--renderer", "datasets.hanafuda.crops:render_crops_ink"])  # fmt: skip
    net, stats = train(args, parse_size(args.size), lambda _message: None)
    assert stats["steps"] == 2 and stats["rendered"] >= 64
    crops, _ = render_crops(64, 4)
    with torch.no_grad():
        tuned = net.eval()(normalise(torch.from_numpy(crops))).argmax(1).numpy()
    assert np.mean(tuned == _shipped_logits(crops).argmax(1)) > 0.95
