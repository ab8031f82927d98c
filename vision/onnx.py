"""Opening a shipped ONNX model the one way every kibitz model is run: CPU provider, explicit threads."""

from __future__ import annotations

from pathlib import Path

import onnxruntime as ort

from models import model_path as shipped_model_path


def open_session(
    model_path: str | Path | None, default: str, threads: int, what: str, error: type[Exception]
) -> tuple[Path, ort.InferenceSession]:
    """The model's path and its session; clear errors for bad thread counts, missing and unloadable files."""
    if not isinstance(threads, int) or threads < 1:
        raise ValueError(f"{what}: threads must be a positive integer, got {threads!r}")
    path = Path(model_path) if model_path is not None else shipped_model_path(default)
    if not path.is_file():
        raise FileNotFoundError(f"{what} model not found: {path}")
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.log_severity_level = 3
    try:
        session = ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises several private exception types for bad files
        raise error(f"cannot load {what} model {path}: {exc}") from exc
    return path, session


def crop_input(session: ort.InferenceSession, path: Path, error: type[Exception]) -> tuple[str, tuple[int, int]]:
    """The input name and crop size (width, height) of a model that takes N x H x W x 3 crops; ``error`` if not."""
    inputs = session.get_inputs()
    shape = inputs[0].shape if len(inputs) == 1 else []
    if len(shape) != 4 or not all(isinstance(n, int) for n in shape[1:]) or shape[3] != 3:
        raise error(f"{path}: expected one input of N x H x W x 3 crops, got {shape}")
    return inputs[0].name, (int(shape[2]), int(shape[1]))
