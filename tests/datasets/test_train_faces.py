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

from datasets.dominoes.face_data import LOOKS, SLIP, SLIPPED, label, scene_samples, slipped_quads
from datasets.dominoes.face_data import main as render_samples
from datasets.training.train_faces import GLARE_WEIGHT, augmented, export, glared, loss_of, metadata, scores, train
from vision.dominoes.face_reader import CLASSES, CROP_SIZE, FaceReader
from vision.geometry import order_quads


def test_each_whole_tile_gives_its_looks_labelled_with_its_face() -> None:
    crops, _, labels = scene_samples((5, 0))
    assert crops.shape[1:] == (CROP_SIZE[1], CROP_SIZE[0], 3) and len(crops) == len(labels) > 0
    assert len(labels) % LOOKS == 0 and set(labels.tolist()) <= set(range(len(CLASSES)))
    assert label((5, 2), True) == CLASSES.index("2:5") and label((5, 2), False) == CLASSES.index("back")


def test_big_pips_change_the_faces_and_nothing_else() -> None:
    """Seed (5, 4) lays an ivory Chinese set: with big pips its crops differ, its tiles and labels stay."""
    plain, big = scene_samples((5, 4)), scene_samples((5, 4), big_pips=1.0)
    assert np.array_equal(plain[2], big[2]) and np.abs(plain[0].astype(int) - big[0]).mean() > 2


def test_a_wider_throw_along_moves_the_crops_and_keeps_the_labels() -> None:
    """``along``: the quads a reader is taught from lie further along their tiles; the tiles and labels stay."""
    plain, wide = scene_samples((5, 0)), scene_samples((5, 0), along=0.2)
    assert np.array_equal(plain[2], wide[2]) and np.abs(plain[0].astype(int) - wide[0]).mean() > 2
    assert np.array_equal(plain[0], scene_samples((5, 0), along=0.04)[0])  # the default is the shipped recipe's


def test_a_slipped_quad_reaches_into_the_tile_against_its_end_and_nowhere_else() -> None:
    """Three tiles 40 x 100: two end to end (0 and 1), one alone (2). Tile 0 slips into tile 1 only; the lone tile
    and a tile seen too little to count give none."""
    def tile(x: float, y: float) -> list[list[float]]:
        return [[x, y], [x + 40, y], [x + 40, y + 100], [x, y + 100]]

    quads = order_quads(np.array([tile(100, 100), tile(100, 200), tile(400, 100)], np.float32))
    rng = np.random.default_rng(0)
    slipped = [q for _ in range(20) for q in slipped_quads(quads, np.ones(3), 0, rng, 1.0)]
    assert len(slipped) == 20  # one end of tile 0 touches tile 1, every time
    centres = np.array([q.mean(axis=0) for q in slipped])
    assert np.all(np.abs(centres[:, 0] - 120) < 3)  # along the line, not across
    assert np.all((centres[:, 1] > 150 + 100 * SLIP[0] - 3) & (centres[:, 1] < 150 + 100 * SLIP[1] + 3))
    assert not [q for _ in range(20) for q in slipped_quads(quads, np.ones(3), 2, rng, 1.0)]
    assert not [q for _ in range(20) for q in slipped_quads(quads, np.array([1.0, 0.3, 1.0]), 0, rng, 1.0)]
    assert not slipped_quads(quads, np.ones(3), 0, rng, 0.0)


def test_slipped_crops_come_after_the_recipes_own_and_are_labelled_as_no_tile() -> None:
    """Seed (5, 2) lays a line: with ``slipped`` its crops and labels begin as without, and the rest are slipped."""
    plain, more = scene_samples((5, 2)), scene_samples((5, 2), slipped=1.0)
    n = len(plain[2])
    assert np.array_equal(plain[0], more[0][:n]) and np.array_equal(plain[2], more[2][:n])
    assert len(more[2]) > n and set(more[2][n:].tolist()) == {SLIPPED}


