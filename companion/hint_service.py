"""The hint search, run in a process of its own so that it never slows the UI.

A search is pure Python and CPU-bound: in a thread it would hold the interpreter lock and make the
screen stutter. So the app starts one ``HintProcess``; each state change sends it a request (the
round, pickled, and whose hints), and a small reader thread hands every report that comes back to a
callback (the app turns it into a message). A newer request makes the process drop the older search
within one slice. No UI code here: the process imports only the engine and this module.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from companion.tables.base import HintLine, TableHintSearch
from engine.koikoi.hints import DecisionHint, HintSearch, MatchContext, MoveHint
from engine.koikoi.round import KoiKoiRound

# Seconds of search before each report: the first well within 200 ms, then better ones.
DEFAULT_SCHEDULE = (0.08, 0.3, 0.6, 1.0)
SLICE = 0.03  # the search checks for a newer request this often
UNREADABLE = -1  # the generation of an error report for a request the process could not read


@dataclass(frozen=True)
class HintRequest:
    generation: int
    state: KoiKoiRound  # in demo mode the true round: the search looks only at ``player``'s view of it
    player: int
    context: MatchContext
    schedule: tuple[float, ...] = DEFAULT_SCHEDULE
    fixed_samples: int | None = None  # a number of sampled worlds instead of the clock (tests, screenshots)
    greedy_opponent: bool = False  # the opponent is the app's greedy bot: the search reads its hand from its plays


@dataclass(frozen=True)
class TableHintRequest:
    """The other games: a ready-made search over the player's legal moves (see ``companion.tables.base``)."""

    generation: int
    search: TableHintSearch
    schedule: tuple[float, ...] = DEFAULT_SCHEDULE
    fixed_samples: int | None = None


@dataclass(frozen=True)
class HintReport:
    generation: int
    moves: list[MoveHint]  # Koi-Koi, best first; empty when a koi-koi/stop decision is due
    decision: DecisionHint | None
    samples: int
    final: bool
    error: str = ""
    lines: tuple[HintLine, ...] = ()  # the other games, best first


class _Running:
    """A search in progress behind one step/report interface, whichever game it is for."""

    def __init__(self, generation: int, search: HintSearch | TableHintSearch) -> None:
        self.generation = generation
        self.search = search

    def step(self, budget_s: float) -> None:
        self.search.step(budget_s)

    def add_samples(self, worlds: int) -> None:
        self.search.add_samples(worlds)

    def report(self, final: bool) -> HintReport:
        search = self.search
        if isinstance(search, TableHintSearch):
            return HintReport(self.generation, [], None, search.samples, final, lines=tuple(search.lines()))
        decision = search.decision()
        moves = [] if decision is not None else search.ranked()
        return HintReport(self.generation, moves, decision, search.samples, final=final)


def _start(request: HintRequest | TableHintRequest) -> _Running:
    if isinstance(request, TableHintRequest):
        return _Running(request.generation, request.search)
    return _Running(request.generation,
                    HintSearch(request.state, request.player, request.context, seed=request.generation,
                               greedy_opponent=request.greedy_opponent))


def run_hint_search(
    request: HintRequest | TableHintRequest, post: Callable[[HintReport], object], is_current: Callable[[], bool]
) -> None:
    """Search and report after each step of the schedule; stop as soon as the request is stale."""
    search = _start(request)
    steps: tuple[float, ...] = (0.0,) if request.fixed_samples is not None else request.schedule
    for i, budget in enumerate(steps):
        if request.fixed_samples is not None:
            search.add_samples(request.fixed_samples)
        else:
            deadline = time.perf_counter() + budget
            while (left := deadline - time.perf_counter()) > 0:
                search.step(min(SLICE, left))
                if not is_current():
                    return
        if not is_current():
            return
        post(search.report(final=i == len(steps) - 1))


def serve(requests: Connection, results: Connection) -> None:
    """The hint process: search for the newest request, report, repeat until sent ``None``."""
    newer: list[HintRequest | TableHintRequest | None] = []
    while True:
        try:
            request = newer.pop() if newer else requests.recv()
        except (EOFError, OSError):
            return
        except Exception as exc:  # a request that cannot be unpickled: say so, keep serving
            results.send(HintReport(UNREADABLE, [], None, 0, True, f"{type(exc).__name__}: {exc}"))
            continue
        if request is None:
            return

        def is_current() -> bool:
            while requests.poll():
                newer[:] = [requests.recv()]  # only the newest one matters
            return not newer

        try:
            run_hint_search(request, results.send, is_current)
        except Exception as exc:  # reported, never fatal: hints are advice
            results.send(HintReport(request.generation, [], None, 0, True, f"{type(exc).__name__}: {exc}"))


class HintProcess:
    """Owns the hint process and the thread that forwards its reports to ``on_report``."""

    def __init__(self, on_report: Callable[[HintReport], Any]) -> None:
        context = multiprocessing.get_context("spawn")  # never fork a process that runs UI threads
        requests_in, self._requests = context.Pipe(duplex=False)
        self._results, results_out = context.Pipe(duplex=False)
        self._process = context.Process(target=serve, args=(requests_in, results_out), daemon=True,
                                        name="kibitz-hints")
        # A running Textual app has replaced sys.stderr with an object without a real file number,
        # which multiprocessing would hand to its helper process: give it the real one meanwhile.
        saved, sys.stderr = sys.stderr, sys.__stderr__ or sys.stderr
        try:
            self._process.start()
        finally:
            sys.stderr = saved
        requests_in.close()
        results_out.close()
        self._on_report = on_report
        self._reader = threading.Thread(target=self._forward, daemon=True, name="kibitz-hints-reader")
        self._reader.start()

    def request(self, request: HintRequest | TableHintRequest) -> None:
        self._requests.send(request)

    def _forward(self) -> None:
        while True:
            try:
                report = self._results.recv()
            except (EOFError, OSError):
                return
            self._on_report(report)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._requests.send(None)
        self._process.join(timeout=2.0)
        if self._process.is_alive():
            self._process.terminate()
            self._process.join(timeout=1.0)
