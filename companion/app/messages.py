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


@dataclass(frozen=True)
class SyncedRound:
    """One round as the camera worker's record has it: the deal and the standing actions with their sources."""

    number: int
    dealer: int
    deal: dict[str, object]
    actions: tuple[tuple[str, str], ...]  # (action text, source: camera, typed or corrected)


@dataclass
class CameraSync(Message):
    """The whole match as the camera worker believes it (sent when a round is dealt, a move is committed, a
    misread is revised or corrected, or a record is resumed); the screen's session is brought in line with it."""

    rounds: tuple[SyncedRound, ...]


@dataclass
class CameraNotice(Message):
    """Something the live table reports in words: a deal seen, a hidden table, a revised move, an error."""

    kind: str
    text: str
