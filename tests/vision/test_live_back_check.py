"""The live table's back check (``Recognizer.back_check``): a named back the refiner all but rules out as a card goes.
On the shared real photos of a playing card on a grey table, the live recogniser named a club's or a spade's pips as
backs; the held-out backs of a rendered table stay."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from datasets.hanafuda import TEST_STYLE, preset, render_scene
from tests.vision.card_helpers import PLAYING_CARD_PHOTOS
from vision.card_refiner import CardRefiner
from vision.classifier import LIVE_TURN_BELOW, CardClassifier
from vision.imageio import read_image
from vision.observation import BACK
from vision.recognizer import Recognizer


@pytest.fixture(scope="module")
def live() -> tuple[Recognizer, Recognizer]:
    """The live recogniser with its back check, and the same without it (one classifier for both)."""
    classifier = CardClassifier(threads=1, turn_below=LIVE_TURN_BELOW)
    return Recognizer(classifier=classifier, back_check=CardRefiner()), Recognizer(classifier=classifier,
                                                                                   back_check=None)


def test_the_live_recogniser_checks_its_backs_by_default() -> None:
    assert isinstance(Recognizer().back_check, CardRefiner)
    assert Recognizer.for_photos().back_check is None  # a photo's named cards are checked in context instead


@pytest.mark.parametrize(("photo", "backs"), [("10_spade_1.jpg", 6), ("10_club_1.jpg", 5)])
def test_a_playing_cards_pips_are_no_backs_on_the_live_table(shared_data: Path, live: tuple[Recognizer, Recognizer],
                                                             photo: str, backs: int) -> None:
    checked, unchecked = live
    image = read_image(shared_data / PLAYING_CARD_PHOTOS / photo)
    assert [c.label for c in unchecked(image).cards if c.label != "unknown"] == [BACK] * backs
    assert [c.label for c in checked(image).cards if c.label != "unknown"] == []


def test_held_out_backs_stay_on_the_live_table(shared_data: Path, live: tuple[Recognizer, Recognizer]) -> None:
    """Held-out scene 7 of seed 7000: five backs in the piles, all named with the check as without it."""
    scene = render_scene(np.random.default_rng([7000, 7]), preset("default", styles=(TEST_STYLE,), size=(1280, 720)))
    checked, unchecked = live
    with_check = sorted(c.label for c in checked(scene.image).cards)
    assert with_check.count(BACK) == list(scene.labels).count(BACK) == 5
    assert with_check == sorted(c.label for c in unchecked(scene.image).cards)
