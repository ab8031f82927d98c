"""Bots for every game: anything with ``choose(state) -> move``."""

from __future__ import annotations

import random
from typing import Any, Protocol


class Bot(Protocol):
    name: str

    def choose(self, state: Any) -> Any: ...


class RandomBot:
    """Plays a uniformly random card (then a random choice of capture); the baseline of every benchmark."""

    name = "random"

    def __init__(self, seed: int | random.Random | None = None) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def choose(self, state: Any) -> Any:
        if hasattr(state, "random_move"):
            return state.random_move(self.rng)
        moves = list(state.legal_moves)
        return moves[int(self.rng.random() * len(moves))]
