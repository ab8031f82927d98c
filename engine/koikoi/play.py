"""Driving rounds and matches with bots (simulate, demo, tests and benchmarks)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.bots import Bot
from engine.koikoi.match import KoiKoiMatch
from engine.koikoi.round import KoiKoiRound, RoundResult
from engine.moves import Move

MoveHook = Callable[[KoiKoiRound, Move, int], None]  # the state after the move, the move, who made it
RoundHook = Callable[[KoiKoiMatch, KoiKoiRound], None]


def play_round(state: KoiKoiRound, bots: Sequence[Bot], on_move: MoveHook | None = None) -> RoundResult:
    """Let ``bots[p]`` move for player ``p`` until the round is over. ``on_move`` sees each move
    after it was pushed."""
    while not state.is_over:
        player = state.turn
        move = bots[player].choose(state)
        state.push(move)
        if on_move is not None:
            on_move(state, move, player)
    assert state.result is not None
    return state.result


def play_match(
    match: KoiKoiMatch,
    bots: Sequence[Bot],
    on_move: MoveHook | None = None,
    on_round: RoundHook | None = None,
    on_deal: RoundHook | None = None,
) -> KoiKoiMatch:
    """Play every remaining round of ``match``; ``on_deal`` sees each new round, ``on_round`` each
    finished one once it is recorded."""
    while not match.is_over:
        state = match.new_round()
        if on_deal is not None:
            on_deal(match, state)
        play_round(state, bots, on_move)
        match.record(state)
        if on_round is not None:
            on_round(match, state)
    return match
