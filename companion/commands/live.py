"""``kibitz live SOURCE --record FILE``: follow a Koi-Koi game from a camera, a video, an image folder or a
stream, print what happens, and keep the game record. Type ``k``/``s`` (koi-koi/stop), a move, ``fix MOVE`` to
correct the last move, or ``look`` to make the camera look again; Ctrl-C stops (resume later with --resume)."""

from __future__ import annotations

import argparse
import queue
import sys
import threading
from pathlib import Path
from typing import Any

from companion.live.koikoi import KoiKoiLive
from companion.live.runner import run as follow
from companion.live.session import LiveEvent, LiveSession
from companion.record import RecordError
from engine.errors import KibitzError
from engine.koikoi.profile import KoiKoiProfile
from vision.capture import Capture, SourceError, open_source
from vision.stability import StabilityConfig, StableTracker


def register(sub: Any) -> None:
    parser = sub.add_parser("live", help="follow a Koi-Koi game from a camera, a video or a folder of images")
    parser.add_argument("source", help="camera number (0), video file, image folder or stream URL")
    parser.add_argument("--record", type=Path, required=True, help="the game record (JSON lines)")
    parser.add_argument("--resume", action="store_true", help="continue the record after a crash")
    parser.add_argument("--repair", action="store_true", help="with --resume: move a damaged last line aside")
    parser.add_argument("--hand", help="your hand, when it is not shown to the camera (card codes)")
    parser.add_argument("--dealer", type=int, choices=(1, 2), help="who deals the first round (1 is you)")
    parser.add_argument("--names", default="you,opponent", help="the players' names (default: %(default)s)")
    parser.add_argument("--profile", default="default")
    parser.add_argument("--realtime", action="store_true",
                        help="play a video file at its own speed, keeping only the newest frame as a camera would")
    parser.add_argument("--settle", type=float, default=0.5, help="seconds the table must be still (default 0.5)")
    parser.add_argument("--mat", choices=("a3", "a4", "none"), default="a3",
                        help="the printed mat in use (zones from its markers); without it, bands of the image")
    parser.set_defaults(run=run)


def _print(events: list[LiveEvent]) -> None:
    for event in events:
        print(f"[{event.kind}] {event.message}", flush=True)


def _typed_lines(lines: queue.Queue[str]) -> None:
    for line in sys.stdin:
        lines.put(line.strip())


def run(args: argparse.Namespace) -> int:
    from vision.mat import mat_layout
    from vision.recognizer import Recognizer  # loads the model: only when a game is followed

    try:
        source = open_source(args.source)
        game = KoiKoiLive(KoiKoiProfile.load(args.profile), me=0)
        if args.resume:
            session = LiveSession.resume(args.record, game, repair=args.repair)
        else:
            names = [n.strip() for n in args.names.split(",")]
            dealer = None if args.dealer is None else args.dealer - 1
            session = LiveSession.create(args.record, game, players=names, dealer=dealer)
        if args.hand:
            session.set_hand(args.hand.replace(",", " ").split())
    except (SourceError, RecordError, KibitzError, FileExistsError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    mat = None if args.mat == "none" else mat_layout("koikoi", args.mat)
    tracker = StableTracker(Recognizer(mat=mat), StabilityConfig(settle_s=args.settle))
    typed: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_typed_lines, args=(typed,), daemon=True).start()

    def poll() -> list[LiveEvent]:
        events: list[LiveEvent] = []
        while not typed.empty():
            line = typed.get()
            if line == "look":
                tracker.forget()
            elif line.startswith("fix "):
                events += session.correct(line[4:])
            elif line:
                events += session.type_action(line)
        return events

    _print(session.log)
    try:
        stats = follow(Capture(source, realtime=args.realtime), tracker, session, on_events=_print, poll=poll)
    except KeyboardInterrupt:
        print("stopped; resume with --resume", file=sys.stderr)
        return 130
    finally:
        session.close()
    print(f"{stats.frames} frames, {stats.recognised} recognised, {stats.fps:.0f} fps; "
          f"record: {args.record}", file=sys.stderr)
    return 0
