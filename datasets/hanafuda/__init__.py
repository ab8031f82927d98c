"""Synthetic hanafuda scenes and classifier crops with exact ground truth (see datasets/README.md).

The held-out test style is ``mantia-modern``; training uses ``mantia-alt`` and ``hwatu-richert``.
"""

from datasets.hanafuda.art import STYLES, TEST_STYLE, TRAIN_STYLES, load_style
from datasets.hanafuda.config import SceneConfig, preset
from datasets.hanafuda.crops import (
    CLASSES,
    NOT_A_CARD,
    CropRules,
    CropSet,
    crop_quad,
    load_crops,
    render_crop_set,
    render_crops,
    save_crops,
)
from datasets.hanafuda.objects import Prop
from datasets.hanafuda.scenes import BACK, BLANK, LABELS, Scene, render_scene

__all__ = [
    "BACK",
    "BLANK",
    "CLASSES",
    "LABELS",
    "NOT_A_CARD",
    "STYLES",
    "TEST_STYLE",
    "TRAIN_STYLES",
    "CropRules",
    "CropSet",
    "Prop",
    "Scene",
    "SceneConfig",
    "crop_quad",
    "load_crops",
    "load_style",
    "preset",
    "render_crop_set",
    "render_crops",
    "render_scene",
    "save_crops",
]
