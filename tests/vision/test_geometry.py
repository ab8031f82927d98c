"""Corner order of quads: one quad alone (the recognisers' per-tile path) comes out as it does in a batch."""

from __future__ import annotations

import numpy as np

from vision.geometry import convex_intersection, expected_areas, iou_matrix, order_quad, order_quads, quad_areas


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


def _card(x: float, y: float, side: float) -> np.ndarray:
    """An upright card of short side ``side`` (long side 1.6 times it) centred at (x, y)."""
    w, h = side / 2, side * 0.8
    return np.array([[x - w, y - h], [x + w, y - h], [x + w, y + h], [x - w, y + h]], np.float32)


def test_expected_areas_follow_the_table_plane() -> None:
    """Cards whose side grows with x and y as on a slanted table: the fit gives the size between them, clamps it to
    the biggest and smallest face seen beyond them, and takes the median of fewer than four faces."""
    faces = np.stack([_card(x, y, 20 + 0.05 * x + 0.02 * y) for x, y in [(100, 100), (500, 100), (100, 400),
                                                                         (500, 400), (300, 250)]])
    asked = np.stack([_card(300, 100, 10), _card(2000, 2000, 10), _card(-900, 100, 10)])
    got = expected_areas(faces, asked)
    assert np.isclose(got[0], (20 + 15 + 2) ** 2 * 1.6, rtol=1e-3)
    assert np.isclose(got[1], quad_areas(faces).max()) and np.isclose(got[2], quad_areas(faces).min())
    few = expected_areas(faces[:3], asked)
    assert np.allclose(few, np.median(quad_areas(faces[:3])))
