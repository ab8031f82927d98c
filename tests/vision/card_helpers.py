"""Shared by the card-vision tests (and the domino tests that read the playing-card photos)."""

import re
from pathlib import Path

import cv2
import numpy as np

from datasets.hanafuda import TEST_STYLE, Scene, preset, render_scene
from vision.observation import BACK
from vision.recognizer import Recognizer

PLAYING_CARD_PHOTOS = Path("dev-photos") / "playing-cards-yuchenrao" / "photos"  # under the shared data folder


def card_kind(code: str) -> str:
    """The two plains of a month are interchangeable (the deck prior names them -1, -2 in crop order)."""
    return re.sub(r"-plain-[12]$", "-plain", code)


def as_stored(image: np.ndarray) -> np.ndarray:
    """A rendered scene's image as the held-out sets store it: JPEG at quality 95, read back."""
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    assert ok
    decoded: np.ndarray = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    return decoded


def held_out(seed: int, index: int, layout: str = "default") -> Scene:
    """Scene ``index`` of a held-out set (``generate scenes --style mantia-modern --preset layout --seed seed``) as
    rendered, at 1280 x 720 (``as_stored`` gives its image as the set's file holds it)."""
    return render_scene(np.random.default_rng([seed, index]), preset(layout, styles=(TEST_STYLE,), size=(1280, 720)))


def named_backs(recognizer: Recognizer, image: np.ndarray) -> np.ndarray:
    """The quads of the backs ``recognizer`` names in ``image`` (N x 4 x 2)."""
    cards = recognizer(image).cards
    return np.array([c.quad for c in cards if c.label == BACK], np.float32).reshape(-1, 4, 2)
