"""Runs the hint search off the UI thread and reports it, refined step by step, as ``HintsReady``."""

from __future__ import annotations

from collections.abc import Callable

from companion.app.messages import HintsReady
from engine.koikoi.hints import HintSearch, MatchContext
from engine.koikoi.round import KoiKoiRound

# Seconds of search before each report: the first within 200 ms, then better ones.
DEFAULT_SCHEDULE = (0.15, 0.35, 0.5, 1.0)


def start_search(state: KoiKoiRound, player: int, context: MatchContext, seed: int = 0) -> HintSearch:
    """Build the search on the UI thread: it copies the player's view of ``state`` right here."""
    return HintSearch(state, player, context, seed=seed)


def run_hint_search(
    search: HintSearch,
    generation: int,
    post: Callable[[HintsReady], object],
    is_current: Callable[[int], bool],
    schedule: tuple[float, ...] = DEFAULT_SCHEDULE,
    fixed_samples: int | None = None,
) -> None:
    """Search (in a worker thread), posting after each step of ``schedule``; stop early once the
    state has moved on. ``fixed_samples`` replaces the clock by a number of sampled worlds, for
    tests and screenshots that must come out the same every time."""
    steps: tuple[float, ...] = (0.0,) if fixed_samples is not None else schedule
    for i, budget in enumerate(steps):
        if not is_current(generation):
            return
        if fixed_samples is not None:
            search.add_samples(fixed_samples)
        else:
            search.step(budget)
        decision = search.decision()
        moves = [] if decision is not None else search.ranked()
        post(HintsReady(generation, moves, decision, search.samples, final=i == len(steps) - 1))
