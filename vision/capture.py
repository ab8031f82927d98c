"""Frame sources (webcam, video file, image folder, network stream) read in a worker thread.

A live table cares about the newest frame, not about every frame: the worker keeps only the latest one and
counts the ones it dropped, so a slow consumer never falls behind the camera. A live source that stops
delivering (a USB cable pulled, a phone app paused) is reopened with a growing delay, and the change is
reported as an event ("camera lost, retrying", "camera back"); the consumer's game state is not touched.
Files are read as fast as the consumer takes them (nothing dropped) unless ``realtime`` asks for camera pacing.
"""

from __future__ import annotations

import re
import threading
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.imageio import ImageReadError, read_image

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)


class SourceError(OSError):
    """A frame source that cannot be opened at all (missing file or folder, unreadable video, no camera)."""


@dataclass(frozen=True)
class Frame:
    """One image from a source. ``index`` counts frames from the source's start (a file's frame number);
    ``timestamp`` is seconds: the position in a file, or the monotonic clock for a live source."""

    image: np.ndarray
    index: int
    timestamp: float
    source: str

    def __post_init__(self) -> None:
        if not isinstance(self.image, np.ndarray) or self.image.dtype != np.uint8 or self.image.ndim != 3:
            shape = getattr(self.image, "shape", None)
            raise ValueError(f"Frame.image: expected an H x W x 3 uint8 array, got {shape}")
        if self.index < 0:
            raise ValueError(f"Frame.index: expected a non-negative index, got {self.index}")


@dataclass(frozen=True)
class CaptureEvent:
    """Something the user should hear about: ``kind`` is opened, lost, back, skipped, ended or failed."""

    kind: str
    message: str
    time: float


class FrameSource(ABC):
    """Base of the sources: ``open``, then ``read`` until it returns None, then ``close``.

    ``live`` sources (cameras, streams) are reopened when they stop; files end when they end.
    """

    live: bool = False

    def __init__(self, name: str) -> None:
        self.name = name
        self.skipped: list[str] = []  # unreadable items passed over (image folders), for the events

    @abstractmethod
    def open(self) -> None: ...

    @abstractmethod
    def read(self) -> tuple[np.ndarray, int, float] | None:
        """The next (image, index, timestamp), or None when the source ended or stopped delivering."""

    def close(self) -> None:  # noqa: B027 - a source holding nothing has nothing to release
        """Release the device or file; safe to call twice."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class _VideoCaptureSource(FrameSource):
    """Anything OpenCV's VideoCapture reads: a camera index, a video file, a stream URL."""

    def __init__(self, name: str, target: int | str, timeout_ms: int = 5000) -> None:
        super().__init__(name)
        self._target = target
        self._timeout_ms = timeout_ms
        self._capture: cv2.VideoCapture | None = None
        self._count = 0
        self._t0 = 0.0

    def _new_capture(self) -> cv2.VideoCapture:
        params = [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, self._timeout_ms, cv2.CAP_PROP_READ_TIMEOUT_MSEC, self._timeout_ms]
        backend = cv2.CAP_ANY if isinstance(self._target, int) else cv2.CAP_FFMPEG
        return cv2.VideoCapture(self._target, backend, params)

    def open(self) -> None:
        self.close()
        capture = self._new_capture()
        if not capture.isOpened():
            capture.release()
            raise SourceError(f"cannot open {self.name}")
        self._capture = capture
        self._t0 = time.monotonic()

    def read(self) -> tuple[np.ndarray, int, float] | None:
        if self._capture is None:
            return None
        ok, image = self._capture.read()
        if not ok or image is None or image.size == 0:
            return None
        index = self._count
        self._count += 1
        return _bgr(image), index, self._stamp(index)

    def _stamp(self, index: int) -> float:
        return time.monotonic() - self._t0

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class CameraSource(_VideoCaptureSource):
    """A webcam by index (0 is the first camera); frames are stamped with the clock."""

    live = True

    def __init__(self, index: int, size: tuple[int, int] | None = None) -> None:
        super().__init__(f"camera {index}", index)
        self.size = size

    def open(self) -> None:
        super().open()
        if self.size is not None and self._capture is not None:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])