def test_a_slipped_crop_is_taught_towards_every_class_alike() -> None:
    """The loss of tiles' crops is plain cross-entropy with label smoothing; a slipped crop's is least where the
    reader is equally unsure of every class, and a sure reading of it costs more."""
    import torch
    import torch.nn.functional as F

    logits = torch.randn(6, len(CLASSES), generator=torch.Generator().manual_seed(0))
    faces = torch.tensor([0, 3, 5, 28, 7, 9])
    assert torch.isclose(loss_of(logits, faces), F.cross_entropy(logits, faces, label_smoothing=0.05))
    unsure, sure = torch.zeros(1, len(CLASSES)), torch.zeros(1, len(CLASSES))
    sure[0, 4] = 8.0
    slipped = torch.tensor([SLIPPED])
    assert torch.isclose(loss_of(unsure, slipped), torch.log(torch.tensor(float(len(CLASSES)))))
    assert loss_of(sure, slipped) > loss_of(unsure, slipped) + 1.0
    mixed = loss_of(torch.cat([logits[:1], sure]), torch.tensor([0, SLIPPED]))
    assert torch.isclose(mixed, (loss_of(logits[:1], faces[:1]) + loss_of(sure, slipped)) / 2)


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
                              heldout_scenes=0, glare=0.0, init=None)
    net, summary = train(args)
    assert summary["steps"] > 0 and 0 <= summary["validation_accuracy"] <= 1
    crops = np.concatenate([np.load(f)["crops"] for f in sorted(tmp_path.glob("faces-*.npz"))])
    right, unsure = scores(net, crops[:4], np.array([SLIPPED, SLIPPED, 0, 1]))
    assert right in (0.0, 0.5, 1.0) and 1 / len(CLASSES) <= unsure <= 1.0  # two tiles named; two slipped crops
    path = tmp_path / "faces.onnx"
    assert export(net.eval(), path, metadata(summary)) < 1e-4
    reader = FaceReader(path)
    assert reader.size == CROP_SIZE and reader.metadata["training"]["steps"] == summary["steps"]
    quad = np.array([[100, 100], [140, 100], [140, 200], [100, 200]], np.float32)
    probs = reader(np.full((300, 300, 3), 128, np.uint8), quad[None])
    assert probs.shape == (1, len(CLASSES)) and abs(float(probs.sum()) - 1.0) < 1e-4


def test_glare_washes_a_dark_tile_towards_white_and_leaves_its_pips_showing() -> None:
    crop = np.full((CROP_SIZE[1], CROP_SIZE[0], 3), 25, np.uint8)
    cv2.circle(crop, (16, 40), 5, (235, 235, 235), -1)  # a white pip in the middle
    rng = np.random.default_rng(3)
    washed = [glared(crop, rng).astype(int) for _ in range(100)]
    body = np.array([w[5:12, 2:8].mean() for w in washed])
    pip = np.array([w[38:43, 14:19].mean() for w in washed])
    assert np.mean(body > 100) > 0.3  # often washed far past the dark tile's 25
    assert (pip - body).min() > 0.5 * 210 * (1 - GLARE_WEIGHT) - 8  # never burnt out: the pip still stands out
    assert all(np.abs(w[..., 0] - w[..., 2]).mean() < 20 for w in washed)  # towards white, not a colour
    assert np.mean([w.mean() > 40 for w in (augmented(np.stack([crop] * 100), rng, glare=0.5).astype(int))]) > 0.3


def test_fine_tuning_starts_from_the_shipped_reader(tmp_path: Path) -> None:
    """``--init``: the shipped reader's weights come back into torch and train on; after a few steps at a small
    rate it still reads its training crops as the shipped model does."""
    pytest.importorskip("onnx")
    import torch

    from datasets.training.face_net import FaceExport, face_net_from_onnx
    from datasets.training.net import normalise

    shipped = Path(__file__).resolve().parents[2] / "models" / "domino-faces.onnx"
    sample = np.random.default_rng(0).integers(0, 256, (3, CROP_SIZE[1], CROP_SIZE[0], 3), dtype=np.uint8)
    with torch.no_grad():
        back = FaceExport(face_net_from_onnx(shipped)).eval()(torch.from_numpy(sample)).numpy()
    assert np.abs(back - FaceReader(shipped)._session.run(None, {"crops": sample})[0]).max() < 1e-5
    render_samples(["--out", str(tmp_path), "--scenes", "3", "--workers", "1", "--chunk", "1"])
    args = argparse.Namespace(data=tmp_path, val_share=0.34, seed=0, lr=1e-5, minutes=0.03, batch=16,
                              heldout_scenes=0, glare=0.25, init=shipped)
    net, summary = train(args)
    assert summary["steps"] > 0 and summary["init"] == "domino-faces.onnx" and summary["glare"] == 0.25
    crops = np.concatenate([np.load(f)["crops"] for f in sorted(tmp_path.glob("faces-*.npz"))])
    with torch.no_grad():
        tuned = net.eval()(normalise(torch.from_numpy(crops))).argmax(1).numpy()
    before = FaceReader(shipped)._session.run(None, {"crops": crops})[0].argmax(1)
    assert np.mean(tuned == before) > 0.95


def test_a_model_of_another_network_is_not_read_as_a_face_reader() -> None:
    pytest.importorskip("onnx")
    from datasets.training.face_net import face_net_from_onnx

    with pytest.raises(ValueError, match="as a FaceNet"):
        face_net_from_onnx(Path(__file__).resolve().parents[2] / "models" / "hanafuda-cards.onnx")
