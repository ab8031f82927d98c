"""The card finder's model card, as a template the publish step fills in. Apart from the exporter so that the finder
tasks (and the tests that use them) need neither torch nor onnx."""

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
  is {short_side} px** (area averaging; 1280x720 and 1920x1080 both become {input_size}), pad right/bottom to a
  multiple of {multiple}. H and W are dynamic. Cards are then ~{card_px} px wide (a 1080p whole mat: ~{mat_px} px).
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
{params:,} parameters, {mmacs:.0f} M multiply-adds for a {input_size} input; {size_kb:.0f} KB as ONNX (opset {opset}).

## Data recipe
- generator: `datasets.hanafuda.render_scene` rendered **directly at {input_size}** (the input scale) in a
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
