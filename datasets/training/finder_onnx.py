"""A shipped finder's ONNX weights back in a trainable ``FinderNet`` (``onnx_weights`` does the reading, and
``recalibrate`` gives its batch norms the statistics of real frames).
"""

from __future__ import annotations

import json
from pathlib import Path

import onnx
import torch

from datasets.training.finder_export import METADATA_KEY
from datasets.training.finder_net import FinderNet
from datasets.training.onnx_weights import load_convolutions, recalibrate

__all__ = ["finder_from_onnx", "recalibrate"]


def finder_from_onnx(path: Path) -> FinderNet:
    """The network of a finder exported by ``finder_export.export_finder``, batch norms as plain biases."""
    model = onnx.load(str(path))
    meta = next((json.loads(p.value) for p in model.metadata_props if p.key == METADATA_KEY), {})
    net = FinderNet(float(meta.get("width", 1.0)))  # finders exported before session 19 are all of width 1
    load_convolutions(net, model, torch.zeros(1, 3, 64, 64), f"{path} as a FinderNet")
    return net.eval()
