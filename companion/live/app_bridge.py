"""The camera behind the app: a worker thread follows the table (capture, stable periods, the real recogniser,
move inference, the game record) and tells the screen what happened only by messages; what the user types or
corrects goes to it through a queue and is applied in its thread. The worker's ``LiveSession`` is the one truth:
the screen's ``KoiKoiSession`` is a mirror of it, brought in line by ``CameraSync`` (``CameraBridge.sync``).

Nothing here blocks the app: the recogniser is loaded and the camera opened in the worker, and a camera that
drops out is retried there while the game waits, intact.
"""

from __future__ import annotations

import copy
import os
import queue
import threading
import time
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from textual.message import Message

from companion.app.messages import (
    CameraConflict,
    CameraMove,
    CameraNotice,
    CameraStatus,
    CameraSync,
    SyncedRound,
)
from companion.live.koikoi import KoiKoiLive, deal_from_json
from companion.live.runner import RunStats, run
from companion.live.session import LiveEvent, LiveSession
from companion.session import KoiKoiSession
from engine.errors import KibitzError
from engine.koikoi.profile import KoiKoiProfile
from engine.moves import Move
from vision.capture import CameraSource, Capture, FrameSource, ImageFolderSource, StreamSource, VideoFileSource
from vision.stability import Recognize, StabilityConfig, StableTracker

Post = Callable[[Message], object]
STATE_EVENTS = frozenset({"round", "move", "revised", "round-end"})  # the committed game changed


def default_recognizer() -> Recognize:
    """The shipped ONNX finder and classifier; zones from the printed A3 mat when its markers show, else from
    bands of the image (``companion.live.table.DEFAULT_REGIONS``). Loaded in the worker: it takes a while."""
    from vision.mat import mat_layout
    from vision.recognizer import Recognizer

    return Recognizer(mat=mat_layout("koikoi", "a3"))


def default_record_path(now: datetime | None = None, game: str = "koikoi") -> Path:
    """Where a new camera game is recorded: ``$KIBITZ_RECORDS`` or ``~/.kibitz/records``, one file a game,
    named after the game and the time."""
    folder = Path(os.environ.get("KIBITZ_RECORDS") or Path.home() / ".kibitz" / "records")
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{game}-{(now or datetime.now()):%Y%m%d-%H%M%S}"
    path, n = folder / f"{stem}.jsonl", 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{n}.jsonl"
    return path


SOURCE_OPTIONS = ("camera", "video", "images", "stream")  # the ``kibitz play`` options that name a source


def follows_camera(options: Mapping[str, Any]) -> bool:
    """Whether ``kibitz play`` options ask for a camera game (a source, or a camera record to resume)."""
    return any(options.get(name) is not None for name in SOURCE_OPTIONS) or bool(options.get("resume"))


def camera_source(options: Mapping[str, Any]) -> FrameSource | None:
    """The source ``kibitz play`` was given (``--camera N``, ``--video FILE``, ``--images DIR``, ``--stream
    URL``), or None for a manual game. A missing file or folder raises SourceError (an OSError) naming it;
    ``--resume`` without a source is refused (it goes on with a camera game)."""
    if not any(options.get(name) is not None for name in SOURCE_OPTIONS):
        if options.get("resume"):
            raise KibitzError("--resume goes on with a game followed by the camera: add --camera N, --video FILE, "
                              "--images DIR or --stream URL")
        return None
    if options.get("camera") is not None:
        return CameraSource(int(options["camera"]))
    if options.get("stream"):
        return StreamSource(options["stream"])
    if options.get("video"):
        return VideoFileSource(options["video"])
    if options.get("images"):
        return ImageFolderSource(options["images"])
    return None


def open_camera(options: Mapping[str, Any], profile: KoiKoiProfile, **kwargs: Any) -> CameraBridge | None:
    """The camera game of ``kibitz play koikoi`` options, or None without a source. ``--resume RECORD`` replays
    the record now, so a damaged one is refused before the app starts (RecordError naming the line)."""
    source = camera_source(options)
    if source is None:
        return None
    resume = options.get("resume")
    game = KoiKoiLive(profile, me=0)
    if resume:
        live = LiveSession.resume(resume, game)
    else:
        live = LiveSession.create(default_record_path(), game, players=("you", "opponent"))
    return CameraBridge(live, source, KoiKoiSession(profile, mode="camera"), **kwargs)


