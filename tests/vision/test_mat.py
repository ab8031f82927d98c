"""The printable mat: layout data, rendering, writers, and the round trip through a synthetic photo."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.imageio import read_image
from vision.mat import GAMES, MatLayout, detect_markers, locate_mat, mat_layout, render_mat, write_mat

DPI = 100  # small renders keep the tests fast; the geometry is the same at 300
CARD_MM = (34.0, 54.0)


def _card(colour: tuple[int, int, int], px_per_mm: float) -> np.ndarray:
    """A card-like sprite: coloured border, light face, a dark motif."""
    w, h = (round(v * px_per_mm) for v in CARD_MM)
    card = np.full((h, w, 3), colour, np.uint8)
    border = max(2, round(2 * px_per_mm))
    card[border:-border, border:-border] = (225, 235, 240)
    cv2.circle(card, (w // 2, h // 2), w // 4, (40, 40, 160), -1)
    return card


def _lay(sheet: np.ndarray, card: np.ndarray, centre_mm: tuple[float, float], angle: float,
         px_per_mm: float) -> np.ndarray:
    """Paste a card centred at ``centre_mm``; returns its corners in sheet pixels."""
    h, w = card.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    matrix[:, 2] += np.array(centre_mm) * px_per_mm - (w / 2, h / 2)
    size = (sheet.shape[1], sheet.shape[0])
    warped = cv2.warpAffine(card, matrix, size)
    mask = cv2.warpAffine(np.full((h, w), 255, np.uint8), matrix, size)
    sheet[mask > 127] = warped[mask > 127]
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    return corners @ matrix[:, :2].T + matrix[:, 2]


def _photograph(sheet: np.ndarray, seed: int, tilt: float = 0.18, turn: float = 8.0) -> tuple[np.ndarray, np.ndarray]:
    """A 1280 x 720 'photo' of the sheet on a table: perspective, rotation, blur, noise, JPEG.
    Returns the photo and the sheet-pixel -> photo homography."""
    rng = np.random.default_rng(seed)
    h, w = sheet.shape[:2]
    out_w, out_h = 1280, 720
    scale = 0.62 * out_h / h
    centre = np.array([out_w / 2 + rng.uniform(-40, 40), out_h / 2 + rng.uniform(-20, 20)])
    a = np.radians(turn)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    flat = ((src - (w / 2, h / 2)) * scale) @ rot.T
    flat[:2, 0] *= 1 - tilt  # the far edge looks shorter: the camera looks down at an angle
    flat[:2, 1] *= 1 - tilt / 2
    homography = cv2.getPerspectiveTransform(src, np.float32(flat + centre))
    table = np.full((out_h, out_w, 3), (60, 90, 120), np.uint8)
    photo = cv2.warpPerspective(sheet, homography, (out_w, out_h), dst=table, borderMode=cv2.BORDER_TRANSPARENT)
    photo = cv2.GaussianBlur(photo, (0, 0), 0.9)
    photo = np.clip(photo + rng.normal(0, 4, photo.shape), 0, 255).astype(np.uint8)
    photo = cv2.imdecode(cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 80])[1], cv2.IMREAD_COLOR)
    return photo, homography


def test_layouts_are_data_in_millimetres() -> None:
    a3, a4 = mat_layout("koikoi", "a3"), mat_layout("koikoi", "a4")
    assert a3.size_mm == (420.0, 297.0) and a4.size_mm == (297.0, 210.0)
    assert {z.name for z in a3.zones} == set(GAMES["koikoi"]) >= {"field", "stock", "player-captures",
                                                                    "opponent-captures"}
    for layout in (a3, a4):
        markers = layout.marker_corners_mm()
        assert sorted(markers) == [0, 1, 2, 3]
        for zone in layout.zones:  # zones lie on the sheet and clear of the markers
            x, y, w, h = zone.rect_mm
            assert x >= 0 and x + w <= layout.size_mm[0] and y >= 0 and y + h <= layout.size_mm[1]
            for square in markers.values():
                (mx0, my0), (mx1, my1) = square.min(axis=0), square.max(axis=0)
                assert x >= mx1 or x + w <= mx0 or y >= my1 or y + h <= my0, (zone.name, square)
        field = next(z for z in layout.zones if z.name == "field").rect_mm
        assert field[2] > 3 * CARD_MM[0] and field[3] > CARD_MM[1]  # the field holds a row of cards
    assert a3.zone_of((210, 148.5)) == "field" and a3.zone_of((-5, 10)) is None
    with pytest.raises(ValueError, match="no mat layout"):
        mat_layout("poker")
    with pytest.raises(ValueError, match="unknown paper"):
        mat_layout("koikoi", "letter")


def test_render_has_markers_where_the_layout_says() -> None:
    image = render_mat("koikoi", "a4", dpi=DPI)
    assert image.shape == (round(210 * DPI / 25.4), round(297 * DPI / 25.4), 3)
    found = detect_markers(image)
    assert sorted(found) == [0, 1, 2, 3]
    px_per_mm = DPI / 25.4
    for marker_id, corners_mm in mat_layout("koikoi", "a4").marker_corners_mm().items():
        assert np.abs(found[marker_id] - corners_mm * px_per_mm).max() < 1.5


def test_round_trip_photo_gives_zones_and_positions_in_mm() -> None:
    layout = mat_layout("koikoi", "a4")
    px_per_mm = DPI / 25.4
    sheet = render_mat("koikoi", "a4", dpi=DPI)
    placed = {"field": (150.0, 105.0, 10.0), "stock": (33.0, 105.0, 0.0), "player-captures": (110.0, 175.0, 90.0),
              "opponent-hand": (80.0, 35.0, -25.0)}
    corners = {zone: _lay(sheet, _card((30, 30, 170), px_per_mm), (x, y), angle, px_per_mm)
               for zone, (x, y, angle) in placed.items()}
    photo, homography = _photograph(sheet, seed=1)
    pose = locate_mat(photo, layout)
    assert pose is not None and pose.marker_ids == (0, 1, 2, 3)
    assert pose.error_mm < 1.0
    image_quads = np.stack([cv2.perspectiveTransform(c.reshape(-1, 1, 2).astype(np.float64), homography)
                            .reshape(4, 2) for c in corners.values()])
    zones, centres = pose.place(image_quads)
    assert zones == list(placed)
    expected = np.array([(x, y) for x, y, _ in placed.values()])
    assert np.abs(centres - expected).max() < 3.0  # within a few mm across the whole sheet
    back = pose.to_image(pose.to_mm(image_quads.reshape(-1, 2)))
    assert np.abs(back - image_quads.reshape(-1, 2)).max() < 1e-6
    assert pose.zones_of(image_quads, (1280, 720)) == list(placed)


def test_two_markers_are_enough_and_none_is_none() -> None:
    sheet = render_mat("koikoi", "a4", dpi=DPI)
    photo, homography = _photograph(sheet, seed=2, tilt=0.1, turn=-5)
    for marker_id, square in mat_layout("koikoi", "a4").marker_corners_mm().items():
        if marker_id in (1, 2):  # a hand and a cup cover two corners
            outline = cv2.perspectiveTransform(square.reshape(-1, 1, 2) * DPI / 25.4, homography)
            cv2.fillConvexPoly(photo, outline.reshape(4, 2).astype(np.int32), (80, 120, 170))
    pose = locate_mat(photo, mat_layout("koikoi", "a4"))
    assert pose is not None and pose.marker_ids == (0, 3)
    centre_px = cv2.perspectiveTransform(np.float64([[[148.5, 105.0]]]) * DPI / 25.4, homography).reshape(2)
    assert np.abs(pose.to_mm(centre_px)[0] - (148.5, 105.0)).max() < 4.0
    assert locate_mat(np.full((300, 400, 3), 200, np.uint8)) is None
    assert locate_mat(photo, mat_layout("koikoi", "a4"), min_markers=3) is None


def test_writers_png_and_pdf(tmp_path: Path) -> None:
    png = write_mat(tmp_path / "mat.png", "koikoi", "a4", dpi=DPI)
    pdf = write_mat(tmp_path / "mat.pdf", "koikoi", "a4", dpi=DPI)
    image = read_image(png)
    assert image.shape == render_mat("koikoi", "a4", DPI).shape
    assert sorted(detect_markers(image)) == [0, 1, 2, 3]
    assert b"pHYs" in png.read_bytes()[:100]
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-") and b"/MediaBox [0 0 841.89 595.276]" in data
    with pytest.raises(ValueError, match=r"\.png or \.pdf"):
        write_mat(tmp_path / "mat.tiff")


def test_layout_type_is_reusable_for_other_games() -> None:
    layout = MatLayout("dominoes", "a4", (297.0, 210.0), ())
    assert layout.zone_of((100, 100)) is None and len(layout.marker_corners_mm()) == 4


def test_a_marker_in_view_is_never_a_card() -> None:
    """The finder may box a marker (a dark square) with some white paper as a card: with the mat in view, a
    detection covering a seen marker's centre is dropped; an empty mat reads empty."""
    from vision.recognizer import Recognizer

    layout = mat_layout("koikoi", "a4")
    recognizer = Recognizer(mat=layout)
    sheet = render_mat("koikoi", "a4", dpi=DPI)
    for seed in range(6):  # seed 2's photo is one the shipped finder boxed a marker in
        photo, _ = _photograph(sheet, seed=seed)
        assert recognizer(photo).cards == (), f"seed {seed}"
    pose = locate_mat(_photograph(sheet, seed=2)[0], layout)
    assert pose is not None
    centre = pose.to_image(layout.marker_corners_mm()[0].mean(axis=0, keepdims=True))[0]
    around = np.array([centre + d for d in ((-30, -50), (30, -50), (30, 50), (-30, 50))])
    aside = around + np.array([300.0, 0.0])
    assert pose.on_markers(np.stack([around, aside])).tolist() == [True, False]


def test_a_quad_tracing_an_empty_zone_frame_is_the_mat() -> None:
    """The session-12 finder boxed an empty zone's printed frame as a card (seed 0 above, read as no card): a
    quad close to a zone's frame is the mat when it reads as no card; a card inside a zone is not a frame."""
    layout = mat_layout("koikoi", "a4")
    photo, _ = _photograph(render_mat("koikoi", "a4", dpi=DPI), seed=0)
    pose = locate_mat(photo, layout)
    assert pose is not None
    x, y, _, _ = layout.zones[0].rect_mm
    frame = pose.to_image(layout.zones[0].corners_mm)
    card = pose.to_image(np.array([[x + 5, y + 5], [x + 5 + CARD_MM[0], y + 5], [x + 5 + CARD_MM[0], y + 5 + CARD_MM[1]],
                                   [x + 5, y + 5 + CARD_MM[1]]]))
    assert pose.on_zone_frames(np.stack([frame, frame + 3.0, card])).tolist() == [True, True, False]
    assert pose.on_zone_frames(np.zeros((0, 4, 2))).shape == (0,)
