"""Hands reaching into the frame: forearm, palm, thumb and four fingers in one of a few poses, with nails,
rounded shading, creases between fingers and sometimes a sleeve. Hands hover above the table, so they cast
soft, offset shadows and hide cards and their edges from the camera.
"""

from __future__ import annotations

import cv2
import numpy as np

from datasets.hanafuda.art import StyleArt
from datasets.hanafuda.camera import Camera
from datasets.hanafuda.canvas import Canvas, Layer, capsule, ellipse, hull
from datasets.hanafuda.noise import fractal_noise
from datasets.hanafuda.objects import Prop
from datasets.hanafuda.printing import DeckPrint

SKIN_TONES = [(0.62, 0.74, 0.93), (0.5, 0.64, 0.86), (0.4, 0.53, 0.76), (0.28, 0.39, 0.6), (0.18, 0.26, 0.42)]
# Finger bases (mm along the hand from the wrist, mm across it), lengths and widths, index to little, right hand.
FINGERS = (((92, -27), 72, 17.5), ((97, -8), 80, 18.0), ((94, 11), 74, 17.0), ((86, 28), 60, 15.5))
# How far each finger is stretched out: 1 straight, 0 curled under.
POSES = {
    "flat": (1, 1, 1, 1),
    "point": (1, 0, 0, 0),
    "two": (1, 1, 0, 0),
    "grab": (0.6, 0.6, 0.5, 0.5),
    "fist": (0, 0, 0, 0),
}


def hand_outline(rng: np.random.Generator) -> tuple[list[np.ndarray], list[np.ndarray], float]:
    """Outlines in mm (hand frame: +x from the wrist to the fingertips): forearm, palm, thumb, fingers; the
    nails; and how far the furthest fingertip reaches along +x."""
    pose = POSES[str(rng.choice(list(POSES)))]
    mirror = 1.0 if rng.random() < 0.5 else -1.0  # right or left hand
    shapes = [capsule(np.array([-400.0, 0.0]), np.array([10.0, 0.0]), rng.uniform(52, 62))]
    shapes.append(ellipse(np.array([48.0, 0.0]), 112.0, 84.0, np.array([1.0, 0.0])))
    thumb_dir = np.radians(rng.uniform(25, 70))
    thumb_base = np.array([30.0, -38.0 * mirror])
    thumb_tip = thumb_base + rng.uniform(45, 62) * np.array([np.cos(thumb_dir), -np.sin(thumb_dir) * mirror])
    shapes.append(capsule(thumb_base, thumb_tip, 22.0))
    nails, reach = [], 100.0
    for ((bx, by), length, width), stretch in zip(FINGERS, pose, strict=True):
        bend = np.radians(rng.normal(by * 0.25, 4))
        curl = stretch if stretch in (0, 1) else rng.uniform(0.35, 0.8)
        seen = length * (0.25 + 0.75 * curl)  # a curled finger, seen from above, is a short stub of knuckles
        base = np.array([bx - 12.0, by * mirror])
        tip = base + seen * np.array([np.cos(bend), np.sin(bend) * mirror])
        shapes.append(capsule(base, tip, width))
        if curl > 0.6:
            along = (tip - base) / np.linalg.norm(tip - base)
            nails.append(capsule(tip - along * (width * 0.7), tip - along * (width * 0.15), width * 0.62))
        reach = max(reach, float(tip[0] + width / 2))
    scale = rng.uniform(0.85, 1.12)
    return [s * scale for s in shapes], [n * scale for n in nails], reach * scale


def hand(
    rng: np.random.Generator, camera: Camera, target: np.ndarray, art: StyleArt, deck: DeckPrint
) -> tuple[Layer, Prop]:
    """A hand coming in over a frame edge until a fingertip is near ``target`` (table mm)."""
    w, h = camera.size
    edge, along = int(rng.integers(4)), rng.uniform(0.1, 0.9)
    entry_px = [(along * w, -0.3 * h), (1.3 * w, along * h), (along * w, 1.3 * h), (-0.3 * w, along * h)][edge]
    entry = camera.to_table(np.array([entry_px]))[0]
    direction = target - entry
    direction = direction / max(float(np.linalg.norm(direction)), 1e-6)
    shapes, nails, reach = hand_outline(rng)
    to_table = np.array([[direction[0], -direction[1]], [direction[1], direction[0]]])
    wrist = target + rng.normal(0, 6, 2) - direction * reach
    height = rng.uniform(8, 45)

    def project(outline: np.ndarray, lift: float = 0.0) -> np.ndarray:
        return camera.project(outline @ to_table.T + wrist, height + lift)

    projected = [project(s) for s in shapes]
    canvas = Canvas(np.vstack(projected), camera.size, pad=10)
    ppm = camera.scale_at(target)
    mask = np.zeros(canvas.rgba.shape[:2], np.float32)
    for poly in projected:
        mask = np.maximum(mask, canvas.mask(poly))
    creases = np.zeros_like(mask)
    line = max(round(ppm * 0.7), 1)
    for poly in projected[2:]:
        cv2.polylines(
            creases, [np.round(canvas.local(poly) * 16).astype(np.int32)], True, 1.0, line, cv2.LINE_AA, shift=4
        )
    depth = cv2.distanceTransform((mask > 0.5).astype(np.uint8), cv2.DIST_L2, 3) / max(ppm * 7.0, 1.0)
    rounded = 0.6 + 0.4 * np.sqrt(np.clip(depth, 0, 1))  # darker towards the silhouette: fingers are round
    light = rng.uniform(0, 2 * np.pi)
    soft = cv2.GaussianBlur(mask, (0, 0), max(ppm * 4, 1.0))
    relief = np.cos(light) * cv2.Sobel(soft, cv2.CV_32F, 1, 0) + np.sin(light) * cv2.Sobel(soft, cv2.CV_32F, 0, 1)
    grain = 1 + 0.04 * fractal_noise(rng, mask.shape, cell=max(ppm * 5, 2), octaves=2)
    crease = 1 - 0.22 * cv2.GaussianBlur(creases, (0, 0), 0.8) * (depth > 0.1)
    gain = np.clip(rounded * (1 + 1.5 * relief) * grain * crease, 0.35, 1.2)
    skin = np.asarray(SKIN_TONES[int(rng.integers(len(SKIN_TONES)))], np.float32) * rng.uniform(0.9, 1.08)
    rgb = skin * gain[..., None]
    nail = np.zeros_like(mask)
    for outline in nails:
        nail = np.maximum(nail, canvas.mask(project(outline)))
    nail_colour = np.clip(skin * 1.12 + np.array([0.06, 0.05, 0.08], np.float32), 0, 1)
    rgb += (nail_colour * np.clip(gain, 0.5, 1.2)[..., None] - rgb) * (nail * 0.8)[..., None]
    if rng.random() < 0.6:  # a sleeve over the forearm
        cuff = np.array([rng.uniform(-90, -20), 0.0])
        sleeve = canvas.mask(project(capsule(np.array([-420.0, 0.0]), cuff, rng.uniform(70, 95)), lift=15))
        cloth = np.asarray(rng.uniform(0.05, 0.8, 3), np.float32)
        folds = 1 + 0.12 * fractal_noise(rng, mask.shape, cell=max(ppm * 25, 2), octaves=2, stretch=0.4)
        rgb += (cloth * (0.75 + 0.25 * rounded * folds)[..., None] - rgb) * sleeve[..., None]
        mask = np.maximum(mask, sleeve)
    canvas.over(np.clip(rgb, 0, 1).astype(np.float32), mask)
    return canvas.layer(height, 0.15), Prop("hand", hull(np.vstack(projected[1:])))
