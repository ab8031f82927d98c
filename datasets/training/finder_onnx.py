"""A shipped finder's ONNX weights back in a trainable ``FinderNet``, to fine-tune a model whose torch
checkpoint is gone (the GPU machines that trained the shipped finders kept nothing).

The export folded each batch norm into the convolution before it, so the graph holds only convolutions. They
are read in graph order, which is the order the network calls them, and each batch norm starts as "add the
folded bias". ``recalibrate`` then gives every batch norm the statistics of its input on real frames and the
scale and shift that undo them: the network computes the same function, and a training step's batch statistics
start where the shipped model was instead of rescaling every layer at once.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper
from torch import nn

from datasets.training.finder_export import METADATA_KEY
from datasets.training.finder_net import FinderNet, normalise


def _convolutions_in_call_order(net: FinderNet) -> list[nn.Conv2d]:
    calls: list[nn.Conv2d] = []
    hooks = [m.register_forward_hook(lambda m, _i, _o: calls.append(m))  # type: ignore[arg-type]
             for m in net.modules() if isinstance(m, nn.Conv2d)]
    with torch.no_grad():
        net.eval()(torch.zeros(1, 3, 64, 64))
    for hook in hooks:
        hook.remove()
    return calls


def _batch_norm_after(net: FinderNet) -> dict[nn.Conv2d, nn.BatchNorm2d]:
    """Each convolution's batch norm: the module right after it in its ``nn.Sequential``."""
    pairs: dict[nn.Conv2d, nn.BatchNorm2d] = {}
    for module in net.modules():
        if isinstance(module, nn.Sequential):
            children = list(module)
            for a, b in itertools.pairwise(children):
                if isinstance(a, nn.Conv2d) and isinstance(b, nn.BatchNorm2d):
                    pairs[a] = b
    return pairs


def finder_from_onnx(path: Path) -> FinderNet:
    """The network of a finder exported by ``finder_export.export_finder``, batch norms as plain biases."""
    model = onnx.load(str(path))
    graph = model.graph
    weights = {init.name: numpy_helper.to_array(init) for init in graph.initializer}
    for node in graph.node:  # the exporter shares equal tensors (an untrained network's zero biases) by aliases
        if node.op_type == "Identity" and node.input[0] in weights:
            weights[node.output[0]] = weights[node.input[0]]
    onnx_convs = [node for node in graph.node if node.op_type == "Conv"]
    meta = next((json.loads(p.value) for p in model.metadata_props if p.key == METADATA_KEY), {})
    net = FinderNet(float(meta.get("width", 1.0)))  # finders exported before session 19 are all of width 1
    convs = _convolutions_in_call_order(net)
    if len(convs) != len(onnx_convs):
        raise ValueError(f"{path} has {len(onnx_convs)} convolutions, FinderNet {len(convs)}: not this network")
    norms = _batch_norm_after(net)
    with torch.no_grad():
        for conv, node in zip(convs, onnx_convs, strict=True):
            weight = weights[node.input[1]]
            bias = weights[node.input[2]] if len(node.input) > 2 else np.zeros(weight.shape[0], np.float32)
            if tuple(weight.shape) != tuple(conv.weight.shape):
                raise ValueError(f"{path}: a convolution of shape {weight.shape} where FinderNet has "
                                 f"{tuple(conv.weight.shape)}")
            conv.weight.copy_(torch.from_numpy(weight.copy()))
            norm = norms.get(conv)
            if norm is None:
                assert conv.bias is not None  # the heads keep their own bias
                conv.bias.copy_(torch.from_numpy(bias.copy()))
                continue
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.from_numpy(bias.copy()))
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
    return net.eval()


def recalibrate(net: FinderNet, frames: np.ndarray, batch: int = 8) -> None:
    """Give each batch norm the mean and variance of its input over ``frames`` (uint8 N x H x W x 3 BGR),
    keeping the function the network computes."""
    norms = [m for m in net.modules() if isinstance(m, nn.BatchNorm2d)]
    sums: dict[nn.BatchNorm2d, list[torch.Tensor]] = {m: [] for m in norms}

    def record(module: nn.Module, inputs: tuple[torch.Tensor, ...], _output: torch.Tensor) -> None:
        x = inputs[0].double()
        sums[module].append(torch.stack([x.mean((0, 2, 3)), (x * x).mean((0, 2, 3))]) * x.shape[0])  # type: ignore[index]

    hooks = [m.register_forward_hook(record) for m in norms]
    device = next(net.parameters()).device
    net.eval()
    with torch.no_grad():
        for start in range(0, len(frames), batch):
            net(normalise(torch.from_numpy(frames[start:start + batch]).to(device)))
    for hook in hooks:
        hook.remove()
    with torch.no_grad():
        for norm in norms:
            first, second = (torch.stack(sums[norm]).sum(0) / len(frames)).unbind(0)
            mean, var = first, (second - first * first).clamp(min=0)
            # Eval output was x + beta (running mean 0, var 1 - eps, scale 1); now it is the same x + beta
            # through scale sqrt(var + eps), centred on the recorded mean.
            scale = torch.sqrt(var + norm.eps)
            norm.bias.copy_((norm.bias.double() + mean).float())
            norm.weight.copy_(scale.float())
            norm.running_mean.copy_(mean.float())
            norm.running_var.copy_(var.float())
