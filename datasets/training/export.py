"""ONNX export of the card network with its metadata, and the check that onnxruntime agrees with torch."""

from __future__ import annotations

import io
import json
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import torch

from datasets.training.classes import CLASS_CARDS, CLASS_NAMES
from datasets.training.net import MEAN_BGR, STD_BGR, CardNet, ExportWrapper

METADATA_KEY = "kibitz"  # read by vision.classifier
OPSET = 17


def model_metadata(size: tuple[int, int], rotation_average: bool, **extra: Any) -> dict[str, Any]:
    """Everything the runtime needs to use the model, plus what the model card reports."""
    w, h = size
    return {
        "classes": list(CLASS_NAMES),
        "class_cards": {name: list(cards) for name, cards in CLASS_CARDS.items()},
        "input": {"name": "crops", "layout": "NHWC", "dtype": "uint8", "channels": "BGR", "width": w, "height": h},
        "normalisation": {"scale": 1 / 255, "mean_bgr": list(MEAN_BGR), "std_bgr": list(STD_BGR), "in_graph": True},
        "rotation_average": rotation_average,
        "output": "logits (softmax gives probabilities)",
        **extra,
    }


def save_onnx(wrapper: torch.nn.Module, path: Path, metadata: dict[str, Any], size: tuple[int, int],
              outputs: Sequence[str]) -> None:
    """Write ``wrapper`` (uint8 N x H x W x 3 BGR ``crops`` of ``size`` = (W, H) in, ``outputs`` out, all with a
    dynamic batch dimension) with ``metadata`` in metadata_props: every kibitz crop model ships so."""
    w, h = size
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the TorchScript exporter's deprecation notice
        torch.onnx.export(
            wrapper.eval(),
            (torch.zeros(2, h, w, 3, dtype=torch.uint8),),
            buffer,
            input_names=["crops"],
            output_names=list(outputs),
            dynamic_axes={name: {0: "batch"} for name in ("crops", *outputs)},
            opset_version=OPSET,
            dynamo=False,
        )
    model = onnx.load_from_string(buffer.getvalue())
    entry = model.metadata_props.add()
    entry.key = METADATA_KEY
    entry.value = json.dumps(metadata, sort_keys=True)
    model.producer_name = "kibitz datasets.training"
    onnx.checker.check_model(model)
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))


def export_onnx(net: CardNet, path: Path, size: tuple[int, int], metadata: dict[str, Any]) -> None:
    """Write the card model with a dynamic batch dimension and the metadata in metadata_props."""
    save_onnx(ExportWrapper(net, rotation_average=bool(metadata["rotation_average"])), path, metadata, size,
              ["logits"])


def max_export_error(net: CardNet, path: Path, crops: np.ndarray, rotation_average: bool) -> float:
    """Largest |logit difference| between torch and onnxruntime on the same crops (should be ~1e-5)."""
    wrapper = ExportWrapper(net, rotation_average).eval()
    with torch.no_grad():
        expected = wrapper(torch.from_numpy(crops)).numpy()
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    (got,) = session.run(None, {"crops": crops})
    return float(np.abs(got - expected).max())
