"""The printable play mat: its layout in millimetres, rendering it for print, and finding it in a photo.

A mat is a sheet (A3 or A4, landscape) with an ArUco marker (DICT_4X4_50) in each corner, ids 0-3 clockwise
from the top left, and labelled zones for the game. When the markers are in view, ``locate_mat`` gives the
homography from image pixels to millimetres on the sheet, so every card can be placed in a zone and at a
position in mm. Zone layouts are plain data (fractions of the sheet), one entry per game in ``GAMES``, so
hwatu for 2-5 players, dominoes or Kan can add theirs without touching the code.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.geometry import iou_matrix
from vision.imageio import encode_pdf, encode_png

PAPERS: dict[str, tuple[float, float]] = {"a4": (297.0, 210.0), "a3": (420.0, 297.0)}
"""Landscape sheet sizes (width, height) in mm."""

MARKER_DICTIONARY = cv2.aruco.DICT_4X4_50
MARKER_IDS = (0, 1, 2, 3)  # top-left, top-right, bottom-right, bottom-left
MARKER_SIZE = 0.11  # marker side, as a fraction of the sheet height
MARKER_MARGIN = 0.025  # gap between the sheet edge and the marker, as a fraction of the sheet height

# Zones per game: name -> (label printed on the mat, x, y, width, height as fractions of the sheet).
GAMES: dict[str, dict[str, tuple[str, float, float, float, float]]] = {
    "koikoi": {
        "opponent-hand": ("OPPONENT HAND", 0.14, 0.03, 0.26, 0.28),
        "opponent-captures": ("OPPONENT CAPTURES", 0.42, 0.03, 0.44, 0.28),
        "stock": ("STOCK", 0.03, 0.35, 0.16, 0.30),
        "field": ("FIELD", 0.21, 0.35, 0.76, 0.30),
        "player-captures": ("YOUR CAPTURES", 0.14, 0.69, 0.44, 0.28),
        "player-hand": ("YOUR HAND", 0.60, 0.69, 0.26, 0.28),
    },
}

ZONE_FRAME_IOU = 0.7  # a quad this close to a zone's printed frame is the frame, unless it reads as a card


@dataclass(frozen=True)
class Zone:
    name: str
    label: str
    rect_mm: tuple[float, float, float, float]  # x, y, width, height from the sheet's top-left corner

    @property
    def corners_mm(self) -> np.ndarray:
        """The printed frame's corners, clockwise from the top left (4 x 2)."""
        x, y, w, h = self.rect_mm
        return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float64)

    def contains(self, point_mm: np.ndarray) -> bool:
        x, y, w, h = self.rect_mm
        return bool(x <= point_mm[0] <= x + w and y <= point_mm[1] <= y + h)


@dataclass(frozen=True)
class MatLayout:
    """One game's mat on one paper size, all in millimetres."""

    game: str
    paper: str
    size_mm: tuple[float, float]
    zones: tuple[Zone, ...]

    @property
    def marker_mm(self) -> float:
        return MARKER_SIZE * self.size_mm[1]

    def marker_corners_mm(self) -> dict[int, np.ndarray]:
        """Each marker's four corners (its own TL, TR, BR, BL, as OpenCV reports them) in sheet mm."""
        width, height = self.size_mm
        side, margin = self.marker_mm, MARKER_MARGIN * height
        origins = {0: (margin, margin), 1: (width - margin - side, margin),
                   2: (width - margin - side, height - margin - side), 3: (margin, height - margin - side)}
        square = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float64)
        return {i: square + np.array(origin) for i, origin in origins.items()}

    def zone_of(self, point_mm: np.ndarray | tuple[float, float]) -> str | None:
        """The zone containing a point on the sheet, or None (between zones or off the sheet)."""
        point = np.asarray(point_mm, np.float64)
        return next((zone.name for zone in self.zones if zone.contains(point)), None)


def mat_layout(game: str = "koikoi", paper: str = "a3") -> MatLayout:
    if game not in GAMES:
        raise ValueError(f"no mat layout for game {game!r}; known: {', '.join(GAMES)}")
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; choose from {', '.join(PAPERS)}")
    width, height = PAPERS[paper]
    zones = tuple(Zone(name, label, (x * width, y * height, w * width, h * height))
                  for name, (label, x, y, w, h) in GAMES[game].items())
    return MatLayout(game, paper, (width, height), zones)


