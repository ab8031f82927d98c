"""Messages from worker threads to the UI. Workers talk to widgets only through these."""

from __future__ import annotations

from dataclasses import dataclass, field

from textual.message import Message

from companion.hint_service import HintReport


@dataclass
class HintsReady(Message):
    """A (possibly refined) report of the hint search for the state of ``report.generation``."""

    report: HintReport


@dataclass
class CameraStatus(Message):
    """How the camera is doing: frames per second, cards seen, cards read with low confidence."""

    connected: bool
    fps: float = 0.0
    cards_seen: int = 0
    low_confidence: list[str] = field(default_factory=list)
    note: str = ""


@dataclass
class CameraMove(Message):
    """A move the live table inferred from the camera (text form, e.g. ``play pine-crane take pine-plain-1``)."""

    move: str
    confidence: float = 1.0


@dataclass
class CameraConflict(Message):
    """A change on the table that no legal move explains; ``card`` is the likely misread."""

    description: str
    card: str | None = None
