"""Batched torch augmentation on top of the rendered crops: the deck, light and camera we never saw.

Cheap per step, so each buffered crop looks new every time it is drawn. Works on [0, 1] float NCHW BGR
tensors before normalisation; the label never changes (occlusion stays under about half of the face, so the
card is still the card, as in a fanned pile).
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F


def _rand(g: torch.Generator, like: torch.Tensor, *shape: int) -> torch.Tensor:
    """Uniform numbers from the seeded CPU generator, on the device of ``like`` (the batch may live on a GPU)."""
    return torch.rand(*shape, generator=g).to(like.device)


def _chance(n: int, p: float, g: torch.Generator, like: torch.Tensor) -> torch.Tensor:
    return _rand(g, like, n) < p


def rotate_half(crops: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    """Half the crops upside down (on uint8 NHWC, where it is cheapest): a card upside down is the same card."""
    flip = _chance(len(crops), 0.5, g, crops)
    out = crops.clone()
    out[flip] = torch.flip(crops[flip], dims=(1, 2))
    return out


def misalign(x: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    """Small shift, scale, rotation and shear, as from an imprecise quad; uncovered pixels get a table colour."""
    n = len(x)
    u = lambda lo, hi: lo + (hi - lo) * _rand(g, x, n)  # noqa: E731
    angle = u(-5, 5) * math.pi / 180
    scale = u(0.9, 1.1)
    sx, sy = scale * u(0.95, 1.05), scale
    shear = u(-0.05, 0.05)
    theta = torch.zeros(n, 2, 3, device=x.device)
    theta[:, 0, 0] = torch.cos(angle) * sx
    theta[:, 0, 1] = -torch.sin(angle) * sy + shear
    theta[:, 1, 0] = torch.sin(angle) * sx
    theta[:, 1, 1] = torch.cos(angle) * sy
    theta[:, 0, 2] = u(-0.08, 0.08)
    theta[:, 1, 2] = u(-0.06, 0.06)
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    warped = F.grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=False)
    outside = (grid.abs() > 1).any(dim=-1).unsqueeze(1)
    return torch.where(outside, _rand(g, x, n, 3, 1, 1), warped)


def photometric(x: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    """Saturation, white balance, contrast, exposure and gamma: other prints under other lamps."""
    n = len(x)
    u = lambda lo, hi, c=1: lo + (hi - lo) * _rand(g, x, n, c, 1, 1)  # noqa: E731
    gray = x.mean(dim=1, keepdim=True)
    mean = gray.mean(dim=(2, 3), keepdim=True)
    white_balance = u(0.8, 1.2) * u(0.85, 1.15, 3)
    x = gray + (x - gray) * u(0.4, 1.5)  # saturation
    x = (mean + (x - mean) * u(0.6, 1.3)) * (white_balance * u(0.5, 1.4)) + u(-0.1, 0.1)  # contrast, exposure
    x = x.clamp_(0, 1)
    gamma = _chance(n, 0.5, g, x)
    x[gamma] = x[gamma] ** u(0.7, 1.4)[gamma]
    return x


def glare(x: torch.Tensor, g: torch.Generator, p: float = 0.2) -> torch.Tensor:
    """A soft white highlight on some crops: glossy plastic decks under a lamp."""
    n, _, h, w = x.shape
    pick = _chance(n, p, g, x).float().view(n, 1, 1, 1)
    cy = _rand(g, x, n, 1, 1) * h
    cx = _rand(g, x, n, 1, 1) * w
    r = (0.15 + 0.5 * _rand(g, x, n, 1, 1)) * w
    ys = torch.arange(h, device=x.device).view(1, h, 1)
    xs = torch.arange(w, device=x.device).view(1, 1, w)
    blob = torch.exp(-((ys - cy) ** 2 + (xs - cx) ** 2) / (r**2)).unsqueeze(1)
    strength = 0.3 + 0.7 * _rand(g, x, n, 1, 1, 1)
    return x + pick * strength * blob * (1 - x)


def occlude(x: torch.Tensor, g: torch.Generator, p: float = 0.25) -> torch.Tensor:
    """Cover up to ~45% of some crops with a flat colour or a piece of another crop (a finger, a card on top)."""
    n, _, h, w = x.shape
    out = x.clone()
    donors = x[torch.randperm(n, generator=g).to(x.device)]
    for i in torch.nonzero(torch.rand(n, generator=g) < p).flatten().tolist():
        area = 0.08 + 0.37 * torch.rand(1, generator=g).item()
        aspect = math.exp((torch.rand(1, generator=g).item() - 0.5) * 2)
        bh = min(h, max(2, round(math.sqrt(area * h * w * aspect))))
        bw = min(w, max(2, round(area * h * w / bh)))
        # Anchor at an edge or corner, as things overlap a card from the side.
        y0 = 0 if torch.rand(1, generator=g).item() < 0.5 else h - bh
        x0 = int(torch.randint(0, w - bw + 1, (1,), generator=g))
        if torch.rand(1, generator=g).item() < 0.5:
            y0, x0 = int(torch.randint(0, h - bh + 1, (1,), generator=g)), (0 if x0 < (w - bw) / 2 else w - bw)
        if torch.rand(1, generator=g).item() < 0.5:
            out[i, :, y0 : y0 + bh, x0 : x0 + bw] = _rand(g, x, 3, 1, 1)
        else:
            out[i, :, y0 : y0 + bh, x0 : x0 + bw] = donors[i, :, y0 : y0 + bh, x0 : x0 + bw]
    return out


def blur(x: torch.Tensor, g: torch.Generator, p: float = 0.25) -> torch.Tensor:
    """Gaussian blur of sigma 0.5-1.5 px on some crops: focus and motion at small scale."""
    n = len(x)
    pick = torch.nonzero(_chance(n, p, g, x)).flatten()
    if len(pick) == 0:
        return x
    sigma = 0.5 + torch.rand(1, generator=g).item()
    k = torch.arange(-2, 3, dtype=x.dtype, device=x.device)
    k = torch.exp(-(k**2) / (2 * sigma**2))
    k = k / k.sum()
    kernel = (k.view(5, 1) * k.view(1, 5)).expand(3, 1, 5, 5).contiguous()
    out = x.clone()
    out[pick] = F.conv2d(F.pad(x[pick], (2, 2, 2, 2), mode="replicate"), kernel, groups=3)
    return out


def noise(x: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    """Sensor noise, mostly in brightness (one field for all three channels is a third of the cost)."""
    n, _, h, w = x.shape
    sigma = 0.03 * _rand(g, x, n, 1, 1, 1)
    return x + sigma * torch.randn((n, 1, h, w), generator=g).to(x.device)


def augment(crops_nhwc_uint8: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    """uint8 N x H x W x 3 BGR -> augmented uint8 of the same shape (the network normalises itself)."""
    x = rotate_half(crops_nhwc_uint8, g).permute(0, 3, 1, 2).float() / 255.0
    x = misalign(x, g)
    x = occlude(x, g)
    x = photometric(x, g)
    x = glare(x, g)
    x = blur(x, g)
    x = noise(x, g)
    return (x.clamp(0, 1) * 255).round().to(torch.uint8).permute(0, 2, 3, 1).contiguous()
