"""Shared by the card-vision tests."""

import re

import cv2
import numpy as np


def card_kind(code: str) -> str:
    """The two plains of a month are interchangeable (the deck prior names them -1, -2 in crop order)."""
    return re.sub(r"-plain-[12]$", "-plain", code)


def as_stored(image: np.ndarray) -> np.ndarray:
    """A rendered scene's image as the held-out sets store it: JPEG at quality 95, read back."""
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    assert ok
    decoded: np.ndarray = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    return decoded
