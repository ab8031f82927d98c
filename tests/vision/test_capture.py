"""Frame sources read by the capture thread: real video files, image folders and an MJPEG stream over HTTP
(a phone camera app) that drops out and comes back."""

from __future__ import annotations

import http.server
import itertools
import socketserver
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.capture import (
    CameraSource,
    Capture,
    Frame,
    FrameSource,
    ImageFolderSource,
    SourceError,
    StreamSource,
    VideoFileSource,
    open_source,
)


def numbered(i: int, size: tuple[int, int] = (160, 120)) -> np.ndarray:
    """A frame whose brightness says its number modulo 30 (survives video compression)."""
    return np.full((size[1], size[0], 3), 10 + 8 * (i % 30), np.uint8)


def number_of(image: np.ndarray) -> int:
    return round((float(image.mean()) - 10) / 8)


def write_video(path: Path, count: int, fps: float = 30.0) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (160, 120))
    assert writer.isOpened()
    for i in range(count):
        writer.write(numbered(i))
    writer.release()
    return path


def test_video_file_delivers_every_frame_in_order_with_its_time(tmp_path: Path) -> None:
    video = write_video(tmp_path / "clip.avi", 25, fps=25.0)
    with Capture(VideoFileSource(video)) as capture:
        frames = list(capture)
        events = capture.events()
    assert [f.index for f in frames] == list(range(25))
    assert [number_of(f.image) for f in frames] == list(range(25))
    assert frames[10].timestamp == pytest.approx(0.4)
    assert frames[0].image.shape == (120, 160, 3)
    assert [e.kind for e in events] == ["opened", "ended"]
    assert capture.frames_dropped == 0


def test_a_slow_consumer_gets_the_newest_frame_and_the_rest_are_dropped(tmp_path: Path) -> None:
    video = write_video(tmp_path / "clip.avi", 60, fps=60.0)
    with Capture(VideoFileSource(video), realtime=True) as capture:
        seen = []
        for frame in capture:
            seen.append(frame.index)
            time.sleep(0.05)  # a consumer three times slower than the camera
    assert seen == sorted(seen) and len(set(seen)) == len(seen)
    assert capture.frames_dropped > 20
    assert len(seen) + capture.frames_dropped == 60
    assert seen[-1] >= 55  # it kept up with the newest frames instead of falling behind


def test_image_folder_in_natural_order_skipping_a_corrupt_file(tmp_path: Path) -> None:
    for i in (1, 2, 10):
        cv2.imwrite(str(tmp_path / f"frame{i}.png"), numbered(i))
    (tmp_path / "frame3.png").write_bytes(b"\x89PNG\r\n\x1a\n broken")
    (tmp_path / "notes.txt").write_text("not an image")
    with Capture(ImageFolderSource(tmp_path, fps=10.0)) as capture:
        frames = list(capture)
        events = capture.events()
    assert [number_of(f.image) for f in frames] == [1, 2, 10]
    assert [f.timestamp for f in frames] == pytest.approx([0.0, 0.1, 0.3])
    skipped = [e for e in events if e.kind == "skipped"]
    assert len(skipped) == 1 and "frame3.png" in skipped[0].message


def test_missing_sources_give_errors_naming_them(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="nope.mp4"):
        open_source(tmp_path / "nope.mp4")
    with pytest.raises(SourceError, match="no such video file"):
        VideoFileSource(tmp_path / "gone.avi")
    with pytest.raises(SourceError, match="no such folder"):
        ImageFolderSource(tmp_path / "gone")
    with pytest.raises(SourceError, match="no images"):
        Capture(ImageFolderSource(tmp_path)).start()
    junk = tmp_path / "junk.avi"
    junk.write_bytes(b"this is not a video")
    with pytest.raises(SourceError, match="not a video"):
        Capture(VideoFileSource(junk)).start()


def test_open_source_tells_cameras_streams_folders_and_files_apart(tmp_path: Path) -> None:
    assert isinstance(open_source(0), CameraSource)
    assert isinstance(open_source("1"), CameraSource)
    assert isinstance(open_source("http://192.168.1.5:8080/video"), StreamSource)
    assert isinstance(open_source("rtsp://camera/stream"), StreamSource)
    assert isinstance(open_source(tmp_path), ImageFolderSource)
    assert isinstance(open_source(write_video(tmp_path / "v.avi", 2)), VideoFileSource)


def test_frame_validation() -> None:
    with pytest.raises(ValueError, match="H x W x 3"):
        Frame(np.zeros((4, 4), np.uint8), 0, 0.0, "x")
    with pytest.raises(ValueError, match="non-negative"):
        Frame(np.zeros((4, 4, 3), np.uint8), -1, 0.0, "x")


class _Mjpeg(http.server.BaseHTTPRequestHandler):
    """Serves an endless multipart JPEG stream, as phone camera apps do."""

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
        self.end_headers()
        server: _Server = self.server  # type: ignore[assignment]
        try:
            while not server.stopping.is_set():
                _, data = cv2.imencode(".jpg", numbered(server.counter % 20))
                server.counter += 1
                self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n" % len(data))
                self.wfile.write(data.tobytes() + b"\r\n")
                time.sleep(1 / 60)
        except (BrokenPipeError, ConnectionResetError):
            pass


class _Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, port: int) -> None:
        super().__init__(("127.0.0.1", port), _Mjpeg)
        self.stopping = threading.Event()
        self.counter = 0
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self.shutdown()
        self.server_close()


def _wait_for(capture: Capture, kinds: set[str], timeout: float = 10.0) -> list[str]:
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not kinds <= set(seen):
        capture.read(timeout=0.1)
        seen += [e.kind for e in capture.events()]
    return seen


def test_stream_drop_out_is_reported_and_reading_resumes() -> None:
    server = _Server(0)
    port = server.server_address[1]
    capture = Capture(StreamSource(f"http://127.0.0.1:{port}/video", timeout_ms=2000), retry_s=0.05,
                      max_retry_s=0.2).start()
    try:
        first = capture.read(timeout=10)
        assert first is not None and first.image.shape == (120, 160, 3)
        assert "opened" in _wait_for(capture, {"opened"})
        server.stop()  # the phone app is paused
        assert "lost" in _wait_for(capture, {"lost"})
        server = _Server(port)  # and comes back on the same address
        assert "back" in _wait_for(capture, {"back"})
        later = capture.read(timeout=10)
        assert later is not None and later.index > first.index
    finally:
        capture.close()
        server.stop()


class _OpensButShowsNothing(FrameSource):
    """A live camera whose device opens but never gives a frame (a loose cable, a camera in use elsewhere)."""

    live = True

    def __init__(self) -> None:
        super().__init__("camera 9")
        self.opens = 0

    def open(self) -> None:
        self.opens += 1

    def read(self) -> tuple[np.ndarray, int, float] | None:
        return None


def test_a_camera_that_opens_but_shows_nothing_is_retried_with_growing_delays_and_few_events() -> None:
    source = _OpensButShowsNothing()
    capture = Capture(source, retry_s=0.02, max_retry_s=0.2)
    with capture:
        time.sleep(1.0)
        events = capture.events()
    assert 3 <= source.opens <= 15  # retried, but not in a tight loop (that spun thousands of times a second)
    kinds = [e.kind for e in events]
    assert kinds.count("lost") <= len(kinds) // 2 + 1 and len(kinds) <= 2 * source.opens + 2
    assert all(a != b for a, b in itertools.pairwise(kinds))  # repeats of the newest kind coalesce
