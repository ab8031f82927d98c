"""Property tests: seeded hwatu games of every size conserve the 48 cards, stay legal, settle to zero,
undo exactly, and a player's view follows the real game."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cardset import FULL
from engine.hwatu.gostop_profile import GoStopProfile
from engine.hwatu.gostop_round import GoStopRound
from engine.hwatu.hato_profile import HatoProfile
from engine.hwatu.hato_round import HatoRound

HATO_PROFILES = [HatoProfile.load("hato"), HatoProfile.load("minhwatu")]
GOSTOP_PROFILES = [GoStopProfile.load("gostop"), GoStopProfile.load("matgo")]


def check_cards(r: HatoRound | GoStopRound) -> None:
    stock = r.stock[len(r.stock) - r.stock_left :] if r.stock is not None else ()
    union = 0
    for mask in [*r.hands, r.field, *r.captured, *(1 << c for c in stock)]:
        assert union & mask == 0, "a card in two places"
        union |= mask
    assert union == FULL, "a card went missing"
    if not r.is_over:
        moves = r.generate_legal_moves()
        assert moves, "a live hand always has a move"
        assert all(r.illegal_reason(m) is None for m in moves)


def hato_state(r: HatoRound) -> tuple:
    return (r.hands, r.hidden, r.field, r.captured, r.stock_left, r.turn, r.phase, r.result)


def gostop_state(r: GoStopRound) -> tuple:
    return (
        r.hands, r.hidden, r.field, r.captured, r.stock_left, r.turn, r.phase, r.go_order, r.go_base, r.shakes,
        r.bombs, r.dummies, r.ppeoks, r.stacks, r.pending, r.events, r.result,
    )


def play_and_undo(r, state_of, rng: random.Random) -> None:
    history = []
    while not r.is_over:
        check_cards(r)
        history.append(state_of(r))
        move = r.random_move(rng)
        assert move in r.legal_moves
        r.push(move)
    check_cards(r)
    assert r.result is not None and sum(r.result.net) == 0
    while r.move_stack:
        r.pop()
        assert state_of(r) == history.pop()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5), profile=st.sampled_from(HATO_PROFILES))
def test_hato_games_conserve_cards_settle_to_zero_and_undo(seed, players, profile):
    rng = random.Random(seed)
    r = HatoRound.shuffled(rng, players, profile, dealer=seed % players)
    play_and_undo(r, hato_state, rng)
    if r.result is not None and r.result.reason == "exhausted":
        assert sum(len(r.captures(p)) for p in range(players)) % 2 == 0  # captures come in pairs


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), profile=st.sampled_from(GOSTOP_PROFILES))
def test_gostop_games_conserve_cards_settle_to_zero_and_undo(seed, profile):
    rng = random.Random(seed)
    r = GoStopRound.shuffled(rng, profile, dealer=seed % profile.players, nagari=seed % 2)
    play_and_undo(r, gostop_state, rng)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), profile=st.sampled_from(GOSTOP_PROFILES))
def test_every_players_view_accepts_the_real_moves(seed, profile):
    rng = random.Random(seed)
    r = GoStopRound.shuffled(seed, profile)
    views = [r.view(p) for p in range(r.players)]
    while not r.is_over:
        move = r.random_move(rng)
        r.push(move)
        for view in views:
            view.push(move)  # raises if the view thinks the move impossible
            assert (view.field, view.captured, view.phase, view.turn) == (r.field, r.captured, r.phase, r.turn)
    assert all(view.result == r.result for view in views)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5), cut=st.integers(0, 30))
def test_sampled_worlds_play_to_the_end(seed, players, cut):
    rng = random.Random(seed)
    r = HatoRound.shuffled(rng, players)
    g = GoStopRound.shuffled(rng)
    for state in (r, g):
        for _ in range(cut):
            if state.is_over:
                break
            state.push(state.random_move(rng))
        if state.is_over:
            continue
        world = state.view(state.turn).sample_world(rng)
        check_cards(world)
        while not world.is_over:
            world.push(world.random_move(rng))
        assert world.result is not None and sum(world.result.net) == 0
