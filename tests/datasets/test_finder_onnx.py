"""A shipped finder back in torch: the same outputs as onnxruntime, before and after its batch norms get
statistics; the trainer's input sizes and its metadata for a finer input."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.datasets.test_finder_tasks import training_code

MODELS = Path(__file__).resolve().parents[2] / "models"


def _frames(n: int, seed: int) -> np.ndarray:
    """Frames with card-like structure: bright rectangles on a textured table, so activations are not flat."""
    import cv2

    rng = np.random.default_rng(seed)
    frames = rng.integers(40, 120, (n, 288, 512, 3), dtype=np.uint8)
    for frame in frames:
        for _ in range(5):
            centre = (float(rng.uniform(40, 470)), float(rng.uniform(40, 250)))
            box = cv2.boxPoints((centre, (30.0, 48.0), float(rng.uniform(0, 180)))).astype(np.int32)
            cv2.fillConvexPoly(frame, box, tuple(int(v) for v in rng.integers(150, 255, 3)))
    return frames


@pytest.mark.parametrize("model", ["card-finder", "domino-finder"])
def test_shipped_finder_reads_back_into_torch_and_keeps_its_function(model: str) -> None:
    training_code()
    from datasets.training.finder_export import max_export_error
    from datasets.training.finder_onnx import finder_from_onnx, recalibrate

    path = MODELS / f"{model}.onnx"
    net = finder_from_onnx(path)
    frames = _frames(4, seed=1)
    assert max_export_error(net, path, frames[:2]) < 5e-3  # corners in px, heat and visible in [0, 1]
    recalibrate(net, frames)
    assert max_export_error(net, path, frames[2:]) < 5e-3
    norm = net.stem[1]
    assert float(norm.running_var.mean()) != pytest.approx(1.0, abs=1e-3)  # real statistics now
    assert bool((norm.weight > 0).all())


def test_recalibrated_batch_norms_train_from_where_the_model_was() -> None:
    """In train mode a batch is normalised by its own statistics: on the frames the statistics came from, the
    outputs must be the shipped model's, not a rescaled network's."""
    training_code()
    import torch

    from datasets.training.finder_net import normalise
    from datasets.training.finder_onnx import finder_from_onnx, recalibrate

    net = finder_from_onnx(MODELS / "card-finder.onnx")
    frames = _frames(6, seed=2)
    x = normalise(torch.from_numpy(frames))
    with torch.no_grad():
        before = torch.sigmoid(net.eval()(x)[0])
        recalibrate(net, frames, batch=6)
        during = torch.sigmoid(net.train()(x)[0])
    assert float((during - before).abs().max()) < 1e-3


def test_an_onnx_file_of_another_network_is_refused(tmp_path: Path) -> None:
    training_code()
    from datasets.training.finder_onnx import finder_from_onnx

    with pytest.raises(ValueError, match="as a FinderNet: the model has"):
        finder_from_onnx(MODELS / "hanafuda-cards.onnx")


def test_input_sizes_are_16_by_9_multiples_of_32() -> None:
    training_code()
    from datasets.training.train_finder import initial_net, input_size

    assert input_size(288) == (512, 288)
    assert input_size(384) == (672, 384)
    with pytest.raises(ValueError, match="multiple of 32"):
        input_size(300)
    net, needs_statistics = initial_net(MODELS / "domino-finder.onnx")
    assert needs_statistics and net.heat.bias.shape == (1,)
    _, fresh = initial_net(None)
    assert not fresh


def test_a_wider_finder_exports_runs_and_comes_back_at_its_width(tmp_path: Path) -> None:
    training_code()
    import torch

    from datasets.training.finder_export import export_finder, finder_metadata
    from datasets.training.finder_net import FinderNet
    from datasets.training.finder_onnx import finder_from_onnx
    from datasets.training.train_finder import initial_net
    from vision.finder_learned import LearnedFinder

    torch.manual_seed(0)
    wide = FinderNet(1.5).eval()
    assert wide.stem[0].out_channels == 24 and wide.heat.in_channels == 72
    path = tmp_path / "card-finder.onnx"
    export_finder(wide, path, finder_metadata({"heat": 0.4}))
    back = finder_from_onnx(path)
    assert back.width == 1.5
    frame = torch.randint(0, 256, (1, 3, 96, 160)).float() / 255
    assert torch.allclose(back(frame)[0], wide(frame)[0], atol=1e-4)  # batch norms folded, the same function
    found = LearnedFinder(path, threads=1)(np.zeros((288, 512, 3), np.uint8))
    assert len(found.quads) == len(found.confidence)  # it runs through onnxruntime like the shipped one
    with pytest.raises(ValueError, match="width 1.5, wider than 1"):
        initial_net(path, 1.0)


def test_the_shipped_finder_widened_computes_the_same_and_its_new_channels_learn() -> None:
    training_code()
    import torch

    from datasets.training.finder_net import widen
    from datasets.training.train_finder import initial_net

    narrow, _ = initial_net(MODELS / "card-finder.onnx")
    wide, needs_statistics = initial_net(MODELS / "card-finder.onnx", 2.0)
    assert needs_statistics and wide.width == 2.0 and wide.heat.in_channels == 96
    frame = torch.rand(2, 3, 96, 160) * 4 - 2
    for train_mode in (False, True):  # batch statistics too: no old channel reads a new one
        narrow.train(train_mode)
        wide.train(train_mode)
        for a, b in zip(narrow(frame), wide(frame), strict=True):
            assert torch.allclose(a, b, atol=1e-5)
    optimiser = torch.optim.SGD(wide.parameters(), lr=0.01)
    for _ in range(2):  # the zero weights learn first; then the new channels below them have a gradient too
        optimiser.zero_grad()
        sum(out.square().mean() for out in wide(frame)).backward()
        optimiser.step()
    assert wide.heat.weight[:, 48:].abs().sum() > 0
    assert wide.stem[0].weight.grad is not None and wide.stem[0].weight.grad[16:].abs().sum() > 0
    with pytest.raises(ValueError, match="cannot be widened"):
        widen(wide, 1.5)


def test_metadata_and_export_carry_a_finer_input(tmp_path: Path) -> None:
    training_code()
    from datasets.training.finder_export import export_finder, finder_metadata
    from datasets.training.finder_net import FinderNet
    from vision.finder_learned import LearnedFinder

    meta = finder_metadata({"heat": 0.4}, short_side=384)
    assert meta["input"]["short_side"] == 384 and "384 px" in meta["input"]["rule"]
    path = tmp_path / "card-finder.onnx"
    export_finder(FinderNet().eval(), path, meta)
    finder = LearnedFinder(path, threads=1)
    assert finder.short_side == 384
    assert finder.input_scale(1280, 720) == pytest.approx(384 / 720)
