"""Things people leave on a card table: coins, a phone, a pen, a cup seen from above, the deck's own box.

Each is a simple solid in table millimetres projected with the scene camera, so it has the scene's perspective
and parallax, and stands at a height that sets its shadow. The card box carries a real card's art on its lid
and must never be labelled as a card: the quad of that art is recorded so crops can use it as a hard negative.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from datasets.hanafuda.art import StyleArt
from datasets.hanafuda.backgrounds import draw_text
from datasets.hanafuda.camera import Camera
from datasets.hanafuda.canvas import Canvas, Layer, circle, hull, prism, rect, rounded_alpha, rounded_rect
from datasets.hanafuda.noise import fractal_noise
from datasets.hanafuda.printing import DeckPrint, face_sprite


@dataclass(frozen=True)
class Prop:
    """Truth about one thing that is not a card: its image outline and, for a card box, its lid's card art."""

    kind: str
    polygon: np.ndarray  # (N, 2) image px
    art_quad: np.ndarray | None = None  # (4, 2) image px, top-left first as printed


def _choice(rng: np.random.Generator, options: list[tuple[float, float, float]]) -> np.ndarray:
    return np.asarray(options[int(rng.integers(len(options)))], np.float32)


def _texels_per_mm(camera: Camera, centre: np.ndarray) -> float:
    """Resolution for a printed surface: a little finer than the camera sees it, within sane bounds."""
    return float(np.clip(1.3 * camera.scale_at(centre), 2.0, 6.0))


def coin(
    rng: np.random.Generator, camera: Camera, centre: np.ndarray, art: StyleArt, deck: DeckPrint
) -> tuple[Layer, Prop]:
    """A gold, silver or copper coin: rim, relief and a light falling from one side."""
    radius, thick = rng.uniform(9.0, 14.0), rng.uniform(1.2, 2.2)
    metal = _choice(rng, [(0.35, 0.62, 0.78), (0.72, 0.72, 0.74), (0.3, 0.45, 0.7), (0.55, 0.58, 0.6)])
    metal = metal * rng.uniform(0.8, 1.1)
    outline = circle(centre, radius)
    canvas = Canvas(np.vstack([camera.project(outline, 0), camera.project(outline, thick)]), camera.size)
    prism(camera, canvas, outline, thick, metal * 0.55)
    n = 96
    ys, xs = (np.mgrid[0:n, 0:n].astype(np.float32) + 0.5) / n * 2 - 1
    r = np.hypot(xs, ys)
    light = rng.uniform(0, 2 * np.pi)
    face = 0.8 + 0.25 * (np.cos(light) * xs + np.sin(light) * ys) + 0.12 * fractal_noise(rng, (n, n), cell=12)
    face = np.where((r > 0.82) & (r < 0.92), face * 1.15, face)  # the raised rim
    sprite = np.dstack([np.clip(metal * face[..., None], 0, 1), np.clip((1.0 - r) * n / 2, 0, 1)])
    canvas.warp(sprite.astype(np.float32), camera.project(rect(centre, (2 * radius, 2 * radius), light), thick))
    return canvas.layer(thick, 0.8), Prop("coin", camera.project(outline, thick))


def phone(
    rng: np.random.Generator, camera: Camera, centre: np.ndarray, art: StyleArt, deck: DeckPrint
) -> tuple[Layer, Prop]:
    """A phone lying face up (black glass, screen off or showing coloured blocks) or face down (camera bump)."""
    size = (rng.uniform(68, 78), rng.uniform(142, 165))
    thick, angle, radius = rng.uniform(7, 9.5), rng.uniform(0, 2 * np.pi), rng.uniform(7, 11)
    body = _choice(rng, [(0.08, 0.08, 0.09), (0.85, 0.85, 0.84), (0.35, 0.25, 0.2), (0.55, 0.7, 0.8)])
    body = body * rng.uniform(0.85, 1.1)
    outline = rounded_rect(centre, size, radius, angle)
    canvas = Canvas(np.vstack([camera.project(outline, 0), camera.project(outline, thick)]), camera.size)
    prism(camera, canvas, outline, thick, body * 0.6 + 0.02)
    ppm = _texels_per_mm(camera, centre)
    sw, sh = int(size[0] * ppm), int(size[1] * ppm)
    top = np.empty((sh, sw, 3), np.float32)
    face_up = rng.random() < 0.6
    if face_up:
        top[:] = (0.03, 0.03, 0.035)
        bezel = int(rng.uniform(1.5, 4) * ppm)
        screen = top[bezel:-bezel, bezel:-bezel]
        if rng.random() < 0.5:  # switched on: an app's coloured blocks
            screen[:] = rng.uniform(0.05, 0.95, 3)
            for _ in range(int(rng.integers(3, 12))):
                y0, x0 = int(rng.integers(0, screen.shape[0])), int(rng.integers(0, screen.shape[1]))
                screen[y0 : y0 + int(rng.integers(10, 120)), x0 : x0 + int(rng.integers(10, 200))] = rng.uniform(
                    0, 1, 3
                )
        ramp = np.linspace(0, 1, sh, dtype=np.float32)[:, None] * np.linspace(1, 0, sw, dtype=np.float32)[None, :]
        top += 0.12 * ramp[..., None]  # a reflection across the glass
    else:
        top[:] = body
        for k in range(int(rng.integers(1, 4))):
            lens = (int(sw * 0.22), int(sh * 0.1 + k * 9 * ppm))
            cv2.circle(top, lens, int(4 * ppm), (0.02, 0.02, 0.02), -1, cv2.LINE_AA)
    sprite = np.dstack([np.clip(top, 0, 1), rounded_alpha(sh, sw, radius * ppm)])
    canvas.warp(sprite, camera.project(rect(centre, size, angle), thick))
    return canvas.layer(thick, 0.9 if face_up else 0.5), Prop("phone", camera.project(outline, thick))


