"""A pinhole camera looking down at the table plane, so perspective, parallax and scale are physically consistent.

World units are millimetres. The table is the plane z = 0 and "up" (towards the camera) is -z, so a camera
without tilt or roll sees table x to the right and table y downwards, exactly like image axes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Camera:
    """Intrinsics ``K``, world-to-camera rotation ``R`` and translation ``t``; ``size`` is (width, height)."""

    K: np.ndarray
    R: np.ndarray
    t: np.ndarray
    size: tuple[int, int]

    def project(self, points: np.ndarray, height: float | np.ndarray = 0.0) -> np.ndarray:
        """Image pixels of table points (N, 2) in mm lying ``height`` mm above the table. Returns (N, 2) float64."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        z = -np.broadcast_to(np.asarray(height, np.float64), (len(pts),))
        world = np.column_stack([pts, z])
        cam = world @ self.R.T + self.t
        pix = cam @ self.K.T
        return pix[:, :2] / pix[:, 2:3]

    @property
    def height(self) -> float:
        """How high above the table the camera is, mm."""
        return float(-(-self.R.T @ self.t)[2])

    @property
    def homography(self) -> np.ndarray:
        """Table plane (mm) -> image (px)."""
        return self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], self.t])

    def to_table(self, pixels: np.ndarray) -> np.ndarray:
        """Back-project image pixels (N, 2) onto the table plane (mm)."""
        pts = np.column_stack([np.asarray(pixels, np.float64).reshape(-1, 2), np.ones(len(pixels))])
        table = pts @ np.linalg.inv(self.homography).T
        return table[:, :2] / table[:, 2:3]

    def visible_table(self, margin: float = 0.0) -> np.ndarray:
        """The table quadrilateral (4, 2) mm seen by the frame grown by ``margin`` pixels on each side."""
        w, h = self.size
        corners = np.array([[-margin, -margin], [w + margin, -margin], [w + margin, h + margin], [-margin, h + margin]])
        return self.to_table(corners)

    def scale_at(self, point: np.ndarray) -> float:
        """Pixels per millimetre on the table around ``point`` (geometric mean of both directions)."""
        p = np.asarray(point, np.float64).reshape(1, 2)
        img = self.project(np.vstack([p, p + np.array([1.0, 0.0]), p + np.array([0.0, 1.0])]))
        (ax, ay), (bx, by) = img[1] - img[0], img[2] - img[0]
        area = abs(ax * by - ay * bx)
        return float(np.sqrt(area))


def rotation_z(angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def rotation_x(angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def make_camera(
    size: tuple[int, int],
    card_height_px: float,
    tilt_deg: float = 0.0,
    azimuth_deg: float = 0.0,
    roll_deg: float = 0.0,
    fov_deg: float = 60.0,
    card_height_mm: float = 54.0,
    principal_offset: tuple[float, float] = (0.0, 0.0),
) -> Camera:
    """A camera aimed at the table origin from the distance at which a card there is ``card_height_px`` tall.

    ``roll_deg`` turns the camera about its optical axis (it sets the direction of the tilt in the image),
    ``tilt_deg`` leans it away from looking straight down, ``azimuth_deg`` turns it about the vertical.
    """
    w, h = size
    focal = (w / 2.0) / np.tan(np.radians(fov_deg) / 2.0)
    K = np.array([[focal, 0.0, w / 2.0 + principal_offset[0]], [0.0, focal, h / 2.0 + principal_offset[1]], [0, 0, 1]])
    distance = focal * card_height_mm / card_height_px * np.sqrt(np.cos(np.radians(tilt_deg)))
    cam_to_world = (
        rotation_z(np.radians(azimuth_deg)) @ rotation_x(np.radians(tilt_deg)) @ rotation_z(np.radians(roll_deg))
    )
    R = cam_to_world.T
    return Camera(K=K, R=R, t=np.array([0.0, 0.0, distance]), size=(w, h))
