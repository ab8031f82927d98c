"""When to believe the camera: motion and occlusion detection, stable periods, and votes over their frames.

A hand over the mat, a card being slid, a camera bump: all show up as pixels changing between consecutive
frames. That is measured on a tiny, blurred, brightness-normalised grey copy of each frame (about a
millisecond), so slow lighting drift and sub-pixel jitter do not count. Only when nothing has moved for
``settle_s`` is the table state accepted, and only then is the (expensive) recogniser run, on a few frames
of the settled period; each card's label is the vote of those frames. A period that looks like the previous
stable one (a hand passed over and nothing changed) is not recognised again.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.capture import Frame
from vision.observation import BACK, UNKNOWN, TableObservation


@dataclass(frozen=True)
class StabilityConfig:
    work_width: int = 160
    """Frames are compared at this width (a 1280 px frame shrinks 8 times)."""
    blur_sigma: float = 1.2
    pixel_threshold: float = 14.0
    """Grey-level change (on a brightness-normalised 0..255 scale) that counts as a changed pixel."""
    motion_fraction: float = 0.004
    """Share of changed pixels between consecutive frames that counts as motion (a hand, a card sliding)."""
    change_fraction: float = 0.002
    """Share of changed pixels against the last stable frame below which the table did not change."""
    settle_s: float = 0.5
    """How long nothing may move before a table state is accepted."""
    votes: int = 3
    """Frames recognised per stable period; each card's label is their vote."""
    vote_gap_s: float = 0.1
    presence: float = 0.5
    """A card must be seen in this share of the voted frames (drops flickering false detections)."""
    unique_labels: bool = True
    """Each label names one physical object (a hanafuda deck); False for sets with duplicates (dominoes)."""
    repeatable: frozenset[str] = frozenset({BACK, UNKNOWN})

    def __post_init__(self) -> None:
        if self.work_width < 32:
            raise ValueError("StabilityConfig.work_width: below 32 px a hand cannot be told from noise")
        if self.votes < 1 or self.settle_s < 0 or self.vote_gap_s < 0:
            raise ValueError("StabilityConfig: votes >= 1, settle_s >= 0 and vote_gap_s >= 0")
        if not 0 < self.presence <= 1:
            raise ValueError("StabilityConfig.presence must lie in (0, 1]")


class MotionDetector:
    """Changed share of a frame against another, on small normalised grey copies."""

    def __init__(self, config: StabilityConfig | None = None) -> None:
        self.config = config or StabilityConfig()

    def small(self, image: np.ndarray) -> np.ndarray:
        """The comparison copy: grey, ``work_width`` wide, blurred, mean brightness scaled to 128."""
        h, w = image.shape[:2]
        width = min(self.config.work_width, w)
        height = max(round(h * width / w), 1)
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        small = cv2.resize(grey, (width, height), interpolation=cv2.INTER_AREA).astype(np.float32)
        small = cv2.GaussianBlur(small, (0, 0), self.config.blur_sigma)
        return small * np.float32(128.0 / max(float(small.mean()), 1.0))

    def changed(self, a: np.ndarray, b: np.ndarray) -> float:
        """Share of pixels that differ by more than ``pixel_threshold`` (1.0 when the sizes differ)."""
        if a.shape != b.shape:
            return 1.0
        return float(np.count_nonzero(cv2.absdiff(a, b) > self.config.pixel_threshold)) / a.size


@dataclass(frozen=True)
class SmoothedCard:
    """One card as voted over a stable period: the winning label, how sure, where."""

    label: str
    confidence: float  # summed confidence of the winning reads over the frames the card was seen in
    share: float  # share of the reads that named the winning label
    quad: tuple[tuple[float, float], ...]
    zone: str | None
    position_mm: tuple[float, float] | None
    partial: bool
    seen: int  # frames in which the card was seen
    runner_up: str | None = None

    @property
    def center(self) -> tuple[float, float]:
        x, y = np.asarray(self.quad).mean(axis=0)
        return float(x), float(y)

    @property
    def size(self) -> float:
        """The card's long side in image pixels."""
        q = np.asarray(self.quad)
        return float(max(np.linalg.norm(q[1] - q[2]), np.linalg.norm(q[0] - q[1])))


