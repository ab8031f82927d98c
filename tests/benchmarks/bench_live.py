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
rules corrected, moves assumed when the camera could not tell explanations apart for too long (said, so
the user can correct them). ``--recognizer real`` follows each round once through the shipped ONNX recogniser (finder and
classifier) instead of the stand-in, and counts the misreads it really made: every voted card of a stable view
whose class is not the true card's at that place, and what the live layer made of that view (corrected by the
rules, reported as a conflict, held while cards were hidden, ...).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.live.koikoi import KoiKoiLive, visual_class
from companion.live.runner import run
from companion.live.session import LiveEvent, LiveSession
from datasets.scripted.render import FrameTruth, RenderConfig, ScriptRenderer
from datasets.scripted.script import TABLE_MM, ZONES, script_round
from datasets.scripted.truth import MisreadModel, TruthRecognizer
from tests.companion.live_helpers import press_keys, score_moves
from vision.capture import Capture, Frame, VideoFileSource
from vision.observation import BACK, UNKNOWN, TableObservation
from vision.stability import Recognize, StableTracker, StableView

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

    return Recognizer(zone_of=scripted_zone_of(renderer))


def scripted_zone_of(renderer: ScriptRenderer) -> Callable[[np.ndarray, tuple[int, int]], list[str | None]]:
    """The script's table zones as this camera sees them (projected quadrilaterals, which do not overlap as
    their bounding boxes would under the camera's tilt): the zone of each card is the one its centre lies in,
    else the nearest."""
    polygons = []
    for role, (x0, y0, x1, y1) in ZONES.items():
        corners = [[x - TABLE_MM[0] / 2, y - TABLE_MM[1] / 2] for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
        polygons.append((role, renderer.camera.project(np.array(corners)).astype(np.float32)))

    def zone_of(quads: np.ndarray, size: tuple[int, int]) -> list[str | None]:
        out: list[str | None] = []
        for quad in quads:
            x, y = (float(v) for v in np.asarray(quad).mean(axis=0))
            inside = [(cv2.pointPolygonTest(poly, (x, y), True), role) for role, poly in polygons]
            out.append(max(inside)[1])
        return out

    return zone_of


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
    assumed: int = 0  # explanations left open too long: the best one's next action taken, and said
    stuck: int = 0
    rounds_right: int = 0
    rounds: int = 0
    misread_cards: int = 0  # cards the recogniser's vote named wrongly (or saw where no card lies), in stable views
    misread_views: dict[str, int] = field(default_factory=dict)  # what became of each view with a misread
    wrong: list[str] = field(default_factory=list)


def view_misreads(view: StableView, truth: FrameTruth) -> list[str]:
    """The voted face cards of a stable view whose visual class is not the true card's lying there (matched by
    position), or that lie where there is no card at all."""
    return [text for text, _ in misread_cards(view, truth)]


def misread_cards(view: StableView, truth: FrameTruth) -> list[tuple[str, tuple[float, float]]]:
    """``view_misreads`` with where each misread card lies."""
    out = []
    for card in view.cards:
        if card.label in (BACK, UNKNOWN):
            continue
        centre = np.asarray(card.center)
        near = min(truth.cards, key=lambda t: float(np.linalg.norm(np.mean(t.quad, axis=0) - centre)), default=None)
        if near is None or np.linalg.norm(np.mean(near.quad, axis=0) - centre) > 0.5 * card.size:
            out.append((f"{card.label} (nothing there)", card.center))
        elif visual_class(card.label) != visual_class(near.label):
            out.append((f"{card.label} (was {near.label})", card.center))
    return out


def harmless(session: LiveSession, view: StableView, misread: list[tuple[str, tuple[float, float]]]) -> bool:
    """Every misread card names a card that the state (after this view) has in that very zone (or where it may
    still lie, a capture not gathered yet): a pile card read as another card of the same pile, which no
    explanation can tell and which changes nothing."""
    if session.phase == "setup":
        return False
    cards = session.game.prediction().cards  # the round's last state once it is over
    expected = {(e.cls, e.role) for e in cards} | {(e.cls, e.alt_role) for e in cards if e.alt_role}
    table = session.zones.table(view)
    for text, centre in misread:
        seen = next((c for c in table.cards if c.center == centre), None)
        if seen is None or (visual_class(text.split()[0]), seen.role) not in expected:
            return False
    return True


def outcome(was_playing: bool, events: list[LiveEvent]) -> str:
    """What the live layer made of a view with a misread card."""
    kinds = {e.kind for e in events}
    for kind, name in (("conflict", "conflict reported"), ("revised", "earlier move revised"), ("assumed", "assumed (said)"),
                       ("corrected", "corrected by the rules"), ("hidden", "held: cards out of sight"),
                       ("ambiguous", "held: ambiguous")):
        if kind in kinds:
            return name
    if not was_playing:
        return "while reading the deal"
    return "absorbed (no move changed)" if "move" not in kinds else "moves committed beside it"


def accuracy(args: argparse.Namespace) -> None:
    w, h = args.size
    settings = {"real recogniser": (0.0, 0.0)} if args.recognizer == "real" else SETTINGS
    tallies = {name: Tally() for name in settings}
    started = time.perf_counter()
    frames_total = 0
    for seed in range(args.seed0, args.seed0 + args.rounds):
        script = script_round(seed)
        renderer = ScriptRenderer(script, RenderConfig(size=(w, h), fps=30.0))
        truths: list[FrameTruth] = []
        followers = []
        for name, (per_frame, per_period) in settings.items():
            recognizer = TruthRecognizer(truths, MisreadModel(per_frame, per_period, seed=seed))
            recognize: Recognize = real_recognizer(renderer) if args.recognizer == "real" else recognizer
            session = LiveSession(KoiKoiLive(me=0), dealer=script.dealer)
            followers.append((name, recognizer, StableTracker(recognize), session, []))
        for image, truth in renderer.frames():
            truths.append(truth)
            frames_total += 1
            frame = Frame(image, truth.index, truth.time, "bench")
            for name, _, tracker, session, log in followers:
                update = tracker.feed(frame)
                if update.view is None:
                    continue
                was_playing = session.phase == "playing"
                events = session.observe(update.view)
                if session.wants_fresh_look:
                    tracker.forget()
                log += events
                found = misread_cards(update.view, truths[update.view.frame_index])
                misread = [text for text, _ in found]
                if misread:
                    t = tallies[name]
                    t.misread_cards += len(misread)
                    what = outcome(was_playing, events)
                    if what == "moves committed beside it" and harmless(session, update.view, found):
                        what = "beside committed moves, naming a card the state has in that zone"
                    t.misread_views[what] = t.misread_views.get(what, 0) + 1
                    if args.verbose:
                        print(f"    seed {seed} frame {update.view.frame_index}: {', '.join(misread)} -> {what}")
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
            t.assumed += sum(e.kind == "assumed" for e in log)
            t.stuck += sum(visual_class(m.truth) != visual_class(m.read) for m in recognizer.sticky_misreads())
            if score.correct != score.truth or score.phantom:
                t.wrong.append(f"seed {seed}: {score.correct}/{score.truth}, phantom {score.phantom}")
        print(f"  seed {seed}: " + "; ".join(f"{n} {tallies[n].correct}/{tallies[n].truth}" for n in settings),
              flush=True)
    elapsed = time.perf_counter() - started
    print(f"{args.rounds} rounds, {frames_total} frames at {w}x{h}, {elapsed:.0f} s (rendering included)")
    for name, t in tallies.items():
        print(f"{name}: moves {t.correct}/{t.truth} = {t.correct / max(t.truth, 1):.2%}, rounds exactly right "
              f"{t.rounds_right}/{t.rounds}, phantom {t.phantom}, moves during hands {t.during_hands}, "
              + (f"stuck misreads injected {t.stuck}, " if args.recognizer != "real" else "")
              + f"corrected by the rules {t.corrected}, revised {t.revised}, assumed {t.assumed}, "
              f"conflicts reported {t.conflicts}"
              + (f"; wrong: {', '.join(t.wrong)}" if t.wrong else ""))
        views = ", ".join(f"{k} {v}" for k, v in sorted(t.misread_views.items(), key=lambda kv: -kv[1]))
        print(f"  misread cards in stable views {t.misread_cards}, in {sum(t.misread_views.values())} views: "
              f"{views or 'none'}")


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
    parser.add_argument("--verbose", action="store_true", help="print every stable view with a misread card")
    args = parser.parse_args()
    if not args.skip_throughput:
        throughput(args)
    if not args.skip_accuracy:
        accuracy(args)


if __name__ == "__main__":
    main()
