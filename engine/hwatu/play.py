"""Driving hwatu hands and matches with bots, and the summary ``kibitz simulate`` prints."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from engine.bots import Bot
from engine.hwatu.gostop_profile import GoStopProfile
from engine.hwatu.gostop_round import GoStopRound
from engine.hwatu.gostop_scoring import GoStopResult
from engine.hwatu.hato import HatoResult
from engine.hwatu.hato_profile import HatoProfile
from engine.hwatu.hato_round import HatoRound
from engine.hwatu.match import GoStopMatch, HatoMatch
from engine.moves import Move

AnyRound = HatoRound | GoStopRound
AnyMatch = HatoMatch | GoStopMatch
MoveHook = Callable[[AnyRound, Move, int], None]  # the state after the move, the move, who made it


def play_round(state: AnyRound, bots: Sequence[Bot], on_move: MoveHook | None = None) -> HatoResult | GoStopResult:
    """Let ``bots[p]`` move for player ``p`` until the hand is over."""
    while not state.is_over:
        player = state.turn
        move = bots[player].choose(state)
        state.push(move)
        if on_move is not None:
            on_move(state, move, player)
    assert state.result is not None
    return state.result


def play_match(match: AnyMatch, bots: Sequence[Bot], on_move: MoveHook | None = None) -> AnyMatch:
    while not match.is_over:
        state = match.new_round()
        play_round(state, bots, on_move)
        match.record(state)  # type: ignore[arg-type]
    return match


def simulate(
    profile: HatoProfile | GoStopProfile, bots: Sequence[Bot], games: int, seed: int, players: int = 0,
    rounds: int | None = None,
) -> dict[str, Any]:
    """Play ``games`` matches, rotating the seats every match so no bot keeps the first deal."""
    n = len(bots)
    wins = [0] * n
    points = [0] * n
    draws = 0
    endings: Counter[str] = Counter()
    scored: Counter[str] = Counter()
    events: Counter[str] = Counter()
    hands = patus = 0
    started = time.perf_counter()

    def count_events(state: AnyRound, move: Move, player: int) -> None:
        if isinstance(state, GoStopRound) and state.is_over:
            events.update(e.name for e in state.events)

    for game in range(games):
        bot_at = [(seat + game) % n for seat in range(n)]
        match_seed = seed * 100_003 + game
        match: AnyMatch
        if isinstance(profile, HatoProfile):
            match = HatoMatch(profile, players or n, match_seed, rounds)
        else:
            match = GoStopMatch(profile, match_seed, rounds)
        play_match(match, [bots[b] for b in bot_at], count_events)
        for seat, b in enumerate(bot_at):
            points[b] += match.scores[seat]
        if match.leader is None:
            draws += 1
        else:
            wins[bot_at[match.leader]] += 1
        hands += len(match.results)
        patus += match.patus
        for result in match.results:
            endings[result.reason] += 1
            scored.update(_scored_names(result))
    return {
        "game": "hato" if isinstance(profile, HatoProfile) else "gostop",
        "profile": profile.name,
        "players": n,
        "matches": games,
        "hands": hands,
        "patu": patus,
        "bots": [bot.name for bot in bots],
        "wins": wins,
        "draws": draws,
        "points_per_match": [round(p / games, 2) for p in points],
        "hand_endings": dict(endings.most_common()),
        "scored": dict(scored.most_common()),
        "events": dict(events.most_common()),
        "seconds": round(time.perf_counter() - started, 3),
    }


def _scored_names(result: HatoResult | GoStopResult) -> list[str]:
    """What a hand scored: Hato bonuses of every player, the Go-Stop winner's elements and multipliers."""
    if isinstance(result, HatoResult):
        return [b.name for mine in result.bonuses for b in mine]
    reasons = [r for payment in result.payments for r in payment.reasons]
    return [y.name for y in result.yaku] + list(result.multipliers) + reasons
