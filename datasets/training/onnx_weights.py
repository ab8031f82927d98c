"""A shipped crop or frame model's ONNX weights back in its trainable torch network, to fine-tune a model whose
torch checkpoint is gone (the GPU machines that trained the shipped finders kept nothing; the face reader's
checkpoint was never kept).

The export folded each batch norm into the convolution before it, so the graph holds only convolutions (and the
linear layers of a head, under their torch names). Convolutions are read in graph order, which is the order the
network calls them, and each batch norm starts as "add the folded bias". ``recalibrate`` then gives every batch
norm the statistics of its input on real images and the scale and shift that undo them: the network computes the
same function, and a training step's batch statistics start where the shipped model was instead of rescaling every
layer at once.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper
from torch import nn

from datasets.training.net import normalise


def onnx_weights(model: onnx.ModelProto) -> dict[str, np.ndarray]:
    """Every initializer of the graph by name, with the exporter's aliases (it shares equal tensors, such as an
    untrained network's zero biases, through Identity nodes)."""
    graph = model.graph
    weights = {init.name: numpy_helper.to_array(init) for init in graph.initializer}
    for node in graph.node:
        if node.op_type == "Identity" and node.input[0] in weights:
            weights[node.output[0]] = weights[node.input[0]]
    return weights


def _convolutions_in_call_order(net: nn.Module, example: torch.Tensor) -> list[nn.Conv2d]:
    calls: list[nn.Conv2d] = []
    hooks = [m.register_forward_hook(lambda m, _i, _o: calls.append(m))  # type: ignore[arg-type]
             for m in net.modules() if isinstance(m, nn.Conv2d)]
    with torch.no_grad():
        net.eval()(example)
    for hook in hooks:
        hook.remove()
    return calls


def _batch_norm_after(net: nn.Module) -> dict[nn.Conv2d, nn.BatchNorm2d]:
    """Each convolution's batch norm: the module right after it in its ``nn.Sequential``."""
    pairs: dict[nn.Conv2d, nn.BatchNorm2d] = {}
    for module in net.modules():
        if isinstance(module, nn.Sequential):
            for a, b in itertools.pairwise(list(module)):
                if isinstance(a, nn.Conv2d) and isinstance(b, nn.BatchNorm2d):
                    pairs[a] = b
    return pairs


def load_convolutions(net: nn.Module, model: onnx.ModelProto, example: torch.Tensor, what: str) -> None:
    """Copy the graph's convolutions into ``net``'s (called on ``example``), each batch norm as the folded bias.
    ``what`` names the model and network in the error when the two do not match."""
    weights = onnx_weights(model)
    onnx_convs = [node for node in model.graph.node if node.op_type == "Conv"]
    convs = _convolutions_in_call_order(net, example)
    if len(convs) != len(onnx_convs):
        raise ValueError(f"{what}: the model has {len(onnx_convs)} convolutions, the network {len(convs)}")
    norms = _batch_norm_after(net)
    with torch.no_grad():
        for conv, node in zip(convs, onnx_convs, strict=True):
            weight = weights[node.input[1]]
            bias = weights[node.input[2]] if len(node.input) > 2 else np.zeros(weight.shape[0], np.float32)
            if tuple(weight.shape) != tuple(conv.weight.shape):
                raise ValueError(f"{what}: a convolution of shape {weight.shape} where the network has "
                                 f"{tuple(conv.weight.shape)}")
            conv.weight.copy_(torch.from_numpy(weight.copy()))
            norm = norms.get(conv)
            if norm is None:
                assert conv.bias is not None  # a head keeps its own bias
                conv.bias.copy_(torch.from_numpy(bias.copy()))
                continue
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.from_numpy(bias.copy()))
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)


def load_named(net: nn.Module, model: onnx.ModelProto, prefix: str, what: str) -> None:
    """Copy the parameters the graph keeps under their torch names (``prefix`` + the name in ``net``): the
    linear layers, which the export does not rename."""
    weights = onnx_weights(model)
    with torch.no_grad():
        for name, parameter in net.named_parameters():
            if isinstance(net.get_submodule(name.rsplit(".", 1)[0]), nn.Linear):
                array = weights.get(prefix + name)
                if array is None or tuple(array.shape) != tuple(parameter.shape):
                    raise ValueError(f"{what}: no {tuple(parameter.shape)} weights named {prefix + name}")
                parameter.copy_(torch.from_numpy(array.copy()))


def load_exported(net: nn.Module, path: Path, example: torch.Tensor) -> nn.Module:
    """``net`` given the weights of the crop model shipped at ``path`` (its export wrapper keeps the network as
    ``.net``): the convolutions in call order on ``example``, the linear layers by name; batch norms as plain biases
    until ``recalibrate``. The error names the file and the network when the two do not match."""
    model = onnx.load(str(path))
    what = f"{path} as a {type(net).__name__}"
    load_convolutions(net, model, example, what)
    load_named(net, model, "net.", what)
    return net.eval()


def recalibrate(net: nn.Module, images: np.ndarray, batch: int = 8,
                prepare: Callable[[torch.Tensor], torch.Tensor] = normalise) -> None:
    """Give each batch norm the mean and variance of its input over ``images`` (uint8 N x H x W x 3 BGR, made the
    network's input by ``prepare``), keeping the function the network computes."""
    norms = [m for m in net.modules() if isinstance(m, nn.BatchNorm2d)]
    sums: dict[nn.BatchNorm2d, list[torch.Tensor]] = {m: [] for m in norms}

    def record(module: nn.Module, inputs: tuple[torch.Tensor, ...], _output: torch.Tensor) -> None:
        x = inputs[0].double()
        sums[module].append(torch.stack([x.mean((0, 2, 3)), (x * x).mean((0, 2, 3))]) * x.shape[0])  # type: ignore[index]

    hooks = [m.register_forward_hook(record) for m in norms]
    device = next(net.parameters()).device
    net.eval()
    with torch.no_grad():
        for start in range(0, len(images), batch):
            net(prepare(torch.from_numpy(images[start:start + batch]).to(device)))
    for hook in hooks:
        hook.remove()
    with torch.no_grad():
        for norm in norms:
            first, second = (torch.stack(sums[norm]).sum(0) / len(images)).unbind(0)
            mean, var = first, (second - first * first).clamp(min=0)
            # Eval output was x + beta (running mean 0, var 1 - eps, scale 1); now it is the same x + beta
            # through scale sqrt(var + eps), centred on the recorded mean.
            scale = torch.sqrt(var + norm.eps)
            norm.bias.copy_((norm.bias.double() + mean).float())
            norm.weight.copy_(scale.float())
            norm.running_mean.copy_(mean.float())
            norm.running_var.copy_(var.float())
