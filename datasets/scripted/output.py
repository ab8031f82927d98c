"""Writing a rendered script to disk, for both games' command lines: a video (or PNG frames) and truth.jsonl."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import cv2
import numpy as np


def parse_size(text: str) -> tuple[int, int]:
    """``WxH`` -> (width, height), for argparse."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"size must look like 1280x720, not {text!r}") from exc
    if w < 64 or h < 64:
        raise argparse.ArgumentTypeError(f"size {text} is too small")
    return w, h


def write_frames(frames: Iterable[tuple[np.ndarray, Any]], out: Path, video_name: str, images: bool, fps: float,
                 size: tuple[int, int]) -> int:
    """Write every (frame, truth) as ``out/video_name`` (MJPG) or ``out/frames/NNNNNN.png``, the truths as
    ``out/truth.jsonl``; the number of frames written. ``OSError`` when OpenCV cannot write a video here."""
    out.mkdir(parents=True, exist_ok=True)
    writer = None
    if images:
        (out / "frames").mkdir(exist_ok=True)
    else:
        writer = cv2.VideoWriter(str(out / video_name), cv2.VideoWriter_fourcc(*"MJPG"), fps, size)
        if not writer.isOpened():
            raise OSError("OpenCV cannot write an MJPG video here; use --images")
    count = 0
    try:
        with (out / "truth.jsonl").open("w", encoding="utf-8") as truth_file:
            for frame, truth in frames:
                if writer is not None:
                    writer.write(frame)
                else:
                    cv2.imwrite(str(out / "frames" / f"{truth.index:06d}.png"), frame)
                truth_file.write(json.dumps(truth.to_json()) + "\n")
                count += 1
    finally:
        if writer is not None:
            writer.release()
    return count
