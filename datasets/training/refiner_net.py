"""The refiners' network (``vision.quad_refiner``): a candidate's crop in, the object's corners and a logit out.

Small enough to run on every candidate of a frame in one batch (about 3 M multiply-adds for a tile's 48 x 128
crop): a stride-2 stem and depthwise-separable blocks down to a 16th of the crop (3 x 8 for a tile), kept whole
(where a seam or a pip lies is the answer, so no global pooling) into two linear layers. The corners are offsets
from the candidate's own (the crop's ``UNIT_SQUARE``), so an untrained network already returns the candidate.
"""

from __future__ import annotations

from pathlib import Path

import torch
from torch import nn

from datasets.training.net import normalise, separable_trunk
from datasets.training.onnx_weights import load_exported
from vision.quad_refiner import UNIT_SQUARE, CropGeometry

BLOCKS: tuple[tuple[int, int], ...] = ((32, 2), (32, 1), (64, 2), (64, 1), (96, 2), (96, 1))
STEM_CHANNELS = 16
HIDDEN = 128


class RefinerNet(nn.Module):
    """Normalised N x 3 x H x W crops of ``geometry`` -> (corners N x 8 in the crop's units, logits N)."""

    def __init__(self, geometry: CropGeometry) -> None:
        super().__init__()
        self.features, cin = separable_trunk(BLOCKS, STEM_CHANNELS)
        cells = (geometry.width // 16) * (geometry.height // 16)
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(cin * cells, HIDDEN), nn.ReLU(inplace=True),
                                  nn.Linear(HIDDEN, 9))
        nn.init.zeros_(self.head[-1].weight)
        nn.init.zeros_(self.head[-1].bias)
        self.register_buffer("square", torch.from_numpy(UNIT_SQUARE.reshape(8).copy()))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        out = self.head(self.features(x))
        return out[:, :8] + self.square, out[:, 8]


class RefinerExport(nn.Module):
    """What ships: raw uint8 BGR crops N x H x W x 3 in; corners N x 8 and probabilities N out."""

    def __init__(self, net: RefinerNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, crops: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        corners, logits = self.net(normalise(crops))
        return corners, torch.sigmoid(logits)


def refiner_net_from_onnx(path: Path, geometry: CropGeometry) -> RefinerNet:
    """A shipped refiner's network back in torch, to fine-tune (``onnx_weights``: batch norms as plain biases until
    ``recalibrate``); the card refiner's torch checkpoint was not kept."""
    net = RefinerNet(geometry)
    load_exported(net, path, torch.zeros(1, 3, geometry.height, geometry.width))  # RefinerExport keeps it as .net
    return net
