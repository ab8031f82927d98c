"""The shared sampled search, on a real game: a domino deal where one move is plainly worse."""

from __future__ import annotations

import functools
import random

import pytest

from engine.dominoes.moves import DominoMove
from engine.dominoes.round import DominoRound
from engine.montecarlo import SampledSearch


def _sample(view: DominoRound, rng: random.Random) -> DominoRound:
    return view.sample_world(rng)


def _play_out(world: DominoRound, move: DominoMove, rng: random.Random) -> float:
    me = world.turn
    world.push(move)
    while not world.is_over:
        world.push(world.random_move(rng))
    return -float(world.pips_so_far(me))


def _search(state: DominoRound, seed: int = 0) -> SampledSearch[DominoRound, DominoMove]:
    moves = list(state.legal_moves)
    return SampledSearch(moves, functools.partial(_sample, state.view(state.turn)), _play_out, seed)


def test_every_candidate_sees_the_same_worlds_and_the_ranking_is_sorted() -> None:
    state = DominoRound.shuffled(3, 4)
    search = _search(state)
    search.add_samples(30)
    ranked = search.ranked()
    assert search.samples == 30
    assert sorted(v.index for v in ranked) == list(range(len(search.moves)))
    assert [v.mean for v in ranked] == sorted((v.mean for v in ranked), reverse=True)
    assert all(search.moves[v.index] == v.move for v in ranked)
    assert all(v.stderr > 0 for v in ranked)  # payoffs vary between worlds


def test_same_seed_same_answer_and_the_state_is_untouched() -> None:
    state = DominoRound.shuffled(5, 4)
    before = repr(state)
    a, b = _search(state, seed=9), _search(state, seed=9)
    a.add_samples(10)
    b.add_samples(10)
    assert [(v.move, v.mean) for v in a.ranked()] == [(v.move, v.mean) for v in b.ranked()]
    assert repr(state) == before  # worlds are sampled copies


def test_a_forced_move_costs_no_play_outs() -> None:
    calls: list[int] = []

    def play_out(world: int, move: str, rng: random.Random) -> float:
        calls.append(1)
        return 0.0

    search: SampledSearch[int, str] = SampledSearch(["only"], lambda rng: 0, play_out)
    search.step(0.01)
    assert calls == [] and search.samples >= 1 and search.ranked()[0].move == "only"


def test_no_candidates_is_an_error() -> None:
    with pytest.raises(ValueError, match="at least one"):
        SampledSearch([], lambda rng: 0, lambda w, m, r: 0.0)
