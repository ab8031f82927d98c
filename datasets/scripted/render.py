"""Render a scripted round as video frames with per-frame truth: which card lies where and how much of it shows.

Each step's table is rendered once with the shared scene machinery (``datasets.hanafuda``: table surface, the
deck's printed faces, cut edges, shadows, light, camera response). Frames are then cheap: the step's image,
shifted by camera jitter, with a slow lighting drift and fresh sensor noise, and a hand (the shared hand
model) sweeping in from outside the frame to where the step happens and out again; the cards change while
the hand is over them. Truth comes from a low-resolution index map of the topmost card at every pixel.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

import cv2
import numpy as np

from datasets.hanafuda.art import TEST_STYLE, load_style
from datasets.hanafuda.backgrounds import render_table
from datasets.hanafuda.camera import Camera, make_camera
from datasets.hanafuda.canvas import Layer
from datasets.hanafuda.compose import SpriteMaker, card_layer, composite
from datasets.hanafuda.config import preset
from datasets.hanafuda.effects import apply_camera, apply_glare, apply_lighting, sample_look
from datasets.hanafuda.hands import hand
from datasets.hanafuda.layouts import Placement, card_corners, stack_lifts
from datasets.hanafuda.printing import sample_deck
from datasets.scripted.script import CARD_MM, TABLE_MM, Placed, Script, Step

TRUTH_SCALE = 4  # the index map is this many times smaller than the frame


@dataclass(frozen=True)
class RenderConfig:
    size: tuple[int, int] = (1280, 720)
    fps: float = 30.0
    style: str = TEST_STYLE
    hand_s: float = 0.8  # a hand coming in and going out again
    jitter_px: float = 0.35  # camera shake, standard deviation per frame (at 720 lines)
    bump: float = 0.03  # chance per second of a knock: the view shifts a few pixels for a moment
    drift: float = 0.06  # amplitude of the slow change of light
    noise: float = 2.0  # sensor noise, grey levels
    tilt_deg: float = 6.0
    fill: float = 0.92  # share of the frame width the play area takes


@dataclass(frozen=True)
class CardTruth:
    label: str
    role: str
    quad: tuple[tuple[float, float], ...]  # image px, the card's own TL, TR, BR, BL
    visible: float  # share of the face that shows (not under other cards or the hand)


@dataclass(frozen=True)
class FrameTruth:
    index: int
    time: float
    step: int
    hand: bool  # a hand is over the table
    cards: tuple[CardTruth, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "index": self.index,
            "time": round(self.time, 4),
            "step": self.step,
            "hand": self.hand,
            "cards": [
                {
                    "card": c.label,
                    "role": c.role,
                    "visible": round(c.visible, 3),
                    "quad": [[round(x, 1), round(y, 1)] for x, y in c.quad],
                }
                for c in self.cards
            ],
        }


@dataclass
class _Still:
    """One step's table: the rendered image, each card's quad and the low-resolution index map."""

    image: np.ndarray
    cards: tuple[Placed, ...]
    quads: list[np.ndarray]
    index: np.ndarray
    areas: np.ndarray


class ScriptRenderer:
    """Frames of a script; deterministic for a seed."""

    def __init__(self, script: Script, config: RenderConfig | None = None, seed: int | None = None) -> None:
        self.script = script
        self.config = config or RenderConfig()
        self.rng = np.random.default_rng(script.seed if seed is None else seed)
        cfg = self.config
        self.art = load_style(cfg.style)
        self.deck = sample_deck(self.rng, self.art, True)
        w, h = cfg.size
        px_per_mm = cfg.fill * w / TABLE_MM[0]
        self.camera: Camera = make_camera(
            cfg.size,
            CARD_MM[1] * px_per_mm,
            tilt_deg=cfg.tilt_deg,
            azimuth_deg=float(self.rng.normal(0, 3)),
            roll_deg=0.0,
            fov_deg=55.0,
            card_height_mm=CARD_MM[1],
        )
        scene = replace(
            preset("default"),
            size=cfg.size,
            glare=0.25,
            noise=0.0,
            jpeg=0.0,
            dim=0.0,
            motion_blur=0.0,
            defocus=0.15,
            sheet_probability=0.0,
        )
        self.look = sample_look(self.rng, scene)
        self.background, self.gloss = render_table(self.rng, self.camera, dict(scene.surfaces), 0.0, 1.2)
        self.sprites = SpriteMaker(self.rng, self.art, self.deck)
        self.size_mm = (CARD_MM[1] * self.deck.aspect, CARD_MM[1])
        noise = self.rng.normal(128.0, cfg.noise, (6, h, w, 3))
        self._noise = [np.clip(n, 0, 255).astype(np.uint8) for n in noise]

    # ----------------------------------------------------------------- stills
    def _to_camera(self, p: tuple[float, float]) -> np.ndarray:
        return np.array([p[0] - TABLE_MM[0] / 2, p[1] - TABLE_MM[1] / 2])

    def still(self, step: Step) -> _Still:
        """Render a step's table once (cards bottom first, each lifted by the cards under it)."""
        placements = [Placement(c.label, self._to_camera(c.centre), c.angle) for c in step.cards]
        stack_lifts(placements, self.size_mm, self.deck.thickness_mm)
        image, gloss = self.background.copy(), self.gloss.copy()
        w, h = self.config.size
        small = (h // TRUTH_SCALE, w // TRUTH_SCALE)
        index = np.full(small, -1, np.int16)
        quads, areas = [], []
        for i, p in enumerate(placements):
            corners = card_corners(p.centre, p.angle, self.size_mm)
            top = self.camera.project(corners, p.lift + self.deck.thickness_mm)
            bottom = self.camera.project(corners, p.lift)
            height_px = float(max(np.linalg.norm(top[3] - top[0]), np.linalg.norm(top[2] - top[1])))
            layer = card_layer(self.rng, self.sprites(p.label, height_px), top, bottom, self.deck, self.config.size)
            composite(image, gloss, layer, self.look, self.camera.scale_at(p.centre))
            mark_truth(index, areas, quads, top, i)
        return _Still(self.photograph(image, gloss, quads), step.cards, quads, index, np.asarray(areas, np.float64))

    def photograph(self, image: np.ndarray, gloss: np.ndarray, quads: list[np.ndarray]) -> np.ndarray:
        """The composed table as the camera returns it: light, glare on the pieces, the camera's response."""
        apply_lighting(image, self.look, np.random.default_rng(0))
        apply_glare(image, gloss, self.look, quads)
        return apply_camera(image, self.look, np.random.default_rng(0))

    # ----------------------------------------------------------------- frames
    def frames(self) -> Iterator[tuple[np.ndarray, FrameTruth]]:
        cfg = self.config
        fps = cfg.fps
        index = 0
        previous: _Still | None = None
        for number, step in enumerate(self.script.steps):
            current = self.still(step)
            plan: list[tuple[_Still, float]] = []  # (table shown, how far the hand reaches 0..1)
            if step.reach is not None and previous is not None:
                n = max(round(cfg.hand_s * fps), 4)
                hover = round(step.hover_s * fps)
                reach = [float(np.sin(np.pi * k / (n - 1))) for k in range(n)]
                middle = n // 2
                plan += [(previous, r) for r in reach[:middle]]
                plan += [(current, 1.0)] * hover
                plan += [(current, r) for r in reach[middle:]]
            plan += [(current, 0.0)] * max(round(step.hold_s * fps), 1)
            layer = self._hand(step) if step.reach is not None else None
            for still, reach in plan:
                frame, truth = self._frame(still, layer, reach, index, number)
                yield frame, truth
                index += 1
            previous = current

    def _hand(self, step: Step) -> tuple[Layer, np.ndarray]:
        """The hand at full reach and the way out of the frame (the image vector from its tip to its wrist)."""
        assert step.reach is not None
        target = self._to_camera(step.reach)
        layer, _ = hand(self.rng, self.camera, target, self.art, self.deck)
        alpha = layer.rgba[:, :, 3]
        ys, xs = np.nonzero(alpha > 0.5)
        tip = self.camera.project(target[None, :])[0]
        if len(xs) == 0:
            return layer, np.zeros(2)
        body = np.array([xs.mean() + layer.origin[0], ys.mean() + layer.origin[1]])
        away = body - tip
        away = away / max(float(np.linalg.norm(away)), 1e-6)
        w, h = self.config.size
        return layer, away * 1.3 * float(np.hypot(w, h))

    def _frame(
        self, still: _Still, hand_layer: tuple[Layer, np.ndarray] | None, reach: float, index: int, step: int
    ) -> tuple[np.ndarray, FrameTruth]:
        cfg = self.config
        t = index / cfg.fps
        scale = cfg.size[1] / 720.0
        shake = self.rng.normal(0, cfg.jitter_px * scale, 2)
        if self.rng.random() < cfg.bump / cfg.fps:
            shake += self.rng.normal(0, 3.0 * scale, 2)
        matrix = np.float32([[1, 0, shake[0]], [0, 1, shake[1]]])
        frame = cv2.warpAffine(still.image, matrix, cfg.size, borderMode=cv2.BORDER_REFLECT)
        covered = None
        if hand_layer is not None and reach > 0.02:
            layer, away = hand_layer
            offset = np.round(away * (1.0 - reach)).astype(int)
            covered = _lay_hand(frame, layer, (layer.origin[0] + int(offset[0]), layer.origin[1] + int(offset[1])))
        gain = 1.0 + cfg.drift * float(np.sin(2 * np.pi * t / 23.0) + 0.5 * np.sin(2 * np.pi * t / 7.3))
        frame = cv2.addWeighted(frame, gain, self._noise[index % len(self._noise)], 1.0, -128.0)
        truth = self._truth(still, covered, shake, index, t, step)
        return frame, truth

    def _truth(
        self, still: _Still, covered: np.ndarray | None, shake: np.ndarray, index: int, t: float, step: int
    ) -> FrameTruth:
        top = still.index if covered is None else np.where(covered, -1, still.index)
        counts = np.bincount(top[top >= 0].ravel(), minlength=len(still.cards))
        cards = []
        for i, placed in enumerate(still.cards):
            quad = still.quads[i] + shake.astype(np.float32)
            cards.append(
                CardTruth(
                    placed.label,
                    placed.role,
                    tuple((float(x), float(y)) for x, y in quad),
                    float(min(counts[i] / still.areas[i], 1.0)),
                )
            )
        return FrameTruth(index, t, step, covered is not None, tuple(cards))


def mark_truth(index: np.ndarray, areas: list[int], quads: list[np.ndarray], top: np.ndarray, i: int) -> None:
    """Piece ``i`` (its top face ``top``, frame px) drawn over the low-resolution truth map, on top of those before."""
    fixed = np.round(top / TRUTH_SCALE * 16).astype(np.int32)
    mask = np.zeros(index.shape, np.uint8)
    cv2.fillConvexPoly(mask, fixed, 1, cv2.LINE_8, shift=4)
    index[mask > 0] = i
    areas.append(max(int(mask.sum()), 1))
    quads.append(top.astype(np.float32))


def _lay_hand(frame: np.ndarray, layer: Layer, origin: tuple[int, int]) -> np.ndarray | None:
    """Composite the hand (premultiplied) into a uint8 frame in place; return where it covers the truth map."""
    h, w = frame.shape[:2]
    x0, y0 = origin
    lh, lw = layer.rgba.shape[:2]
    ix0, iy0, ix1, iy1 = max(x0, 0), max(y0, 0), min(x0 + lw, w), min(y0 + lh, h)
    if ix1 <= ix0 or iy1 <= iy0:
        return None
    patch = layer.rgba[iy0 - y0 : iy1 - y0, ix0 - x0 : ix1 - x0]
    roi = frame[iy0:iy1, ix0:ix1].astype(np.float32) / 255.0
    alpha = patch[:, :, 3:]
    roi = roi * (1.0 - alpha) + patch[:, :, :3]
    frame[iy0:iy1, ix0:ix1] = np.clip(roi * 255.0 + 0.5, 0, 255).astype(np.uint8)
    # The truth map samples the frame at the centre of each TRUTH_SCALE x TRUTH_SCALE cell.
    covered = np.zeros((h // TRUTH_SCALE, w // TRUTH_SCALE), bool)
    half = TRUTH_SCALE // 2
    rows = np.arange(covered.shape[0]) * TRUTH_SCALE + half
    cols = np.arange(covered.shape[1]) * TRUTH_SCALE + half
    rows = rows[(rows >= iy0) & (rows < iy1)]
    cols = cols[(cols >= ix0) & (cols < ix1)]
    if len(rows) and len(cols):
        hit = alpha[np.ix_(rows - iy0, cols - ix0)][:, :, 0] > 0.5
        covered[np.ix_(rows // TRUTH_SCALE, cols // TRUTH_SCALE)] = hit
    return covered
