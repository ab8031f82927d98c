"""The domino face reader's samples and trainer: crops labelled with their tile's face, augmentation that keeps a
red pip red, and a short run that exports a model the runtime reads (torch is in the ``[train]`` extra: skipped
without it)."""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np
import pytest

pytest.importorskip("torch")

from datasets.dominoes.face_data import LOOKS, OFF_LABEL, label, scene_samples
from datasets.dominoes.face_data import main as render_samples
from datasets.training.train_faces import SMOOTHING, augmented, export, metadata, targets, train
from vision.dominoes.face_reader import CLASSES, CROP_SIZE, FaceReader


def test_each_whole_tile_gives_its_looks_labelled_with_its_face() -> None:
    crops, _, labels = scene_samples((5, 0))
    assert crops.shape[1:] == (CROP_SIZE[1], CROP_SIZE[0], 3) and len(crops) == len(labels) > 0
    assert len(labels) % LOOKS == 0 and set(labels.tolist()) <= set(range(len(CLASSES)))
    assert label((5, 2), True) == CLASSES.index("2:5") and label((5, 2), False) == CLASSES.index("back")


def test_off_looks_are_added_beside_and_leave_the_other_samples_as_they_were() -> None:
    """Off looks (a quad a fifth to a half of a tile along) are drawn only when asked for: without them a scene's
    samples are what they were, and with them every whole tile still gives its looks, in order, and some an off
    look more, labelled ``OFF_LABEL``."""
    crops, _, labels = scene_samples((5, 0))
    again, _, same = scene_samples((5, 0), off_looks=0.0)
    assert np.array_equal(crops, again) and np.array_equal(labels, same)
    _, _, with_off = scene_samples((5, 0), off_looks=1.0)
    off = with_off == OFF_LABEL
    assert off.sum() == len(labels) // LOOKS
    assert np.array_equal(np.sort(with_off[~off]), np.sort(labels))


def test_targets_smooth_a_label_and_spread_an_off_look_evenly() -> None:
    out = targets(np.array([CLASSES.index("2:5"), OFF_LABEL])).numpy()
    assert np.allclose(out.sum(axis=1), 1.0)
    assert out[0].argmax() == CLASSES.index("2:5") and np.isclose(out[0].max(), 1 - SMOOTHING + SMOOTHING / len(CLASSES))
    assert np.allclose(out[1], 1 / len(CLASSES))


def test_augmentation_turns_mirrors_and_inverts_lightness_but_keeps_red() -> None:
    crop = np.full((CROP_SIZE[1], CROP_SIZE[0], 3), 30, np.uint8)  # a dark tile
    cv2.circle(crop, (8, 10), 4, (40, 40, 220), -1)  # a red pip near its top left
    out = augmented(np.stack([crop] * 200), np.random.default_rng(0))
    red = [(o[..., 2].astype(int) - o[..., 1]) > 80 for o in out]
    assert all(r.sum() > 20 for r in red)  # every copy keeps a red pip
    assert any(r[:20].sum() == 0 for r in red) and any(r[:20].sum() > 0 for r in red)  # some turned
    assert 0.1 < np.mean([o[40, 16, 1] > 128 for o in out]) < 0.35  # about a fifth have a light face now


def test_a_short_run_exports_a_model_the_runtime_reads(tmp_path: Path) -> None:
    render_samples(["--out", str(tmp_path), "--scenes", "2", "--workers", "1", "--chunk", "1"])
    args = argparse.Namespace(data=tmp_path, val_share=0.5, seed=0, lr=1e-3, minutes=0.02, batch=16,
                              heldout_scenes=0)
    net, summary = train(args)
    assert summary["steps"] > 0 and 0 <= summary["validation_accuracy"] <= 1
    path = tmp_path / "faces.onnx"
    assert export(net.eval(), path, metadata(summary)) < 1e-4
    reader = FaceReader(path)
    assert reader.size == CROP_SIZE and reader.metadata["training"]["steps"] == summary["steps"]
    quad = np.array([[100, 100], [140, 100], [140, 200], [100, 200]], np.float32)
    probs = reader(np.full((300, 300, 3), 128, np.uint8), quad[None])
    assert probs.shape == (1, len(CLASSES)) and abs(float(probs.sum()) - 1.0) < 1e-4
