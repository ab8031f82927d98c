"""Corner order of quads: one quad alone (the recognisers' per-tile path) comes out as it does in a batch."""

from __future__ import annotations

import numpy as np

from vision.geometry import convex_intersection, iou_matrix, order_quad, order_quads


def _rectangles(rng: np.random.Generator, n: int) -> np.ndarray:
    """Rectangles and squares at any angle (also exactly 0, 45 and 90 degrees, on whole pixels: the ties), their
    corners in any order and either way round."""
    out = []
    for _ in range(n):
        centre, (w, h), angle = rng.uniform(0, 1000, 2), rng.uniform(5, 100, 2), rng.uniform(0, np.pi)
        if rng.random() < 0.3:
            h = w
        if rng.random() < 0.3:
            angle = rng.choice([0.0, np.pi / 4, np.pi / 2])
        turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        corners = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2 @ turn.T + centre
        if rng.random() < 0.3:
            corners = np.round(corners)
        corners = corners[rng.permutation(4)] if rng.random() < 0.2 else np.roll(corners, rng.integers(4), axis=0)
        out.append(corners[::-1] if rng.random() < 0.5 else corners)
    return np.array(out, np.float32)


def test_one_quad_is_ordered_as_in_a_batch() -> None:
    rng = np.random.default_rng(8)
    quads = np.concatenate([_rectangles(rng, 3000), rng.uniform(0, 1000, (3000, 4, 2)).astype(np.float32)])
    batch = order_quads(quads)
    alone = np.array([order_quads(q[None])[0] for q in quads])
    assert np.array_equal(alone, batch)
    assert np.array_equal(order_quad(quads[0]), batch[0])


def test_order_is_clockwise_short_side_first_on_top() -> None:
    # a tall rectangle given anticlockwise from its bottom-right corner
    quad = np.array([[30, 80], [30, 0], [0, 0], [0, 80]], np.float32)
    assert order_quad(quad).tolist() == [[0, 0], [30, 0], [30, 80], [0, 80]]


def test_collinear_edges_are_counted_right() -> None:
    """OpenCV's clipping alone gave a rectangle and its copy (one corner off by 3e-15) an IoU of 0.6, and two
    rectangles side by side, their corners jittered by a thousandth of a pixel, each other's whole area."""
    card = np.float32([[0, 0], [63, 0], [63, 100], [0, 100]])
    copy = card + np.float32([[3e-15, 0], [0, 0], [0, 0], [-3e-15, 0]])
    assert iou_matrix(copy[None], card[None])[0, 0] > 0.999
    rng = np.random.default_rng(0)
    for _ in range(3000):
        a = order_quads((card + rng.normal(0, 1e-3, (4, 2))).astype(np.float32)[None])[0]
        b = order_quads((card + rng.normal(0, 1e-3, (4, 2))).astype(np.float32)[None])[0]
        beside = order_quads((card + np.float32([63, 0]) + rng.normal(0, 1e-3, (4, 2))).astype(np.float32)[None])[0]
        assert convex_intersection(a, beside) < 1.0
        assert abs(convex_intersection(a, b) - 6300) < 5.0
