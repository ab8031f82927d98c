"""Shared by the live-table tests and bench_live: follow a rendered scripted round end to end and score it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path

import cv2
import numpy as np

from companion.live.koikoi import KoiKoiLive, visual_class
from companion.live.session import LiveEvent, LiveSession
from datasets.scripted.render import FrameTruth
from datasets.scripted.script import Script
from vision.capture import Frame
from vision.stability import Recognize, StabilityConfig, StableTracker, TrackerUpdate


@dataclass
class Followed:
    session: LiveSession
    tracker: StableTracker
    events: list[LiveEvent] = field(default_factory=list)
    frames: int = 0
    hand_frames_with_moves: int = 0  # moves committed while a hand was over the table (must stay 0)


def follow(script: Script, frames: Iterable[tuple[np.ndarray, FrameTruth]], recognize: Recognize,
           session: LiveSession | None = None, config: StabilityConfig | None = None,
           stop_at: int | None = None) -> Followed:
    """Feed frames to a tracker and a Koi-Koi session; play the user who presses koi-koi/stop when asked."""
    session = session or LiveSession(KoiKoiLive(me=0), dealer=script.dealer)
    out = Followed(session, StableTracker(recognize, config))
    hands: dict[int, bool] = {}
    for image, truth in frames:
        if stop_at is not None and truth.index >= stop_at:
            break
        hands[truth.index] = truth.hand
        update: TrackerUpdate = out.tracker.feed(Frame(image, truth.index, truth.time, "scripted"))
        out.frames += 1
        if update.view is None:
            continue
        events = session.observe(update.view)
        out.events += events
        if session.wants_fresh_look:
            out.tracker.forget()
        if hands[update.view.frame_index] and any(e.kind == "move" for e in events):  # the view's own frame
            out.hand_frames_with_moves += 1
        press_keys(script, session, out.events)
    return out


def press_keys(script: Script, session: LiveSession, log: list[LiveEvent]) -> None:
    """The user answers the app's koi-koi/stop question with what the script's player decided."""
    while session.phase == "playing" and session.game.awaiting() and session.deferred is None:
        done = len(session.game.history)
        if done >= len(script.actions) or script.actions[done][2] != "typed":
            return
        log += session.type_action(script.actions[done][0])
        if len(session.game.history) == done and session.deferred is None:
            return  # refused: the state went astray before it (the user would read the error and correct)


def canonical(actions: Iterable[str]) -> list[str]:
    """Camera actions in a comparable form: interchangeable cards by class, and the play and flip of a turn
    in a fixed order (when both land untouched on the field they cannot be told apart, nor need to be)."""
    turns: list[list[str]] = []
    for action in actions:
        verb, *rest = action.split()
        if verb not in ("play", "flip"):
            continue
        if verb == "play" or not turns:
            turns.append([])
        turns[-1].append(" ".join(visual_class(w) or w for w in rest))
    return [move for turn in turns for move in sorted(turn)]


@dataclass(frozen=True)
class MoveScore:
    truth: int  # camera-visible moves that happened
    correct: int  # of those, inferred (in order)
    phantom: int  # inferred moves that did not happen

    @property
    def accuracy(self) -> float:
        return self.correct / self.truth if self.truth else 1.0


def score_moves(got: Iterable[str], truth: Iterable[str]) -> MoveScore:
    a, b = canonical(truth), canonical(got)
    matched = sum(block.size for block in SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks())
    return MoveScore(len(a), matched, len(b) - matched)


def write_video(path: Path, frames: list[np.ndarray], fps: float) -> Path:
    """Rendered frames as an MJPG file, the way a recording of the table reaches ``--video``."""
    height, width = frames[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (width, height))
    for frame in frames:
        writer.write(frame)
    writer.release()
    return path
