"""Tune the Koi-Koi play-out weights by play: CMA-ES on the play-out bot's score against the greedy bot.

    python -m datasets.hints.tune --start /tmp/fitted.toml --generations 16 --out engine/koikoi/playouts.toml
    # the shipped weights: 23 min on 2 cores

Why: the hint search keeps what its play-outs gain. Played alone (``bots.PlayoutBot``, seeds 0-9999), the
hand-tuned play-outs win 53.7% of decided rounds against greedy and the distilled weights (``distil``) 56.1%;
the search over them (opponent unknown, seeds 0-999) 55.9% and 58.3%. Distilling copies the search's picks;
this step makes the play-outs win instead, starting from the distilled weights (``--start``, the file ``distil
fit`` writes).

Each generation draws ``--population`` weight vectors around the mean, each weight stepped in units of its
own size (``max(|w|, 0.1)`` of the starting weight, so small and large weights move alike), plays each as
the play-out bot (player 0) against greedy over the same ``--rounds`` seeded deals, a fresh block per
generation from seed 100,000 (none of the hint benchmark's), and moves the mean towards the better half
(CMA-ES with Hansen's default constants). A vector scores its wins plus half its draws over the rounds
played. Deals, draws and pool order are all seeded: the same command writes the same file.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Iterator, Sequence
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from datasets.hints.distil import read_weights, write_weights
from engine.koikoi.bots import GreedyBot, PlayoutBot
from engine.koikoi.play import play_round
from engine.koikoi.profile import KoiKoiProfile
from engine.koikoi.round import KoiKoiRound

FIRST_SEED = 100_000
STEP_FLOOR = 0.1  # the step unit of a weight near zero


def score(weights: Sequence[float], first: int, rounds: int, profile: str = "default") -> tuple[float, int]:
    """(wins + draws / 2, rounds played) of the play-out bot with ``weights`` against greedy on seeds
    ``first`` .. ``first + rounds - 1`` (dealt by player ``seed % 2``; rounds decided at the deal skipped)."""
    rules = KoiKoiProfile.load(profile)
    bots = [PlayoutBot(weights=tuple(weights)), GreedyBot()]
    total, played = 0.0, 0
    for seed in range(first, first + rounds):
        state = KoiKoiRound.shuffled(seed, rules, dealer=seed % 2)
        if state.is_over:
            continue
        winner = play_round(state, bots).winner
        total += 1.0 if winner == 0 else 0.5 if winner is None else 0.0
        played += 1
    return total, played


def _score_job(job: tuple[Sequence[float], int, int]) -> tuple[float, int]:
    return score(*job)


class CMAES:
    """Covariance matrix adaptation (Hansen's tutorial, default constants), maximising: ``ask`` a population,
    ``tell`` its fitnesses in the same order."""

    def __init__(self, mean: np.ndarray, sigma: float, population: int, seed: int = 0) -> None:
        n = len(mean)
        self.mean, self.sigma, self.population = mean.astype(float), sigma, population
        self.rng = np.random.default_rng(seed)
        mu = population // 2
        w = np.log(mu + 0.5) - np.log(np.arange(1, mu + 1))
        self.weights = w / w.sum()
        self.mueff = 1 / float(self.weights @ self.weights)
        self.cc = (4 + self.mueff / n) / (n + 4 + 2 * self.mueff / n)
        self.cs = (self.mueff + 2) / (n + self.mueff + 5)
        self.c1 = 2 / ((n + 1.3) ** 2 + self.mueff)
        self.cmu = min(1 - self.c1, 2 * (self.mueff - 2 + 1 / self.mueff) / ((n + 2) ** 2 + self.mueff))
        self.damps = 1 + 2 * max(0.0, math.sqrt((self.mueff - 1) / (n + 1)) - 1) + self.cs
        self.chi_n = math.sqrt(n) * (1 - 1 / (4 * n) + 1 / (21 * n * n))
        self.pc, self.ps, self.cov = np.zeros(n), np.zeros(n), np.eye(n)
        self.generation = 0
        self._steps = np.zeros((population, n))

    def ask(self) -> np.ndarray:
        values, vectors = np.linalg.eigh(self.cov)
        self._scales, self._axes = np.sqrt(np.maximum(values, 1e-20)), vectors
        z = self.rng.standard_normal((self.population, len(self.mean)))
        self._steps = (z * self._scales) @ vectors.T
        return self.mean + self.sigma * self._steps

    def tell(self, fitness: Sequence[float]) -> None:
        n, mu = len(self.mean), len(self.weights)
        best = self._steps[np.argsort(-np.asarray(fitness), kind="stable")[:mu]]
        step = self.weights @ best
        self.mean = self.mean + self.sigma * step
        self.generation += 1
        whiten = self._axes @ np.diag(1 / self._scales) @ self._axes.T
        self.ps = (1 - self.cs) * self.ps + math.sqrt(self.cs * (2 - self.cs) * self.mueff) * whiten @ step
        norm = float(np.linalg.norm(self.ps)) / math.sqrt(1 - (1 - self.cs) ** (2 * self.generation))
        steady = norm < (1.4 + 2 / (n + 1)) * self.chi_n  # sigma not growing fast: pc may grow
        self.pc = (1 - self.cc) * self.pc + steady * math.sqrt(self.cc * (2 - self.cc) * self.mueff) * step
        rank_mu = (best.T * self.weights) @ best
        self.cov = (1 - self.c1 - self.cmu) * self.cov + self.c1 * np.outer(self.pc, self.pc) + self.cmu * rank_mu
        self.sigma *= math.exp(self.cs / self.damps * (float(np.linalg.norm(self.ps)) / self.chi_n - 1))


def tune(start: Sequence[float], generations: int, rounds: int, population: int = 14, sigma: float = 0.3,
         workers: int = 2, seed: int = 0) -> Iterator[tuple[int, np.ndarray, str]]:
    """Yield (generation, the mean's weights, a report line) after each generation."""
    base = np.asarray(start, dtype=float)
    unit = np.maximum(np.abs(base), STEP_FLOOR)
    search = CMAES(np.zeros(len(base)), sigma, population, seed)
    with Pool(workers) as pool:
        for generation in range(generations):
            first = FIRST_SEED + generation * rounds
            candidates = [base + unit * x for x in search.ask()] + [base + unit * search.mean]
            results = pool.map(_score_job, [(tuple(w), first, rounds) for w in candidates])
            fitness = [total / played for total, played in results]
            search.tell(fitness[:-1])
            line = (f"generation {generation}: the mean before it {fitness[-1]:.4f}, population best "
                    f"{max(fitness[:-1]):.4f}, median {float(np.median(fitness[:-1])):.4f}; sigma {search.sigma:.3f}")
            yield generation, base + unit * search.mean, line


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=Path, required=True, help="weights to start from (distil fit's file)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--generations", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=2000, help="rounds a weight vector plays a generation")
    parser.add_argument("--population", type=int, default=14)
    parser.add_argument("--sigma", type=float, default=0.3)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    started = time.time()
    start = read_weights(args.start)
    for generation, weights, line in tune(start, args.generations, args.rounds, args.population, args.sigma,
                                         args.workers):
        print(f"{line} ({time.time() - started:.0f} s)", flush=True)
        # rewritten each generation: a run stopped early leaves its latest mean
        write_weights(args.out, weights, f"`python -m datasets.hints.tune`: CMA-ES from {args.start.name}, "
                      f"{generation + 1} generations of {args.population} x {args.rounds} rounds against greedy.")


if __name__ == "__main__":
    sys.exit(main())
