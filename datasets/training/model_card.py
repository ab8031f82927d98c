"""Writes the model card (markdown) and the JSON metadata beside the ONNX file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from datasets.training.classes import CLASS_CARDS

CARD_TEMPLATE = """# hanafuda-cards.onnx — hanafuda card classifier

Names one canonical card crop: {n_classes} visual classes = the 48 hanafuda cards (interchangeable plains
merged, see below) + `back` + `not-a-card`. Trained from scratch on synthetic crops by
`datasets/training/` (PyTorch, CPU), shipped as ONNX for onnxruntime; read by `vision/classifier.py`.

## Input and output
- input `crops`: uint8, N x {height} x {width} x 3 (N x H x W x C), **BGR** as OpenCV gives it, the card upright
  or upside down (long side vertical), warped from its quad. The batch dimension is dynamic: classify all cards
  of a frame in one call.
- normalisation is inside the graph: x / 255, then (x - {mean}) / {std} per BGR channel.
- output `logits`: N x {n_classes}; softmax gives probabilities. The graph {rotation_text}
- metadata: the `kibitz` entry of metadata_props (same content as `hanafuda-cards.json`): class names, the
  card codes each class stands for, input spec, training summary.

## Classes
{class_lines}

- Plain-1 and plain-2 of a month (and paulownia plain-1/plain-2, not the coloured plain-3) look alike and are
  interchangeable in every game, so each pair is one class, `<month>-plain`. The deck prior
  (`vision/assign.py`) gives the first such crop of a frame (in crop order) `-1` and the second `-2`.
- The generator's `blank` cards (unprinted spares) are trained as `not-a-card`. `not-a-card` and any label
  below the confidence threshold are reported as `unknown` by the deck prior.

## Network
Depthwise-separable CNN written in PyTorch (`datasets/training/net.py`): 3x3 stem (stride 2), {blocks}
separable blocks with BN, ReLU and residuals, global average pooling, dropout, linear. {params:,} parameters,
{mmacs:.0f} M multiply-adds per crop{mac_note}; {size_kb:.0f} KB as ONNX (opset {opset}).

## Data recipe
- generator: `datasets.hanafuda.crops.render_crops(n, seed, styles, size=({width}, {height}))`: crops cut from
  small rendered scenes with all realism knobs (neighbours, shadows, glare, blur, noise, props, hands), corners
  jittered like an imperfect finder, half turned 180°; cards showing >= 40% of their face are named, mostly
  hidden or cut cards, bare table, quads straddling two cards, objects and card-box art are `not-a-card`.
  {workers} background worker process(es) render chunks of {chunk} into a replay buffer of {capacity:,} crops;
  crops rendered during training: {rendered:,}.
- training styles: {train_styles}; held out for testing: `{test_style}` (never seen in training).
- on top, per drawn batch (`augment.py`): 180° rotation of half the crops, misalignment (±5° rotation, ±10%
  scale, ±8% shift, shear, uncovered border filled with a random table colour), occlusion of up to ~45% of a
  quarter of the crops by a flat colour or a piece of another card, saturation/white balance/contrast/exposure/
  gamma jitter, glare blobs, Gaussian blur, noise; JPEG re-encoding (quality 25-90) of 30% of the rendered crops.
- loss: cross-entropy with label smoothing {smoothing}; AdamW (lr {lr}, weight decay {weight_decay}), batch
  {batch}, warm-up then cosine decay over the {schedule}.

## Training run
- command: `{command}`
- seed {seed}; {steps:,} steps, {samples:,} samples drawn, {minutes:.1f} minutes on {machine}.
- reproducibility: same recipe and seed give a model of the same quality, not a bit-identical file (the
  schedule follows wall time unless `--steps` is given, and the worker's rendering pace decides which crops the
  buffer holds when).
- export check: max |onnxruntime - torch| logit difference {export_error:.1e}.

## Metrics (held-out style, per crop, no deck prior; `python -m datasets.training.eval_crops`)
{metric_lines}

## Latency
`python tests/benchmarks/bench_classifier.py` (onnxruntime, CPU, one batch per frame; median ms per batch):
{latency_lines}
"""


def class_lines() -> str:
    rows = []
    for name, cards in CLASS_CARDS.items():
        rows.append(f"`{name}`" + (f" ({' / '.join(cards)})" if len(cards) > 1 else ""))
    return ", ".join(rows)


def write_model_card(path: Path, fields: dict[str, Any], metric_lines: list[str]) -> None:
    text = CARD_TEMPLATE.format(class_lines=class_lines(), metric_lines="\n".join(metric_lines), **fields)
    path.write_text(text)


def write_metadata_json(path: Path, metadata: dict[str, Any]) -> None:
    path.write_text(json.dumps(metadata, indent=2, sort_keys=True) + "\n")
