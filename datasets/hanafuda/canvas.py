"""Drawing projected things: a premultiplied BGRA patch (``Canvas``) and the outlines things are made of.

Outlines are in table millimetres; the camera projects them; the canvas paints them anti-aliased. Every
rectangle lists its corners top-left, top-right, bottom-right, bottom-left, so a sprite warped onto one keeps
its orientation.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from datasets.hanafuda.camera import Camera


@dataclass
class Layer:
    """A premultiplied BGRA float32 patch whose top-left pixel sits at ``origin`` (x, y) in the image."""

    origin: tuple[int, int]
    rgba: np.ndarray
    height_mm: float  # how high the thing stands: sets its shadow's offset and softness
    gloss: float


class Canvas:
    """A premultiplied BGRA patch covering some image points (plus a margin), clipped near the frame."""

    def __init__(self, points: np.ndarray, size: tuple[int, int], pad: int = 4) -> None:
        lo = np.maximum(np.floor(points.min(axis=0)).astype(int) - pad, -pad)
        hi = np.minimum(np.ceil(points.max(axis=0)).astype(int) + pad, np.array(size) + pad)
        self.origin = (int(lo[0]), int(lo[1]))
        w, h = max(int(hi[0] - lo[0]), 1), max(int(hi[1] - lo[1]), 1)
        self.rgba = np.zeros((h, w, 4), np.float32)
        self.empty = True

    def local(self, points: np.ndarray) -> np.ndarray:
        return np.asarray(points, np.float64) - self.origin

    def mask(self, points: np.ndarray) -> np.ndarray:
        """Anti-aliased coverage (h, w) of a polygon given in image pixels."""
        mask = np.zeros(self.rgba.shape[:2], np.float32)
        cv2.fillPoly(mask, [np.round(self.local(points) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, shift=4)
        return mask

    def fill(self, points: np.ndarray, colour: np.ndarray | tuple[float, ...]) -> None:
        """Paint a polygon (image pixels) in one colour."""
        mask = self.mask(points)
        rgb = np.empty((*mask.shape, 3), np.float32)
        rgb[:] = np.asarray(colour, np.float32)
        self.over(rgb, mask)

    def warp(self, sprite: np.ndarray, quad: np.ndarray, premultiplied: bool = False) -> None:
        """Paint a BGRA sprite onto an image quad (TL, TR, BR, BL); alpha is straight unless ``premultiplied``."""
        h, w = sprite.shape[:2]
        src = np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]], np.float32)
        m = cv2.getPerspectiveTransform(src, self.local(quad).astype(np.float32))
        if not premultiplied:
            sprite = sprite.copy()
            sprite[:, :, :3] *= sprite[:, :, 3:]
        out = cv2.warpPerspective(sprite, m, self.rgba.shape[1::-1], flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
        self.rgba = out if self.empty else out + self.rgba * (1.0 - out[:, :, 3:])
        self.empty = False

    def over(self, rgb: np.ndarray, alpha: np.ndarray) -> None:
        """Lay straight-alpha colours over what is painted already."""
        a = alpha[..., None]
        self.rgba[:, :, :3] = rgb * a + self.rgba[:, :, :3] * (1.0 - a)
        self.rgba[:, :, 3:] = a + self.rgba[:, :, 3:] * (1.0 - a)
        self.empty = False

    def layer(self, height_mm: float, gloss: float) -> Layer:
        return Layer(self.origin, self.rgba, height_mm, gloss)


def turn(points: np.ndarray, angle: float) -> np.ndarray:
    """Points (N, 2) turned by ``angle`` radians about the origin."""
    c, s = np.cos(angle), np.sin(angle)
    return np.asarray(points, np.float64) @ np.array([[c, -s], [s, c]]).T


def rect(centre: np.ndarray, size: tuple[float, float], angle: float) -> np.ndarray:
    """Corners (4, 2) of a turned rectangle: top-left, top-right, bottom-right, bottom-left."""
    w, h = size
    return turn(np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]]), angle) + centre


def rounded_rect(centre: np.ndarray, size: tuple[float, float], radius: float, angle: float, n: int = 8) -> np.ndarray:
    """Outline of a turned rectangle with rounded corners, clockwise from the top-left corner."""
    w, h = size
    r = min(radius, w / 2, h / 2)
    arcs = []
    for cx, cy, start in (
        (-w / 2 + r, -h / 2 + r, 180),
        (w / 2 - r, -h / 2 + r, 270),
        (w / 2 - r, h / 2 - r, 0),
        (-w / 2 + r, h / 2 - r, 90),
    ):
        t = np.radians(np.linspace(start, start + 90, n))
        arcs.append(np.column_stack([cx + r * np.cos(t), cy + r * np.sin(t)]))
    return turn(np.vstack(arcs), angle) + centre


def circle(centre: np.ndarray, radius: float, n: int = 48) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return centre + radius * np.column_stack([np.cos(t), np.sin(t)])


def ellipse(centre: np.ndarray, length: float, width: float, direction: np.ndarray, n: int = 32) -> np.ndarray:
    """An ellipse ``length`` long along ``direction`` (a unit vector) and ``width`` across it."""
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    normal = np.array([-direction[1], direction[0]])
    return centre + np.outer(length / 2 * np.cos(t), direction) + np.outer(width / 2 * np.sin(t), normal)


def capsule(start: np.ndarray, end: np.ndarray, width: float, n: int = 10) -> np.ndarray:
    """A stadium (a fingers, an arm): a segment from ``start`` to ``end`` thickened to ``width``."""
    d = end - start
    d = d / max(float(np.linalg.norm(d)), 1e-6)
    normal = np.array([-d[1], d[0]])
    r = width / 2
    t1 = np.linspace(-np.pi / 2, np.pi / 2, n)
    t2 = t1 + np.pi
    cap_end = end + np.outer(r * np.cos(t1), d) + np.outer(r * np.sin(t1), normal)
    cap_start = start + np.outer(r * np.cos(t2), d) + np.outer(r * np.sin(t2), normal)
    return np.vstack([cap_end, cap_start])


def prism(camera: Camera, canvas: Canvas, outline: np.ndarray, height: float, side: np.ndarray) -> np.ndarray:
    """Paint the walls of a solid standing ``height`` mm on ``outline``; return its projected top outline."""
    bottom = camera.project(outline, 0.0)
    top = camera.project(outline, height)
    canvas.fill(hull(np.vstack([bottom, top])), side)
    return top


def hull(points: np.ndarray) -> np.ndarray:
    return cv2.convexHull(np.asarray(points, np.float32)).reshape(-1, 2)


def rounded_alpha(h: int, w: int, radius: float) -> np.ndarray:
    """Coverage (h, w) of a rounded rectangle filling the whole patch."""
    mask = np.zeros((h, w), np.uint8)
    pts = rounded_rect(np.array([w / 2 - 0.5, h / 2 - 0.5]), (w, h), radius, 0.0)
    cv2.fillPoly(mask, [np.round(pts * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    return mask.astype(np.float32) / 255.0
