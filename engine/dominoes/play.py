"""Driving domino deals and matches with bots, and the summary ``kibitz simulate`` prints."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from engine.bots import Bot
from engine.dominoes.match import DominoMatch
from engine.dominoes.moves import DominoMove
from engine.dominoes.profile import DominoProfile
from engine.dominoes.round import DominoRound
from engine.dominoes.settle import Settlement

MoveHook = Callable[[DominoRound, DominoMove, int], None]  # the state after the move, the move, who made it


def play_round(state: DominoRound, bots: Sequence[Bot], on_move: MoveHook | None = None) -> Settlement:
    """Let ``bots[p]`` move for player ``p`` until the deal is over."""
    while not state.is_over:
        player = state.turn
        move = bots[player].choose(state)
        state.push(move)
        if on_move is not None:
            on_move(state, move, player)
    assert state.result is not None
    return state.result


def play_match(match: DominoMatch, bots: Sequence[Bot], on_move: MoveHook | None = None) -> DominoMatch:
    while not match.is_over:
        state = match.new_round()
        play_round(state, bots, on_move)
        match.record(state)
    return match


def simulate(
    profile: DominoProfile, bots: Sequence[Bot], games: int, seed: int, rounds: int | None = None
) -> dict[str, Any]:
    """Play ``games`` matches, one bot per seat, rotating the seats every match so no bot keeps the lead."""
    n = len(bots)
    wins, points, pips, deals_led = [0] * n, [0] * n, [0] * n, [0] * n
    draws = deals = redeals = 0
    endings: Counter[str] = Counter()
    scored: Counter[str] = Counter()
    started = time.perf_counter()
    for game in range(games):
        bot_at = [(seat + game) % n for seat in range(n)]
        match = play_match(DominoMatch(profile, n, seed * 100_003 + game, rounds), [bots[b] for b in bot_at])
        for seat, b in enumerate(bot_at):
            points[b] += match.scores[seat]
        if match.ahead is None:
            draws += 1
        else:
            wins[bot_at[match.ahead]] += 1
        redeals += match.redeals
        for result in match.results:
            deals += 1
            endings[result.reason] += 1
            deals_led[bot_at[result.first]] += 1
            for seat, flags in enumerate(result.flags):
                scored.update(f"{bots[bot_at[seat]].name}: {flag}" for flag in flags)
                pips[bot_at[seat]] += result.pips[seat]
    return {
        "game": profile.game,
        "profile": profile.name,
        "variants": list(profile.variants),
        "players": n,
        "matches": games,
        "deals": deals,
        "redeals": redeals,
        "bots": [bot.name for bot in bots],
        "wins": wins,
        "draws": draws,
        "points_per_match": [round(p / games, 2) for p in points],
        "pips_per_deal": [round(p / max(deals, 1), 2) for p in pips],
        "deals_led": deals_led,
        "deal_endings": dict(endings.most_common()),
        "scored": dict(scored.most_common()),
        "seconds": round(time.perf_counter() - started, 3),
    }


def format_summary(s: dict[str, Any]) -> str:
    variants = f" + {', '.join(s['variants'])}" if s["variants"] else ""
    lines = [
        f"{s['matches']} {s['profile']}{variants} matches ({s['deals']} deals, {s['players']} players) "
        f"in {s['seconds']} s"
    ]
    for i, bot in enumerate(s["bots"]):
        lines.append(
            f"  {i + 1}. {bot:>8}: {s['wins'][i]} wins, {s['points_per_match'][i]} points a match, "
            f"{s['pips_per_deal'][i]} pips a deal"
        )
    lines.append(f"  draws: {s['draws']}; void deals dealt again: {s['redeals']}")
    lines.append("  deals ended: " + ", ".join(f"{k} {v}" for k, v in s["deal_endings"].items()))
    if s["scored"]:
        lines.append("  multipliers: " + ", ".join(f"{k} {v}" for k, v in s["scored"].items()))
    return "\n".join(lines)
