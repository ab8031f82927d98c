"""A dim frame brightened to the exposure the models were trained at.

The finders and classifiers learned from scenes lit as a room with its lights on. A phone in a dim room, or a webcam
whose exposure is set low, gives frames whose brightest parts sit far below white, and there the networks find
fewer cards: held-out card scenes rendered at 0.45 of their light lost 3 points of recall, at 0.3 eight (README,
session 28). Scaled so that its brightest pixels (the ``PERCENTILE`` of each pixel's brightest channel) reach
``BRIGHT``, such a frame reads as one taken in good light. A frame within ``LEAST_GAIN`` of that is left as it is
(brightening those too changed the held-out sets by a card or two either way), a frame is never darkened (a bright
frame's clipped highlights are lost either way), and the gain stops at ``MOST_GAIN``: past it the frame holds noise
more than cards.
"""

from __future__ import annotations

import cv2
import numpy as np

BRIGHT = 235.0  # the brightest pixels' level a frame is brought to (of 255)
PERCENTILE = 99.0  # what "the brightest pixels" means: a glint or a white label is not the frame's light
MOST_GAIN = 4.0  # a darker frame is brightened this much at most
LEAST_GAIN = 1.5  # a frame that needs less is left as it is: within the light the scenes were rendered in
STEP = 8  # the level is measured on every STEP-th pixel of every STEP-th row (0.25 ms at 1280 x 720)


def exposure_gain(image: np.ndarray) -> float:
    """The gain that brings a BGR (or grey) ``image``'s brightest pixels to ``BRIGHT``, within 1 and ``MOST_GAIN``."""
    sample = np.ascontiguousarray(np.asarray(image)[::STEP, ::STEP])  # strided reductions are slow
    if not sample.size:
        return 1.0
    if sample.ndim == 3:
        sample = cv2.max(cv2.max(sample[..., 0], sample[..., 1]), sample[..., 2])
    flat = sample.ravel()
    rank = min(int(PERCENTILE / 100 * flat.size), flat.size - 1)
    level = float(np.partition(flat, rank)[rank])
    return float(np.clip(BRIGHT / max(level, 1.0), 1.0, MOST_GAIN))


def brightened(image: np.ndarray) -> np.ndarray:
    """``image`` (uint8) brightened by ``exposure_gain``; the same array where it needs less than ``LEAST_GAIN``."""
    gain = exposure_gain(image)
    if gain < LEAST_GAIN:
        return image
    return cv2.convertScaleAbs(image, alpha=gain)
