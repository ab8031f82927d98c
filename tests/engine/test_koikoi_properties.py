"""Property tests: any seeded game conserves the 48 cards, stays legal, and undoes exactly."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cardset import FULL
from engine.koikoi.profile import KoiKoiProfile
from engine.koikoi.round import KoiKoiRound

PROFILES = [KoiKoiProfile.load("default"), KoiKoiProfile.load("koikoi-japan")]


def check_invariants(r: KoiKoiRound) -> None:
    places = [*r.hands, r.field, *r.captured]
    stock = r.stock[len(r.stock) - r.stock_left :] if r.stock is not None else ()
    union = 0
    count = 0
    for mask in places:
        assert union & mask == 0, "a card in two places"
        union |= mask
        count += mask.bit_count()
    for card in stock:
        assert not union >> card & 1
        union |= 1 << card
    assert union == FULL and count + len(stock) == 48
    assert all(c.bit_count() % 2 == 0 for c in r.captured), "captures come in pairs"
    assert r.hand_size(0) - r.hand_size(1) in (0, 1, -1)
    if not r.is_over:
        assert r.generate_legal_moves(), "a live round always has a move"


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), profile=st.sampled_from(PROFILES), dealer=st.integers(0, 1))
def test_random_games_conserve_cards_stay_legal_and_pop_restores(seed, profile, dealer):
    rng = random.Random(seed)
    r = KoiKoiRound.shuffled(seed, profile, dealer)
    history = []
    while not r.is_over:
        check_invariants(r)
        history.append((r.hands, r.field, r.captured, r.stock_left, r.turn, r.phase, r.koikoi, r.best, r.result))
        moves = r.generate_legal_moves()
        r.push(moves[int(rng.random() * len(moves))])
    check_invariants(r)
    assert r.result is not None
    assert sum(r.result.points) == max(r.result.points)  # at most one player scores
    while r.move_stack:
        r.pop()
        assert (r.hands, r.field, r.captured, r.stock_left, r.turn, r.phase, r.koikoi, r.best, r.result) == history.pop()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_players_view_accepts_every_move_of_the_real_game(seed):
    """Driving the hidden-information view with the observed moves never fails and stays in step."""
    rng = random.Random(seed)
    r = KoiKoiRound.shuffled(seed)
    view = r.view(0)
    while not r.is_over:
        move = r.random_move(rng)
        assert move in view.legal_moves
        r.push(move)
        view.push(move)
        assert (view.field, view.captured, view.phase, view.turn) == (r.field, r.captured, r.phase, r.turn)
    assert view.result == r.result