@dataclass(frozen=True)
class StableView:
    """The table during one stable period: voted cards, when it settled, and the frames that were used."""

    cards: tuple[SmoothedCard, ...]
    image_size: tuple[int, int]
    settled_at: float
    time: float
    frame_index: int
    frames: int
    mat: str | None = None

    def labels(self) -> list[str]:
        return [card.label for card in self.cards]


@dataclass
class _Track:
    quad: np.ndarray
    short: float
    weights: dict[str, float] = field(default_factory=dict)
    zones: dict[str | None, int] = field(default_factory=dict)
    mm: list[tuple[float, float]] = field(default_factory=list)
    partial: int = 0
    seen: int = 0


class CardVoter:
    """Matches the cards of successive frames by position and votes their labels (weighted by confidence)."""

    def __init__(self, config: StabilityConfig | None = None) -> None:
        self.config = config or StabilityConfig()
        self.tracks: list[_Track] = []
        self.frames = 0
        self.mat: str | None = None

    def add(self, observation: TableObservation) -> None:
        self.frames += 1
        self.mat = observation.mat or self.mat
        used: set[int] = set()
        for card in observation.cards:
            quad = np.asarray(card.quad, np.float64)
            centre = quad.mean(axis=0)
            track = self._nearest(centre, used)
            if track is None:
                sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
                track = _Track(quad, float(min(sides[0] + sides[2], sides[1] + sides[3]) / 2))
                self.tracks.append(track)
            used.add(id(track))
            track.weights[card.label] = track.weights.get(card.label, 0.0) + max(card.confidence, 1e-3)
            track.zones[card.zone] = track.zones.get(card.zone, 0) + 1
            if card.position_mm is not None:
                track.mm.append(card.position_mm)
            track.partial += card.partial
            track.seen += 1
            track.quad = track.quad + (quad - track.quad) / track.seen

    def _nearest(self, centre: np.ndarray, used: set[int]) -> _Track | None:
        best, best_d = None, np.inf
        for track in self.tracks:
            if id(track) in used:
                continue
            d = float(np.linalg.norm(track.quad.mean(axis=0) - centre))
            if d < 0.35 * max(track.short, 1.0) and d < best_d:
                best, best_d = track, d
        return best

    def result(self) -> tuple[SmoothedCard, ...]:
        """The voted cards; with ``unique_labels`` a label goes to the track with the strongest vote, and a
        track that loses its label falls back to its next label (or "unknown")."""
        need = self.config.presence * self.frames
        kept = [t for t in self.tracks if t.seen >= need]
        kept.sort(key=lambda t: -max(t.weights.values()))
        taken: set[str] = set()
        out = []
        for track in kept:
            ranked = sorted(track.weights.items(), key=lambda kv: -kv[1])
            total = sum(track.weights.values())
            label, weight = UNKNOWN, 0.0
            for name, w in ranked:
                if not self.config.unique_labels or name in self.config.repeatable or name not in taken:
                    label, weight = name, w
                    break
            taken.add(label)
            runner = next((name for name, _ in ranked if name != label), None)
            zone = max(track.zones.items(), key=lambda kv: kv[1])[0]
            mm = tuple(np.mean(track.mm, axis=0).tolist()) if track.mm else None
            out.append(SmoothedCard(
                label=label,
                confidence=float(min(weight / track.seen, 1.0)),
                share=float(weight / total) if total else 0.0,
                quad=tuple((float(x), float(y)) for x, y in track.quad),
                zone=zone,
                position_mm=mm,  # type: ignore[arg-type]
                partial=track.partial * 2 > track.seen,
                seen=track.seen,
                runner_up=runner,
            ))
        return tuple(out)