class StreamSource(_VideoCaptureSource):
    """A network stream (a phone camera app's MJPEG over HTTP, RTSP...); a stall longer than
    ``timeout_ms`` counts as a drop-out."""

    live = True

    def __init__(self, url: str, timeout_ms: int = 5000) -> None:
        super().__init__(url, url, timeout_ms)


class VideoFileSource(_VideoCaptureSource):
    """A video file; timestamps are the frame's position in the file (index / fps)."""

    def __init__(self, path: str | Path) -> None:
        path = Path(path)
        if not path.exists():
            raise SourceError(f"{path}: no such video file")
        if not path.is_file():
            raise SourceError(f"{path}: not a regular file")
        super().__init__(str(path), str(path))
        self.fps = 0.0

    def open(self) -> None:
        try:
            super().open()
        except SourceError as exc:
            raise SourceError(f"{self.name}: not a video OpenCV can read") from exc
        assert self._capture is not None
        self.fps = float(self._capture.get(cv2.CAP_PROP_FPS) or 0.0)
        self._count = 0

    def _stamp(self, index: int) -> float:
        return index / self.fps if self.fps > 0 else float(index)


class ImageFolderSource(FrameSource):
    """The images of a folder in natural order ("f2" before "f10"), stamped at ``fps``; unreadable files are
    skipped and reported, never fatal."""

    def __init__(self, path: str | Path, fps: float = 30.0) -> None:
        path = Path(path)
        if not path.exists():
            raise SourceError(f"{path}: no such folder")
        if not path.is_dir():
            raise SourceError(f"{path}: not a folder")
        if fps <= 0:
            raise ValueError(f"ImageFolderSource: fps must be positive, got {fps}")
        super().__init__(str(path))
        self.path = path
        self.fps = fps
        self._files: list[Path] = []
        self._next = 0

    def open(self) -> None:
        files = [p for p in self.path.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES]
        if not files:
            raise SourceError(f"{self.path}: no images ({', '.join(IMAGE_SUFFIXES)}) in this folder")
        self._files = sorted(files, key=_natural_key)
        self._next = 0

    def read(self) -> tuple[np.ndarray, int, float] | None:
        while self._next < len(self._files):
            index = self._next
            self._next += 1
            try:
                image = read_image(self._files[index])
            except ImageReadError as exc:
                self.skipped.append(str(exc))
                continue
            return image, index, index / self.fps
        return None


def _natural_key(path: Path) -> list[object]:
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", path.name)]


