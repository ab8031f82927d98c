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

from datasets.dominoes.face_data import LOOKS, label, scene_samples
from datasets.dominoes.face_data import main as render_samples
from datasets.training.train_faces import augmented, export, metadata, train
from vision.dominoes.face_reader import CLASSES, CROP_SIZE, FaceReader


def test_each_whole_tile_gives_its_looks_labelled_with_its_face() -> None:
    crops, _, labels = scene_samples((5, 0))
    assert crops.shape[1:] == (CROP_SIZE[1], CROP_SIZE[0], 3) and len(crops) == len(labels) > 0
    assert len(labels) % LOOKS == 0 and set(labels.tolist()) <= set(range(len(CLASSES)))
    assert label((5, 2), True) == CLASSES.index("2:5") and label((5, 2), False) == CLASSES.index("back")


def test_big_pips_change_the_faces_and_nothing_else() -> None:
    """Seed (5, 4) lays an ivory Chinese set: with big pips its crops differ, its tiles and labels stay."""
    plain, big = scene_samples((5, 4)), scene_samples((5, 4), big_pips=1.0)
    assert np.array_equal(plain[2], big[2]) and np.abs(plain[0].astype(int) - big[0]).mean() > 2


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
