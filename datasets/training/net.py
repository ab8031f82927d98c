"""The card network: a small depthwise-separable CNN, and the export wrapper that the runtime sees.

~0.4 M parameters, ~15 M multiply-adds for a 48x80 crop: cheap enough to classify every card of a frame
in one batch on one CPU core, wide enough at the end to tell apart look-alike ribbons and plains.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn

# (out channels, stride) of the blocks after the stem; each stride-2 block halves the map (80x48 -> 5x3).
BLOCKS: tuple[tuple[int, int], ...] = ((64, 1), (96, 2), (96, 1), (192, 2), (192, 1), (192, 1), (384, 2), (384, 1))
STEM_CHANNELS = 32
# Per-channel mean and std of the network input, BGR order, applied inside the exported graph.
MEAN_BGR = (0.5, 0.5, 0.5)
STD_BGR = (0.25, 0.25, 0.25)


class SeparableBlock(nn.Module):
    """Depthwise 3x3 then pointwise 1x1, each with BN and ReLU; residual when the shape is kept."""

    def __init__(self, cin: int, cout: int, stride: int) -> None:
        super().__init__()
        self.depthwise = nn.Sequential(
            nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False), nn.BatchNorm2d(cin), nn.ReLU(inplace=True)
        )
        self.pointwise = nn.Sequential(nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout))
        self.residual = stride == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.pointwise(self.depthwise(x))
        return torch.relu(y + x if self.residual else y)


def separable_trunk(blocks: Sequence[tuple[int, int]], stem_channels: int) -> tuple[nn.Sequential, int]:
    """A 3x3 stride-2 stem, then depthwise-separable blocks of (channels, stride): the crop networks' trunk, and
    the channels it ends with."""
    layers: list[nn.Module] = [nn.Conv2d(3, stem_channels, 3, 2, 1, bias=False), nn.BatchNorm2d(stem_channels),
                               nn.ReLU(inplace=True)]
    cin = stem_channels
    for cout, stride in blocks:
        layers.append(SeparableBlock(cin, cout, stride))
        cin = cout
    return nn.Sequential(*layers), cin


class CardNet(nn.Module):
    """Normalised NCHW float crops -> class logits."""

    def __init__(self, num_classes: int, dropout: float = 0.2) -> None:
        super().__init__()
        layers: list[nn.Module] = [
            nn.Conv2d(3, STEM_CHANNELS, 3, 2, 1, bias=False),
            nn.BatchNorm2d(STEM_CHANNELS),
            nn.ReLU(inplace=True),
        ]
        cin = STEM_CHANNELS
        for cout, stride in BLOCKS:
            layers.append(SeparableBlock(cin, cout, stride))
            cin = cout
        self.features = nn.Sequential(*layers)
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(dropout), nn.Linear(cin, num_classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x).mean(dim=(2, 3), keepdim=True))


def normalise(crops_nhwc_uint8: torch.Tensor) -> torch.Tensor:
    """uint8 N x H x W x 3 BGR -> normalised float N x 3 x H x W (the same maths as the exported graph)."""
    x = crops_nhwc_uint8.permute(0, 3, 1, 2).float() / 255.0
    mean = torch.tensor(MEAN_BGR, dtype=x.dtype, device=x.device).view(1, 3, 1, 1)
    std = torch.tensor(STD_BGR, dtype=x.dtype, device=x.device).view(1, 3, 1, 1)
    return (x - mean) / std


class ExportWrapper(nn.Module):
    """What ships: raw uint8 BGR crops in, logits out; optionally averaged with the 180-degree rotated crop.

    Averaging both orientations makes the answer exactly the same for a card and its upside-down self.
    """

    def __init__(self, net: CardNet, rotation_average: bool) -> None:
        super().__init__()
        self.net = net
        self.rotation_average = rotation_average

    def forward(self, crops: torch.Tensor) -> torch.Tensor:
        x = normalise(crops)
        logits = self.net(x)
        if self.rotation_average:
            logits = (logits + self.net(torch.flip(x, dims=(2, 3)))) / 2
        return logits


def count_parameters(net: nn.Module) -> int:
    return sum(p.numel() for p in net.parameters())


def count_macs(net: nn.Module, size: tuple[int, int]) -> int:
    """Multiply-adds of convolutions and linear layers for one crop of ``size`` = (W, H)."""
    total = 0

    def hook(module: nn.Module, _inputs: tuple[torch.Tensor, ...], output: torch.Tensor) -> None:
        nonlocal total
        if isinstance(module, nn.Conv2d):
            k = module.kernel_size[0] * module.kernel_size[1]
            total += output[0].numel() * (module.in_channels // module.groups) * k
        elif isinstance(module, nn.Linear):
            total += module.in_features * module.out_features

    handles = [m.register_forward_hook(hook) for m in net.modules() if isinstance(m, nn.Conv2d | nn.Linear)]
    was_training = net.training
    net.eval()
    with torch.no_grad():
        net(torch.zeros(1, 3, size[1], size[0]))
    net.train(was_training)
    for handle in handles:
        handle.remove()
    return total
