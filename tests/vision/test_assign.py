"""The deck prior: exact assignment, one of each card, interchangeable plains, unlimited backs, unknowns."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.assign import Assignment, assign_cards, solve_min_cost

CLASSES = ("pine-crane", "pine-ribbon", "pine-plain", "plum-warbler", "back", "not-a-card")
CARDS = {
    "pine-crane": ("pine-crane",),
    "pine-ribbon": ("pine-ribbon",),
    "pine-plain": ("pine-plain-1", "pine-plain-2"),
    "plum-warbler": ("plum-warbler",),
    "back": (),
    "not-a-card": (),
}


def probs(*rows: dict[str, float]) -> np.ndarray:
    """Probability rows from {class: p}; the rest of the mass is spread over the other classes."""
    out = np.zeros((len(rows), len(CLASSES)))
    for i, row in enumerate(rows):
        rest = [c for c in CLASSES if c not in row]
        for c in CLASSES:
            out[i, CLASSES.index(c)] = row.get(c, (1 - sum(row.values())) / len(rest))
    return out


def brute_force_cost(cost: np.ndarray) -> float:
    n, m = cost.shape
    return min(sum(cost[i, cols[i]] for i in range(n)) for cols in itertools.permutations(range(m), n))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 5), st.integers(0, 3), st.integers(0, 2**32 - 1), st.booleans())
def test_solver_is_exact(n: int, extra: int, seed: int, integer_costs: bool) -> None:
    rng = np.random.default_rng(seed)
    m = n + extra
    cost = rng.integers(0, 3, (n, m)).astype(float) if integer_costs else rng.random((n, m))
    columns = solve_min_cost(cost)
    assert len(set(columns.tolist())) == n
    assert np.all((columns >= 0) & (columns < m))
    if n:
        assert cost[np.arange(n), columns].sum() == pytest.approx(brute_force_cost(cost))


def test_solver_prefers_the_global_optimum_over_greedy() -> None:
    # Greedy (row 0 takes its cheapest column 0) costs 1 + 10; the optimum is 2 + 2.
    cost = np.array([[1.0, 2.0], [1.0, 10.0]])
    assert solve_min_cost(cost).tolist() == [1, 0]


def test_solver_rejects_bad_matrices() -> None:
    with pytest.raises(ValueError, match="rows <= columns"):
        solve_min_cost(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="finite"):
        solve_min_cost(np.array([[np.inf, 1.0]]))


def test_two_crops_that_both_look_like_the_crane_get_crane_and_runner_up() -> None:
    result = assign_cards(
        probs({"pine-crane": 0.95, "pine-ribbon": 0.03}, {"pine-crane": 0.6, "pine-ribbon": 0.38}), CLASSES, CARDS
    )
    assert result.labels == ("pine-crane", "pine-ribbon")
    # Once the crane is taken, the second crop is very likely the ribbon: renormalised confidence.
    assert result.confidences[1] > 0.9
    assert result.confidences[0] == pytest.approx(0.95 / 0.97)  # the ribbon's 0.03 went to the other crop


def test_the_more_certain_crop_keeps_the_card_whatever_the_order() -> None:
    result = assign_cards(
        probs({"pine-crane": 0.6, "plum-warbler": 0.39}, {"pine-crane": 0.97, "pine-ribbon": 0.02}), CLASSES, CARDS
    )
    assert result.labels == ("plum-warbler", "pine-crane")


def test_never_two_of_the_same_card() -> None:
    crane = {"pine-crane": 0.9}
    result = assign_cards(probs(crane, crane, crane), CLASSES, CARDS)
    assert result.labels.count("pine-crane") == 1


def test_interchangeable_plains_fill_one_then_two_in_crop_order() -> None:
    plain = {"pine-plain": 0.97}
    result = assign_cards(probs({"back": 0.99}, plain, plain), CLASSES, CARDS)
    assert result.labels == ("back", "pine-plain-1", "pine-plain-2")
    # A third pine plain has no card left: the crop gets its runner-up or unknown, never a third plain.
    third = assign_cards(probs(plain, plain, {"pine-plain": 0.9, "pine-ribbon": 0.09}), CLASSES, CARDS)
    assert third.labels == ("pine-plain-1", "pine-plain-2", "pine-ribbon")


def test_a_single_plain_is_plain_one() -> None:
    assert assign_cards(probs({"pine-plain": 0.99}), CLASSES, CARDS).labels == ("pine-plain-1",)


def test_backs_are_unlimited() -> None:
    result = assign_cards(probs(*[{"back": 0.98}] * 12), CLASSES, CARDS)
    assert result.labels == ("back",) * 12
    assert np.all(result.confidences > 0.95)


def test_not_a_card_and_low_confidence_are_unknown() -> None:
    result = assign_cards(
        probs({"not-a-card": 0.9}, {"pine-crane": 0.3, "pine-ribbon": 0.3}, {"plum-warbler": 0.99}),
        CLASSES,
        CARDS,
        min_confidence=0.5,
    )
    assert result.labels == ("unknown", "unknown", "plum-warbler")
    # The confidence of "unknown" is how sure we are that the crop is none of the nameable labels.
    assert result.confidences[0] > 0.85
    # Its best open label is the crane (0.3 of the 0.9 left once the warbler went to the third crop).
    assert result.confidences[1] == pytest.approx(1 - 0.3 / 0.9)


def test_empty_frame() -> None:
    result = assign_cards(np.zeros((0, len(CLASSES))), CLASSES, CARDS)
    assert result.labels == () and result.confidences.shape == (0,)


def test_more_crops_than_cards_is_fine() -> None:
    result = assign_cards(probs(*[{"pine-crane": 0.99}] * 60), CLASSES, CARDS, min_confidence=0.0)
    assert len(result) == 60 and result.labels.count("pine-crane") == 1


def test_bad_probabilities_are_rejected() -> None:
    with pytest.raises(ValueError, match="N x 6"):
        assign_cards(np.ones((2, 5)), CLASSES, CARDS)
    with pytest.raises(ValueError, match="finite"):
        assign_cards(np.full((1, 6), np.nan), CLASSES, CARDS)
    with pytest.raises(ValueError, match="min_confidence"):
        assign_cards(probs({"back": 1.0}), CLASSES, CARDS, min_confidence=1.5)


def test_assignment_validates_itself() -> None:
    with pytest.raises(ValueError, match="confidences"):
        Assignment(("back",), np.array([0.5, 0.5]))
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        Assignment(("back",), np.array([1.5]))
