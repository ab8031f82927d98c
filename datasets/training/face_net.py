"""The domino face reader's network (``vision.dominoes.face_reader``): a tile's crop in, a logit per face out.

About 2.3 M multiply-adds for the 32 x 80 crop, so a frame's dozen tiles cost about a millisecond: a stride-2
stem and depthwise-separable blocks down to a 16th of the crop (2 x 5 cells), kept whole (which half holds how
many pips is the answer, so no global pooling) into two linear layers.
"""

from __future__ import annotations

from pathlib import Path

import torch
from torch import nn

from datasets.training.net import normalise, separable_trunk
from datasets.training.onnx_weights import load_exported
from vision.dominoes.face_reader import CLASSES, CROP_SIZE

BLOCKS: tuple[tuple[int, int], ...] = ((32, 1), (48, 2), (48, 1), (96, 2), (96, 1), (128, 2))
STEM_CHANNELS = 16
HIDDEN = 128


class FaceNet(nn.Module):
    """Normalised N x 3 x H x W crops of ``size`` = (W, H) -> logits N x ``classes``."""

    def __init__(self, size: tuple[int, int], classes: int, dropout: float = 0.2) -> None:
        super().__init__()
        self.features, cin = separable_trunk(BLOCKS, STEM_CHANNELS)
        cells = (size[0] // 16) * (size[1] // 16)
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(cin * cells, HIDDEN), nn.ReLU(inplace=True),
                                  nn.Dropout(dropout), nn.Linear(HIDDEN, classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


class FaceExport(nn.Module):
    """What ships: raw uint8 BGR crops N x H x W x 3 in; probabilities N x classes out."""

    def __init__(self, net: FaceNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, crops: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.net(normalise(crops)), dim=1)


def face_net_from_onnx(path: Path) -> FaceNet:
    """A shipped reader's network back in torch, to fine-tune (``onnx_weights``: batch norms as plain biases until
    ``recalibrate``)."""
    net = FaceNet(CROP_SIZE, len(CLASSES))
    load_exported(net, path, torch.zeros(1, 3, CROP_SIZE[1], CROP_SIZE[0]))  # FaceExport keeps it as .net
    return net