class Status(enum.Enum):
    MOVING = "moving"  # something moves over the table (a hand): nothing is believed
    SETTLING = "settling"  # still for less than settle_s: voting frames are being recognised
    STABLE = "stable"  # the period's view was delivered; nothing more to recognise until the next motion
    UNCHANGED = "unchanged"  # still, and the same as the last stable view: nothing recognised


@dataclass(frozen=True)
class TrackerUpdate:
    status: Status
    view: StableView | None = None
    motion: float = 0.0


Recognize = Callable[[Frame], TableObservation]


class StableTracker:
    """Feed it every frame; it recognises only the frames a stable period needs and returns the period's
    voted view once, when the period has lasted ``settle_s``."""

    def __init__(self, recognize: Recognize, config: StabilityConfig | None = None) -> None:
        self.config = config or StabilityConfig()
        self.recognize = recognize
        self.motion = MotionDetector(self.config)
        self.status = Status.MOVING
        self.frames = 0
        self.recognised = 0
        self._previous: np.ndarray | None = None
        self._anchor: np.ndarray | None = None
        self._last_stable: np.ndarray | None = None
        self._since = 0.0
        self._still: tuple[float, int, tuple[int, int], np.ndarray] | None = None  # the last still frame
        self._last_vote = -np.inf
        self._voter = CardVoter(self.config)

    def feed(self, frame: Frame) -> TrackerUpdate:
        self.frames += 1
        small = self.motion.small(frame.image)
        t = frame.timestamp
        moved = 1.0 if self._previous is None else self.motion.changed(small, self._previous)
        drift = 0.0 if self._anchor is None else self.motion.changed(small, self._anchor)
        self._previous = small
        if moved > self.config.motion_fraction or drift > self.config.motion_fraction:
            cut_short = self._cut_short()
            self._begin_moving(small)
            return TrackerUpdate(Status.MOVING, cut_short, moved)
        if self.status is Status.MOVING:
            self._since = t
            self._anchor = small
            same = self._last_stable is not None and \
                self.motion.changed(small, self._last_stable) < self.config.change_fraction
            self.status = Status.UNCHANGED if same else Status.SETTLING
        if self.status is not Status.SETTLING:
            return TrackerUpdate(self.status, motion=moved)
        self._still = (t, frame.index, (frame.image.shape[1], frame.image.shape[0]), small)
        if self._voter.frames < self.config.votes and t - self._last_vote >= self.config.vote_gap_s:
            self._voter.add(self.recognize(frame))
            self.recognised += 1
            self._last_vote = t
        if t - self._since >= self.config.settle_s and self._voter.frames >= self.config.votes:
            return TrackerUpdate(Status.STABLE, self._deliver(), moved)
        return TrackerUpdate(Status.SETTLING, motion=moved)

    def _deliver(self) -> StableView:
        """The period's view, from the votes so far; the table counts as seen (not recognised again)."""
        t, index, size, small = self._still
        self.status = Status.STABLE
        self._last_stable = small
        return StableView(self._voter.result(), size, self._since, t, index, self._voter.frames, self._voter.mat)

    def _cut_short(self) -> StableView | None:
        """A period that was still long enough but ends before all its votes came in (a slow recogniser, a
        quick player) still counts, with the votes it has."""
        if self.status is not Status.SETTLING or not self._voter.frames or self._still is None:
            return None
        if self._still[0] - self._since < self.config.settle_s:
            return None
        return self._deliver()

    def _begin_moving(self, small: np.ndarray) -> None:
        self.status = Status.MOVING
        self._anchor = small
        self._voter = CardVoter(self.config)
        self._last_vote = -np.inf

    def forget(self) -> None:
        """Forget the last stable frame, so the next stable period is recognised even if it looks the same
        (after a new round is dealt, or when a user asks to look again)."""
        self._last_stable = None
