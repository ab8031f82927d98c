"""Classifier crops: shape, labels, determinism, and that a named crop really shows its card."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.hanafuda.art import CODES, load_style
from datasets.hanafuda.config import preset
from datasets.hanafuda.crops import (
    CLASSES,
    NOT_A_CARD,
    CropRules,
    crop_quad,
    crops_from_scene,
    load_crops,
    render_crop_set,
    render_crops,
    save_crops,
)
from datasets.hanafuda.scenes import render_scene


def test_crops_have_the_requested_shape_and_known_labels(shared_data: Path) -> None:
    images, labels = render_crops(80, seed=1, styles=["mantia-alt", "hwatu-richert"], size=(48, 80))
    assert images.shape == (80, 80, 48, 3) and images.dtype == np.uint8
    assert len(labels) == 80 and set(labels) <= set(CLASSES)
    counts = Counter(labels)
    assert counts[NOT_A_CARD] >= 5
    assert sum(counts[c] for c in CODES) >= 40


def test_other_sizes_and_same_seed_same_crops(shared_data: Path) -> None:
    a = render_crop_set(30, seed=4, styles=("mantia-alt",), size=(32, 56))
    b = render_crop_set(30, seed=4, styles=("mantia-alt",), size=(32, 56))
    assert a.images.shape == (30, 56, 32, 3)
    assert np.array_equal(a.images, b.images) and a.labels == b.labels
    c = render_crop_set(30, seed=5, styles=("mantia-alt",), size=(32, 56))
    assert not np.array_equal(a.images, c.images)


def test_negatives_come_in_every_kind(shared_data: Path) -> None:
    crops = render_crop_set(400, seed=2, styles=("hwatu-richert",))
    kinds = {s for s, label in zip(crops.sources, crops.labels, strict=True) if label == NOT_A_CARD}
    assert {"background", "straddle", "object"} <= kinds
    assert all(label == NOT_A_CARD for s, label in zip(crops.sources, crops.labels, strict=True) if s != "card")
    assert (crops.visible[np.array(crops.sources) == "card"] >= CropRules().label_min_visible).all()


def test_a_named_crop_shows_its_card_upright(shared_data: Path) -> None:
    art = load_style("mantia-modern", shared_data)
    config = preset("clean", size=(320, 192), layouts={"scattered": 1.0}, card_height=(0.45, 0.6),
                    surfaces={"plain": 1.0}, styles=("mantia-modern",))  # fmt: skip
    rules = CropRules(jitter=0.0, flip=0.0, views=1, negatives=0.0)
    rng = np.random.default_rng(0)
    checked = 0
    for seed in range(3):
        for crop, label, visible, source in crops_from_scene(rng, render_scene(seed, config), (48, 80), rules):
            if source != "card" or label not in CODES or visible < 0.999:
                continue
            face = cv2.resize(art.faces[label], (48, 80), interpolation=cv2.INTER_AREA).astype(float)
            right = np.abs(crop.astype(float) - face)[6:-6, 6:-6].mean()
            turned = np.abs(crop.astype(float) - face[::-1, ::-1])[6:-6, 6:-6].mean()
            assert right < 25 and right < turned
            checked += 1
    assert checked >= 3


def test_flip_turns_the_crop_half_a_turn(shared_data: Path) -> None:
    image = np.zeros((100, 100, 3), np.uint8)
    image[10:30, 20:40] = 255
    quad = np.array([[20, 10], [60, 10], [60, 90], [20, 90]], np.float32) - 0.5
    upright = crop_quad(image, quad, (40, 80))
    turned = crop_quad(image, np.roll(quad, 2, axis=0), (40, 80))
    assert upright[:20, :20].mean() > 200 and turned[-20:, -20:].mean() > 200
    assert np.array_equal(upright, turned[::-1, ::-1])


def test_save_and_load_round_trip(shared_data: Path, tmp_path: Path) -> None:
    crops = render_crop_set(20, seed=3)
    path = tmp_path / "crops.npz"
    save_crops(path, crops, {"seed": 3})
    again = load_crops(path)
    assert np.array_equal(again.images, crops.images) and again.labels == crops.labels
    assert again.sources == crops.sources
    with np.load(path) as data:
        assert list(data["classes"]) == list(CLASSES)
        assert [CLASSES[i] for i in data["labels"]] == list(crops.labels)


def test_bad_requests_are_refused(shared_data: Path, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="style"):
        render_crop_set(5, seed=0, styles=("tarot",))
    with pytest.raises(FileNotFoundError):
        load_crops(tmp_path / "missing.npz")
