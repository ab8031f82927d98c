"""Driving Kan deals and matches with bots, and what ``kibitz simulate kan`` prints (a ledger per round)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from engine.bots import Bot, RandomBot
from engine.errors import KibitzError
from engine.kan.actions import Action
from engine.kan.bots import GreedyBot
from engine.kan.deal import KanDeal
from engine.kan.ledger import Declaration, format_points
from engine.kan.match import KanMatch, KanRound
from engine.kan.profile import KanProfile
from engine.kan.table import DealResult

ActionHook = Callable[[KanDeal, Action, int], None]  # the state after the action, the action, who took it
RoundHook = Callable[[KanMatch, KanRound], None]


DEFAULT_BOTS = "greedy,random,random,random,random"


def make_bots(names: str | None, seed: int) -> list[Bot]:
    """Five bots from ``random,greedy,...`` (one name per player)."""
    words = (names or DEFAULT_BOTS).split(",")
    if len(words) != 5:
        raise KibitzError(f"--bots needs 5 names separated by commas (one per player), not {len(words)}")
    bots: list[Bot] = []
    for i, name in enumerate(words):
        if name == "random":
            bots.append(RandomBot(seed * 7 + i))
        elif name == "greedy":
            bots.append(GreedyBot())
        else:
            raise KibitzError(f"unknown bot {name!r}; choose random or greedy")
    return bots


def play_deal(state: KanDeal, bots: Sequence[Bot], on_action: ActionHook | None = None) -> DealResult:
    """Let ``bots[p]`` act for player ``p`` until the deal is over."""
    while not state.is_over:
        player = state.turn
        action = bots[player].choose(state)
        state.push(action)
        if on_action is not None:
            on_action(state, action, player)
    assert state.result is not None
    return state.result


def play_match(
    match: KanMatch, bots: Sequence[Bot], on_action: ActionHook | None = None, on_round: RoundHook | None = None
) -> KanMatch:
    """Play every remaining deal of ``match``; ``on_round`` sees each round once it is scored."""
    while not match.is_over:
        state = match.new_deal()
        play_deal(state, bots, on_action)
        round_ = match.current
        if match.record(state) is not None and on_round is not None:
            assert round_ is not None
            on_round(match, round_)
    return match


def simulate(
    profile: KanProfile, bots: Sequence[Bot], matches: int, seed: int, rounds: int | None = None
) -> dict[str, Any]:
    """Play ``matches`` matches, rotating the seats every match so that no bot keeps a seat."""
    n = len(bots)
    wins, points = [0] * n, [Fraction(0)] * n
    draws = deals = 0
    events: Counter[str] = Counter()
    reports: list[dict[str, Any]] = []
    started = time.perf_counter()
    for game in range(matches):
        bot_at = [(seat + game) % n for seat in range(n)]

        def report(match: KanMatch, round_: KanRound, game: int = game) -> None:
            reports.append(round_report(game + 1, round_))

        match = play_match(KanMatch(profile, seed * 100_003 + game, rounds), [bots[b] for b in bot_at],
                           on_round=report)
        for seat, b in enumerate(bot_at):
            points[b] += match.scores[seat]
        if match.leader is None:
            draws += 1
        else:
            wins[bot_at[match.leader]] += 1
        for round_ in match.finished:
            deals += len(round_.results)
            events.update(_events(round_))
    seconds = time.perf_counter() - started
    return {
        "game": "kan",
        "profile": profile.name,
        "matches": matches,
        "rounds": len(reports),
        "deals": deals,
        "bots": [bot.name for bot in bots],
        "wins": wins,
        "draws": draws,
        "points_per_match": [round(float(p) / matches, 2) for p in points],
        "events": dict(events.most_common()),
        "round_ledgers": reports,
        "seconds": round(seconds, 3),
        "deals_per_second": round(deals / seconds, 1) if seconds else None,
    }


def round_report(match_number: int, round_: KanRound) -> dict[str, Any]:
    """One scored round as plain data (for JSON and for the printout)."""
    ledger = round_.ledger
    return {
        "match": match_number,
        "round": round_.number,
        "dealer": round_.dealer + 1,
        "kankei": [p + 1 for p in ledger.kankei],
        "deals": [_deal_line(r) for r in round_.results],
        "ledger": [str(entry) for entry in ledger.entries],
        "kankei_total": ledger.kankei_total,
        "amounts": [format_points(a) for a in ledger.amounts],
    }


def _deal_line(r: DealResult) -> str:
    extras = []
    if r.seat_change is not None:
        extras.append(str(r.seat_change))
    if r.showing is not None:
        extras.append(f"shown: {r.showing.way.word}")
    if r.declaration is not Declaration.NONE:
        extras.append(f"{r.declaration.word} declared")
    if r.stopped:
        extras.append("round stopped")
    tail = f" ({'; '.join(extras)})" if extras else ""
    return f"deal {r.number}, trump {r.trump.symbol}: kankei {r.kankei_points}-{r.mukankei_points}, " + (
        f"{'kankei' if r.kankei_won else 'mukankei'} won{tail}"
    )


def _events(round_: KanRound) -> list[str]:
    out = []
    for r in round_.results:
        out.append("kankei won" if r.kankei_won else "mukankei won")
        if r.sukonku:
            out.append("sukonku")
        if r.gyaku_sukonku:
            out.append("gyaku sukonku")
        if r.declaration is not Declaration.NONE:
            made = r.sukonku if r.declaration is Declaration.JUUROKU else r.gyaku_sukonku
            out.append(f"{r.declaration.word} {'made' if made else 'failed'}")
        if r.stopped:
            out.append("stopped")
        if r.seat_change is not None:
            out.append("seat change")
    if len(round_.results) == 3 and all(r.kankei_won for r in round_.results):
        out.append("all three")
    return out


def format_summary(s: dict[str, Any]) -> str:
    """The printout: every round's ledger, then the totals by bot."""
    lines = []
    for r in s["round_ledgers"]:
        kankei = " and ".join(str(p) for p in r["kankei"])
        lines.append(f"match {r['match']}, round {r['round']} (dealer {r['dealer']}; kankei players {kankei}):")
        lines += [f"  {d}" for d in r["deals"]]
        lines += [f"    {e}" for e in r["ledger"]]
        lines.append("    players: " + ", ".join(f"{i + 1} {a}" for i, a in enumerate(r["amounts"])))
    lines.append(
        f"{s['matches']} Kan matches ({s['rounds']} rounds, {s['deals']} deals, profile {s['profile']}) in "
        f"{s['seconds']} s ({s['deals_per_second']} deals/s)"
    )
    for i, bot in enumerate(s["bots"]):
        lines.append(f"  {i + 1}. {bot:>8}: {s['wins'][i]} wins, {s['points_per_match'][i]} points a match")
    lines.append(f"  draws: {s['draws']}")
    if s["events"]:
        lines.append("  events: " + ", ".join(f"{k} {v}" for k, v in s["events"].items()))
    return "\n".join(lines)
