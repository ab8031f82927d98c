"""The realism knobs of a synthetic scene, with defaults and named presets.

Every knob is a probability or a strength: 0 switches that effect off. Pixel sizes are relative to a 720-line
frame and scale with ``size``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from datasets.hanafuda.art import STYLES, TRAIN_STYLES
from datasets.hanafuda.backgrounds import DEFAULT_SURFACE_WEIGHTS

DEFAULT_LAYOUTS: dict[str, float] = {"scattered": 0.35, "rows": 0.25, "piles": 0.15, "whole-mat": 0.1, "single": 0.15}
DEFAULT_PROPS: dict[str, float] = {"coin": 0.25, "phone": 0.2, "pen": 0.2, "cup": 0.15, "card-box": 0.2}


@dataclass(frozen=True)
class SceneConfig:
    """How scenes are drawn. ``preset(name)`` gives the named variants; ``dataclasses.replace`` tweaks one."""

    size: tuple[int, int] = (1280, 720)  # (width, height)
    styles: tuple[str, ...] = TRAIN_STYLES  # one is drawn per scene; the held-out style is mantia-modern
    layouts: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_LAYOUTS))
    # card height at the table centre as a fraction of the frame height, per kind of layout
    card_height: tuple[float, float] = (0.1, 0.3)
    whole_mat_card_height: tuple[float, float] = (0.085, 0.1)  # 1080p: cards ~60 px wide
    single_card_height: tuple[float, float] = (0.45, 0.9)
    # camera
    tilt_max_deg: float = 35.0
    fov_deg: tuple[float, float] = (50.0, 75.0)
    # how cards lie
    free_rotation: float = 0.5  # any angle rather than roughly aligned with the others
    upside_down: float = 0.5
    jitter_deg: float = 5.0
    touch: float = 0.35
    overlap: float = 0.3
    edge_cut: float = 0.35
    back_probability: float = 0.08  # per card, face-down backs mixed in (whole mats also have a stock pile)
    blank_probability: float = 0.08  # per scene, one blank card
    print_variation: bool = True
    ink_recolour: float = 0.0  # share of decks printing the art's black fills in another colour (classifier crops)
    # table
    surfaces: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_SURFACE_WEIGHTS))
    sheet_probability: float = 0.25  # a paper sheet or mat lying under the cards
    texture_detail: float = 1.6  # most texels the table texture may have, per image pixel
    # other things on the table
    props: float = 0.5  # probability that objects lie around
    prop_kinds: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_PROPS))
    max_props: int = 3
    hands: float = 0.25
    # light and camera
    shadows: float = 1.0
    glare: float = 0.4
    light_gradient: float = 0.35
    vignette: float = 0.35
    white_balance: float = 0.2
    exposure: tuple[float, float] = (0.8, 1.15)  # brightness of a normal shot
    dim: float = 0.2  # probability of a dim, noisy, high-gain shot
    tone_curve: float = 0.4  # strength of the camera's S-curve (or its flattening)
    camera_colour: float = 1.0  # washed-out or punchy colour and lifted blacks of real cameras
    noise: float = 1.0
    defocus: float = 0.45
    motion_blur: float = 0.12
    sharpen: float = 0.3
    jpeg: float = 0.7
    jpeg_quality: tuple[int, int] = (45, 95)

    def __post_init__(self) -> None:
        unknown = [s for s in self.styles if s not in STYLES]
        if unknown or not self.styles:
            raise ValueError(f"unknown art styles {unknown}; choose from {', '.join(STYLES)}")
        if self.size[0] < 32 or self.size[1] < 32:
            raise ValueError(f"scene size {self.size} is too small")
        if not any(v > 0 for v in self.layouts.values()):
            raise ValueError("at least one layout needs a positive weight")


# Everything that makes a shot harder than a clean, straight-down photo of the printed art.
_REALISM_OFF: dict[str, Any] = {
    "tilt_max_deg": 0.0,
    "print_variation": False,
    "sheet_probability": 0.0,
    "props": 0.0,
    "hands": 0.0,
    "shadows": 0.0,
    "glare": 0.0,
    "light_gradient": 0.0,
    "vignette": 0.0,
    "white_balance": 0.0,
    "dim": 0.0,
    "exposure": (1.0, 1.0),
    "tone_curve": 0.0,
    "camera_colour": 0.0,
    "noise": 0.0,
    "defocus": 0.0,
    "motion_blur": 0.0,
    "sharpen": 0.0,
    "jpeg": 0.0,
}

PRESETS: dict[str, dict[str, Any]] = {
    "default": {},
    "piles": {"layouts": {"piles": 1.0}, "card_height": (0.12, 0.22)},
    "whole-mat": {"layouts": {"whole-mat": 1.0}, "size": (1920, 1080)},
    "close-up": {"layouts": {"single": 1.0}},  # a phone held over one card (others may be cut by the edges)
    "clean": _REALISM_OFF,
    # the small frames crops are cut from: a few cards big in frame, every effect on
    "crops": {
        "size": (320, 256),
        "texture_detail": 0.9,
        "layouts": {"scattered": 0.35, "rows": 0.3, "piles": 0.3, "single": 0.05},
        "card_height": (0.17, 0.5),
        "single_card_height": (0.35, 0.55),
        "edge_cut": 0.3,
        "props": 0.6,
        "prop_kinds": {"card-box": 0.5, "coin": 0.15, "phone": 0.1, "pen": 0.15, "cup": 0.1},
        "hands": 0.2,
        "max_props": 2,
        "back_probability": 0.1,
        "blank_probability": 0.25,
    },
}


def preset(name: str, **overrides: Any) -> SceneConfig:
    """The named preset (``default``, ``piles``, ``whole-mat``, ``close-up``, ``clean``, ``crops``) with any knob
    overridden."""
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; choose from {', '.join(PRESETS)}")
    known = {f.name for f in fields(SceneConfig)}
    bad = [k for k in overrides if k not in known]
    if bad:
        raise ValueError(f"unknown scene knobs: {', '.join(bad)}")
    return replace(SceneConfig(), **{**PRESETS[name], **overrides})
