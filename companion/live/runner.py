"""The live loop: frames from a capture, through the stability tracker (which recognises only the frames a
stable period needs), into the session; camera drop-outs become events, and the game is never touched by them."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.live.session import LiveEvent, LiveSession
from vision.capture import Capture
from vision.stability import StableTracker


@dataclass
class RunStats:
    frames: int = 0
    views: int = 0
    recognised: int = 0
    dropped: int = 0
    seconds: float = 0.0
    events: list[LiveEvent] = field(default_factory=list)

    @property
    def fps(self) -> float:
        return self.frames / self.seconds if self.seconds > 0 else 0.0


def run(capture: Capture, tracker: StableTracker, session: LiveSession,
        on_events: Callable[[list[LiveEvent]], None] | None = None,
        stop: threading.Event | None = None, max_frames: int | None = None,
        poll: Callable[[], list[LiveEvent]] | None = None,
        tick: Callable[[RunStats], None] | None = None, idle_s: float = 0.1) -> RunStats:
    """Follow the game until the capture ends, ``stop`` is set or ``max_frames`` were read. ``poll`` is called
    between frames, in this thread, to apply what the user typed (keys, corrections) to the session; ``tick``
    after each frame, and every ``idle_s`` while no frame comes (a camera that dropped out: its events and the
    user's keys are still handled, the game waits)."""
    stats = RunStats()
    start = time.perf_counter()
    capture.start()
    while not (stop is not None and stop.is_set()):
        frame = capture.read(timeout=idle_s)
        events = [session.camera_event(e) for e in capture.events()]
        if poll is not None:
            events += poll()
        if frame is not None:
            update = tracker.feed(frame)
            stats.frames += 1
            if update.view is not None:
                stats.views += 1
                events += session.observe(update.view)
                if session.wants_fresh_look:
                    tracker.forget()
        if events:
            stats.events += events
            if on_events is not None:
                on_events(events)
        stats.seconds = time.perf_counter() - start
        stats.recognised = tracker.recognised
        if tick is not None:
            tick(stats)
        if (frame is None and capture.ended) or (max_frames is not None and stats.frames >= max_frames):
            break
    for event in capture.events():
        stats.events.append(session.camera_event(event))
    stats.seconds = time.perf_counter() - start
    stats.recognised = tracker.recognised
    stats.dropped = capture.frames_dropped
    return stats
