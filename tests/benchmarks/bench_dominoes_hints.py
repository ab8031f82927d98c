"""Domino hints: (a) samples and time to the first hint report at the app's first budget (0.08 s), over the
decisions of seeded deals; (b) a hint-following player against greedy bots, compared with a greedy player in
the same seat of the same deals (mean net per deal, how often it has the lowest hand).

    python tests/benchmarks/bench_dominoes_hints.py [--deals 200] [--worlds 48]
"""

from __future__ import annotations

import argparse
import statistics
import time

from companion.hint_service import DEFAULT_SCHEDULE
from engine.dominoes.bots import GreedyBot
from engine.dominoes.hints import HintBot, hint_search
from engine.dominoes.profile import DominoProfile
from engine.dominoes.round import DominoRound


def first_report(game: str, deals: int) -> dict[str, float]:
    budget = DEFAULT_SCHEDULE[0]
    samples, seconds, moves = [], [], []
    greedy = GreedyBot()
    for seed in range(deals):
        state = DominoRound.shuffled(seed, 4, DominoProfile.load(game), leader=seed % 4)
        while not state.is_over:
            player = state.turn
            if len(state.generate_legal_moves()) > 1:
                view = state.view(player)
                started = time.perf_counter()
                search = hint_search(view, player, seed)
                search.step(budget)
                search.ranked()
                seconds.append(time.perf_counter() - started)
                samples.append(search.samples)
                moves.append(len(search.moves))
            state.push(greedy.choose(state))
    return {"decisions": len(samples), "median_samples": statistics.median(samples), "min_samples": min(samples),
            "median_ms": 1000 * statistics.median(seconds), "max_ms": 1000 * max(seconds),
            "median_moves": statistics.median(moves)}


def strength(game: str, deals: int, worlds: int) -> dict[str, float]:
    """Seat 0 played by the hint bot, then by greedy, in the same deals (leaders rotate)."""
    profile = DominoProfile.load(game)
    out: dict[str, float] = {}
    for name, bot in (("hints", HintBot(worlds, seed=1)), ("greedy", GreedyBot())):
        nets, wins = [], 0
        for seed in range(deals):
            state = DominoRound.shuffled(seed, 4, profile, leader=seed % 4)
            bots = [bot, GreedyBot(), GreedyBot(), GreedyBot()]
            while not state.is_over:
                state.push(bots[state.turn].choose(state))
            assert state.result is not None
            nets.append(state.result.net[0])
            wins += state.result.winner == 0
        out[f"{name}_net"] = statistics.fmean(nets)
        out[f"{name}_win"] = wins / deals
        out[f"{name}_stderr"] = statistics.stdev(nets) / deals ** 0.5
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--worlds", type=int, default=48)
    parser.add_argument("--timing-deals", type=int, default=20)
    args = parser.parse_args()
    for game in ("jielong", "cedeng", "kkori"):
        timing = first_report(game, args.timing_deals)
        print(f"{game}: first report at {DEFAULT_SCHEDULE[0]} s over {timing['decisions']} decisions: "
              f"median {timing['median_samples']} samples (min {timing['min_samples']}), "
              f"median {timing['median_ms']:.0f} ms (max {timing['max_ms']:.0f}), "
              f"median {timing['median_moves']} moves")
        s = strength(game, args.deals, args.worlds)
        print(f"{game}: {args.deals} deals, seat 1 vs 3 greedy: hints {s['hints_net']:+.2f} ±{s['hints_stderr']:.2f} "
              f"a deal, lowest hand {s['hints_win']:.0%}; greedy {s['greedy_net']:+.2f} ±{s['greedy_stderr']:.2f}, "
              f"lowest hand {s['greedy_win']:.0%}", flush=True)


if __name__ == "__main__":
    main()
