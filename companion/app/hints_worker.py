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
) -> None:
    """Search (in a worker thread), posting after each step of ``schedule``; stop early once the
    state has moved on."""
    for i, budget in enumerate(schedule):
        if not is_current(generation):
            return
        search.step(budget)
        decision = search.decision()
        moves = [] if decision is not None else search.ranked()
        post(HintsReady(generation, moves, decision, search.samples, final=i == len(schedule) - 1))
