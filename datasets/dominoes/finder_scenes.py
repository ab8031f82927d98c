"""Domino scenes for the learned tile finder: what it trains on, what it is scored on, and its ``FinderTask``.

The same trainer as the card finder (``datasets.training.train_finder --scenes dominoes``) renders these at the
network's input size. Training draws the procedural styles over a wider range of tile sizes than the 1280x720
evaluation scenes (close-ups of one tile to whole lines of play), more face-down tiles and more plain and paper
tables (an ivory tile on white paper); it is scored on the shared Chinese art, never seen in training.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from datasets.dominoes.scenes import DominoScene, DominoSceneConfig, render_scene
from datasets.dominoes.styles import TEST_STYLE, TRAIN_STYLES
from datasets.hanafuda.backgrounds import DEFAULT_SURFACE_WEIGHTS
from datasets.hanafuda.config import SceneConfig
from datasets.training.finder_data import SceneSample
from datasets.training.finder_tasks import FinderTask

# scene set -> the layouts it draws (the evaluation sets; "default" is the scene generator's own mix)
EVAL_SETS: Mapping[str, Mapping[str, float] | None] = {
    "default": None,
    "scattered": {"scattered": 1.0},
    "play": {"play": 1.0},
    "row": {"row": 1.0},
    "wall": {"wall": 1.0},
}
TRAIN_LAYOUTS: Mapping[str, float] = {"scattered": 0.3, "play": 0.3, "row": 0.25, "wall": 0.15}
TRAIN_SURFACES: Mapping[str, float] = {**DEFAULT_SURFACE_WEIGHTS, "paper": 0.2, "plain": 0.2}
TRAIN_TILE_LENGTH = (0.08, 0.5)  # a tile's long side as a share of the frame height


def training_config(styles: Sequence[str], size: tuple[int, int]) -> DominoSceneConfig:
    photo = SceneConfig(props=0.0, hands=0.0, glare=0.3, surfaces=dict(TRAIN_SURFACES))
    return DominoSceneConfig(size=size, styles=tuple(styles), layouts=dict(TRAIN_LAYOUTS), tiles=(1, 16),
                             tile_length=TRAIN_TILE_LENGTH, tilt_max_deg=35.0, photo=photo)


def tile_scene(rng: np.random.Generator, styles: Sequence[str], size: tuple[int, int]) -> SceneSample:
    """One training frame (``finder_data.SceneRenderer``): image, tile face quads, visible shares."""
    scene = render_scene(rng, training_config(styles, size))
    return scene.image, scene.quads, scene.visible


def eval_scene(name: str, styles: Sequence[str], seed: np.random.Generator | int,
               size: tuple[int, int] | None = None) -> DominoScene:
    """A scene of the named set (``EVAL_SETS``) as ``datasets.dominoes.evaluate`` draws them (1280x720)."""
    config = DominoSceneConfig(size=size or (1280, 720), styles=tuple(styles))
    layouts = EVAL_SETS[name]
    return render_scene(seed, replace(config, layouts=dict(layouts)) if layouts else config)


DOMINO_TEMPLATE = """# domino-finder.onnx — learned domino tile finder

Finds every domino tile (face up or face down, Chinese or European) in a frame as an oriented quadrilateral
of its top face, with a visible share that marks covered or cut tiles as partial. The card finder's network and
trainer (`datasets/training/train_finder.py --scenes dominoes`), trained from scratch on synthetic domino scenes
(`datasets/dominoes/finder_scenes.py`), shipped as ONNX; read by `vision/dominoes/tile_finder.py`
(`TileFinder`, a `LearnedFinder` for this model), the domino recogniser's default finder.

## Classes
One: `tile` (the top face of a domino, any set, face up or down). The lower layer of a wall is hidden by the
upper one and is not asked for.

## Input and output
- input `frame`: uint8, 1 x H x W x 3, **BGR**. Rule (in the metadata): resize the frame so its **short side
  is {short_side} px** (area averaging; 1280x720 becomes {input_size}), pad right/bottom to a multiple of {multiple}.
  H and W are dynamic. Tiles are then ~23-145 px long.
- normalisation is inside the graph: x / 255, then (x - {mean}) / {std} per channel.
- outputs at stride {stride}: `heat` (tile-centre probability), `corners` (8 numbers per cell: the four corners
  in input px relative to the cell centre, clockwise, short side first; which end comes first is arbitrary: the
  pip reader turns the tile), `visible` (share of the top face in view).
- decoding (`LearnedFinder`): 3x3 max-pool NMS on `heat`, threshold {heat} (calibrated on training-style
  scenes), corners read at the peak, quad NMS at IoU {nms_iou}, mapped to frame pixels; `partial` when
  `visible` < {partial_visible} (calibrated too).

## Network
The card finder's (`datasets/training/finder_net.py`): 3x3 stem (stride 2), four depthwise-separable levels
down to stride 32 (channels {levels}), a feature pyramid back to stride 4 ({neck} channels), 1x1 heads.
{params:,} parameters, {mmacs:.0f} M multiply-adds for a {input_size} input; {size_kb:.0f} KB as ONNX (opset {opset}).

## Data recipe
- generator: `datasets.dominoes.finder_scenes.tile_scene` rendered **directly at {input_size}** in background
  processes: {mix}; 1-16 tiles, tiles 8-50 % of the frame height long, tilt up to 35°, any rotation,
  touching rows and walls, chains with doubles across, face-down tiles (plain and printed backs), the card
  scenes' tables (more paper and plain desks), light, glare, blur, noise, JPEG.
- training styles: {train_styles}; held out for testing: `{test_style}` (the shared Chinese tile art).
- targets: a Gaussian at each tile's centre for tiles showing >= {min_visible:.0%} of their face (tiles showing
  {ignore_visible:.0%}-{min_visible:.0%} are ignored), the four corners and the visible share regressed at the
  3x3 cells round each centre.
- loss: CenterNet focal loss on the heat + L1 on the corners over the tile's short side (the better of the
  two 180°-equivalent orders) + BCE on the visible share; AdamW (lr {lr}), batch {batch}, warm-up then cosine
  decay over the {schedule}. Replay buffer of {capacity} frames; {rendered:,} rendered.

## Training run
- command: `{command}`
- seed {seed}; {steps:,} steps, {minutes:.1f} minutes; published on {machine}.
- export check: max |onnxruntime - torch| over all outputs {export_error:.1e}.

## Metrics (held-out style `{test_style}`, 1280x720 frames, `datasets/training/finder_eval.py` scoring)
{metric_lines}

## Latency
{latency_lines}
"""

TASK = FinderTask(
    name="dominoes", model="domino-finder", what="tile", scenes="datasets.dominoes.finder_scenes:tile_scene",
    train_styles=tuple(TRAIN_STYLES), test_style=TEST_STYLE, scene=eval_scene, eval_sets=tuple(EVAL_SETS),
    calibration_sets=("default", "play", "row", "wall", "scattered"), probe_set="default",
    latency_sets=("default", "row"), mix=", ".join(f"{k} {v:.0%}" for k, v in TRAIN_LAYOUTS.items()),
    finder="vision.dominoes.tile_finder:TileFinder", template=DOMINO_TEMPLATE,
)
