"""Print variation: one physical deck differs from the art in colour, paper, border, shape, gloss and backs.

A ``DeckPrint`` is drawn once per scene (a scene shows one deck) and turns art into card sprites: BGRA float32
images whose alpha holds the rounded corners. Backs (plain red or black, with a faint pattern) and blank cards
come from the same deck so they share its paper, size and corners.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

from datasets.hanafuda.art import ART_HEIGHT, StyleArt
from datasets.hanafuda.backgrounds import hsv_colour
from datasets.hanafuda.noise import fractal_noise, pixel_noise

# BGR in [0, 1]. "paper" means no coloured border at all.
BORDER_COLOURS: dict[str, tuple[float, float, float]] = {
    "black": (0.05, 0.05, 0.05),
    "red": (0.12, 0.1, 0.78),
    "brown": (0.1, 0.17, 0.38),
    "green": (0.2, 0.32, 0.1),
    "navy": (0.35, 0.12, 0.08),
}
BACK_PATTERNS = ("plain", "hatch", "dots", "emblem", "frame")


@dataclass(frozen=True)
class DeckPrint:
    """How one deck was printed. Colours are BGR floats in [0, 1]."""

    aspect: float  # card width / height
    colour_matrix: np.ndarray  # 3x3 on BGR: saturation, hue turn and paper tint in one
    gamma: float  # ink density: > 1 darker midtones
    border: str  # "keep", "recolour" or "band"
    border_colour: tuple[float, float, float]
    band: float  # width of an added band as a fraction of the card height ("band" only)
    corner_radius: float  # fraction of the card width
    gloss: float  # 0 matte paper .. 1 shiny plastic
    thickness_mm: float
    edge_colour: tuple[float, float, float]  # the card's cut side, seen at oblique views
    paper: tuple[float, float, float]
    back_colour: tuple[float, float, float]
    back_pattern: str
    blank_line: tuple[float, float, float] | None  # thin outline printed on blank cards, if any
    ink: tuple[float, float, float] | None = None  # the colour the art's black fills are printed in, if not black


def plain_deck(art: StyleArt) -> DeckPrint:
    """The art printed as it is: no colour change, sharp-ish corners, matte. Used when variation is off."""
    return DeckPrint(
        aspect=art.faces[next(iter(art.faces))].shape[1] / ART_HEIGHT,
        colour_matrix=np.eye(3, dtype=np.float32),
        gamma=1.0,
        border="keep",
        border_colour=tuple(c / 255.0 for c in art.border_colour),  # type: ignore[arg-type]
        band=0.0,
        corner_radius=0.04,
        gloss=0.0,
        thickness_mm=0.6,
        edge_colour=(0.2, 0.2, 0.2),
        paper=(0.96, 0.97, 0.97),
        back_colour=(0.08, 0.08, 0.08),
        back_pattern="plain",
        blank_line=None,
    )


def sample_deck(rng: np.random.Generator, art: StyleArt, vary: bool = True, ink_share: float = 0.0) -> DeckPrint:
    """A random deck of this style: colour, border, corners, gloss, backs; with ``ink_share``, that share of decks
    print the art's black fills in another colour. (No draw is made for the ink at 0, so scenes rendered before it
    existed stay the same.)"""
    base = plain_deck(art)
    if not vary:
        return base
    plastic = rng.random() < (0.7 if art.name == "hwatu-richert" else 0.25)
    border = str(rng.choice(["keep", "recolour", "band"], p=[0.5, 0.3, 0.2]))
    colour = _jitter(rng, BORDER_COLOURS[str(rng.choice(list(BORDER_COLOURS)))], 0.05)
    paper = _jitter(rng, (rng.uniform(0.82, 0.97), rng.uniform(0.9, 0.99), rng.uniform(0.93, 1.0)), 0.015)
    if border != "keep" and rng.random() < 0.15:
        colour = paper  # no coloured border at all
    back = BORDER_COLOURS["red"] if rng.random() < 0.5 else BORDER_COLOURS["black"]
    return DeckPrint(
        aspect=float(rng.uniform(0.6, 0.66)),
        colour_matrix=colour_matrix(
            saturation=float(rng.uniform(0.65, 1.3)),
            hue_deg=float(rng.normal(0, 6)),
            tint=(paper[0] / 0.97, paper[1] / 0.98, paper[2] / 0.99),
        ),
        gamma=float(rng.uniform(0.8, 1.25)),
        border=border,
        border_colour=colour,
        band=float(rng.uniform(0.01, 0.045)),
        corner_radius=float(rng.uniform(0.02, 0.1)),
        gloss=float(rng.uniform(0.5, 1.0) if plastic else rng.uniform(0.0, 0.35)),
        thickness_mm=float(rng.uniform(0.25, 0.45) if plastic else rng.uniform(0.5, 1.1)),
        edge_colour=_jitter(rng, colour if rng.random() < 0.6 else (0.2, 0.2, 0.2), 0.08),
        paper=paper,
        back_colour=_jitter(rng, back, 0.06),
        back_pattern=str(rng.choice(BACK_PATTERNS)),
        blank_line=_jitter(rng, colour, 0.05) if rng.random() < 0.5 else None,
        ink=_ink(rng) if ink_share > 0 and rng.random() < ink_share else None,
    )


def _ink(rng: np.random.Generator) -> tuple[float, float, float]:
    """A fill colour some deck might print where the art is black: any hue, muted to rich, dark to mid."""
    bgr = hsv_colour(rng.uniform(0, 360), rng.uniform(0.24, 0.78), rng.uniform(0.27, 0.75))
    return (float(bgr[0]), float(bgr[1]), float(bgr[2]))


def _jitter(rng: np.random.Generator, colour: tuple[float, ...], amount: float) -> tuple[float, float, float]:
    out = np.clip(np.asarray(colour, np.float64) + rng.normal(0, amount, 3), 0.0, 1.0)
    return (float(out[0]), float(out[1]), float(out[2]))


def colour_matrix(saturation: float, hue_deg: float, tint: tuple[float, float, float]) -> np.ndarray:
    """One 3x3 BGR matrix: turn hues about the grey axis, scale saturation, then tint like coloured paper."""
    luma = np.array([0.114, 0.587, 0.299])  # BGR weights
    sat = (1 - saturation) * np.outer(np.ones(3), luma) + saturation * np.eye(3)
    angle = np.radians(hue_deg)
    axis = np.ones(3) / np.sqrt(3)
    cross = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    turn = np.cos(angle) * np.eye(3) + np.sin(angle) * cross + (1 - np.cos(angle)) * np.outer(axis, axis)
    return (np.diag(tint) @ sat @ turn).astype(np.float32)


def face_sprite(art: StyleArt, code: str, deck: DeckPrint, height: float) -> np.ndarray:
    """The printed face of ``code`` at least ``height`` px high: BGRA float32 with rounded-corner alpha.

    The sprite keeps the art's pixel grid: the deck's aspect is applied by the warp that lays it on the table.
    """
    image = art.face(code, min(height * 1.15, ART_HEIGHT))
    scale = image.shape[0] / ART_HEIGHT
    if deck.ink is not None:
        image = recolour_fills(image, deck.ink, round(art.border_px * scale))
    if deck.border == "recolour":
        image = image.copy()
        _paint_ring(image, round(art.border_px * scale), _to_u8(deck.border_colour))
    elif deck.border == "band":
        band = max(round(deck.band * image.shape[0]), 1)
        image = cv2.copyMakeBorder(image, band, band, band, band, cv2.BORDER_CONSTANT, value=_to_u8(deck.border_colour))
    if deck.gamma != 1.0:
        image = cv2.LUT(image, _gamma_table(round(deck.gamma, 3)))
    if not np.array_equal(deck.colour_matrix, np.eye(3, dtype=np.float32)):
        image = cv2.transform(image, deck.colour_matrix)
    return _with_corners(image.astype(np.float32) * np.float32(1 / 255), deck)


def recolour_fills(image: np.ndarray, ink: tuple[float, float, float], border_px: int) -> np.ndarray:
    """The art's black fills (dark areas wider than a line, inside the border) shifted to ``ink``, their shading
    kept: one deck prints a willow's leaves or a hill black, another green. The lines stay lines."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    dark = ((hsv[..., 2] < 100) & (hsv[..., 1] < 90)).astype(np.uint8)
    k = max(3, round(image.shape[0] / 40)) | 1
    fills = cv2.morphologyEx(dark, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))) > 0
    inner = border_px + 2
    fills[:inner], fills[-inner:], fills[:, :inner], fills[:, -inner:] = False, False, False, False
    if not fills.any():
        return image
    out = image.astype(np.float32)
    out[fills] += np.asarray(ink, np.float32) * 255 - np.median(out[fills], axis=0)
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


