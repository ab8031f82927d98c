"""Synthetic photos of domino tiles (Chinese and European double-six) with exact ground truth.

The held-out style for evaluation is ``paigow-art`` (the shared Chinese tile art); the procedural styles are
``ivory-chinese``, ``black-chinese``, ``european-white`` and ``european-colour``. Tables, camera, light and
lens come from ``datasets.hanafuda``.
"""

from datasets.dominoes.scenes import BACK, DominoScene, DominoSceneConfig, render_scene
from datasets.dominoes.styles import STYLES, TEST_STYLE, TRAIN_STYLES, TileStyle, sample_style

__all__ = ["BACK", "STYLES", "TEST_STYLE", "TRAIN_STYLES", "DominoScene", "DominoSceneConfig", "TileStyle",
           "render_scene", "sample_style"]
