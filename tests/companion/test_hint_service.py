"""The hint process: real searches in a real child process, superseded by newer requests."""

import time

from companion.hint_service import HintProcess, HintReport, HintRequest
from engine.koikoi.bots import GreedyBot
from engine.koikoi.hints import HintSearch, MatchContext
from engine.koikoi.round import KoiKoiRound

CONTEXT = MatchContext(1, 12, (0, 0))


def wait_for(reports: list[HintReport], condition, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError(f"no such report in {seconds} s: {reports}")


def test_reports_come_back_refined_and_a_newer_request_wins():
    reports: list[HintReport] = []
    process = HintProcess(reports.append)
    try:
        first = KoiKoiRound.shuffled(4)
        process.request(HintRequest(1, first, first.turn, CONTEXT, schedule=(5.0, 5.0)))
        wait_for(reports, lambda: bool(reports))  # the process is up and searching request 1
        second = KoiKoiRound.shuffled(5)
        for _ in range(8):  # the greedy bot's plays for the search to read its hand from
            second.push(GreedyBot().choose(second))
        process.request(HintRequest(2, second, second.turn, CONTEXT, fixed_samples=12, greedy_opponent=True))
        wait_for(reports, lambda: any(r.generation == 2 and r.final for r in reports))
        final = next(r for r in reports if r.generation == 2)
        legal = set(second.generate_legal_moves())
        assert final.moves and {h.move for h in final.moves} <= legal and final.samples >= 12
        here = HintSearch(second, second.turn, CONTEXT, seed=2, greedy_opponent=True)  # the same search, here
        here.add_samples(final.samples)
        assert [(h.move, h.value) for h in here.ranked()] == [(h.move, h.value) for h in final.moves]
        assert not any(r.generation == 1 and r.final for r in reports)  # the old search was dropped
    finally:
        process.close()
    assert not process._process.is_alive()


def test_a_failing_search_is_reported_and_the_process_keeps_serving():
    reports: list[HintReport] = []
    process = HintProcess(reports.append)
    try:
        process.request(HintRequest(1, "not a round", 0, CONTEXT, fixed_samples=4))  # type: ignore[arg-type]
        wait_for(reports, lambda: any(r.generation == 1 for r in reports))
        failed = next(r for r in reports if r.generation == 1)
        assert failed.final and failed.error and not failed.moves
        fresh = KoiKoiRound.shuffled(7)
        process.request(HintRequest(2, fresh, fresh.turn, CONTEXT, fixed_samples=4))
        wait_for(reports, lambda: any(r.generation == 2 and r.final and not r.error for r in reports))
    finally:
        process.close()
