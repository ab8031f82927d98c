"""The recogniser facade with the shipped model on a rendered table (held-out art): labels, zones, timings."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from datasets.scripted.render import RenderConfig, ScriptRenderer
from datasets.scripted.script import script_round
from vision.capture import Frame
from vision.geometry import iou_matrix, smaller_share_matrix
from vision.observation import BACK, UNKNOWN
from vision.recognizer import SAME_BACK_INSIDE, SAME_CARD_INSIDE, SAME_CARD_IOU, Recognizer, _one_quad_per_card


def _class(label: str) -> str:
    return label[:-2] if label.endswith(("-plain-1", "-plain-2")) else label  # interchangeable plains


@pytest.fixture(scope="module")
def deal_frame(shared_data: Path) -> tuple[np.ndarray, list[tuple[str, str]]]:
    image, truth = next(iter(ScriptRenderer(script_round(3).head(1), RenderConfig(size=(1280, 720))).frames()))
    return image, [(c.label, c.role) for c in truth.cards if c.visible > 0.9]


def test_the_dealt_table_is_read_card_by_card(deal_frame: tuple[np.ndarray, list[tuple[str, str]]]) -> None:
    image, truth = deal_frame
    roles = {"field": (0.0, 0.2, 1.0, 0.62), "hand-0": (0.0, 0.8, 1.0, 1.0)}

    def zone_of(quads: np.ndarray, size: tuple[int, int]) -> list[str | None]:
        out: list[str | None] = []
        for quad in quads:
            x, y = quad.mean(axis=0) / size
            out.append(next((r for r, (x0, y0, x1, y1) in roles.items() if x0 <= x < x1 and y0 <= y < y1), None))
        return out

    observation = Recognizer(zone_of=zone_of)(Frame(image, 0, 0.0, "test"))
    faces = [c for c in observation.cards if c.label not in (BACK, UNKNOWN)]
    assert Counter(_class(c.label) for c in faces) == Counter(_class(label) for label, _ in truth if label != BACK)
    assert Counter(c.zone for c in faces) == Counter(role for label, role in truth if label != BACK)
    assert observation.backs >= 1
    assert set(observation.timings_ms) == {"find", "warp", "classify", "assign", "zones"}
    assert observation.mat is None and all(c.position_mm is None for c in observation.cards)


def _rect(x: float, y: float, w: float = 60.0, h: float = 100.0) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


def test_one_quad_per_card() -> None:
    """Two quads overlapping by more than SAME_CARD_IOU with the same likeliest face class are one card: the
    surer stays; so are two where the smaller lies SAME_CARD_INSIDE in the other (a half quad on a card found
    already), and two backs only where one holds the other. Different classes, a not-a-card, quads that merely touch
    (a fanned pile) and a pile of backs all stay."""
    faces = np.array([True, True, False, False])  # pine-plain, maple-plain, not-a-card, back
    quads = np.stack([_rect(0, 0), _rect(5, 5), _rect(200, 0), _rect(205, 5), _rect(400, 0), _rect(405, 5),
                      _rect(600, 0), _rect(630, 0),
                      _rect(800, 0), _rect(790, 25, w=80),  # a card and a wider quad on three quarters of it
                      _rect(1000, 0), _rect(1005, 40, w=50, h=55),  # a back and a quad wholly on it
                      _rect(1200, 0), _rect(1200, 20)])  # two backs of a pile, one 80 % on the other
    probabilities = np.array([[0.8, 0.1, 0.1, 0.0], [0.95, 0.0, 0.05, 0.0],  # one pine plain twice: the surer
                              [0.9, 0.05, 0.05, 0.0], [0.1, 0.85, 0.05, 0.0],  # a pine and a maple plain: both
                              [0.1, 0.1, 0.8, 0.0], [0.05, 0.05, 0.9, 0.0],  # not-a-card twice: left to the prior
                              [0.9, 0.0, 0.1, 0.0], [0.9, 0.0, 0.1, 0.0],  # half a width apart: a pile, both
                              [0.0, 0.92, 0.08, 0.0], [0.0, 0.75, 0.25, 0.0],  # a maple plain, and again askew
                              [0.0, 0.0, 0.04, 0.96], [0.0, 0.0, 0.09, 0.91],  # a back and a quad on it
                              [0.0, 0.0, 0.04, 0.96], [0.0, 0.0, 0.04, 0.96]])  # a pile of backs: both
    overlap, inside = iou_matrix(quads, quads), smaller_share_matrix(quads, quads)
    assert overlap[0, 1] > SAME_CARD_IOU > overlap[6, 7] and overlap[8, 9] < SAME_CARD_IOU
    assert inside[8, 9] >= SAME_CARD_INSIDE > inside[6, 7] and inside[12, 13] < SAME_BACK_INSIDE <= inside[10, 11]
    keep = _one_quad_per_card(quads, probabilities, faces, back=3)
    assert keep.tolist() == [False, True, True, True, True, True, True, True, True, False, True, False, True, True]
