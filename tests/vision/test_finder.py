"""The card finder on real rendered images: the shared card art laid on procedural tables, photographed with
perspective, blur and noise. Ground truth is the exact quad each card was pasted into."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.finder import CardFinder, FinderConfig, find_cards
from vision.geometry import iou_matrix, quad_sides
from vision.imageio import EmptyImageError, ImageTypeError
from vision.observation import Detections

STYLES = ("mantia-modern", "mantia-alt", "hwatu-richert")


def face(shared: Path, style: str, index: int, height: int = 300) -> np.ndarray:
    """One card's art as BGR (transparent corners on white)."""
    files = sorted((shared / "hanafuda-art" / style / "png").glob("*.png"))
    art = cv2.imread(str(files[index]), cv2.IMREAD_UNCHANGED)
    if art.shape[2] == 4:
        alpha = art[..., 3:].astype(np.float32) / 255
        art = (art[..., :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
    return cv2.resize(art, (round(height * art.shape[1] / art.shape[0]), height), interpolation=cv2.INTER_AREA)


def card_quad(centre: tuple[float, float], width: float, angle: float, aspect: float = 0.61) -> np.ndarray:
    height = width / aspect
    a = np.radians(angle)
    rotation = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    corners = np.array([[-width, -height], [width, -height], [width, height], [-width, height]]) / 2
    return (corners @ rotation.T + centre).astype(np.float32)


def paste(canvas: np.ndarray, image: np.ndarray, quad: np.ndarray) -> None:
    h, w = image.shape[:2]
    matrix = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]) - 0.5, np.float32(quad))
    size = (canvas.shape[1], canvas.shape[0])
    warped = cv2.warpPerspective(image, matrix, size)
    alpha = cv2.warpPerspective(np.full((h, w), 255, np.uint8), matrix, size)[..., None].astype(np.float32) / 255
    canvas[:] = (canvas * (1 - alpha) + warped * alpha).astype(np.uint8)


