"""Full random Koi-Koi rounds per second on one core (target: at least 10,000).

    python tests/benchmarks/bench_engine.py [--rounds N] [--profile P]

Each round is dealt from a seeded shuffle and played to its end by random moves (random card, then
random capture choice, random koi-koi/stop), pushing every move through the engine unchecked as a
search would. A second figure plays the same rounds with every move checked for legality.
"""

from __future__ import annotations

import argparse
import os
import random
import time

from engine.koikoi.profile import KoiKoiProfile
from engine.koikoi.round import KoiKoiRound


def play(rounds: int, profile: KoiKoiProfile, check: bool) -> tuple[float, int]:
    rng = random.Random(12345)
    moves = 0
    started = time.perf_counter()
    for _ in range(rounds):
        state = KoiKoiRound.shuffled(rng, profile)
        while not state.is_over:
            state.push(state.random_move(rng), check=check)
            moves += 1
    return time.perf_counter() - started, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--profile", default="default")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    profile = KoiKoiProfile.load(args.profile)
    play(500, profile, False)  # warm up
    for check in (False, True):
        best = min(play(args.rounds, profile, check)[0] for _ in range(3))
        _, moves = play(100, profile, check)
        label = "checked" if check else "unchecked"
        rate = args.rounds / best
        print(f"{label:>9}: {rate:,.0f} rounds/s ({moves / 100:.1f} moves a round), profile {profile.name}")


if __name__ == "__main__":
    main()