def render_mat(game: str = "koikoi", paper: str = "a3", dpi: float = 300) -> np.ndarray:
    """The mat as a BGR image at ``dpi`` (A3 at 300 dpi is 4961 x 3508 px)."""
    layout = mat_layout(game, paper)
    scale = dpi / 25.4  # px per mm
    width, height = (round(v * scale) for v in layout.size_mm)
    image = np.full((height, width, 3), 255, np.uint8)
    line = max(1, round(0.6 * scale))
    for zone in layout.zones:
        x, y, w, h = (round(v * scale) for v in zone.rect_mm)
        cv2.rectangle(image, (x, y), (x + w, y + h), (150, 150, 150), line, cv2.LINE_AA)
        font_scale = 0.11 * scale
        thickness = max(1, round(0.35 * scale))
        (text_w, text_h), _ = cv2.getTextSize(zone.label, cv2.FONT_HERSHEY_SIMPLEX, font_scale, thickness)
        origin = (x + (w - text_w) // 2, y + text_h + round(2.5 * scale))
        cv2.putText(image, zone.label, origin, cv2.FONT_HERSHEY_SIMPLEX, font_scale, (170, 170, 170), thickness,
                    cv2.LINE_AA)
    dictionary = cv2.aruco.getPredefinedDictionary(MARKER_DICTIONARY)
    for marker_id, corners in layout.marker_corners_mm().items():
        x0, y0 = (round(v * scale) for v in corners[0])
        side = round(layout.marker_mm * scale)
        image[y0 : y0 + side, x0 : x0 + side] = cv2.cvtColor(
            cv2.aruco.generateImageMarker(dictionary, marker_id, side), cv2.COLOR_GRAY2BGR)
    caption = f"kibitz {layout.game} mat - {layout.paper.upper()} - print at 100%"
    cv2.putText(image, caption, (round(0.3 * width), height - round(1.5 * scale)), cv2.FONT_HERSHEY_SIMPLEX,
                0.08 * scale, (190, 190, 190), max(1, round(0.25 * scale)), cv2.LINE_AA)
    return image


def write_mat(path: str | Path, game: str = "koikoi", paper: str = "a3", dpi: float = 300) -> Path:
    """Render the mat and write it as PNG (with its dpi recorded) or PDF (page size = paper), by suffix."""
    path = Path(path)
    image = render_mat(game, paper, dpi)
    if path.suffix.lower() == ".png":
        path.write_bytes(encode_png(image, dpi))
    elif path.suffix.lower() == ".pdf":
        path.write_bytes(encode_pdf(image, PAPERS[paper]))
    else:
        raise ValueError(f"{path}: write the mat as .png or .pdf")
    return path


@dataclass(frozen=True)
class MatPose:
    """Where the mat is in one frame: ``homography`` maps image pixels to sheet millimetres."""

    layout: MatLayout
    homography: np.ndarray
    marker_ids: tuple[int, ...]
    error_mm: float
    """RMS distance between the detected marker corners, mapped to mm, and where they are printed."""

    def to_mm(self, points: np.ndarray) -> np.ndarray:
        points = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(points, self.homography).reshape(-1, 2)

    def to_image(self, points_mm: np.ndarray) -> np.ndarray:
        points = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(points, np.linalg.inv(self.homography)).reshape(-1, 2)

    def place(self, quads: np.ndarray) -> tuple[list[str | None], np.ndarray]:
        """Zone and centre (mm on the sheet) of each quad (N x 4 x 2, image pixels)."""
        quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
        if not len(quads):
            return [], np.zeros((0, 2))
        centres = self.to_mm(quads.reshape(-1, 2)).reshape(-1, 4, 2).mean(axis=1)
        return [self.layout.zone_of(c) for c in centres], centres

    def on_markers(self, quads: np.ndarray) -> np.ndarray:
        """Which quads (N x 4 x 2, image pixels) cover the centre of a marker seen in this frame: a marker is a
        dark square with a white pattern, which a finder may box as a card back. A marker under a card is not
        seen, so a card lying there is kept."""
        quads = np.asarray(quads, np.float32).reshape(-1, 4, 2)
        printed = self.layout.marker_corners_mm()
        centres = self.to_image(np.array([printed[i].mean(axis=0) for i in self.marker_ids]))
        return np.array([any(cv2.pointPolygonTest(quad, (float(x), float(y)), False) >= 0 for x, y in centres)
                         for quad in quads], bool)

    def on_zone_frames(self, quads: np.ndarray, min_iou: float = ZONE_FRAME_IOU) -> np.ndarray:
        """Which quads (N x 4 x 2, image pixels) trace a zone's printed frame: an empty zone is a thin
        rectangle on white paper, which a finder may box as a card. Only quads that read as no card should be
        dropped for it: a card filling a zone reads as itself."""
        quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
        if not len(quads) or not self.layout.zones:
            return np.zeros(len(quads), bool)
        frames = np.stack([zone.corners_mm for zone in self.layout.zones])
        on_sheet = self.to_mm(quads.reshape(-1, 2)).reshape(-1, 4, 2)
        return np.asarray((iou_matrix(on_sheet, frames) >= min_iou).any(axis=1), bool)

    def zones_of(self, quads: np.ndarray, image_size: tuple[int, int] | None = None) -> list[str | None]:
        """Zone of each quad; fits the recogniser's ``zone_of(quads, (width, height))`` hook."""
        return self.place(quads)[0]


def detect_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """The mat's markers in a BGR frame: id -> 4 x 2 corners (sub-pixel), for ids 0-3 only."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(MARKER_DICTIONARY), parameters)
    corners, ids, _ = detector.detectMarkers(grey)
    if ids is None:
        return {}
    found: dict[int, np.ndarray] = {}
    for marker_id, quad in zip(ids.reshape(-1), corners, strict=True):
        if int(marker_id) in MARKER_IDS and int(marker_id) not in found:
            found[int(marker_id)] = quad.reshape(4, 2).astype(np.float64)
    return found


def locate_mat(image: np.ndarray, layout: MatLayout | None = None, min_markers: int = 2) -> MatPose | None:
    """The mat's pose from its corner markers, or None when fewer than ``min_markers`` are in view.

    Two markers give eight point pairs, enough for a homography over the whole sheet; more make it steadier.
    The markers do not say which paper was printed, so pass the layout (default: koi-koi on A3).
    """
    layout = layout or mat_layout()
    markers = detect_markers(image)
    if len(markers) < min_markers:
        return None
    printed = layout.marker_corners_mm()
    ids = tuple(sorted(markers))
    source = np.concatenate([markers[i] for i in ids])
    target = np.concatenate([printed[i] for i in ids])
    homography, _ = cv2.findHomography(source, target, 0)
    if homography is None:
        return None
    mapped = cv2.perspectiveTransform(source.reshape(-1, 1, 2), homography).reshape(-1, 2)
    error = float(np.sqrt(((mapped - target) ** 2).sum(axis=1).mean()))
    return MatPose(layout, homography, ids, error)
