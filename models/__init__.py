"""The shipped ONNX models. Each ``*.onnx`` has a model card ``*.md`` beside it."""

from __future__ import annotations

from pathlib import Path

MODELS_DIR = Path(__file__).resolve().parent


def model_path(name: str) -> Path:
    """Path of a shipped model file such as ``hanafuda-cards.onnx``; a clear error if it is missing."""
    path = MODELS_DIR / name
    if not path.is_file():
        shipped = sorted(p.name for p in MODELS_DIR.glob("*.onnx"))
        raise FileNotFoundError(f"model {name!r} is not shipped in {MODELS_DIR}; shipped: {shipped or 'none'}")
    return path
