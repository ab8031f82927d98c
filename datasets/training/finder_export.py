"""ONNX export of a finder (cards, domino tiles) with its metadata, the torch/onnxruntime check, its model card."""

from __future__ import annotations

import io
import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import torch

from datasets.training.finder_card import CARD_TEMPLATE
from datasets.training.finder_net import STRIDE, FinderExport, FinderNet
from datasets.training.net import MEAN_BGR, STD_BGR

METADATA_KEY = "kibitz"  # read by vision.finder_learned
OPSET = 17
SHORT_SIDE = 288  # the frame's short side at the network input (a 1280x720 or 1920x1080 frame -> 512x288)
MULTIPLE = 32  # input sides are padded to this (the network's deepest stride)
THRESHOLDS = {"heat": 0.3, "partial_visible": 0.9, "nms_iou": 0.7}


def finder_metadata(thresholds: dict[str, float] | None = None, task: str = "card-finder", what: str = "card",
                    short_side: int = SHORT_SIDE, **extra: Any) -> dict[str, Any]:
    """Everything the runtime needs to use the model, plus what the model card reports. ``task`` is what the
    runtime checks (``card-finder``, ``domino-finder``), ``what`` the one class found."""
    return {
        "task": task,
        "classes": [what],
        "input": {"name": "frame", "layout": "NHWC", "dtype": "uint8", "channels": "BGR", "batch": 1,
                  "short_side": short_side, "multiple": MULTIPLE,
                  "rule": f"resize the frame so its short side is {short_side} px (area averaging), pad right and "
                          f"bottom to a multiple of {MULTIPLE}"},
        "normalisation": {"scale": 1 / 255, "mean_bgr": list(MEAN_BGR), "std_bgr": list(STD_BGR), "in_graph": True},
        "stride": STRIDE,
        "outputs": {"heat": f"1 x 1 x H/4 x W/4 {what}-centre probability",
                    "corners": "1 x 8 x H/4 x W/4 corners (x, y) x 4 in input px relative to the cell centre "
                               "(cell (i, j) sits at x = 4 j + 1.5, y = 4 i + 1.5); clockwise, short side first, "
                               "which short side comes first is arbitrary",
                    "visible": f"1 x 1 x H/4 x W/4 visible share of the {what} centred there"},
        "thresholds": {**THRESHOLDS, **(thresholds or {})},
        **extra,
    }


def export_finder(net: FinderNet, path: Path, metadata: dict[str, Any]) -> None:
    """Write the model with dynamic height and width and the metadata in metadata_props."""
    wrapper = FinderExport(net).eval()
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the TorchScript exporter's deprecation notice
        torch.onnx.export(
            wrapper,
            (torch.zeros(1, SHORT_SIDE, 512, 3, dtype=torch.uint8),),
            buffer,
            input_names=["frame"],
            output_names=["heat", "corners", "visible"],
            dynamic_axes={"frame": {1: "height", 2: "width"}, "heat": {2: "h", 3: "w"},
                          "corners": {2: "h", 3: "w"}, "visible": {2: "h", 3: "w"}},
            opset_version=OPSET,
            dynamo=False,
        )
    model = onnx.load_from_string(buffer.getvalue())
    entry = model.metadata_props.add()
    entry.key = METADATA_KEY
    entry.value = json.dumps({**metadata, "width": net.width}, sort_keys=True)  # to fine-tune it again
    model.producer_name = "kibitz datasets.training"
    onnx.checker.check_model(model)
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))


def max_export_error(net: FinderNet, path: Path, frames: np.ndarray) -> float:
    """Largest |difference| between torch and onnxruntime over all outputs (corners in px) on the same frames."""
    wrapper = FinderExport(net).eval()
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    worst = 0.0
    for frame in frames:
        with torch.no_grad():
            expected = [t.numpy() for t in wrapper(torch.from_numpy(frame[None]))]
        got = session.run(["heat", "corners", "visible"], {"frame": frame[None]})
        worst = max(worst, *(float(np.abs(g - e).max()) for g, e in zip(got, expected, strict=True)))
    return worst


def write_model_card(path: Path, fields: dict[str, Any], metric_lines: list[str], latency_lines: list[str],
                     thresholds: dict[str, float], template: str = CARD_TEMPLATE) -> None:
    text = template.format(metric_lines="\n".join(metric_lines), latency_lines="\n".join(latency_lines),
                           multiple=MULTIPLE, mean=MEAN_BGR[0], std=STD_BGR[0], stride=STRIDE, opset=OPSET,
                           **{"short_side": SHORT_SIDE, **THRESHOLDS, **thresholds, **fields})
    path.write_text(text)


def set_thresholds(path: Path, **thresholds: float) -> None:
    """Rewrite the decoding thresholds in a model's metadata (after calibration), leaving the graph alone."""
    model = onnx.load(str(path))
    for entry in model.metadata_props:
        if entry.key == METADATA_KEY:
            meta = json.loads(entry.value)
            meta["thresholds"].update(thresholds)
            entry.value = json.dumps(meta, sort_keys=True)
    onnx.save(model, str(path))
