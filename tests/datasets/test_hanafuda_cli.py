"""The generator's command line writes what ``kibitz eval-vision`` and training read."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import cv2

from datasets.hanafuda.art import CODES
from datasets.hanafuda.crops import CLASSES, load_crops
from datasets.hanafuda.generate import main


def test_scenes_write_images_manifest_and_labels(shared_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "scenes"
    args = ["scenes", "--style", "mantia-modern", "--count", "3", "--seed", "7", "--out", str(out), "--size", "320x192"]
    assert main(args) == 0
    lines = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    assert len(lines) == 3
    for line in lines:
        image = cv2.imread(str(out / line["image"]))
        assert image is not None and image.shape == (192, 320, 3)
        assert line["style"] == "mantia-modern" and line["seed"][0] == 7
        for card in line["cards"]:
            assert card["card"] in (*CODES, "back", "blank")
            assert len(card["quad"]) == 4 and all(len(p) == 2 for p in card["quad"])
            assert 0.0 <= card["visible"] <= 1.0 and isinstance(card["cut"], bool)
    with (out / "labels.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    expected = [
        (line["image"], card["card"])
        for line in lines
        for card in line["cards"]
        if card["visible"] >= 0.98 and not card["cut"] and card["card"] != "blank"
    ]
    assert [(r["image"], r["card"]) for r in rows] == expected
    assert json.loads((out / "dataset.json").read_text())["seed"] == 7


def test_scenes_in_a_dimmer_room(shared_data: Path, tmp_path: Path) -> None:
    """``--light`` scales each scene's light before it is written (the dim-light sets of README, session 28)."""
    base = ["scenes", "--style", "mantia-modern", "--count", "1", "--seed", "7", "--size", "320x192", "--format", "png"]
    assert main([*base, "--out", str(tmp_path / "lit")]) == 0
    assert main([*base, "--out", str(tmp_path / "dim"), "--light", "0.3"]) == 0
    lit = cv2.imread(str(tmp_path / "lit" / "scene_00000.png")).astype(float)
    dim = cv2.imread(str(tmp_path / "dim" / "scene_00000.png")).astype(float)
    assert abs(dim - lit * 0.3).max() <= 0.5 and lit.mean() > 2 * dim.mean()
    assert main([*base, "--out", str(tmp_path / "none"), "--light", "0"]) == 1


def test_scenes_refuse_to_overwrite(shared_data: Path, tmp_path: Path) -> None:
    (tmp_path / "old.txt").write_text("keep me")
    assert main(["scenes", "--style", "mantia-alt", "--count", "1", "--out", str(tmp_path)]) == 1
    assert (tmp_path / "old.txt").read_text() == "keep me"


def test_crops_write_a_readable_npz(shared_data: Path, tmp_path: Path) -> None:
    path = tmp_path / "crops.npz"
    assert (
        main(["crops", "--styles", "mantia-alt,hwatu-richert", "--count", "24", "--seed", "1", "--out", str(path)]) == 0
    )
    crops = load_crops(path)
    assert crops.images.shape == (24, 80, 48, 3)
    assert set(crops.labels) <= set(CLASSES)
