"""Edge support of quad hypotheses: how much of each side of a would-be card has an edge right under it.

This is the finder's one test of "is this a card outline", used to accept clean blobs, to choose between
split hypotheses and to rate confidence. The test samples the colour difference across each side (a step in
any channel counts), so texture running along or across a side does not fake support, and points hidden
under already accepted cards or outside the frame are left out rather than counted as missing.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

SAMPLES_PER_SIDE = 12
_T = np.linspace(0.1, 0.9, SAMPLES_PER_SIDE, dtype=np.float32)


@dataclass(frozen=True)
class Support:
    """Per hypothesis: ``sides`` M x 4 share of visible points with an edge, ``visible`` M x 4 share visible."""

    sides: np.ndarray
    visible: np.ndarray
    border: np.ndarray
    """M: share of visible points just inside the sides that have the quad's typical inside colour."""

    @property
    def visibility(self) -> np.ndarray:
        return self.visible.mean(axis=1)

    @property
    def score(self) -> np.ndarray:
        """Mean support over the visible sides, weighted by how much of each is visible."""
        weight = self.visible + 1e-6
        return (self.sides * weight).sum(axis=1) / weight.sum(axis=1)

    @property
    def weakest(self) -> np.ndarray:
        """Support of the weakest side that is at least half visible (1 when none is)."""
        masked = np.where(self.visible >= 0.5, self.sides, 1.0)
        return masked.min(axis=1)


def sample(image: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Bilinear samples of ``image`` at points (... x 2): ... x channels, as float32."""
    flat = points.reshape(-1, 2).astype(np.float32)
    count = len(flat)
    width = 1024
    padded = np.zeros((-(-max(count, 1) // width) * width, 2), np.float32)
    padded[:count] = flat
    grid = padded.reshape(-1, width, 2)  # remap wants both map sides below 32767
    values = cv2.remap(image, grid[..., 0], grid[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    values = values.reshape(len(padded), -1)[:count]
    return values.reshape(*points.shape[:-1], -1).astype(np.float32)


def outward_normals(quads: np.ndarray) -> np.ndarray:
    """Unit normals pointing out of each side of clockwise (on screen) quads: M x 4 x 2."""
    edges = np.roll(quads, -1, axis=1) - quads
    normals = np.stack([edges[..., 1], -edges[..., 0]], axis=-1)
    return normals / np.maximum(np.linalg.norm(normals, axis=-1, keepdims=True), 1e-6)


def side_points(quads: np.ndarray) -> np.ndarray:
    """Sample points along each side: M x 4 x S x 2."""
    start = quads[:, :, None, :]
    end = np.roll(quads, -1, axis=1)[:, :, None, :]
    return start + (end - start) * _T[None, None, :, None]


def inside_any(points: np.ndarray, occluders: list[np.ndarray]) -> np.ndarray:
    """Boolean mask of points (... x 2) lying inside any of the convex quads."""
    flat = points.reshape(-1, 2)
    hidden = np.zeros(len(flat), bool)
    for quad in occluders:
        q = np.asarray(quad, np.float32)
        edges = np.roll(q, -1, axis=0) - q
        rel = flat[:, None, :] - q[None]
        cross = edges[None, :, 0] * rel[..., 1] - edges[None, :, 1] * rel[..., 0]
        hidden |= (cross > 0).all(axis=1) | (cross < 0).all(axis=1)
    return hidden.reshape(points.shape[:-1])


def step_support(image: np.ndarray, points: np.ndarray, normals: np.ndarray, contrast: float,
                 tolerance: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Whether an edge crosses each point along its normal (points, normals: ... x 2), and the colour just
    on the inner side (-normal) of each point (... x channels).

    An edge is a step of at least ``contrast`` grey levels in some channel across the normal, within
    ``tolerance`` pixels of the point, at least twice the step along the line there (texture and art
    change in every direction; an outline changes across only).
    """
    normals = np.broadcast_to(normals, points.shape)
    tangents = np.stack([-normals[..., 1], normals[..., 0]], axis=-1)
    offsets = np.arange(-tolerance - 1, tolerance + 1.5, 1.0, dtype=np.float32)
    across = points[..., None, :] + normals[..., None, :] * offsets[:, None]
    mid = across[..., 1:-1, :]
    along = np.concatenate([mid - tangents[..., None, :], mid + tangents[..., None, :]], axis=-2)
    inner = points - normals * 1.5
    values = sample(image, np.concatenate([across, along, inner[..., None, :]], axis=-2))
    k = len(offsets)
    normal_step = np.abs(values[..., 2:k, :] - values[..., : k - 2, :]).max(axis=-1)
    tangent_step = np.abs(values[..., k + k - 2 : -1, :] - values[..., k : k + k - 2, :]).max(axis=-1)
    supported = ((normal_step >= contrast) & (normal_step >= 2.0 * tangent_step)).any(axis=-1)
    return supported, values[..., -1, :]


def edge_support(
    image: np.ndarray,
    quads: np.ndarray,
    contrast: float,
    occluders: list[np.ndarray] | None = None,
    tolerance: float = 1.0,
) -> Support:
    """Score quads (M x 4 x 2, clockwise, in ``image`` pixels) by the edges found under their sides."""
    quads = np.asarray(quads, np.float32).reshape(-1, 4, 2)
    height, width = image.shape[:2]
    points = side_points(quads)
    supported, inside = step_support(image, points, outward_normals(quads)[:, :, None, :], contrast, tolerance)
    x, y = points[..., 0], points[..., 1]
    visible = (x >= 1) & (x < width - 1) & (y >= 1) & (y < height - 1) & ~inside_any(points, occluders or [])
    seen = visible.sum(axis=2)
    sides = np.where(seen > 0, (supported & visible).sum(axis=2) / np.maximum(seen, 1), 0.0)
    return Support(sides.astype(np.float32), (seen / SAMPLES_PER_SIDE).astype(np.float32),
                   _border_uniformity(inside, visible))


def _border_uniformity(inside: np.ndarray, visible: np.ndarray, spread: float = 40.0) -> np.ndarray:
    """Cards have a border (or a plain back) running all round: the colour just inside a true outline is
    nearly the same on all four sides, while a quad laid across art or texture sees many colours."""
    flat = inside.reshape(len(inside), -1, inside.shape[-1])
    seen = visible.reshape(len(inside), -1)
    # Median over the visible points: hidden ones are pushed to alternating extremes so they cancel out.
    extreme = np.where(np.arange(flat.shape[1]) % 2 == 0, -1e4, 1e4)[None, :, None]
    typical = np.median(np.where(seen[..., None], flat, extreme), axis=1, keepdims=True)
    near = (np.abs(flat - typical).max(axis=-1) <= spread) & seen
    return (near.sum(axis=1) / np.maximum(seen.sum(axis=1), 1)).astype(np.float32)
