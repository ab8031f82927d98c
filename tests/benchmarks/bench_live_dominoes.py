"""The live table on rendered domino deals (held-out tile style paigow-art): move inference end to end.

    python tests/benchmarks/bench_live_dominoes.py [--deals 10] [--seed0 0] [--game jielong] [--size 1280x720]
                                                   [--fps 15] [--recognizer real|truth] [--no-refiner] [--verbose]

Each seeded deal (greedy bots in all four seats, ``datasets.scripted.dominoes``) is rendered frame by frame
(hands reaching in, passing over and resting on the table, jitter, lighting drift) and followed: frames ->
``DominoRecognizer`` (learned finder, pip reader, set-wide naming) -> zones (``DominoZones``) -> the stability
tracker -> ``LiveSession(DominoLive)``. Counted against the script: camera moves inferred correctly, in order
(the count's ``show`` actions included; the user's own face-down tiles, typed when their hand is not laid out,
are not counted), phantom moves, moves committed while a hand was over the table, conflicts reported, misreads
the rules corrected, earlier moves revised, and whether the deal was settled exactly as the engine settled it.
The recogniser is scored on every frame it was asked to read, per zone, against the tiles wholly in view: found,
read exactly, false tiles, and the commonest misreads. ``--recognizer truth`` reads the renderer's truth
instead (the live layer alone). Throughput: frames per second of the whole chain with rendering taken out.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.live.domino_camera import DominoReader
from companion.live.dominoes import DominoZones
from datasets.dominoes.styles import TEST_STYLE
from datasets.scripted.domino_render import DominoRenderer
from datasets.scripted.dominoes import DominoScriptConfig, script_deal
from datasets.scripted.render import FrameTruth, RenderConfig
from tests.companion.domino_live_helpers import follow_deal, score_deal
from vision.capture import Frame
from vision.dominoes.recognizer import DominoRecognizer
from vision.observation import CardObservation, TableObservation
from vision.stability import Recognize

WHOLE = 0.98  # a tile counts for the recogniser when this much of it shows


@dataclass
class VisionTally:
    """The recogniser on the frames it read: per zone kind (line, piles, hand) tiles in view, found, read right."""

    frames: int = 0
    ms: float = 0.0
    tiles: Counter[str] = field(default_factory=Counter)
    found: Counter[str] = field(default_factory=Counter)
    right: Counter[str] = field(default_factory=Counter)
    false: int = 0
    misreads: Counter[str] = field(default_factory=Counter)


def zone_kind(role: str) -> str:
    return {"field": "line", "captures": "piles", "hand": "hand"}[role.split("-")[0]]


class Scored:
    """A ``Recognize`` that scores each reading against the frame's truth before passing it on."""

    def __init__(self, recognize: Recognize, truths: list[FrameTruth], tally: VisionTally) -> None:
        self.recognize, self.truths, self.tally = recognize, truths, tally

    def __call__(self, frame: Frame) -> TableObservation:
        start = time.perf_counter()
        seen = self.recognize(frame)
        tally = self.tally
        tally.ms += (time.perf_counter() - start) * 1e3
        tally.frames += 1
        truth = self.truths[frame.index].cards
        centres = np.array([np.mean(c.quad, axis=0) for c in truth]).reshape(-1, 2)
        used: set[int] = set()
        for card in seen.cards:
            d = np.linalg.norm(centres - np.asarray(card.center), axis=1) if len(truth) else np.array([])
            i = int(np.argmin(d)) if len(d) else -1
            if i < 0 or d[i] > 25.0 or i in used:
                tally.false += 1  # nothing lies there (or a tile was found twice)
                continue
            used.add(i)
            if truth[i].visible < WHOLE:
                continue  # partly covered: neither counted nor held against it
            kind = zone_kind(truth[i].role)
            tally.found[kind] += 1
            if card.label == truth[i].label:
                tally.right[kind] += 1
            else:
                tally.misreads[f"{truth[i].label} as {card.label} ({kind})"] += 1
        for c in truth:
            if c.visible >= WHOLE:
                tally.tiles[zone_kind(c.role)] += 1
        return seen


def truth_reader(truths: list[FrameTruth], zones: DominoZones) -> Recognize:
    """The stand-in recogniser: the tiles of the frame's truth that show for the most part, read right."""
    def read(frame: Frame) -> TableObservation:
        size = (frame.image.shape[1], frame.image.shape[0])
        cards = []
        for c in truths[frame.index].cards:
            if c.visible >= 0.5:
                x, y = (float(v) for v in np.mean(c.quad, axis=0))
                cards.append(CardObservation(c.label, 0.95, c.quad, zone=zones.role_of((x, y), size),
                                             partial=c.visible < 0.9))
        return TableObservation(size, tuple(cards))
    return read


@dataclass
class Tally:
    truth: int = 0
    correct: int = 0
    phantom: int = 0
    implied: int = 0
    during_hands: int = 0
    conflicts: int = 0
    corrected: int = 0
    revised: int = 0
    settled: int = 0
    exact: int = 0
    deals: int = 0
    frames: int = 0
    seconds: float = 0.0
    render_s: float = 0.0
    wrong: list[str] = field(default_factory=list)


