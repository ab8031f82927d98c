"""The live table on rendered Koi-Koi rounds (held-out art style mantia-modern): throughput and move accuracy.

    python tests/benchmarks/bench_live.py [--rounds 20] [--size 640x360] [--recognizer truth|real]
                                          [--recognize-ms 60] [--skip-throughput] [--skip-accuracy]

Throughput: one round rendered at 1280x720, 30 fps, written as an MPEG-4 file, then read back by the capture
thread and followed (decode, motion, stable periods, recognition of the frames a period needs, inference).
Reported as frames per second with every frame delivered, and as frames dropped when the file is played at
camera speed. ``--recognize-ms`` adds that much time to each recognition when the stand-in recogniser is
used, so the figure holds for a recogniser of that latency (60 ms is the 1080p target of the card recogniser).

Accuracy: ``--rounds`` seeded rounds followed end to end through the same tracker, once per misread setting:
per-frame misreads (2% of cards in a frame, what voting fixes) plus misreads that stick to a card for a whole
still period (0.5% and 1% per card and period: only the rules can fix those). Counted: camera-visible moves
inferred correctly (in order; interchangeable plains and the order of an untouched play and flip are not told
apart), phantom moves, moves committed while a hand was over the table, conflicts reported and misreads the
rules corrected. ``--recognizer real`` uses the shipped ONNX recogniser instead of the stand-in.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.live.koikoi import KoiKoiLive, visual_class
from companion.live.runner import run
from companion.live.session import LiveEvent, LiveSession
from companion.live.table import ZoneMap
from datasets.scripted.render import FrameTruth, RenderConfig, ScriptRenderer
from datasets.scripted.script import TABLE_MM, ZONES, script_round
from datasets.scripted.truth import MisreadModel, TruthRecognizer
from tests.companion.live_helpers import press_keys, score_moves
from vision.capture import Capture, Frame, VideoFileSource
from vision.observation import TableObservation
from vision.stability import Recognize, StableTracker

SETTINGS = {"per-frame 2%": (0.02, 0.0), "+ stuck 0.5%": (0.02, 0.005), "+ stuck 1%": (0.02, 0.01)}


def slowed(recognize: Recognize, ms: float) -> Recognize:
    """The stand-in recogniser taking as long as a real one would."""
    def call(frame: Frame) -> TableObservation:
        if ms > 0:
            time.sleep(ms / 1000)
        return recognize(frame)
    return call


def real_recognizer(renderer: ScriptRenderer) -> Recognize:
    from vision.recognizer import Recognizer

    zones = scripted_zones(renderer)
    return Recognizer(zone_of=lambda quads, size: [zones.role_of(None, tuple(q.mean(axis=0)), size) for q in quads])


def scripted_zones(renderer: ScriptRenderer) -> ZoneMap:
    """The script's table zones as regions of this camera's image (bounding boxes of the projected zones)."""
    w, h = renderer.config.size
    regions = []
    for role, (x0, y0, x1, y1) in ZONES.items():
        corners = [[x - TABLE_MM[0] / 2, y - TABLE_MM[1] / 2] for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
        px = renderer.camera.project(np.array(corners))
        lo, hi = px.min(axis=0), px.max(axis=0)
        regions.append((role, (lo[0] / w, lo[1] / h, hi[0] / w, hi[1] / h)))
    return ZoneMap(regions=tuple(regions))


def throughput(args: argparse.Namespace) -> None:
    script = script_round(args.throughput_seed)
    renderer = ScriptRenderer(script, RenderConfig(size=(1280, 720), fps=30.0))
    with tempfile.TemporaryDirectory() as tmp:
        video = Path(tmp) / "round.mp4"
        writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"mp4v"), 30.0, (1280, 720))
        truths: list[FrameTruth] = []
        started = time.perf_counter()
        for image, truth in renderer.frames():
            writer.write(image)
            truths.append(truth)
        writer.release()
        print(f"rendered {len(truths)} frames at 1280x720 in {time.perf_counter() - started:.0f} s "
              f"({video.stat().st_size / 1e6:.1f} MB)")
        for realtime in (False, True):
            recognize = (real_recognizer(renderer) if args.recognizer == "real" else
                         slowed(TruthRecognizer(truths, MisreadModel(per_frame=0.02, seed=1)), args.recognize_ms))
            session = LiveSession(KoiKoiLive(me=0), dealer=script.dealer)
            tracker = StableTracker(recognize)
            log: list[LiveEvent] = []

            def keys(events: list[LiveEvent], session: LiveSession = session, log: list[LiveEvent] = log) -> None:
                log.extend(events)
                press_keys(script, session, log)

            stats = run(Capture(VideoFileSource(video), realtime=realtime), tracker, session, on_events=keys)
            score = score_moves(session.actions(), [a for a, _, _ in script.actions])
            mode = "played at 30 fps, newest frame kept" if realtime else "every frame, as fast as possible"
            print(f"  {mode}: {stats.frames} frames in {stats.seconds:.1f} s = {stats.fps:.0f} fps; "
                  f"recognised {stats.recognised} frames ({stats.recognised / max(stats.frames, 1):.1%}); "
                  f"dropped {stats.dropped}; moves {score.correct}/{score.truth}, phantom {score.phantom}")


@dataclass
class Tally:
    truth: int = 0
    correct: int = 0
    phantom: int = 0
    during_hands: int = 0
    conflicts: int = 0
    corrected: int = 0
    revised: int = 0
    stuck: int = 0
    rounds_right: int = 0
    rounds: int = 0
    wrong: list[str] = field(default_factory=list)


def accuracy(args: argparse.Namespace) -> None:
    w, h = args.size
    tallies = {name: Tally() for name in SETTINGS}
    started = time.perf_counter()
    frames_total = 0
    for seed in range(args.seed0, args.seed0 + args.rounds):
        script = script_round(seed)
        renderer = ScriptRenderer(script, RenderConfig(size=(w, h), fps=30.0))
        truths: list[FrameTruth] = []
        followers = []
        for name, (per_frame, per_period) in SETTINGS.items():
            recognizer = TruthRecognizer(truths, MisreadModel(per_frame, per_period, seed=seed))
            if args.recognizer == "real":
                recognize: Recognize = real_recognizer(renderer)
            else:
                recognize = recognizer
            session = LiveSession(KoiKoiLive(me=0), dealer=script.dealer)
            followers.append((name, recognizer, StableTracker(recognize), session, []))
        for image, truth in renderer.frames():
            truths.append(truth)
            frames_total += 1
            frame = Frame(image, truth.index, truth.time, "bench")
            for _, _, tracker, session, log in followers:
                update = tracker.feed(frame)
                if update.view is None:
                    continue
                events = session.observe(update.view)
                if session.wants_fresh_look:
                    tracker.forget()
                log += events
                if truths[update.view.frame_index].hand and any(e.kind == "move" for e in events):
                    log.append(LiveEvent("move-during-hand", str(update.view.frame_index)))
                press_keys(script, session, log)
        for name, recognizer, _, session, log in followers:
            t = tallies[name]
            score = score_moves(session.actions(), [a for a, _, _ in script.actions])
            t.rounds += 1
            t.truth += score.truth
            t.correct += score.correct
            t.phantom += score.phantom
            t.rounds_right += score.correct == score.truth and score.phantom == 0
            t.during_hands += sum(e.kind == "move-during-hand" for e in log)
            t.conflicts += sum(e.kind == "conflict" for e in log)
            t.corrected += sum(e.message.count("misread") for e in log if e.kind == "corrected")
            t.revised += sum(e.kind == "revised" for e in log)
            t.stuck += sum(visual_class(m.truth) != visual_class(m.read) for m in recognizer.sticky_misreads())
            if score.correct != score.truth or score.phantom:
                t.wrong.append(f"seed {seed}: {score.correct}/{score.truth}, phantom {score.phantom}")
        print(f"  seed {seed}: " + "; ".join(f"{n} {tallies[n].correct}/{tallies[n].truth}" for n in SETTINGS),
              flush=True)
    elapsed = time.perf_counter() - started
    print(f"{args.rounds} rounds, {frames_total} frames at {w}x{h}, {elapsed:.0f} s (rendering included)")
    for name, t in tallies.items():
        print(f"{name}: moves {t.correct}/{t.truth} = {t.correct / max(t.truth, 1):.2%}, rounds exactly right "
              f"{t.rounds_right}/{t.rounds}, phantom {t.phantom}, moves during hands {t.during_hands}, "
              f"stuck misreads injected {t.stuck}, corrected by the rules {t.corrected}, revised {t.revised}, "
              f"conflicts reported {t.conflicts}" + (f"; wrong: {', '.join(t.wrong)}" if t.wrong else ""))


def _size(text: str) -> tuple[int, int]:
    w, h = (int(v) for v in text.lower().split("x"))
    return w, h


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed0", type=int, default=0)
    parser.add_argument("--size", type=_size, default=(640, 360), help="frame size for the accuracy rounds")
    parser.add_argument("--throughput-seed", type=int, default=3, help="the round of the throughput run (26 moves)")
    parser.add_argument("--recognizer", choices=("truth", "real"), default="truth")
    parser.add_argument("--recognize-ms", type=float, default=60.0)
    parser.add_argument("--skip-throughput", action="store_true")
    parser.add_argument("--skip-accuracy", action="store_true")
    args = parser.parse_args()
    if not args.skip_throughput:
        throughput(args)
    if not args.skip_accuracy:
        accuracy(args)


if __name__ == "__main__":
    main()