def pen(
    rng: np.random.Generator, camera: Camera, centre: np.ndarray, art: StyleArt, deck: DeckPrint
) -> tuple[Layer, Prop]:
    """A ballpoint pen: a shaded cylinder with a metal tip, a cap end and a clip."""
    length, dia, angle = rng.uniform(120, 150), rng.uniform(7.5, 11), rng.uniform(0, 2 * np.pi)
    colour = _choice(rng, [(0.08, 0.08, 0.08), (0.6, 0.25, 0.1), (0.9, 0.9, 0.9), (0.1, 0.1, 0.7), (0.2, 0.5, 0.2)])
    colour = np.clip(colour * rng.uniform(0.8, 1.2) + rng.normal(0, 0.05, 3), 0, 1).astype(np.float32)
    along, across_n = 240, 24
    across = np.linspace(-1, 1, across_n, dtype=np.float32)
    light = rng.uniform(-0.6, 0.6)
    profile = 0.55 + 0.45 * np.sqrt(np.clip(1 - across**2, 0, 1)) + 0.5 * np.exp(-(((across - light) / 0.15) ** 2))
    body = np.empty((along, across_n, 3), np.float32)
    body[:] = colour
    tip = int(along * 0.1)
    body[:tip] = (0.75, 0.75, 0.78)
    body[-int(along * 0.1) :] = colour * 0.7
    body[-int(along * 0.35) : -int(along * 0.12), across_n // 2 - 2 : across_n // 2 + 2] = (0.8, 0.8, 0.82)  # clip
    body *= profile[None, :, None]
    ys = np.arange(along, dtype=np.float32)[:, None]
    alpha = np.clip((ys / tip) * across_n / 2 - np.abs(across[None, :] * across_n / 2) + 1, 0, 1)  # pointed tip
    quad = camera.project(rect(centre, (dia, length), angle), dia / 2)
    canvas = Canvas(quad, camera.size, pad=6)
    canvas.warp(np.dstack([np.clip(body, 0, 1), alpha]).astype(np.float32), quad)
    return canvas.layer(dia, 0.6), Prop("pen", quad)


def cup(
    rng: np.random.Generator, camera: Camera, centre: np.ndarray, art: StyleArt, deck: DeckPrint
) -> tuple[Layer, Prop]:
    """A mug seen from above: its body between base and rim, the rim, a handle, coffee, tea or milk inside."""
    rim, base, height = rng.uniform(35, 45), rng.uniform(26, 34), rng.uniform(70, 100)
    ceramic = _choice(rng, [(0.92, 0.93, 0.93), (0.2, 0.2, 0.22), (0.55, 0.35, 0.2), (0.3, 0.5, 0.75)])
    ceramic = ceramic * rng.uniform(0.85, 1.05)
    top = camera.project(circle(centre, rim), height)
    outline = hull(np.vstack([top, camera.project(circle(centre, base), 0.0)]))
    canvas = Canvas(outline, camera.size, pad=8)
    canvas.fill(outline, ceramic * 0.75)
    side = rng.uniform(0, 2 * np.pi)
    ts = np.linspace(0, np.pi, 12)
    bends = side + (ts - np.pi / 2) * 0.35
    arc = centre + (rim + 12 * np.sin(ts))[:, None] * np.column_stack([np.cos(bends), np.sin(bends)])
    handle = np.zeros(canvas.rgba.shape[:2], np.float32)
    width = max(int(camera.scale_at(centre) * 6), 1)
    pts = np.round(canvas.local(camera.project(arc, height * 0.6)) * 16).astype(np.int32)
    cv2.polylines(handle, [pts], False, 1.0, width, cv2.LINE_AA, shift=4)
    canvas.over(np.full((*handle.shape, 3), ceramic * 0.85, np.float32), handle)
    canvas.fill(top, ceramic)
    inner = camera.project(circle(centre, rim - rng.uniform(3, 5)), height)
    if rng.random() < 0.25:  # empty: the inside is in its own shade
        canvas.fill(inner, ceramic * 0.6)
    else:
        liquid = _choice(rng, [(0.05, 0.1, 0.2), (0.1, 0.35, 0.55), (0.8, 0.85, 0.88)])
        canvas.fill(inner, ceramic * 0.85)
        canvas.fill(camera.project(circle(centre, rim - 5), height * rng.uniform(0.2, 0.85)), liquid)
    return canvas.layer(height, 0.6), Prop("cup", outline)


def card_box(
    rng: np.random.Generator, camera: Camera, centre: np.ndarray, art: StyleArt, deck: DeckPrint
) -> tuple[Layer, Prop]:
    """The deck's box: coloured cardboard, one card's art framed on the lid, some lettering."""
    w, h, depth, angle = rng.uniform(60, 80), rng.uniform(85, 110), rng.uniform(18, 35), rng.uniform(0, 2 * np.pi)
    colour = _choice(rng, [(0.1, 0.1, 0.7), (0.05, 0.05, 0.05), (0.2, 0.6, 0.8), (0.9, 0.9, 0.9), (0.15, 0.3, 0.1)])
    outline = rect(centre, (w, h), angle)
    canvas = Canvas(np.vstack([camera.project(outline, 0), camera.project(outline, depth)]), camera.size)
    prism(camera, canvas, outline, depth, colour * 0.6)
    ppm = _texels_per_mm(camera, centre)
    lid = np.empty((int(h * ppm), int(w * ppm), 3), np.float32)
    lid[:] = colour
    lid *= (1 + 0.05 * fractal_noise(rng, lid.shape[:2], cell=8 * ppm, octaves=2))[..., None]
    art_h = rng.uniform(0.45, 0.75) * h
    art_w = art_h * deck.aspect
    ax, ay = rng.uniform(0.1, 0.9) * (w - art_w), rng.uniform(0.15, 0.85) * (h - art_h)
    ink = (0.1, 0.6, 0.85) if rng.random() < 0.5 else (0.95, 0.95, 0.95)
    frame = max(int(ppm * rng.uniform(0.5, 3)), 1)
    x0, y0, x1, y1 = int(ax * ppm), int(ay * ppm), int((ax + art_w) * ppm), int((ay + art_h) * ppm)
    cv2.rectangle(lid, (x0 - frame, y0 - frame), (x1 + frame, y1 + frame), ink, -1)
    face = face_sprite(art, str(rng.choice(list(art.faces))), deck, art_h * ppm)
    lid[y0:y1, x0:x1] = cv2.resize(face[:, :, :3], (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    for _ in range(int(rng.integers(1, 4))):
        text = "".join(rng.choice(list("HANAFUDA KOIKOI NINTENDO HWATU")) for _ in range(int(rng.integers(4, 10))))
        org = (int(rng.uniform(0, 0.5) * lid.shape[1]), int(rng.uniform(0.05, 1.0) * lid.shape[0]))
        draw_text(lid, text, org, rng.uniform(0.12, 0.32) * ppm, np.asarray(ink))
    canvas.warp(np.dstack([np.clip(lid, 0, 1), np.ones(lid.shape[:2], np.float32)]), camera.project(outline, depth))
    # the art's corners, as printed, in lid pixels -> table -> image
    art_px = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64) - 0.5
    lid_to_table = cv2.getPerspectiveTransform(
        np.array(
            [
                [-0.5, -0.5],
                [lid.shape[1] - 0.5, -0.5],
                [lid.shape[1] - 0.5, lid.shape[0] - 0.5],
                [-0.5, lid.shape[0] - 0.5],
            ],
            np.float32,
        ),
        outline.astype(np.float32),
    )
    art_table = cv2.perspectiveTransform(art_px[None].astype(np.float32), lid_to_table)[0]
    art_quad = camera.project(art_table, depth).astype(np.float32)
    polygon = hull(np.vstack([camera.project(outline, depth), camera.project(outline, 0)]))
    return canvas.layer(depth, 0.35), Prop("card-box", polygon, art_quad)


PropMaker = Callable[[np.random.Generator, Camera, np.ndarray, StyleArt, DeckPrint], tuple[Layer, Prop]]
OBJECTS: dict[str, PropMaker] = {"coin": coin, "phone": phone, "pen": pen, "cup": cup, "card-box": card_box}