def _bgr(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    return image


def open_source(spec: str | int | Path) -> FrameSource:
    """The source a user means: ``0`` a webcam, ``rtsp://...``/``http://...`` a stream, a folder of images,
    or a video file. Raises SourceError naming the path when it does not exist."""
    if isinstance(spec, int) or (isinstance(spec, str) and spec.strip().isdigit()):
        return CameraSource(int(spec))
    text = str(spec)
    if isinstance(spec, str) and _URL.match(text):
        return StreamSource(text)
    path = Path(text)
    if path.is_dir():
        return ImageFolderSource(path)
    if path.is_file():
        return VideoFileSource(path)
    raise SourceError(f"{path}: no such file or folder (a camera is a number such as 0, a stream a URL)")


class Capture:
    """Reads a source in a worker thread. ``read()`` returns the newest frame not yet returned.

    ``drop_stale`` (the default for live sources, and for files with ``realtime``) keeps only the newest frame;
    otherwise the worker waits for the consumer, so a file is delivered whole. ``realtime`` paces a file at its
    own frame rate, as a camera would deliver it. Live sources are reopened after a drop-out with a delay that
    doubles from ``retry_s`` up to ``max_retry_s``.
    """

    def __init__(
        self,
        source: FrameSource,
        drop_stale: bool | None = None,
        realtime: bool = False,
        retry_s: float = 0.2,
        max_retry_s: float = 5.0,
    ) -> None:
        self.source = source
        self.realtime = realtime
        self.drop_stale = (source.live or realtime) if drop_stale is None else drop_stale
        self.retry_s = retry_s
        self.max_retry_s = max_retry_s
        self.frames_read = 0
        self.frames_dropped = 0
        self.connected = False  # the source is open and delivering (False while a live source is being retried)
        self.retries = 0  # failed attempts to (re)open a live source, for the status line
        self._latest: Frame | None = None
        self._ended = False
        self._stop = threading.Event()
        self._cond = threading.Condition()
        self._events: deque[CaptureEvent] = deque()
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    # ----------------------------------------------------------------- consumer side
    def start(self) -> Capture:
        """Open the source (a file's errors are raised here, not in the thread) and start reading."""
        if self._thread is not None:
            return self
        if not self.source.live:
            self.source.open()
            self.connected = True
            self._event("opened", f"reading {self.source.name}")
        self._thread = threading.Thread(target=self._run, name=f"capture {self.source.name}", daemon=True)
        self._thread.start()
        return self

    def read(self, timeout: float | None = None) -> Frame | None:
        """The newest unread frame; waits up to ``timeout`` seconds (forever with None). None when the
        source ended (or on timeout)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while self._latest is None and not self._ended:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return None
                self._cond.wait(left)
            frame, self._latest = self._latest, None
            self._cond.notify_all()
        if frame is None and self._error is not None:
            raise SourceError(f"{self.source.name}: reading failed: {self._error}") from self._error
        return frame

    def __iter__(self) -> Iterator[Frame]:
        while True:
            frame = self.read()
            if frame is None:
                return
            yield frame

    def events(self) -> list[CaptureEvent]:
        """Events since the last call, oldest first."""
        out = []
        while self._events:
            out.append(self._events.popleft())
        return out

    @property
    def ended(self) -> bool:
        return self._ended and self._latest is None

    def close(self) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=10)
        self.source.close()

    def __enter__(self) -> Capture:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----------------------------------------------------------------- worker side
    def _event(self, kind: str, message: str) -> None:
        """Queue an event; repeats of the newest unread kind replace it, so a slow reader never piles them up."""
        if self._events and self._events[-1].kind == kind:
            self._events.pop()
        self._events.append(CaptureEvent(kind, message, time.time()))

    def _run(self) -> None:
        try:
            self._loop()
        except Exception as exc:  # reported to the consumer by read()
            self._error = exc
            self._event("failed", f"{self.source.name}: {exc}")
        finally:
            with self._cond:
                self._ended = True
                self._cond.notify_all()

    def _loop(self) -> None:
        if self.source.live and not self._connect_with_retry(was_connected=False):
            return
        started = time.monotonic()
        first_stamp: float | None = None
        flap_delay = 0.0  # a camera that opens but gives no frame must not be reopened in a tight loop
        while not self._stop.is_set():
            item = self.source.read()
            self._report_skipped()
            if item is None:
                if not self.source.live:
                    self._event("ended", f"{self.source.name}: end of input")
                    return
                self.connected = False
                self._event("lost", f"{self.source.name}: camera lost, retrying")
                if flap_delay and self._stop.wait(flap_delay):
                    return
                flap_delay = min(max(self.retry_s, 2 * flap_delay), self.max_retry_s)
                if not self._connect_with_retry(was_connected=True):
                    return
                continue
            flap_delay = 0.0
            image, index, stamp = item
            if self.realtime:
                first_stamp = stamp if first_stamp is None else first_stamp
                wait = (stamp - first_stamp) - (time.monotonic() - started)
                if wait > 0 and self._stop.wait(wait):
                    return
            self._deliver(Frame(image, index, stamp, self.source.name))

    def _deliver(self, frame: Frame) -> None:
        with self._cond:
            if not self.drop_stale:
                while self._latest is not None and not self._stop.is_set():
                    self._cond.wait(0.1)
            elif self._latest is not None:
                self.frames_dropped += 1
            self._latest = frame
            self.frames_read += 1
            self._cond.notify_all()

    def _connect_with_retry(self, was_connected: bool) -> bool:
        """Open a live source, retrying with a growing delay; False only when closed meanwhile."""
        delay = self.retry_s
        told = was_connected  # a drop-out was already reported as "lost"
        while not self._stop.is_set():
            try:
                self.source.open()
            except SourceError as exc:
                self.retries += 1
                if not told:
                    self._event("lost", f"{exc}; retrying")
                    told = True
                if self._stop.wait(delay):
                    return False
                delay = min(delay * 2, self.max_retry_s)
                continue
            self.connected = True
            if was_connected:
                self._event("back", f"{self.source.name}: camera back")
            else:
                self._event("opened", f"reading {self.source.name}")
            return True
        return False

    def _report_skipped(self) -> None:
        while self.source.skipped:
            self._event("skipped", f"skipped unreadable frame: {self.source.skipped.pop(0)}")
