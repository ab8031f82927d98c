"""Backs much smaller than the faces read: the halves of one back merged, a lone small one dropped; on held-out
scenes, and their geometry."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from datasets.hanafuda import TEST_STYLE, preset, render_scene
from vision.classifier import CardClassifier
from vision.geometry import iou_matrix
from vision.recognizer import Recognizer
from vision.small_backs import SmallBacks


def test_two_halves_side_by_side_make_one_back_and_far_ones_do_not() -> None:
    top = np.float32([[0, 0], [63, 0], [63, 45], [0, 45]])
    bottom = top + np.float32([0, 55])  # a little gap between the halves
    whole = SmallBacks()._merged(top, bottom, 2 * 63 * 45, typical=63 * 100)
    assert whole is not None and iou_matrix(whole[None], np.float32([[[0, 0], [63, 0], [63, 100], [0, 100]]]))[0, 0] > 0.95
    assert SmallBacks()._merged(top, top + np.float32([0, 200]), 2 * 63 * 45, typical=63 * 100) is None
    assert SmallBacks()._merged(top, top + np.float32([70, 0]), 2 * 63 * 45, typical=63 * 100) is None  # 1.3 wide


def test_knobs_are_checked() -> None:
    with pytest.raises(ValueError, match="share"):
        SmallBacks(share=1.5)
    with pytest.raises(ValueError, match="aspect"):
        SmallBacks(aspect=(0.8, 0.5))


def test_held_out_backs_are_named_once_and_small_dark_things_never(shared_data: Path) -> None:
    """Held-out scene 78: a small dark patch beside the cards reads as a back. With small backs checked the photo
    names the one back lying there, and the faces as before. (Scene 13, where the session-11 finder split a big
    black back in two, is read whole by the session-12 finder; the merging of two halves is built exactly above.)
    The refiner's veto (session 16) drops that patch before the small backs are checked, so both are left out here
    but for the last check, the photo recogniser as it ships."""
    classifier = CardClassifier(threads=1)
    checked = Recognizer.for_photos(classifier=classifier, refiner_veto=None)
    unchecked = Recognizer.for_photos(classifier=classifier, small_backs=None, refiner_veto=None)
    shipped = Recognizer.for_photos(classifier=classifier)
    for index in (78,):
        scene = render_scene(np.random.default_rng([7000, index]), preset("default", styles=(TEST_STYLE,)))
        backs_there = sum(label == "back" for label, v in zip(scene.labels, scene.visible, strict=True) if v > 0)
        before = Counter(c.label for c in unchecked(scene.image).cards)
        after = Counter(c.label for c in checked(scene.image).cards)
        assert backs_there == 1 and before["back"] == 2, f"scene {index}: {before['back']} backs unchecked"
        assert after["back"] == 1, f"scene {index}: {after['back']} backs"
        faces = lambda names: {k: n for k, n in names.items() if k not in ("back", "unknown")}  # noqa: E731
        assert faces(after) == faces(before)
        assert Counter(c.label for c in shipped(scene.image).cards) == after
