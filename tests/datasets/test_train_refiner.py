"""The domino refiner's trainer: augmentation keeps crops and targets together; a short run exports a model the
runtime reads (torch is in the ``[train]`` extra: skipped without it)."""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np
import pytest

pytest.importorskip("torch")

import torch

from datasets.dominoes.refiner_data import main as render_samples
from datasets.dominoes.refiner_data import scene_samples
from datasets.training.train_refiner import augmented, export, load, main, metadata, train
from vision.dominoes.tile_finder import TileFinder
from vision.dominoes.tile_refiner import TILE_CROP, TileRefiner


def _drawn(corners: np.ndarray) -> np.ndarray:
    """A crop with the quad of ``corners`` (the network's units) filled white."""
    crop = np.zeros((TILE_CROP.height, TILE_CROP.width, 3), np.uint8)
    points = corners.reshape(4, 2) * TILE_CROP.half + TILE_CROP.centre
    cv2.fillConvexPoly(crop, np.round(points * 16).astype(np.int32), (255, 255, 255), shift=4)
    return crop


def test_turned_and_mirrored_crops_keep_their_targets() -> None:
    rng = np.random.default_rng(3)
    targets = np.array([[-1.2, -0.6, 0.9, -0.9, 1.1, 1.3, -0.8, 0.8]] * 32, np.float32)
    targets += rng.normal(0, 0.05, targets.shape).astype(np.float32)
    crops = np.stack([_drawn(t) for t in targets])
    moved_crops, moved_targets = augmented(crops, targets, rng)
    assert not np.array_equal(moved_crops, crops)  # some were turned or mirrored
    for crop, target in zip(moved_crops, moved_targets, strict=True):
        redrawn = _drawn(target)
        assert (redrawn[..., 0] != crop[..., 0]).mean() < 0.02
        first = target.reshape(4, 2)[0]
        assert first[0] < 0 and first[1] < 0  # still the corner nearest the candidate's first (top left)


def test_a_short_run_exports_a_model_the_runtime_reads(tmp_path: Path) -> None:
    render_samples(["--out", str(tmp_path), "--scenes", "3", "--workers", "1", "--chunk", "1"])
    args = argparse.Namespace(data=tmp_path, val_share=0.5, seed=0, lr=1e-3, minutes=0.02, batch=16,
                              corner_weight=5.0, init=None, device="cpu")
    net, summary = train(args)
    assert summary["steps"] > 0 and 0 <= summary["validation"]["tile_accuracy"] <= 1
    torch.save({"state": net.state_dict(), "summary": summary}, tmp_path / "run.pt")
    again, _ = train(argparse.Namespace(**(vars(args) | {"minutes": 0.0, "init": tmp_path / "run.pt", "seed": 1})))
    first, second = net.state_dict(), again.state_dict()
    assert all(torch.equal(first[k], second[k]) for k in first)  # a fine-tune starts from the run it names
    path = tmp_path / "refiner.onnx"
    assert export(net.eval(), path, metadata(0.6, 1, summary)) < 1e-4
    refiner = TileRefiner(path)
    assert refiner.threshold == 0.6 and refiner.passes == 1
    quad = np.array([[100, 100], [140, 100], [140, 200], [100, 200]], np.float32)
    quads, tile = refiner(np.full((300, 300, 3), 128, np.uint8), quad[None])
    assert quads.shape == (1, 4, 2) and 0 <= tile[0] <= 1
    # the photo refiner is written under its own name (``--model``) from a checkpoint, as shipped
    assert main(["--kind", "dominoes", "--data", str(tmp_path), "--export-only", "--checkpoint",
                 str(tmp_path / "run.pt"), "--out", str(tmp_path), "--model", TileRefiner.PHOTO_MODEL,
                 "--tile-threshold", "0.3"]) == 0
    photo = TileRefiner(tmp_path / TileRefiner.PHOTO_MODEL)
    assert photo.threshold == 0.3 and np.allclose(photo(np.full((300, 300, 3), 128, np.uint8), quad[None])[1], tile,
                                                  atol=1e-5)


def test_the_renderer_lays_pips_out_as_asked(tmp_path: Path) -> None:
    """``--pip-variety`` reaches the worker processes: the shard written with it holds the samples of
    ``scene_samples`` at that variety, other crops than a set with one layout per face gives. (This scene's set keeps
    its layout at the default 0.5.)"""
    render_samples(["--out", str(tmp_path), "--scenes", "1", "--workers", "1", "--chunk", "1", "--pip-variety", "1"])
    written, _, labels, _ = load(tmp_path)
    finder = TileFinder()
    varied, _, varied_labels = scene_samples((31000, 0), finder, pip_variety=1.0)
    plain, _, _ = scene_samples((31000, 0), finder, pip_variety=0.0)
    assert np.array_equal(written, varied) and np.array_equal(labels, varied_labels)
    assert len(plain) and not np.array_equal(varied[: len(plain)], plain)


def test_fine_tuning_starts_from_a_shipped_refiner(tmp_path: Path) -> None:
    """``--init`` with an ``.onnx``: the shipped card refiner's weights come back into torch (its checkpoint was not
    kept) and compute what the runtime computes; a fine-tune at a small rate from them still answers as it did."""
    pytest.importorskip("onnx")
    from datasets.training.net import normalise
    from datasets.training.refiner_net import RefinerExport, refiner_net_from_onnx
    from vision.card_refiner import CARD_CROP, CardRefiner

    shipped = Path(__file__).resolve().parents[2] / "models" / CardRefiner.DEFAULT_MODEL
    sample = np.random.default_rng(0).integers(0, 256, (4, CARD_CROP.height, CARD_CROP.width, 3), dtype=np.uint8)
    runtime = CardRefiner(shipped)._session.run(None, {"crops": sample})
    with torch.no_grad():
        back = [t.numpy() for t in RefinerExport(refiner_net_from_onnx(shipped, CARD_CROP)).eval()(
            torch.from_numpy(sample))]
    assert all(np.abs(b - r).max() < 1e-5 for b, r in zip(back, runtime, strict=True))
    with pytest.raises(ValueError, match="as a RefinerNet"):
        refiner_net_from_onnx(shipped.parent / "hanafuda-cards.onnx", CARD_CROP)
    # a few steps on the domino refiner's own samples, from its shipped model
    render_samples(["--out", str(tmp_path), "--scenes", "2", "--workers", "1", "--chunk", "1"])
    tile_model = shipped.parent / TileRefiner.DEFAULT_MODEL
    args = argparse.Namespace(data=tmp_path, val_share=0.5, seed=0, lr=1e-6, minutes=0.02, batch=16,
                              corner_weight=5.0, init=tile_model, device="cpu")
    net, summary = train(args)
    assert summary["steps"] > 0 and summary["init"] == str(tile_model)
    crops = load(tmp_path)[0]
    with torch.no_grad():
        tuned = torch.sigmoid(net.eval()(normalise(torch.from_numpy(crops)))[1]).numpy()
    before = TileRefiner(tile_model)._session.run(None, {"crops": crops})[1]
    assert np.mean((tuned >= 0.5) == (before >= 0.5)) > 0.95
