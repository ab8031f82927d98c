"""How fast the first hint ranking appears, and how the ranking improves with search time.

    python tests/benchmarks/bench_hints.py [--positions 40] [--reference 3.0]

Positions come from seeded greedy-against-greedy rounds: every PLAY turn of either player, sampled
evenly. For each position:

- first ranking: the time from building ``HintSearch`` (on a fresh copy of the state) through its
  first 16 sampled worlds to ``ranked()`` with every reason rendered; also how many worlds the app's
  first 150 ms step holds;
- agreement: a search of ``--reference`` seconds (another seed) names the best move; searches of
  50, 200 and 1000 ms are scored by how often their top move is that move (plains of one month count
  as one move) and by their regret, the reference value of the best move minus that of their choice.

Runs on one core. The target is a first ranking within 200 ms on the 2-core development machine.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from engine.capture import Phase
from engine.koikoi.bots import GreedyBot
from engine.koikoi.hints import HintSearch, MatchContext, move_class
from engine.koikoi.round import KoiKoiRound

CONTEXT = MatchContext(round_number=6, rounds=12, scores=(0, 0))
BUDGETS = (0.05, 0.2, 1.0)


def positions(count: int, seed: int = 0) -> list[KoiKoiRound]:
    """PLAY positions of greedy rounds, drawn evenly over the rounds' turns."""
    rng = random.Random(seed)
    found: list[KoiKoiRound] = []
    greedy = GreedyBot()
    round_seed = seed
    while len(found) < count:
        state = KoiKoiRound.shuffled(round_seed, dealer=round_seed % 2)
        round_seed += 1
        while not state.is_over:
            if state.phase is Phase.PLAY and len(state.generate_legal_moves()) > 1 and rng.random() < 0.25:
                found.append(_copy(state))
            state.push(greedy.choose(state))
    return found[:count]


def _copy(state: KoiKoiRound) -> KoiKoiRound:
    copy = KoiKoiRound(state.deal, state.profile, state.dealer)
    for move in state.move_stack:
        copy.push(move)
    return copy


def first_ranking(state: KoiKoiRound) -> tuple[float, int]:
    """Milliseconds to the first ranking (16 worlds, reasons rendered); worlds in a 150 ms step."""
    started = time.perf_counter()
    search = HintSearch(state, state.turn, CONTEXT, seed=1)
    search.add_samples(16)
    for hint in search.ranked():
        hint.reason.text("en")
    elapsed = time.perf_counter() - started
    quick = HintSearch(state, state.turn, CONTEXT, seed=2)
    quick.step(0.15)
    return 1000 * elapsed, quick.samples


def agreement(state: KoiKoiRound, reference_s: float) -> list[tuple[bool, float]]:
    reference = HintSearch(state, state.turn, CONTEXT, seed=99)
    reference.step(reference_s)
    ref = reference.ranked()
    best = ref[0]
    value_of = {hint.move: hint.value for hint in ref}
    out = []
    for budget in BUDGETS:
        search = HintSearch(state, state.turn, CONTEXT, seed=int(budget * 1000))
        search.step(budget)
        top = search.ranked()[0]
        agreed = move_class(top.move) == move_class(best.move)
        out.append((agreed, best.value - value_of[top.move]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--reference", type=float, default=3.0, help="seconds of the reference search")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    states = positions(args.positions)
    first_ranking(states[0])  # warm up
    firsts = [first_ranking(state) for state in states]
    ms = sorted(f[0] for f in firsts)
    worlds = sorted(f[1] for f in firsts)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    moves = statistics.mean(len(s.generate_legal_moves()) for s in states)
    print(f"{len(states)} positions, {moves:.1f} legal moves on average")
    print(f"first ranking (16 worlds, reasons rendered): median {statistics.median(ms):.0f} ms, p95 {p95:.0f} ms, "
          f"max {ms[-1]:.0f} ms")
    print(f"worlds sampled in a 150 ms first step: median {statistics.median(worlds):.0f}, min {worlds[0]}")
    results = [agreement(state, args.reference) for state in states]
    for i, budget in enumerate(BUDGETS):
        agreed = sum(r[i][0] for r in results) / len(results)
        regret = statistics.mean(r[i][1] for r in results)
        print(f"{1000 * budget:>5.0f} ms: top move agrees with a {args.reference:.0f} s search in {agreed:.0%} of "
              f"positions; mean regret {regret:.4f} (match-win probability)")


if __name__ == "__main__":
    main()
