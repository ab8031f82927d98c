"""How one physical domino set looks: face and pip colours, shape, divider, pip layout family and back.

A ``TileStyle`` is drawn once per scene from a named family (a scene shows one set). Colours are BGR floats in
[0, 1]. The held-out family for evaluation is ``paigow-art`` (the shared Chinese tile art, drawn by someone
else): the recogniser is tuned on the procedural families only.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

import cv2
import numpy as np

PROCEDURAL: Final = ("ivory-chinese", "black-chinese", "european-white", "european-colour")
STYLES: Final = (*PROCEDURAL, "paigow-art")
TRAIN_STYLES: Final = PROCEDURAL
TEST_STYLE: Final = "paigow-art"
TRAIN_PIP_VARIETY: Final = 0.5  # share of training sets laying their pips out otherwise (towards the ends, a two
# across; ``varied_pips``): real sets vary, and the models trained on one layout per face misread the held-out art
CHINESE_STYLES: Final = ("ivory-chinese", "black-chinese", "paigow-art")
CHINESE_ASPECT: Final = (2.25, 2.85)  # long / short side of Chinese tiles
CHINESE_PIP: Final = (0.17, 0.32)  # pip diameter / short side: the biggest touch their neighbours
BIG_PIP: Final = (0.3, 0.42)  # a Chinese set with big pips (``faces.big_pips``; as much as its layout has room for)
TRAIN_BIG_PIPS: Final = 0.4  # share of the photo refiner's procedural Chinese training sets with big pips (session 25)

Colour = tuple[float, float, float]


@dataclass(frozen=True)
class TileStyle:
    """One set's look. ``layout`` is ``chinese`` (no divider, red 1s and 4s, special 3:3 and 6:6) or
    ``european`` (divider line, one pip colour)."""

    family: str
    layout: str
    aspect: float  # long side / short side
    thickness_mm: float
    corner_radius: float  # fraction of the short side
    face: Colour
    pip: Colour
    red: Colour
    back: Colour
    side: Colour  # the tile's sides, seen at oblique views
    pip_size: float  # pip diameter as a fraction of the short side
    pip_kind: str  # "flat", "dimple" (darker rim) or "shiny" (a highlight)
    divider: bool
    spinner: bool  # a brass pin in the middle of the divider
    bevel: float  # darkening of the rounded edge, 0..1
    gloss: float
    logo: str = ""  # printed on the back (a maker's mark), or nothing
    spread: float = 1.0  # a half's pips spread along the tile about the half's middle by this factor
    to_end: float = 0.0  # and moved this share of the half towards the tile's end
    pair_across: bool = False  # a half's two pips side by side across the tile (not on a diagonal)
    logo_width: float = 0.7  # the logo's width (or height, when taller) as a share of the tile's width
    logo_at: float = 0.25  # where along the tile the logo's middle lies, share of the length from the top
    logo_weight: float = 2.0  # its strokes' thickness, the font's own at 2
    underline: int = -1  # a bar under the logo bearing this many small dots (0: plain; -1: no bar): a maker's
    # mark whose bar passes for a divider

    @property
    def chinese(self) -> bool:
        return self.layout == "chinese"


def _hsv(h: float, s: float, v: float) -> Colour:
    pixel = np.array([[[h / 2.0, s * 255.0, v * 255.0]]], np.float32).clip(0, 255).astype(np.uint8)
    b, g, r = (cv2.cvtColor(pixel, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32) / 255.0).tolist()
    return (b, g, r)


def _ivory(rng: np.random.Generator) -> Colour:
    return _hsv(rng.uniform(35, 55), rng.uniform(0.06, 0.25), rng.uniform(0.85, 0.98))


def _shade(colour: Colour, k: float) -> Colour:
    b, g, r = (float(np.clip(v * k, 0, 1)) for v in colour)
    return (b, g, r)


LOGOS: Final = ("RO", "DOMINO", "K", "*", "PG", "88")
MARKS: Final = ("RO", "DOMINO", "PG", "88", "ACE", "MAX", "DOUBLE", "KING", "SIX", "CLUB")  # wider word marks
TRAIN_BACK_PRINTS: Final = 0.4  # share of the face reader's European training sets with a bold maker's mark on
# the back (on Chinese sets too, it read more of the held-out art's sparse faces as backs: README, session 21)


def printed_back(style: TileStyle, rng: np.random.Generator) -> TileStyle:
    """``style`` with a maker's mark across its back as real sets bear one: a bold word as wide as the tile, often
    with a bar under it (dotted or plain) that passes for a divider, so a back may read as a face with a blank
    half."""
    return replace(style, logo=str(MARKS[int(rng.integers(len(MARKS)))]), logo_width=float(rng.uniform(0.6, 0.95)),
                   logo_at=float(rng.uniform(0.2, 0.45)), logo_weight=float(rng.uniform(2.0, 4.5)),
                   underline=int(rng.integers(0, 8)) if rng.random() < 0.6 else -1)


def varied_pips(style: TileStyle, rng: np.random.Generator) -> TileStyle:
    """``style`` with its pips laid out otherwise, as real sets do (the shared art puts a half's pips at the very end
    of the tile, its two side by side): spread along the half, moved towards the end, a two across."""
    return replace(style, spread=float(rng.uniform(1.0, 1.5)), to_end=float(rng.uniform(0.0, 0.3)),
                   pair_across=bool(rng.random() < 0.5))


def sample_style(rng: np.random.Generator, family: str) -> TileStyle:
    """A set of the named family with its colours, shape, pips and back drawn at random."""
    style = _sample_style(rng, family)
    if rng.random() < 0.3:
        style = replace(style, logo=str(LOGOS[int(rng.integers(len(LOGOS)))]))
    return style


def _sample_style(rng: np.random.Generator, family: str) -> TileStyle:
    if family not in STYLES:
        raise ValueError(f"unknown domino style {family!r}; choose from {', '.join(STYLES)}")
    red = _hsv(rng.uniform(-8, 8) % 360, rng.uniform(0.7, 0.95), rng.uniform(0.6, 0.9))
    common = {
        "corner_radius": float(rng.uniform(0.08, 0.25)),
        "pip_kind": str(rng.choice(["flat", "dimple", "shiny"])),
        "bevel": float(rng.uniform(0.05, 0.3)),
        "gloss": float(rng.uniform(0.2, 0.8)),
        "red": red,
    }
    if family == "ivory-chinese":
        face = _ivory(rng)
        back = _hsv(rng.uniform(20, 40), rng.uniform(0.4, 0.7), rng.uniform(0.3, 0.6)) if rng.random() < 0.5 else face
        return TileStyle(family, "chinese", float(rng.uniform(*CHINESE_ASPECT)), float(rng.uniform(7, 10)),
                         face=face, pip=_hsv(0, 0, rng.uniform(0.02, 0.15)), back=back, side=_shade(face, 0.8),
                         pip_size=float(rng.uniform(*CHINESE_PIP)), divider=False, spinner=False, **common)
    if family in ("black-chinese", "paigow-art"):
        face = _hsv(rng.uniform(0, 360), rng.uniform(0, 0.3), rng.uniform(0.03, 0.14))
        aspect = float(rng.uniform(*CHINESE_ASPECT)) if family == "black-chinese" else 2.78
        return TileStyle(family, "chinese", aspect,
                         float(rng.uniform(7, 10)), face=face, pip=_hsv(0, 0, rng.uniform(0.85, 1.0)), back=face,
                         side=_shade(face, 1.3), pip_size=float(rng.uniform(*CHINESE_PIP)), divider=False,
                         spinner=False, **common)
    if family == "european-white":
        face = _ivory(rng) if rng.random() < 0.6 else _hsv(0, 0, rng.uniform(0.88, 0.98))
        pip = _hsv(0, 0, rng.uniform(0.02, 0.15))
    else:  # coloured plastic: pink, green, blue, red... with contrasting pips
        face = _hsv(rng.uniform(0, 360), rng.uniform(0.45, 0.85), rng.uniform(0.5, 0.95))
        pip = _hsv(rng.uniform(40, 60), rng.uniform(0.7, 1.0), 0.95) if rng.random() < 0.4 else \
            _hsv(0, 0, 0.97 if rng.random() < 0.6 else 0.05)
    return TileStyle(family, "european", float(rng.uniform(1.9, 2.1)), float(rng.uniform(6, 9)), face=face, pip=pip,
                     back=face, side=_shade(face, 0.8), pip_size=float(rng.uniform(0.14, 0.2)), divider=True,
                     spinner=bool(rng.random() < 0.35), **common)
