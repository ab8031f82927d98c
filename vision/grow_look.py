"""A look at the whole card round a piece of it, for still photos.

A card seen big (a phone held over it, a card near the camera) has strong shapes inside it: the moon's disc, a
ribbon. The finder may then put a sure quad on a piece of the card, which the classifier cannot name (not-a-card),
and nothing on the whole card. So a sure detection no card face is read from is tried again as the whole card that
would hold it: the piece spanning the card's width at one end or the middle, its length being the card's width, or
its length being the card's length (a strip along one side or the middle; ``grown``). The best reading, when near (a
face from 0.5), is searched round by small scalings and shifts (``search``: a grown quad is rough) and replaces the
detection when the classifier is sure of a face; the other pieces of that card that read no face (a half read as a
back) go.

A quad that would cover a named card (IoU above ``max_overlap``) or reach past the frame is not tried.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.classifier import CardClassifier
from vision.geometry import CARD_ASPECT, iou_matrix, order_quads, quad_areas, warp_quads

STEPS = (0.15, 0.08, 0.04)
"""The search's steps, in card widths and lengths (and scale): coarse to fine."""


def grown(quads: np.ndarray) -> np.ndarray:
    """The quad itself and the whole-card quads that would hold it as a piece: M x 10 x 4 x 2."""
    q = order_quads(quads)
    tl, tr, bl = q[:, 0], q[:, 1], q[:, 3]
    u = tr - tl  # across
    v = bl - tl  # along
    nu = np.linalg.norm(u, axis=1, keepdims=True)
    nv = np.linalg.norm(v, axis=1, keepdims=True)
    out = [q]
    length = v / nv * (nu / CARD_ASPECT)  # the piece spans the card's width: the card runs along v
    for start in (tl, bl - length, (tl + bl) / 2 - length / 2):
        out.append(np.stack([start, start + u, start + u + length, start + length], 1))
    length = u / nu * (nv / CARD_ASPECT)  # the piece's length is the card's width: the card runs along u
    for start in (tl, tr - length, (tl + tr) / 2 - length / 2):
        out.append(np.stack([start, start + length, start + length + v, start + v], 1))
    width = u / nu * (nv * CARD_ASPECT)  # the piece runs the card's length: the card is that much wider
    for start in (tl, tr - width, (tl + tr) / 2 - width / 2):
        out.append(np.stack([start, start + width, start + width + v, start + v], 1))
    return np.stack(out, 1).astype(np.float32)


def jittered(quads: np.ndarray, step: float) -> np.ndarray:
    """Each quad scaled about its centre and shifted across and along by ``step``: M x 6 x 4 x 2."""
    q = order_quads(quads)
    centre = q.mean(axis=1, keepdims=True)
    u = ((q[:, 1] + q[:, 2]) - (q[:, 0] + q[:, 3]))[:, None] / 2
    v = ((q[:, 3] + q[:, 2]) - (q[:, 0] + q[:, 1]))[:, None] / 2
    out = [centre + (q - centre) * (1 - step), centre + (q - centre) * (1 + step),
           q + step * u, q - step * u, q + step * v, q - step * v]
    return np.stack(out, 1).astype(np.float32)


def search(image: np.ndarray, quads: np.ndarray, probabilities: np.ndarray, classifier: CardClassifier,
           steps: tuple[float, ...] = STEPS) -> tuple[np.ndarray, np.ndarray]:
    """Greedy: each quad moved to whichever jitter reads a card's face surest, step by step."""
    quads, probabilities = np.array(quads, np.float32), np.array(probabilities, np.float32)
    face = classifier.face_probability(probabilities)
    for step in steps:
        tries = jittered(quads, step)
        read = classifier.classify(warp_quads(image, tries.reshape(-1, 4, 2), classifier.input_size))
        tface = classifier.face_probability(read).reshape(len(quads), -1)
        best = tface.argmax(axis=1)
        better = tface[np.arange(len(quads)), best] > face
        rows = np.arange(len(quads)) * tries.shape[1] + best
        quads[better] = tries[better, best[better]]
        probabilities[better] = read[rows[better]]
        face[better] = tface[better, best[better]]
    return quads, probabilities


@dataclass(frozen=True)
class GrowLook:
    """The knobs of the look at whole cards; calling it returns the quads, probabilities and which to keep."""

    needs: float = 0.9  # the least probability of a card's face for a grown quad to replace the piece
    near: float = 0.5  # the best grown quad is searched round when its face reads this sure
    max_overlap: float = 0.3  # a grown quad overlapping a named card more than this is not tried
    piece: float = 0.6  # an unnamed detection this much inside a grown card is a piece of it and goes

    def __post_init__(self) -> None:
        if not 0.0 <= self.near <= self.needs <= 1.0 or not 0.0 < self.max_overlap < 1.0 or not 0 < self.piece <= 1:
            raise ValueError(f"GrowLook: needs 0 <= near <= needs <= 1, max_overlap in (0, 1) and piece in (0, 1], "
                             f"got {self}")

    def __call__(self, image: np.ndarray, quads: np.ndarray, probabilities: np.ndarray, todo: np.ndarray,
                 named: np.ndarray, classifier: CardClassifier) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``todo``: the detections to look at (sure ones the classifier names no face from); ``named``: those that
        read as a card. Returns new arrays; the inputs are left alone."""
        quads, probabilities = np.array(quads, np.float32), np.array(probabilities, np.float32)
        keep = np.ones(len(quads), bool)
        which = np.flatnonzero(todo)
        if not len(which):
            return quads, probabilities, keep
        h, w = image.shape[:2]
        tries = grown(quads[which])  # M x 10 x 4 x 2
        flat = tries.reshape(-1, 4, 2)
        allowed = ((flat[..., 0] >= -0.05 * w) & (flat[..., 0] <= 1.05 * w) & (flat[..., 1] >= -0.05 * h)
                   & (flat[..., 1] <= 1.05 * h)).all(axis=1)
        if named.any():
            allowed &= iou_matrix(flat, quads[named]).max(axis=1) <= self.max_overlap
        if not allowed.any():
            return quads, probabilities, keep
        read = np.zeros((len(flat), probabilities.shape[1]), np.float32)
        read[allowed] = classifier.classify(warp_quads(image, flat[allowed], classifier.input_size))
        face = np.where(allowed, classifier.face_probability(read), -1.0).reshape(len(which), -1)
        best = face.argmax(axis=1)
        pick = np.arange(len(which)) * tries.shape[1] + best
        new, new_read = flat[pick], read[pick]
        close = (face.max(axis=1) >= self.near) & (face.max(axis=1) < self.needs)
        if close.any():
            new[close], new_read[close] = search(image, new[close], new_read[close], classifier)
        sure = classifier.face_probability(new_read) >= self.needs
        areas = quad_areas(quads)
        for k in np.argsort(-classifier.face_probability(new_read)):
            i = which[k]
            if not sure[k] or not keep[i]:
                continue
            quads[i], probabilities[i] = new[k], new_read[k]
            iou = iou_matrix(quads, new[k][None])[:, 0]
            inside = iou * (areas + quad_areas(new[k][None])[0]) / (1 + iou) / np.maximum(areas, 1)
            pieces = ~named & (inside > self.piece)
            pieces[i] = False
            keep &= ~pieces
        return quads, probabilities, keep