def _to_u8(colour: tuple[float, float, float]) -> tuple[int, int, int]:
    return (round(colour[0] * 255), round(colour[1] * 255), round(colour[2] * 255))


@functools.lru_cache(maxsize=64)
def _gamma_table(gamma: float) -> np.ndarray:
    return np.clip(((np.arange(256) / 255.0) ** gamma) * 255.0 + 0.5, 0, 255).astype(np.uint8)


def back_sprite(rng: np.random.Generator, deck: DeckPrint, height: float) -> np.ndarray:
    """A card back: the deck's red or black, a faint pattern and paper-like mottling."""
    h = int(max(np.ceil(height * 1.3), 16))
    w = round(h * deck.aspect)
    colour = np.asarray(deck.back_colour, np.float32)
    image = np.empty((h, w, 3), np.float32)
    image[:] = colour
    shade = 1.0 + 0.04 * fractal_noise(rng, (h, w), cell=h / 4, octaves=3) + pixel_noise(rng, (h, w), 0.01)
    accent = np.clip(colour * 1.35 + 0.04, 0, 1) if colour.mean() < 0.2 else colour * 0.7
    pattern = np.zeros((h, w), np.float32)
    if deck.back_pattern == "hatch":
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        period = h / rng.uniform(25, 60)
        pattern = (np.sin((xs + ys) * 2 * np.pi / period) > 0.6).astype(np.float32) * 0.35
    elif deck.back_pattern == "dots":
        step = h / rng.uniform(15, 40)
        for y in np.arange(step / 2, h, step):
            for x in np.arange(step / 2, w, step):
                cv2.circle(pattern, (int(x), int(y)), max(int(step / 5), 1), 0.4, -1, cv2.LINE_AA)
    elif deck.back_pattern == "emblem":
        centre = (w // 2, h // 2)
        radius = int(w * rng.uniform(0.12, 0.25))
        if rng.random() < 0.5:
            cv2.circle(pattern, centre, radius, 0.6, max(h // 60, 1), cv2.LINE_AA)
            cv2.circle(pattern, centre, radius // 2, 0.6, -1, cv2.LINE_AA)
        else:
            diamond = np.array([[0, -radius], [radius, 0], [0, radius], [-radius, 0]]) + centre
            cv2.fillConvexPoly(pattern, diamond.astype(np.int32), 0.6, cv2.LINE_AA)
    elif deck.back_pattern == "frame":
        inset = int(w * rng.uniform(0.06, 0.12))
        cv2.rectangle(pattern, (inset, inset), (w - inset, h - inset), 0.6, max(h // 80, 1), cv2.LINE_AA)
    image = image + (accent - colour) * pattern[..., None]
    image *= shade[..., None]
    return _with_corners(np.clip(image, 0, 1), deck)


def blank_sprite(rng: np.random.Generator, deck: DeckPrint, height: float) -> np.ndarray:
    """A card with nothing printed on it (spare or replacement cards): paper, perhaps a thin outline."""
    h = int(max(np.ceil(height * 1.3), 16))
    w = round(h * deck.aspect)
    image = np.empty((h, w, 3), np.float32)
    image[:] = np.asarray(deck.paper, np.float32)
    image *= (1.0 + 0.02 * fractal_noise(rng, (h, w), cell=h / 3, octaves=3))[..., None]
    if deck.blank_line is not None:
        inset = max(int(w * 0.05), 1)
        cv2.rectangle(image, (inset, inset), (w - 1 - inset, h - 1 - inset), deck.blank_line, max(h // 100, 1))
    return _with_corners(np.clip(image, 0, 1), deck)


def _paint_ring(image: np.ndarray, width: int, colour: tuple[int, int, int]) -> None:
    if width <= 0:
        return
    image[:width] = colour
    image[-width:] = colour
    image[:, :width] = colour
    image[:, -width:] = colour


def _with_corners(image: np.ndarray, deck: DeckPrint) -> np.ndarray:
    h, w = image.shape[:2]
    sprite = np.empty((h, w, 4), np.float32)
    sprite[:, :, :3] = image
    sprite[:, :, 3] = corner_mask(h, w, round(deck.corner_radius * w * 2) / 2)
    return sprite


@functools.lru_cache(maxsize=256)
def corner_mask(h: int, w: int, radius: float) -> np.ndarray:
    """Alpha of a rounded rectangle filling (h, w), anti-aliased; cached because decks reuse sizes."""
    alpha = np.ones((h, w), np.float32)
    r = max(radius, 0.5)
    k = int(np.ceil(r)) + 1
    if 2 * k > min(h, w):
        return alpha
    ys, xs = np.mgrid[0:k, 0:k].astype(np.float32) + 0.5
    dist = np.hypot(xs - r, ys - r)
    corner = np.clip(r - dist + 0.5, 0, 1)
    corner[(xs > r) | (ys > r)] = 1.0
    corner = np.minimum(corner, np.clip(np.minimum(xs, ys) * 2, 0, 1))
    alpha[:k, :k] = corner
    alpha[:k, -k:] = corner[:, ::-1]
    alpha[-k:, :k] = corner[::-1, :]
    alpha[-k:, -k:] = corner[::-1, ::-1]
    alpha.setflags(write=False)
    return alpha
