"""The finder trainer's tasks: cards as before, domino tiles from the same data path (scenes -> dense targets)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from datasets.dominoes.finder_scenes import TASK, eval_scene, tile_scene
from datasets.training.finder_data import (
    CARD_SCENES,
    INPUT_SIZE,
    MIN_VISIBLE,
    STRIDE,
    SceneStream,
    cell_centres,
    render_sample,
)
from datasets.training.finder_tasks import CARDS, finder_task
from vision.geometry import order_quads


def training_code() -> None:
    """The trainer and exporter import torch and onnx, the optional ``[train]`` extra: without them, skip."""
    pytest.importorskip("torch", reason="the [train] extra (torch) is not installed")
    pytest.importorskip("onnx", reason="the [train] extra (onnx) is not installed")


def test_tasks_name_their_model_scenes_and_held_out_style() -> None:
    assert finder_task("cards") is CARDS and CARDS.model == "card-finder" and CARDS.scenes == CARD_SCENES
    dominoes = finder_task("dominoes")
    assert dominoes is TASK and dominoes.model == "domino-finder" and dominoes.what == "tile"
    assert dominoes.test_style not in dominoes.train_styles
    with pytest.raises(ValueError, match="unknown finder task 'mahjong'"):
        finder_task("mahjong")


def test_the_trainer_trains_the_card_finder_by_default() -> None:
    training_code()
    from datasets.training.train_finder import parse_args

    assert parse_args(["--out", "x"]).scenes == "cards"  # the card finder trains as before by default
    assert parse_args(["--out", "x", "--scenes", "dominoes"]).scenes == "dominoes"


def test_metadata_keeps_the_card_finder_and_names_the_tile_finder() -> None:
    training_code()
    from datasets.training.finder_export import finder_metadata

    cards = finder_metadata({"heat": 0.4})
    assert cards["task"] == "card-finder" and cards["classes"] == ["card"] and cards["thresholds"]["heat"] == 0.4
    assert "card-centre" in cards["outputs"]["heat"]
    tiles = finder_metadata(task="domino-finder", what="tile")
    assert tiles["task"] == "domino-finder" and tiles["classes"] == ["tile"] and "tile-centre" in tiles["outputs"]["heat"]


def test_domino_scenes_become_dense_targets(shared_data: Path) -> None:
    rng = np.random.default_rng(11)
    image, targets = render_sample(rng, TASK.train_styles, INPUT_SIZE, TASK.scenes)
    again, quads, visible = tile_scene(np.random.default_rng(11), TASK.train_styles, INPUT_SIZE)
    assert image.shape == (INPUT_SIZE[1], INPUT_SIZE[0], 3) and np.array_equal(image, again)
    ys, xs = np.nonzero(targets.heat >= 0.999)
    shown = visible >= MIN_VISIBLE
    assert 1 <= len(ys) <= shown.sum()
    grid = cell_centres(*targets.heat.shape)
    ordered = order_quads(quads)
    for y, x in zip(ys, xs, strict=True):  # every peak's corners are one shown tile's corners
        corners = (targets.corners[:, y, x].reshape(4, 2) + grid[:, y, x]).astype(np.float32)
        error = np.abs(ordered[shown] - corners[None]).max(axis=(1, 2))
        assert error.min() < 0.01
        assert targets.weight[y, x] == 1.0 and targets.short[y, x] >= 4.0
    assert targets.heat.shape == (INPUT_SIZE[1] // STRIDE, INPUT_SIZE[0] // STRIDE)


def test_scene_stream_renders_domino_frames_in_a_worker(shared_data: Path) -> None:
    stream = SceneStream(TASK.train_styles, seed=3, workers=1, capacity=6, chunk=2, scenes=TASK.scenes)
    try:
        stream.pull(block_until=2, timeout_s=120)
        batch = stream.batch(3, np.random.default_rng(0))
    finally:
        stream.close()
    assert batch["images"].shape == (3, INPUT_SIZE[1], INPUT_SIZE[0], 3) and batch["images"].any()
    assert (batch["heat"] >= 0.999).any()


def test_evaluation_scenes_draw_their_layout(shared_data: Path) -> None:
    row = eval_scene("row", (TASK.test_style,), 5)
    assert row.layout == "row" and row.style == TASK.test_style and row.image.shape == (720, 1280, 3)


def test_the_card_trainer_takes_a_preset_mix(shared_data: Path) -> None:
    training_code()
    from functools import partial

    from datasets.training.finder_data import card_scene
    from datasets.training.train_finder import mix_words, parse_args

    assert parse_args(["--out", "x"]).mix is None  # finder_data.PRESET_MIX
    mix = parse_args(["--out", "x", "--mix", "default=0.45, close-up=0.1"]).mix
    assert mix == {"default": 0.45, "close-up": 0.1}
    assert mix_words({"default": 0.9, "close-up": 0.3}) == "default 75%, close-up 25%"  # the model card's words
    for bad in ("default=0.5,mahjong=0.5", "default=half", "default=0,piles=0"):
        with pytest.raises(SystemExit):
            parse_args(["--out", "x", "--mix", bad])
    # Close-ups alone, through a rendering process: one card big in the frame in every scene.
    stream = SceneStream(CARDS.train_styles, seed=5, workers=1, capacity=4, chunk=2,
                         scenes=partial(card_scene, mix={"close-up": 1.0}), size=(256, 160))
    try:
        stream.pull(block_until=2, timeout_s=120)
        centres = (stream.heat[:stream.filled] >= 0.999).sum(axis=(1, 2))
    finally:
        stream.close()
    assert centres.min() >= 1 and centres.max() <= 3  # the close-up card, maybe one cut by the frame's edge
