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

from datasets.training.finder_net import STRIDE, FinderExport, FinderNet
from datasets.training.net import MEAN_BGR, STD_BGR

METADATA_KEY = "kibitz"  # read by vision.finder_learned
OPSET = 17
SHORT_SIDE = 288  # the frame's short side at the network input (a 1280x720 or 1920x1080 frame -> 512x288)
MULTIPLE = 32  # input sides are padded to this (the network's deepest stride)
THRESHOLDS = {"heat": 0.3, "partial_visible": 0.9, "nms_iou": 0.7}


def finder_metadata(thresholds: dict[str, float] | None = None, task: str = "card-finder", what: str = "card",
                    **extra: Any) -> dict[str, Any]:
    """Everything the runtime needs to use the model, plus what the model card reports. ``task`` is what the
    runtime checks (``card-finder``, ``domino-finder``), ``what`` the one class found."""
    return {
        "task": task,
        "classes": [what],
        "input": {"name": "frame", "layout": "NHWC", "dtype": "uint8", "channels": "BGR", "batch": 1,
                  "short_side": SHORT_SIDE, "multiple": MULTIPLE,
                  "rule": f"resize the frame so its short side is {SHORT_SIDE} px (area averaging), pad right and "
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
    entry.value = json.dumps(metadata, sort_keys=True)
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


CARD_TEMPLATE = """# card-finder.onnx — learned hanafuda card finder

Finds every card (face up, face down, blank) in a frame as an oriented quadrilateral, with a visible share
that marks covered or cut cards as partial. A small CenterNet-style fully-convolutional network trained from
scratch on synthetic scenes by `datasets/training/train_finder.py` (PyTorch, CPU), shipped as ONNX for
onnxruntime; read by `vision/finder_learned.py` (`LearnedFinder`), the recogniser's default finder.

## Classes
One: `card` (any hanafuda/hwatu card, face up or down, or a blank). Phones, hands, coins, cups, pens and card
boxes (even with card art on the lid) are background.

## Input and output
- input `frame`: uint8, 1 x H x W x 3, **BGR**. Rule (in the metadata): resize the frame so its **short side
  is {short_side} px** (area averaging; 1280x720 and 1920x1080 both become 512x288), pad right/bottom to a
  multiple of {multiple}. H and W are dynamic. Cards are then ~18-55 px wide (a 1080p whole mat: ~16 px).
- normalisation is inside the graph: x / 255, then (x - {mean}) / {std} per channel.
- outputs at stride {stride}: `heat` (card-centre probability), `corners` (8 numbers per cell: the four corners in
  input px relative to the cell centre, clockwise, short side first; which short side is first is arbitrary:
  the 180° ambiguity is left to the classifier), `visible` (share of the card's face in view).
- decoding (`LearnedFinder`): 3x3 max-pool NMS on `heat`, threshold {heat} (calibrated on training-style
  scenes), corners read at the peak, quad NMS at IoU {nms_iou}, mapped to frame pixels, then each side refitted
  to the colour step at full resolution (`vision/finder_refine.py`); `partial` when `visible` < {partial_visible}
  (calibrated too).
- metadata: the `kibitz` entry of metadata_props (input rule, stride, thresholds, training summary, metrics).

## Network
Depthwise-separable backbone (`datasets/training/finder_net.py`): 3x3 stem (stride 2), four levels down to
stride 32 (channels {levels}), a feature pyramid back to stride 4 ({neck} channels), 1x1 heads.
{params:,} parameters, {mmacs:.0f} M multiply-adds for a 512x288 input; {size_kb:.0f} KB as ONNX (opset {opset}).

## Data recipe
- generator: `datasets.hanafuda.render_scene` rendered **directly at 512x288** (the input scale) in a
  background process, presets mixed {mix}; all realism knobs on (tilt up to 35°, any rotation, touching
  rows, fanned piles, whole mats, props and hands, glare, blur, noise, JPEG).
- training styles: {train_styles}; held out for testing: `{test_style}` (never seen in training).
- targets: a Gaussian at each card's centre (diagonal crossing) for cards showing >= {min_visible:.0%} of their
  face (cards showing {ignore_visible:.0%}-{min_visible:.0%} are ignored), the four corners and the visible share
  regressed at the 3x3 cells round each centre.
- loss: CenterNet focal loss on the heat + L1 on the corners divided by the card's short side, the minimum over
  the two 180°-equivalent corner orders + BCE on the visible share; AdamW (lr {lr}), batch {batch},
  warm-up then cosine decay over the {schedule}. Replay buffer of {capacity} frames; {rendered:,} rendered.

## Training run
- command: `{command}`
- seed {seed}; {steps:,} steps, {minutes:.1f} minutes on {machine}.
- reproducibility: same recipe and seed give a model of the same quality, not a bit-identical file (the
  schedule follows wall time, and the worker's pace decides which frames the buffer holds when).
- export check: max |onnxruntime - torch| over all outputs {export_error:.1e}.

## Metrics (held-out style `{test_style}`, full-resolution frames, `python -m tests.benchmarks.bench_finder`)
{metric_lines}

## Latency
{latency_lines}
"""


def write_model_card(path: Path, fields: dict[str, Any], metric_lines: list[str], latency_lines: list[str],
                     thresholds: dict[str, float], template: str = CARD_TEMPLATE) -> None:
    text = template.format(metric_lines="\n".join(metric_lines), latency_lines="\n".join(latency_lines),
                                short_side=SHORT_SIDE, multiple=MULTIPLE, mean=MEAN_BGR[0], std=STD_BGR[0],
                                stride=STRIDE, opset=OPSET, **{**THRESHOLDS, **thresholds}, **fields)
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
