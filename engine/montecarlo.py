"""Determinised Monte Carlo move ranking, shared by the hints of every game.

A player cannot see the hidden cards or tiles, so the search samples complete worlds that agree with
what the player knows, plays each candidate move in each world, finishes the hand with a fast policy and
averages the payoff. Every candidate is played in the same worlds (common random numbers): the
differences between candidates, which decide the ranking, are far less noisy than the values themselves.
More time means more worlds, so a hint gets better the longer it runs.

The game supplies two functions, both picklable (module-level functions or ``functools.partial`` of them)
so that a search can run in the app's hint process:
``sample_world(rng) -> state``, a fresh full state consistent with the player's view, and
``play_out(state, move, rng) -> float``, the player's payoff after ``move`` and a policy play-out.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

S = TypeVar("S")
M = TypeVar("M")


@dataclass(frozen=True)
class MoveValue(Generic[M]):
    """One candidate's sampled value: the mean payoff and its standard error over ``samples`` worlds."""

    move: M
    index: int  # its place in the search's ``moves``
    mean: float
    stderr: float
    samples: int


class SampledSearch(Generic[S, M]):
    def __init__(
        self,
        moves: Sequence[M],
        sample_world: Callable[[random.Random], S],
        play_out: Callable[[S, M, random.Random], float],
        seed: int = 0,
    ) -> None:
        if not moves:
            raise ValueError("a search needs at least one candidate move")
        self.moves = tuple(moves)
        self.sample_world = sample_world
        self.play_out = play_out
        self.samples = 0
        self._rng = random.Random(seed)
        self._sum = [0.0] * len(self.moves)
        self._squares = [0.0] * len(self.moves)

    def add_samples(self, worlds: int) -> None:
        """Play every candidate in ``worlds`` more sampled worlds (the same worlds for all candidates)."""
        if len(self.moves) == 1:
            self.samples += worlds  # nothing to compare: no need to play
            return
        for _ in range(worlds):
            world_seed = self._rng.getrandbits(62)
            for i, move in enumerate(self.moves):
                world = self.sample_world(random.Random(world_seed))
                payoff = self.play_out(world, move, random.Random(world_seed + 1))
                self._sum[i] += payoff
                self._squares[i] += payoff * payoff
            self.samples += 1

    def step(self, budget_s: float) -> None:
        """Sample for about ``budget_s`` seconds (at least one world)."""
        deadline = time.perf_counter() + budget_s
        self.add_samples(1)
        while time.perf_counter() < deadline:
            self.add_samples(1)

    def ranked(self) -> list[MoveValue[M]]:
        """The candidates, best first (ties keep the order the moves were given in)."""
        n = max(1, self.samples) if len(self.moves) > 1 else 0
        values = []
        for i, move in enumerate(self.moves):
            mean = self._sum[i] / n if n else 0.0
            variance = max(0.0, self._squares[i] / n - mean * mean) if n else 0.0
            stderr = math.sqrt(variance / n) if n > 1 else 0.0
            values.append(MoveValue(move, i, mean, stderr, self.samples))
        order = sorted(range(len(values)), key=lambda i: -values[i].mean)
        return [values[i] for i in order]
