"""The card-finder network: a small fully-convolutional CenterNet for oriented card quads.

A depthwise-separable backbone down to stride 32 (wide receptive field for big single cards), a light
feature pyramid back up to stride 4, and three 1x1 heads per stride-4 cell: card-centre heat (logit), the four
corners relative to the cell (8 numbers, in units of ``OFFSET_UNIT`` input pixels) and the card's visible share
(logit). The exported graph takes a raw uint8 BGR frame of any size (a multiple of 32) and applies the sigmoids.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from datasets.training.net import SeparableBlock, normalise

STRIDE = 4
OFFSET_UNIT = 16.0  # corner offsets are predicted in units of this many input pixels
STEM_CHANNELS = 16
# (channels, blocks) per level; each level starts with a stride-2 block: strides 4, 8, 16, 32.
LEVELS: tuple[tuple[int, int], ...] = ((24, 2), (48, 2), (96, 3), (160, 3))
NECK_CHANNELS = 48


def _conv_bn(cin: int, cout: int, kernel: int = 1, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, kernel, stride, kernel // 2, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


def widened(channels: int, width: float) -> int:
    """``channels`` times ``width``, rounded to a multiple of 8."""
    return max(8, 8 * round(channels * width / 8))


class FinderNet(nn.Module):
    """Normalised N x 3 x H x W -> (heat logits N x 1, corners N x 8, visible logits N x 1) at H/4 x W/4.
    ``width`` scales every layer's channels (1: the shipped network; a wider one for a machine with a GPU, where the
    heat loss stopped falling at the shipped size)."""

    def __init__(self, width: float = 1.0) -> None:
        super().__init__()
        self.width = width
        stem, neck = widened(STEM_CHANNELS, width), widened(NECK_CHANNELS, width)
        levels_out = [widened(c, width) for c, _ in LEVELS]
        self.stem = _conv_bn(3, stem, 3, 2)
        levels = []
        cin = stem
        for cout, (_, blocks) in zip(levels_out, LEVELS, strict=True):
            layers = [SeparableBlock(cin, cout, 2)] + [SeparableBlock(cout, cout, 1) for _ in range(blocks - 1)]
            levels.append(nn.Sequential(*layers))
            cin = cout
        self.levels = nn.ModuleList(levels)
        self.laterals = nn.ModuleList([_conv_bn(c, neck) for c in levels_out])
        self.smooth = nn.ModuleList([SeparableBlock(neck, neck, 1) for _ in LEVELS[:-1]])
        self.head = SeparableBlock(neck, neck, 1)
        self.heat = nn.Conv2d(neck, 1, 1)
        self.corners = nn.Conv2d(neck, 8, 1)
        self.visible = nn.Conv2d(neck, 1, 1)
        nn.init.constant_(self.heat.bias, -4.6)  # start near "no card anywhere" (CenterNet's prior)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        features = []
        x = self.stem(x)
        for level in self.levels:
            x = level(x)
            features.append(x)
        y = self.laterals[-1](features[-1])
        for i in range(len(features) - 2, -1, -1):
            y = F.interpolate(y, scale_factor=2.0, mode="nearest") + self.laterals[i](features[i])
            y = self.smooth[i](y)
        y = self.head(y)
        return self.heat(y), self.corners(y), self.visible(y)


class FinderExport(nn.Module):
    """What ships: uint8 1 x H x W x 3 BGR in; heat (sigmoid), corners (input px) and visible (sigmoid) out."""

    def __init__(self, net: FinderNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, frame: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        heat, corners, visible = self.net(normalise(frame))
        return torch.sigmoid(heat), corners * OFFSET_UNIT, torch.sigmoid(visible)


def widen(narrow: FinderNet, width: float) -> FinderNet:
    """A ``width`` network computing exactly what ``narrow`` computes, to train on from the narrow one's weights.

    Widening appends channels to every layer. Each old channel keeps its weights and reads no new channel (its
    weights from them are zero), so the old outputs are untouched; the new channels start at the default random
    weights and read every channel. The zero weights get gradients at the first step, and the new channels' own
    weights from the second; their random start (not copies of old channels, which AdamW would move alike for ever)
    keeps them from learning what the old ones know.
    """
    if width < narrow.width:
        raise ValueError(f"a finder of width {narrow.width:g} cannot be widened to {width:g}")
    wide = FinderNet(width)
    old = narrow.state_dict()
    with torch.no_grad():
        for name, target in wide.state_dict().items():
            source = old[name]
            if target.dim() == 0:
                target.copy_(source)
                continue
            target[tuple(slice(0, n) for n in source.shape)] = source
            if target.dim() == 4 and target.shape[1] > source.shape[1]:  # old outputs read no new input
                target[: source.shape[0], source.shape[1]:] = 0
    return wide