def table(kind: str, size: tuple[int, int] = (960, 640), seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    w, h = size
    if kind == "wood":
        y = np.arange(h, dtype=np.float32)[:, None]
        x = np.arange(w, dtype=np.float32)[None]
        grain = 0.5 + 0.5 * np.sin(0.09 * y + 4 * np.sin(0.004 * x) + rng.normal(0, 0.3, (h, 1)))
        image = np.array([40, 85, 140], np.float32) * (0.8 + 0.25 * grain[..., None])
    elif kind == "felt":
        image = np.array([50, 110, 30], np.float32) + rng.normal(0, 6, (h, w, 1))
    else:  # white paper
        image = np.array([232, 236, 238], np.float32) + rng.normal(0, 2, (h, w, 1))
    return np.clip(image, 0, 255).astype(np.uint8)


def photograph(canvas: np.ndarray, quads: list[np.ndarray], tilt: float = 0.1,
               seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Camera at an angle (the far side shrinks by ``tilt``), slight defocus and sensor noise."""
    h, w = canvas.shape[:2]
    matrix = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]),
                                         np.float32([[tilt * w, 0], [w - tilt * w, 0], [w, h], [0, h]]))
    photo = cv2.warpPerspective(canvas, matrix, (w, h), borderMode=cv2.BORDER_REPLICATE)
    photo = cv2.GaussianBlur(photo, (0, 0), 0.8)
    photo = np.clip(photo + np.random.default_rng(seed).normal(0, 3, photo.shape), 0, 255).astype(np.uint8)
    truth = cv2.perspectiveTransform(np.float32(quads).reshape(-1, 1, 2), matrix).reshape(-1, 4, 2)
    return photo, truth


def scattered(shared: Path, surface: str) -> tuple[np.ndarray, np.ndarray]:
    canvas = table(surface)
    quads = [card_quad((200, 200), 110, 15), card_quad((480, 330), 100, -40), card_quad((760, 220), 105, 80),
             card_quad((300, 480), 95, 170)]
    for i, quad in enumerate(quads):
        paste(canvas, face(shared, STYLES[i % 3], 5 + 7 * i), quad)
    return photograph(canvas, quads)


def best_iou(found: Detections, truth: np.ndarray) -> np.ndarray:
    """For each true card, the IoU of the detection that overlaps it most."""
    return iou_matrix(found.quads, truth).max(axis=0) if len(found) else np.zeros(len(truth))


@pytest.mark.parametrize("surface", ["felt", "paper"])
def test_scattered_cards_are_found_with_tight_quads(shared_data: Path, surface: str) -> None:
    photo, truth = scattered(shared_data, surface)
    found = find_cards(photo)
    assert len(found) == len(truth)
    assert (best_iou(found, truth) >= 0.9).all()
    assert not found.partial.any()
    assert ((found.confidence > 0.5) & (found.confidence <= 1)).all()


def test_quads_come_in_corner_order(shared_data: Path) -> None:
    photo, _ = scattered(shared_data, "felt")
    for quad in find_cards(photo).quads:
        x, y = quad[:, 0], quad[:, 1]
        assert np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y) > 0  # clockwise on screen
        top, side = np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0])
        assert top < side  # the first edge is a short side: the long side is vertical
        assert quad[:2, 1].mean() <= quad[2:, 1].mean() + 1e-3  # and it is the upper short side


def test_touching_cards_are_split(shared_data: Path) -> None:
    canvas = table("felt", seed=1)
    row = [card_quad((300 + i * 100.5, 300), 100, 0) for i in range(3)]
    lone = card_quad((750, 350), 100, 30)
    for i, quad in enumerate([*row, lone]):
        paste(canvas, face(shared_data, "mantia-alt", 5 * i), quad)
    photo, truth = photograph(canvas, [*row, lone])
    found = find_cards(photo)
    assert len(found) == 4
    assert (best_iou(found, truth) >= 0.9).all()
    # No detection spans two cards of the row.
    short, _ = zip(*(quad_sides(q) for q in found.quads), strict=True)
    assert max(short) < 1.3 * min(short)


def test_phone_and_hand_are_not_cards(shared_data: Path) -> None:
    canvas = table("wood", seed=2)
    cards = [card_quad((250, 300), 100, 10), card_quad((700, 420), 100, -20)]
    for i, quad in enumerate(cards):
        paste(canvas, face(shared_data, "hwatu-richert", 9 * i), quad)
    phone = card_quad((480, 260), 120, 35, aspect=0.48)  # a dark slab, twice a card's length
    cv2.fillConvexPoly(canvas, phone.astype(np.int32), (25, 25, 25), cv2.LINE_AA)
    hand = np.zeros(canvas.shape[:2], np.uint8)
    cv2.ellipse(hand, (760, 170), (70, 90), 20, 0, 360, 255, -1)
    for angle in (200, 230, 260, 290):
        tip = (int(760 + 170 * np.cos(np.radians(angle))), int(170 + 170 * np.sin(np.radians(angle))))
        cv2.line(hand, (760, 170), tip, 255, 28)
    canvas[hand > 0] = (120, 160, 215)
    photo, truth = photograph(canvas, cards)
    found = find_cards(photo)
    assert len(found) == 2
    assert (best_iou(found, truth) >= 0.9).all()


def test_fanned_pile_top_card_whole_others_partial(shared_data: Path) -> None:
    canvas = table("felt", seed=3)
    fan = [card_quad((380 + i * 55, 320), 100, 3 * i) for i in range(3)]  # each covers ~half the one below
    for i, quad in enumerate(fan):
        paste(canvas, face(shared_data, "mantia-modern", 10 + 4 * i), quad)
    photo, truth = photograph(canvas, fan)
    found = find_cards(photo)
    iou = iou_matrix(found.quads, truth)
    top = int(np.argmax(iou[:, 2]))
    assert iou[top, 2] >= 0.9 and not found.partial[top]
    lower = found[np.flatnonzero(np.arange(len(found)) != top)]
    assert len(lower) >= 1 and lower.partial.all()  # the covered cards are never reported as whole
    assert (iou_matrix(lower.quads, truth[:2]).max(axis=1) >= 0.6).all()  # extended to about full size


def test_empty_table_and_bad_frames() -> None:
    assert len(find_cards(table("felt"))) == 0
    assert len(find_cards(np.full((200, 300, 3), 128, np.uint8))) == 0
    with pytest.raises(EmptyImageError):
        find_cards(np.zeros((0, 0, 3), np.uint8))
    with pytest.raises(ImageTypeError):
        find_cards(np.zeros((50, 50, 3), np.float32))


def test_config_is_checked_and_bound_by_card_finder(shared_data: Path) -> None:
    with pytest.raises(ValueError, match="min_card_width_px"):
        FinderConfig(min_card_width_px=300, max_card_width_px=200)
    with pytest.raises(ValueError, match="aspect_range"):
        FinderConfig(aspect_range=(0.9, 0.5))
    photo, truth = scattered(shared_data, "paper")
    finder = CardFinder(FinderConfig(min_card_width_px=60))
    assert finder.config.work_scale() == pytest.approx(26 / 60)
    assert (best_iou(finder(photo), truth) >= 0.85).all()
