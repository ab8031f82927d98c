"""Hwatu hints: (a) samples in the first report (0.08 s, the app's first budget) and (b) the hint bot against
the greedy bot over seeded hands.

    python -m tests.benchmarks.bench_hwatu_hints [--hands 300] [--playouts 336] [--game gostop|matgo|hato]

(a) times ``HwatuHints.step(0.08)`` on the first real choice of the seat-0 player of seeded hands (median
samples, and wall time to the report). (b) deals hand ``i`` from seed ``i`` with the dealer rotating and
plays it twice, greedy bots in every seat and then the hint bot in one seat (every seat meets every
dealer): the mean difference of that seat's net settlement is the hints' gain per hand. The bot uses a
fixed number of play-outs per move (``--playouts``), so the figures are the same on any machine.
"""

from __future__ import annotations

import argparse
import statistics
import time

from engine.hwatu.bots import GreedyBot
from engine.hwatu.gostop_profile import GoStopProfile
from engine.hwatu.gostop_round import GoStopRound
from engine.hwatu.hato_profile import HatoProfile
from engine.hwatu.hato_round import HatoRound
from engine.hwatu.hints import HintBot, HwatuHints
from engine.hwatu.play import play_round


def deal(game: str, seed: int, players: int) -> HatoRound | GoStopRound:
    if game == "hato":
        return HatoRound.shuffled(seed, players, HatoProfile.load("hato"), dealer=seed % players)
    profile = GoStopProfile.load(game)
    return GoStopRound.shuffled(seed, profile, dealer=seed % profile.players)


def first_report(game: str, players: int, hands: int) -> None:
    samples, walls = [], []
    greedy = GreedyBot()
    for seed in range(hands):
        r = deal(game, seed, players)
        while not r.is_over and (r.turn != 0 or len(r.generate_legal_moves()) < 2):
            r.push(greedy.choose(r))
        if r.is_over:
            continue
        hints = HwatuHints(r, 0, seed=seed)
        start = time.perf_counter()
        hints.step(0.08)
        walls.append(time.perf_counter() - start)
        samples.append(hints.samples)
    print(f"(a) {game} {players}p first report at 0.08 s: median {statistics.median(samples):.0f} samples "
          f"(min {min(samples)}, max {max(samples)}), {statistics.median(walls) * 1000:.0f} ms to the report, "
          f"{len(samples)} positions")


def strength(game: str, players: int, hands: int, playouts: int, infer: bool = False) -> None:
    """Each deal is played twice: greedy in every seat, then the hint bot in one seat; the difference of that
    seat's net is the hints' gain on that deal (paired, so the luck of the deal cancels)."""
    greedy = GreedyBot()
    gains: list[int] = []
    wins = base_wins = 0
    start = time.process_time()
    for seed in range(hands):
        if deal(game, seed, players).is_over:
            continue
        seat = (seed // players) % players  # every seat against every dealer
        base = play_round(deal(game, seed, players), [greedy] * players)
        bots = [HintBot(playouts, seed, infer) if p == seat else greedy for p in range(players)]
        result = play_round(deal(game, seed, players), bots)
        gains.append(result.net[seat] - base.net[seat])
        wins += result.winner == seat
        base_wins += base.winner == seat
        if len(gains) % 50 == 0:
            print(f"  {len(gains)} hands: {statistics.mean(gains):+.2f} per hand", flush=True)
    n = len(gains)
    cpu = time.process_time() - start
    err = statistics.stdev(gains) / n ** 0.5
    print(f"(b) {game} {players}p, {n} hands, {playouts} play-outs a move{' (infer)' if infer else ''}: the hint bot gains {statistics.mean(gains):+.2f}"
          f" ±{err:.2f} net per hand over greedy in its seat; wins {wins / n:.1%} of hands (greedy in that seat"
          f" {base_wins / n:.1%}); {cpu / n:.2f} s CPU a hand")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="gostop", choices=("gostop", "matgo", "hato"))
    parser.add_argument("--players", type=int, default=0, help="Hato: 2 to 5 (default 3)")
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--playouts", type=int, default=336, help="play-outs per decision (48 worlds of 7 moves)")
    parser.add_argument("--skip-first", action="store_true", help="only (b)")
    parser.add_argument("--infer", action="store_true", help="sampled hands respect what others' lays showed")
    args = parser.parse_args()
    players = args.players or (3 if args.game in ("gostop", "hato") else 2)
    if not args.skip_first:
        first_report(args.game, players, min(args.hands, 50))
    strength(args.game, players, args.hands, args.playouts, args.infer)


if __name__ == "__main__":
    main()
