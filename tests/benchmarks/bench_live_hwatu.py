"""Hwatu at the live table: rendered two-player hands (Matgo or two-player Hato, held-out art style) followed
end to end through the stability tracker and ``HwatuLive``, as ``bench_live`` does for Koi-Koi.

    python tests/benchmarks/bench_live_hwatu.py [--game matgo|hato] [--hands 10] [--seed0 0] [--size 640x360]
                                                [--recognizer truth|real]

Seat 0 is the greedy bot, seat 1 the random bot (``datasets.scripted.script.script_play``); the user types go,
stop and shakes when the app asks (``press_keys``). ``truth`` reads the renderer's truth with 2% per-frame
misreads; ``real`` runs the shipped ONNX finder and classifier with the script's zones. Counted as in
``bench_live``: camera-visible moves inferred right (in order), phantom moves, moves committed while a hand
was over the table, conflicts reported, hands exactly right.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.live.hwatu import HwatuLive
from companion.live.session import LiveSession
from datasets.scripted.render import FrameTruth, RenderConfig, ScriptRenderer
from datasets.scripted.script import Script, script_play
from datasets.scripted.truth import MisreadModel, TruthRecognizer
from engine.bots import RandomBot
from engine.capture import CaptureRound
from engine.hwatu.bots import GreedyBot
from engine.hwatu.gostop_round import GoStopRound
from engine.hwatu.hato_round import HatoRound
from engine.hwatu.report import load_profile
from tests.benchmarks.bench_live import real_recognizer
from tests.companion.live_helpers import follow, score_moves
from vision.stability import Recognize


def dealt(game: str, seed: int) -> CaptureRound:
    """The seeded two-player hand (the next shuffle when a deal is void)."""
    profile = load_profile(game, None)
    for tries in range(100):
        shuffle = seed * 1000 + tries if tries else seed
        state: CaptureRound = (GoStopRound.shuffled(shuffle, profile) if game == "matgo"  # type: ignore[arg-type]
                               else HatoRound.shuffled(shuffle, 2, profile))  # type: ignore[arg-type]
        if not state.is_over:
            return state
    raise RuntimeError(f"no playable {game} deal for seed {seed}")


def scripted(game: str, seed: int) -> Script:
    return script_play(dealt(game, seed), (GreedyBot(), RandomBot(seed)), seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("matgo", "hato"), default="matgo")
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--seed0", type=int, default=0)
    parser.add_argument("--size", default="640x360")
    parser.add_argument("--recognizer", choices=("truth", "real"), default="truth")
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.lower().split("x"))
    totals = {"truth": 0, "correct": 0, "phantom": 0, "during_hands": 0, "conflicts": 0, "exact": 0}
    started, frames = time.perf_counter(), 0
    for seed in range(args.seed0, args.seed0 + args.hands):
        script = scripted(args.game, seed)
        renderer = ScriptRenderer(script, RenderConfig(size=size, fps=30.0))  # type: ignore[arg-type]
        truths: list[FrameTruth] = []

        def rendered(truths: list[FrameTruth] = truths, renderer: ScriptRenderer = renderer
                     ) -> Iterator[tuple[np.ndarray, FrameTruth]]:
            for image, truth in renderer.frames():
                truths.append(truth)  # the stand-in recogniser looks its frame up here
                yield image, truth

        recognize: Recognize = (real_recognizer(renderer) if args.recognizer == "real" else
                                TruthRecognizer(truths, MisreadModel(per_frame=0.02, seed=seed)))
        session = LiveSession(HwatuLive(args.game, players=2, me=0), dealer=script.dealer)
        followed = follow(script, rendered(), recognize, session=session)
        frames += followed.frames
        score = score_moves(session.actions(), [a for a, _, _ in script.actions])
        conflicts = sum(e.kind == "conflict" for e in followed.events)
        exact = score.correct == score.truth and score.phantom == 0
        for key, value in (("truth", score.truth), ("correct", score.correct), ("phantom", score.phantom),
                           ("during_hands", followed.hand_frames_with_moves), ("conflicts", conflicts),
                           ("exact", exact)):
            totals[key] += int(value)
        print(f"  seed {seed}: moves {score.correct}/{score.truth}, phantom {score.phantom}, "
              f"conflicts {conflicts}, result {script.result}", flush=True)
    t = totals
    print(f"{args.game}, {args.hands} hands, {frames} frames at {args.size}, {args.recognizer} recogniser, "
          f"{time.perf_counter() - started:.0f} s: moves {t['correct']}/{t['truth']} = "
          f"{t['correct'] / max(t['truth'], 1):.1%}, hands exactly right {t['exact']}/{args.hands}, "
          f"phantom {t['phantom']}, moves during hands {t['during_hands']}, conflicts {t['conflicts']}")


if __name__ == "__main__":
    main()