class CameraBridge:
    """Owns the worker thread. Worker side: ``live`` (touched only in the worker once started). UI side:
    ``mirror``, changed only by ``sync`` (called with the worker's messages)."""

    def __init__(self, live: LiveSession, source: FrameSource, mirror: KoiKoiSession,
                 recognizer: Callable[[], Recognize] = default_recognizer, stability: StabilityConfig | None = None,
                 realtime: bool = False, drop_stale: bool | None = None, retry_s: float = 0.2,
                 status_every: float = 0.5, unsure_below: float = 0.75) -> None:
        if live.writer is None:
            raise ValueError("CameraBridge: the live session must write a record")
        self.live = live
        self.source = source
        self.mirror = mirror
        self.record_path = live.writer.path
        self.recognizer = recognizer
        self.stability = stability or StabilityConfig()
        self.realtime = realtime
        self.drop_stale = drop_stale
        self.retry_s = retry_s
        self.status_every = status_every
        self.unsure_below = unsure_below
        self.shown: tuple[SyncedRound, ...] = ()  # what the mirror holds (UI side)
        self.finished = threading.Event()  # the source ended (or failed): only typed input is followed now
        self._commands: queue.Queue[tuple[str, ...]] = queue.Queue()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._post: Post = lambda message: None
        self._capture: Capture | None = None
        self._tracker: StableTracker | None = None
        self._last_status = (-1.0, 0)  # (time, frames) of the last status sent

    # ----------------------------------------------------------------- UI side
    def start(self, post: Post) -> None:
        """Start following the table; every report goes through ``post`` (the screen's ``post_message``)."""
        if self._thread is not None:
            return
        self._post = post
        self._thread = threading.Thread(target=self._main, name="kibitz camera", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        else:
            self.live.close()

    def typed(self, text: str) -> None:
        """A key or a move the user typed (``k``, ``stop``, ``play pine-crane``), ``hand CARDS`` (the hand, when it
        is not shown to the camera) or ``look`` (recognise the table again)."""
        self._commands.put(("typed", text))

    def correct(self, index: int, card: str) -> None:
        """Move ``index`` of the round named the wrong card: it was ``card``."""
        self._commands.put(("correct", str(index), card))

    def sync(self, rounds: tuple[SyncedRound, ...]) -> bool:
        """Bring the mirror in line with the worker's match; True when it changed. Only the moves after the
        first difference are taken back and replayed; anything else (a round rewritten) rebuilds the match."""
        if rounds == self.shown:
            return False
        old, mirror = self.shown, self.mirror
        same = 0
        while same < min(len(old), len(rounds)) - 1 and old[same] == rounds[same]:
            same += 1
        try:
            if old and same < len(rounds) and same_deal(old[same], rounds[same]) and same == len(old) - 1:
                kept = common_prefix(old[same].actions, rounds[same].actions)
                for _ in range(len(old[same].actions) - kept):
                    mirror.undo()
                _play(mirror, rounds[same].actions[kept:])
                start = same + 1
            else:
                mirror.reset_match()
                start = 0
            for r in rounds[start:]:
                _deal(mirror, r)
        except KibitzError:
            mirror.reset_match()  # a scored round cannot be taken back: replay the whole match
            for r in rounds:
                _deal(mirror, r)
        self.shown = rounds
        return True

    # ----------------------------------------------------------------- worker side
    def _main(self) -> None:
        try:
            self._publish(list(self.live.log))  # a resumed record: the match so far
            self._status(False, f"starting: loading the recogniser, opening {self.source.name}")
            self._tracker = StableTracker(self.recognizer(), self.stability)
            self._capture = Capture(self.source, drop_stale=self.drop_stale, realtime=self.realtime,
                                    retry_s=self.retry_s)
            stats = run(self._capture, self._tracker, self.live, on_events=self._publish, stop=self._stop,
                        poll=self._poll, tick=self._tick)
            if not self._stop.is_set():
                self._finish(stats)
            while not self._stop.is_set():
                try:
                    command = self._commands.get(timeout=0.1)
                except queue.Empty:
                    continue
                self._publish(self._apply(command))
        except Exception as exc:  # the app must hear of it; the record keeps what was committed
            self._post(CameraNotice("error", f"camera worker stopped: {exc}"))
            self._status(False, f"camera stopped: {exc}")
        finally:
            self.finished.set()
            if self._capture is not None:
                self._capture.close()
            self.live.close()

    def _finish(self, stats: RunStats) -> None:
        """The source ended: a round-ending key still waiting for one more look gets the last look again."""
        self.finished.set()
        self.live.defer_round_end = False
        if self.live.deferred is not None and self.live.last_table is not None:
            self._publish(self.live.observe(self.live.last_table))
        self._status(False, f"{self.source.name}: end of input after {stats.frames} frames "
                            f"({stats.fps:.0f} fps); the game is kept in {self.record_path}")

    def _poll(self) -> list[LiveEvent]:
        events: list[LiveEvent] = []
        while True:
            try:
                command = self._commands.get_nowait()
            except queue.Empty:
                return events
            events += self._apply(command)

    def _apply(self, command: tuple[str, ...]) -> list[LiveEvent]:
        if command[0] == "correct":
            return self.live.correct_card(int(command[1]), command[2])
        text = command[1].strip()
        words = text.split()
        if words and words[0].lower() == "hand":
            self.live.set_hand(w for w in words[1:] if w)
            return [LiveEvent("waiting", f"your hand: {len(words) - 1} cards typed; the camera reads the field")]
        if text.lower() == "look":
            if self._tracker is not None:
                self._tracker.forget()
            return [LiveEvent("waiting", "looking at the table again")]
        return self.live.type_action(text)

    def _publish(self, events: list[LiveEvent]) -> None:
        for event in events:
            if event.kind == "move":
                self._post(CameraMove(event.actions[0]))
            elif event.kind == "conflict":
                self._post(CameraConflict(event.message, self._suspect()))
            elif event.kind == "camera":
                self._status(self._capture is not None and self._capture.connected, event.message)
            else:
                self._post(CameraNotice(event.kind, event.message))
        if any(e.kind in STATE_EVENTS for e in events):
            self._post(CameraSync(self._snapshot()))

    def _snapshot(self) -> tuple[SyncedRound, ...]:
        assert self.live.writer is not None
        return tuple(SyncedRound(r.number, r.dealer, copy.deepcopy(r.deal),
                                 tuple((a.action, a.source) for a in r.actions))
                     for r in self.live.writer.record.rounds)

    def _suspect(self) -> str | None:
        """The card a conflict most likely misread: the unexplained card seen, else the one missing."""
        inference = self.live.last_inference
        if inference is None:
            return None
        mismatches = inference.best.score.mismatches
        seen = next((m.seen.label for m in mismatches if m.kind in ("extra", "misread") and m.seen), None)
        return seen or next((m.cls for m in mismatches if m.kind == "missing"), None)

    def _tick(self, stats: RunStats) -> None:
        now = time.monotonic()
        if now - self._last_status[0] >= self.status_every:
            self._status(self._capture is not None and self._capture.connected, stats=stats)

    def _status(self, connected: bool, note: str = "", stats: RunStats | None = None) -> None:
        now = time.monotonic()
        frames = stats.frames if stats is not None else self._last_status[1]
        then, before = self._last_status
        fps = (frames - before) / (now - then) if stats is not None and then >= 0 and now > then else 0.0
        self._last_status = (now, frames)
        table = self.live.last_table
        faces = [c for c in table.cards if c.is_face and c.role is not None] if table is not None else []
        unsure = sorted(c.label for c in faces if c.confidence < self.unsure_below)
        if not connected and not note and self._capture is not None:
            note = f"{self.source.name}: camera lost, retrying (attempt {self._capture.retries})"
        self._post(CameraStatus(connected, fps, len(faces), unsure, note))


def same_deal(a: SyncedRound, b: SyncedRound) -> bool:
    """The same round dealt the same way (its actions may differ)."""
    return (a.number, a.dealer, a.deal) == (b.number, b.dealer, b.deal)


def common_prefix(a: tuple[tuple[str, str], ...], b: tuple[tuple[str, str], ...]) -> int:
    """How many actions two versions of a round share from the start (their sources aside)."""
    n = 0
    while n < min(len(a), len(b)) and a[n][0] == b[n][0]:
        n += 1
    return n


def _deal(mirror: KoiKoiSession, r: SyncedRound) -> None:
    mirror.match.dealer = r.dealer
    mirror.start_round(deal_from_json(dict(r.deal)))
    _play(mirror, r.actions)


def _play(mirror: KoiKoiSession, actions: tuple[tuple[str, str], ...]) -> None:
    for action, source in actions:
        mirror.apply(Move.parse(action), source)
