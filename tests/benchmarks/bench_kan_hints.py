"""Kan hints: (a) the first hint report at the app's first budget (0.08 s): its time and samples; (b) a bot
that follows the hints against the greedy bot: the same seeded deals played twice, player 1 once by the
hint bot and once by the greedy bot (the other four seats greedy), player 1's side's points and deals won.

    python tests/benchmarks/bench_kan_hints.py [--deals 300] [--samples 8] [--positions 40]
"""

from __future__ import annotations

import argparse
import statistics
import time

from engine.bots import Bot
from engine.kan.bots import GreedyBot
from engine.kan.deal import KanDeal
from engine.kan.hints import HintBot, hints
from engine.kan.table import Phase, Side


def first_hint(positions: int, budget: float = 0.08) -> tuple[list[float], list[int]]:
    """Seconds to the first report (search built, reasons made, one budget step) and its sample count, at
    a play position of every deal (a random trick of it, player to move)."""
    times, samples = [], []
    bot = GreedyBot()
    for seed in range(positions):
        deal = KanDeal.shuffled(seed)
        while not (deal.phase is Phase.PLAY and len(deal.tricks) == seed % 8):
            deal.push(bot.choose(deal))
        started = time.perf_counter()
        found = hints(deal, deal.turn, seed=seed)
        found.search.step(budget)
        times.append(time.perf_counter() - started)
        samples.append(found.search.samples)
    return times, samples


def play(seed: int, seat0: Bot) -> tuple[int, bool]:
    """Player 1's side's points in the deal, and whether that side won it."""
    deal = KanDeal.shuffled(seed)
    bots: list[Bot] = [seat0, GreedyBot(), GreedyBot(), GreedyBot(), GreedyBot()]
    while not deal.is_over:
        deal.push(bots[deal.turn].choose(deal))
    result = deal.result
    assert result is not None
    kankei = deal.side(0) is Side.KANKEI
    return (result.kankei_points if kankei else result.mukankei_points), result.kankei_won == kankei


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--samples", type=int, default=8)
    parser.add_argument("--positions", type=int, default=40)
    args = parser.parse_args()

    times, samples = first_hint(args.positions)
    print(f"first hint at 0.08 s: median {statistics.median(times) * 1000:.0f} ms, "
          f"max {max(times) * 1000:.0f} ms; samples median {statistics.median(samples):.0f}, min {min(samples)}")

    started = time.perf_counter()
    hint_pts, greedy_pts, hint_wins, greedy_wins, better, worse = [], [], 0, 0, 0, 0
    for seed in range(args.deals):
        h, hw = play(seed, HintBot(args.samples, seed))
        g, gw = play(seed, GreedyBot())
        hint_pts.append(h)
        greedy_pts.append(g)
        hint_wins += hw
        greedy_wins += gw
        better += h > g
        worse += h < g
    n = args.deals
    diffs = [h - g for h, g in zip(hint_pts, greedy_pts, strict=True)]
    se = statistics.stdev(diffs) / n ** 0.5 if n > 1 else 0.0
    print(f"{n} deals, hint bot ({args.samples} samples a decision) vs greedy in seat 1, {time.perf_counter() - started:.0f} s:")
    print(f"  side points: hints {statistics.mean(hint_pts):.2f}, greedy {statistics.mean(greedy_pts):.2f} "
          f"(difference {statistics.mean(diffs):+.2f} ± {se:.2f})")
    print(f"  side won the deal: hints {hint_wins / n:.1%}, greedy {greedy_wins / n:.1%}")
    print(f"  deals where the hints did better / worse / the same: {better} / {worse} / {n - better - worse}")


if __name__ == "__main__":
    main()