def run_deal(seed: int, args: argparse.Namespace, tally: Tally, vision: VisionTally,
             recognizer: DominoRecognizer | None) -> None:
    script = script_deal(seed, args.game, config=DominoScriptConfig(hand_on_table=args.hand_on_table))
    renderer = DominoRenderer(script, RenderConfig(size=args.size, fps=args.fps), tile_style=args.style)
    truths: list[FrameTruth] = []
    zones = DominoZones(players=script.players, me=script.me)
    reader: Recognize = DominoReader(recognizer, zones) if recognizer is not None else truth_reader(truths, zones)

    def frames() -> Iterator[tuple[np.ndarray, FrameTruth]]:
        while True:
            start = time.perf_counter()
            item = next(stream, None)
            tally.render_s += time.perf_counter() - start
            if item is None:
                return
            truths.append(item[1])
            yield item

    stream = renderer.frames()
    start = time.perf_counter()
    followed = follow_deal(script, frames(), Scored(reader, truths, vision))
    tally.seconds += time.perf_counter() - start
    session, events = followed.session, followed.events
    score = score_deal(session.actions(), script)
    result = session.game.result()
    settled = result is not None and result["net"] == script.result["net"]
    tally.deals += 1
    tally.frames += followed.frames
    tally.truth += score.truth
    tally.correct += score.correct
    tally.phantom += score.phantom
    tally.implied += score.implied
    tally.exact += score.exact
    tally.settled += settled
    tally.during_hands += followed.hand_frames_with_moves
    tally.conflicts += sum(e.kind == "conflict" for e in events)
    tally.corrected += sum(e.message.count("misread") for e in events if e.kind == "corrected")
    tally.revised += sum(e.kind == "revised" for e in events)
    if not score.exact or not settled:
        tally.wrong.append(f"seed {seed}: {score.correct}/{score.truth}, phantom {score.phantom}"
                           + ("" if settled else ", not settled"))
    print(f"  seed {seed}: moves {score.correct}/{score.truth}, phantom {score.phantom}, implied passes "
          f"{score.implied}, conflicts {sum(e.kind == 'conflict' for e in events)}, settled {settled}, "
          f"{followed.frames} frames", flush=True)
    if args.verbose:
        for event in events:
            if event.kind != "waiting":  # the moves too: where the camera went astray shows in order
                print(f"    {event.time:.1f} s {event.kind}: {event.message[:400]}")
        print(f"    committed: {session.actions()}")
        print(f"    script:    {[a for a, _, _ in script.actions]}")


def report(tally: Tally, vision: VisionTally, args: argparse.Namespace) -> None:
    t = tally
    busy = t.seconds - t.render_s
    print(f"{t.deals} {args.game} deals, {t.frames} frames at {args.size[0]}x{args.size[1]}, {args.fps:g} fps, "
          f"tiles {args.style}, recogniser {args.recognizer}, hand laid out in {args.hand_on_table:.0%} of deals")
    print(f"moves {t.correct}/{t.truth} = {t.correct / max(t.truth, 1):.1%}; deals exactly right {t.exact}/{t.deals}; "
          f"settled right {t.settled}/{t.deals}; phantom {t.phantom}; moves during hands {t.during_hands}; "
          f"implied passes {t.implied}; conflicts reported {t.conflicts}; corrected by the rules {t.corrected}; "
          f"revised {t.revised}" + (f"; wrong: {', '.join(t.wrong)}" if t.wrong else ""))
    print(f"throughput (rendering taken out): {t.frames / max(busy, 1e-9):.0f} fps; {vision.frames} frames "
          f"recognised ({vision.frames / max(t.frames, 1):.1%}), {vision.ms / max(vision.frames, 1):.0f} ms each")
    for kind in ("line", "piles", "hand"):
        n = vision.tiles[kind]
        if n:
            print(f"  {kind}: {n} tiles in view over the frames read, found {vision.found[kind] / n:.1%}, "
                  f"read exactly {vision.right[kind] / n:.1%}")
    print(f"  false tiles {vision.false}; commonest misreads: "
          + ", ".join(f"{k} ×{v}" for k, v in vision.misreads.most_common(8)))


def _size(text: str) -> tuple[int, int]:
    w, h = (int(v) for v in text.lower().split("x"))
    return w, h


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed0", type=int, default=0)
    parser.add_argument("--game", choices=("jielong", "cedeng", "kkori"), default="jielong")
    parser.add_argument("--size", type=_size, default=(1280, 720))
    parser.add_argument("--fps", type=float, default=15.0)
    parser.add_argument("--style", default=TEST_STYLE, help="tile style of the domino renderer (default held out)")
    parser.add_argument("--recognizer", choices=("real", "truth"), default="real")
    parser.add_argument("--no-refiner", action="store_true", help="the finder's quads as they are (no TileRefiner)")
    parser.add_argument("--hand-on-table", type=float, default=0.0,
                        help="share of deals where the user lays their tiles out face up (else they type them)")
    parser.add_argument("--verbose", action="store_true", help="print every event (time in the deal), and the actions")
    args = parser.parse_args()
    recognizer = DominoRecognizer("chinese", refiner=not args.no_refiner) if args.recognizer == "real" else None
    tally, vision = Tally(), VisionTally()
    for seed in range(args.seed0, args.seed0 + args.deals):
        run_deal(seed, args, tally, vision, recognizer)
    report(tally, vision, args)


if __name__ == "__main__":
    main()
